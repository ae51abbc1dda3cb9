import { create } from 'zustand';

/** Client-side routes on the History API; the service answers every UI path with index.html. */
interface RouterState {
  path: string;
  navigate(path: string, options?: { replace?: boolean }): void;
}

/**
 * A screen with unsaved work can hold navigation: it gets the target and a `proceed` to call once
 * the user saved or discarded. Returns true when it holds the navigation (false lets it through).
 */
export type NavigationBlocker = (to: string, proceed: () => void) => boolean;
let blocker: NavigationBlocker | null = null;

/** Installs `fn` as the navigation blocker until the returned function is called. */
export function blockNavigation(fn: NavigationBlocker): () => void {
  blocker = fn;
  return () => {
    if (blocker === fn) blocker = null;
  };
}

function go(path: string, replace = false) {
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  useRouter.setState({ path });
}

export const useRouter = create<RouterState>(() => ({
  path: window.location.pathname,
  navigate(path, options = {}) {
    if (path === window.location.pathname) return;
    if (blocker?.(path, () => go(path, options.replace))) return;
    go(path, options.replace);
  },
}));

window.addEventListener('popstate', () => {
  const to = window.location.pathname;
  const from = useRouter.getState().path;
  // Back/forward already changed the address: put the screen's address back while the blocker asks.
  if (to !== from && blocker?.(to, () => go(to))) {
    window.history.pushState(null, '', from);
    return;
  }
  useRouter.setState({ path: to });
});

export const navigate = (path: string, options?: { replace?: boolean }) => useRouter.getState().navigate(path, options);

/** `/deployments/3/env` under `/deployments` → `['3', 'env']`; null when the path is elsewhere. */
export function subpathOf(path: string, base: string): string[] | null {
  if (path !== base && !path.startsWith(`${base}/`)) return null;
  return path.slice(base.length).split('/').filter(Boolean).map(decodeURIComponent);
}
