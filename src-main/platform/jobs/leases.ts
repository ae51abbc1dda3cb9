/**
 * Leases: how a worker claims a job, keeps it by heartbeat, and what happens to a job whose worker
 * stopped renewing its lease. Plain functions over the `jobs` table, so several processes sharing
 * one database agree through SQLite alone.
 */
import type { Logger } from '../../context';
import type { Db } from '../db/connection';
import { expiryFor } from './retention';
import { addMs, toJob, type JobRow } from './store';
import type { Job, JobErrorInfo } from './types';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A cheap read: is any job runnable or any lease lapsed? Most polls find nothing and need not take the write lock. */
export function anythingToClaim(db: Db, now: string): boolean {
  const row = db
    .prepare(
      `SELECT 1 FROM jobs WHERE (status = 'QUEUED' AND available_at <= ?)
         OR (status IN ('RUNNING', 'CANCELLING') AND lease_expires_at < ?) LIMIT 1`,
    )
    .get(now, now);
  return row !== undefined;
}

export interface ClaimableKind {
  kind: string;
  /** How many more jobs of this kind this worker may start now. */
  free: number;
}

/**
 * Claims, oldest first, up to each kind's free capacity: queued jobs whose time has come and
 * running jobs whose lease lapsed (taken over). Every claim counts an attempt. Run inside the
 * caller's immediate transaction.
 */
export function claimJobs(db: Db, owner: string, now: string, leaseMs: number, kinds: ClaimableKind[]): JobRow[] {
  const rows: JobRow[] = [];
  const claim = db.prepare(
    `UPDATE jobs SET status = 'RUNNING', lease_owner = ?, lease_expires_at = ?, heartbeat_at = ?, attempts = attempts + 1,
       started_at = COALESCE(started_at, ?)
     WHERE id = (
       SELECT id FROM jobs
       WHERE kind = ? AND ((status = 'QUEUED' AND available_at <= ?) OR (status = 'RUNNING' AND lease_expires_at < ?))
       ORDER BY created_at, id LIMIT 1)
     RETURNING *`,
  );
  const leaseUntil = addMs(now, leaseMs);
  for (const { kind, free: capacity } of kinds) {
    let free = capacity;
    while (free > 0) {
      const row = claim.get(owner, leaseUntil, now, now, kind, now, now) as JobRow | undefined;
      if (!row) break;
      rows.push(row);
      free--;
    }
  }
  return rows;
}

/**
 * Renews one lease this worker holds. Returns whether cancellation was requested meanwhile, or
 * 'lost' when another worker owns the job now.
 */
export function renewLease(db: Db, owner: string, jobId: string, now: string, leaseMs: number): 'lost' | { cancelRequested: boolean } {
  const row = db
    .prepare('UPDATE jobs SET lease_expires_at = ?, heartbeat_at = ? WHERE id = ? AND lease_owner = ? RETURNING cancel_requested')
    .get(addMs(now, leaseMs), now, jobId, owner) as { cancel_requested: number } | undefined;
  return row ? { cancelRequested: row.cancel_requested === 1 } : 'lost';
}

/**
 * Ends jobs whose worker vanished and that may not run again, whoever registered their kind: a
 * job being cancelled becomes CANCELLED; one out of attempts, or of a kind that is not
 * resumable, FAILS with `JOB_LEASE_EXPIRED`. Calls `emit` with each job it ended.
 */
export function reapExpiredLeases(db: Db, now: string, emit: (job: Job) => void, log: Logger | undefined): void {
  const stale = db
    .prepare(
      `SELECT * FROM jobs WHERE status IN ('RUNNING', 'CANCELLING') AND lease_expires_at < ?
         AND (status = 'CANCELLING' OR attempts >= max_attempts OR resumable = 0)`,
    )
    .all(now) as JobRow[];
  const end = db.prepare(
    `UPDATE jobs SET status = ?, error = ?, finished_at = ?, expires_at = ?, lease_owner = NULL, lease_expires_at = NULL
     WHERE id = ? AND lease_expires_at < ? RETURNING *`,
  );
  for (const row of stale) {
    const cancelled = row.status === 'CANCELLING';
    const error: JobErrorInfo | null = cancelled
      ? null
      : {
          code: 'JOB_LEASE_EXPIRED',
          message:
            row.resumable === 1
              ? `lease expired after ${plural(row.attempts, 'attempt')}: the worker running the job stopped responding each time`
              : `lease expired after ${plural(row.attempts, 'attempt')}: the worker running the job stopped, and jobs of kind ${row.kind} are not resumable`,
          details: { attempts: row.attempts, lastLeaseOwner: row.lease_owner },
        };
    const updated = end.get(cancelled ? 'CANCELLED' : 'FAILED', error ? JSON.stringify(error) : null, now, expiryFor(row, now), row.id, now) as
      | JobRow
      | undefined;
    if (updated) {
      log?.warn(cancelled ? 'job cancelled after its worker vanished' : 'job failed: lease expired', { jobId: row.id, kind: row.kind });
      emit(toJob(updated));
    }
  }
}
