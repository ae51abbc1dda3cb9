/**
 * Where the renderer's typed client sends its calls: the local service (prefix ''), or a remote
 * profile's service through the local service's proxy (`/api/v1/profiles/{name}/proxy`). A small
 * module of its own so the session (which builds the client) and the profile switcher (which sets
 * the prefix) never import each other.
 */
let prefix = '';
const listeners = new Set<() => void>();

export const apiPrefix = (): string => prefix;

export function setApiPrefix(next: string): void {
  if (next === prefix) return;
  prefix = next;
  for (const listener of listeners) listener();
}

/**
 * Stores that cache data of the service (deployments, model files…) register here to forget it
 * when the header switches to another service; screens remount and fetch again on their own.
 */
export function onServiceChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const guards = new Set<() => string | null>();

/** Work that switching services would lose (unsaved editor buffers) says so here. */
export function registerLeaveGuard(guard: () => string | null): () => void {
  guards.add(guard);
  return () => guards.delete(guard);
}

/** What would be lost by switching now (empty: nothing). */
export const leaveWarnings = (): string[] => [...guards].map((guard) => guard()).filter((w): w is string => w !== null);
