/** Retention of finished jobs: when a job expires, and the sweep that deletes expired ones. */
import type { Logger } from '../../context';
import type { Db } from '../db/connection';
import { addMs, toJob, type JobRow } from './store';
import { TERMINAL_STATUSES, type Job } from './types';

export const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * When a job that finishes at `finishedAt` expires: a fixed expiry set at submission wins
 * (retention counted from creation), else its kind's retention after the end (null: kept).
 */
export function expiryFor(row: Pick<JobRow, 'retention_ms' | 'expires_at'>, finishedAt: string): string | null {
  if (row.expires_at !== null) return row.expires_at;
  return row.retention_ms === null ? null : addMs(finishedAt, row.retention_ms);
}

/**
 * Deletes up to 500 finished jobs past their expiry, each after its kind's `onExpire` cleanup.
 * A job whose cleanup fails is kept for the next sweep. Returns how many were deleted.
 */
export async function sweepExpiredJobs(
  db: Db,
  now: string,
  onExpireOf: (kind: string) => ((job: Job) => void | Promise<void>) | undefined,
  log: Logger | undefined,
): Promise<number> {
  const rows = db
    .prepare(`SELECT * FROM jobs WHERE expires_at IS NOT NULL AND expires_at <= ? AND status IN (${TERMINAL_SQL}) LIMIT 500`)
    .all(now) as JobRow[];
  let deleted = 0;
  const remove = db.prepare('DELETE FROM jobs WHERE id = ? AND expires_at <= ?');
  for (const row of rows) {
    const onExpire = onExpireOf(row.kind);
    try {
      if (onExpire) await onExpire(toJob(row));
    } catch (error) {
      // Keep the row so the next sweep tries the cleanup again.
      log?.warn('job expiry cleanup failed; will retry', { jobId: row.id, error: (error as Error).message });
      continue;
    }
    deleted += remove.run(row.id, now).changes;
  }
  return deleted;
}
