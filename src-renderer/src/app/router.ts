import { create } from 'zustand';

/** Client-side routes on the History API; the service answers every UI path with index.html. */
interface RouterState {
  path: string;
  navigate(path: string, options?: { replace?: boolean }): void;
}

export const useRouter = create<RouterState>((set) => ({
  path: window.location.pathname,
  navigate(path, options = {}) {
    if (path === window.location.pathname) return;
    if (options.replace) window.history.replaceState(null, '', path);
    else window.history.pushState(null, '', path);
    set({ path });
  },
}));

window.addEventListener('popstate', () => useRouter.setState({ path: window.location.pathname }));

export const navigate = (path: string, options?: { replace?: boolean }) => useRouter.getState().navigate(path, options);

/** `/deployments/3/env` under `/deployments` → `['3', 'env']`; null when the path is elsewhere. */
export function subpathOf(path: string, base: string): string[] | null {
  if (path !== base && !path.startsWith(`${base}/`)) return null;
  return path.slice(base.length).split('/').filter(Boolean).map(decodeURIComponent);
}
