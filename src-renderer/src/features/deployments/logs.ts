import type { ResponseOf } from '../../../../src-shared/api/contract';
import type { listDeploymentLogs } from '../../../../src-shared/api/deployments';

export type LogLine = ResponseOf<typeof listDeploymentLogs>['items'][number];

/**
 * Lines already shown plus lines just fetched (a refresh of the newest page, or an older page),
 * newest first, each once. Log ids grow with time, so the id orders them.
 */
export function mergeLogLines(shown: readonly LogLine[], fetched: readonly LogLine[]): LogLine[] {
  const byId = new Map<number, LogLine>();
  for (const line of shown) byId.set(line.id, line);
  for (const line of fetched) byId.set(line.id, line);
  return [...byId.values()].sort((a, b) => b.id - a.id);
}

/** `2025-03-01T09:04:05.123Z` → `09:04:05.123` (UTC, as the service logs); the date shows when it is not today. */
export function logTime(timestamp: string, today = new Date()): { time: string; date: string | null } {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return { time: timestamp, date: null };
  const iso = date.toISOString();
  const day = iso.slice(0, 10);
  return { time: iso.slice(11, 23), date: day === today.toISOString().slice(0, 10) ? null : day };
}
