/**
 * Leases: how a worker claims a job, keeps it by heartbeat, and what happens to a job whose worker
 * stopped renewing its lease. Plain functions over the `jobs` table, so several processes sharing
 * one database agree through SQLite alone.
 */
import type { Logger } from '../../context';
import type { Db } from '../db/connection';
import { RESUMED_STAGE, WORKER_LOST_STAGE } from './owners';
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
       started_at = COALESCE(started_at, ?),
       progress = CASE WHEN json_extract(progress, '$.stage') = '${WORKER_LOST_STAGE}' THEN json_set(progress, '$.stage', '${RESUMED_STAGE}') ELSE progress END
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

/**
 * Jobs whose worker is gone show it: their lease ends now (when the owner is known dead, instead of
 * when it would have lapsed) and their stage reads "worker lost, resuming" until a worker takes
 * them up again or the reaper ends them. Each gets a warning in its log. Returns how many.
 * Run inside the caller's immediate transaction.
 */
/** Cheap read: does another worker hold any job? Most ticks find none and take no write lock. */
export function othersHoldJobs(db: Db, self: string): boolean {
  return (
    db.prepare(`SELECT 1 FROM jobs WHERE status IN ('RUNNING', 'CANCELLING') AND lease_owner IS NOT NULL AND lease_owner <> ? LIMIT 1`).get(self) !==
    undefined
  );
}

export function markLostWorkers(db: Db, self: string, now: string, isKnownDead: (owner: string) => boolean, log: Logger | undefined): number {
  const held = db
    .prepare(
      `SELECT id, status, attempts, max_attempts, resumable, lease_owner, lease_expires_at, progress FROM jobs
       WHERE status IN ('RUNNING', 'CANCELLING') AND lease_owner IS NOT NULL AND lease_owner <> ?`,
    )
    .all(self) as Pick<JobRow, 'id' | 'status' | 'attempts' | 'max_attempts' | 'resumable' | 'lease_owner' | 'lease_expires_at' | 'progress'>[];
  const mark = db.prepare(`UPDATE jobs SET lease_expires_at = ?, progress = ? WHERE id = ? AND lease_owner = ?`);
  const note = db.prepare('INSERT INTO job_logs (job_id, attempt, level, message, fields, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  let marked = 0;
  for (const row of held) {
    const lapsed = row.lease_expires_at !== null && row.lease_expires_at < now;
    const dead = !lapsed && isKnownDead(row.lease_owner!);
    if (!lapsed && !dead) continue;
    const progress = JSON.parse(row.progress) as { stage: string; percentComplete: number };
    // Already marked (a lapsed lease we or another worker shortened); a dead owner's live lease is always ended.
    if (lapsed && progress.stage === WORKER_LOST_STAGE) continue;
    // Only a job that will run again says "resuming"; the reaper ends the others with their reason.
    const resumes = row.status === 'RUNNING' && row.resumable === 1 && row.attempts < row.max_attempts;
    if (!dead && !resumes) continue;
    const leaseEnds = dead ? addMs(now, -1) : row.lease_expires_at!;
    mark.run(leaseEnds, resumes ? JSON.stringify({ ...progress, stage: WORKER_LOST_STAGE }) : row.progress, row.id, row.lease_owner);
    const reason = dead ? 'its process ended' : 'it stopped renewing its lease';
    note.run(row.id, row.attempts, 'warn', `Worker lost (${reason})${resumes ? '; resuming' : ''}`, JSON.stringify({ leaseOwner: row.lease_owner, stage: progress.stage }), now);
    log?.warn('job worker lost; resuming', { jobId: row.id, leaseOwner: row.lease_owner, reason });
    marked++;
  }
  return marked;
}
