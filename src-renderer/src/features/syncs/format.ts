// Pure formatting helpers of the Syncs screen (no DOM, no API), shared by both tabs.

/** `abc1234` from a 40-digit commit id. */
export const shortCommit = (commit: string | null | undefined): string => (commit ? commit.slice(0, 7) : '—');
/** `9f3c…` shortening of opaque ids for tables. */
export const shortId = (id: string): string => id.replace(/-/g, '').slice(0, 8);

/** `850 ms`, `4.2 s`, `3 min 05 s`. */
export function durationText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds - minutes * 60);
  if (minutes < 60) return `${minutes} min ${String(rest).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** Milliseconds between two timestamps (the second defaults to now for running work). */
export function elapsedMs(from: string | null | undefined, to: string | null | undefined, now = Date.now()): number | null {
  if (!from) return null;
  const end = to ? Date.parse(to) : now;
  const start = Date.parse(from);
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, end - start) : null;
}
