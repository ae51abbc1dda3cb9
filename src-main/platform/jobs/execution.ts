/**
 * The jobs this process runs: starting a claimed job's handler, what the handler gets (signal,
 * progress, checkpoint, log), aborting it, and recording how it ended — finished, failed, queued
 * again for a retry, or handed back on shutdown.
 */
import type { Logger } from '../../context';
import { ApiError } from '../../http/problem';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { expiryFor } from './retention';
import { addMs, toJob, type JobRow } from './store';
import {
  JobCancelledError,
  JobFailure,
  JobLeaseLostError,
  JobOutcome,
  JobShutdownError,
  RetryableJobError,
  type Job,
  type JobContext,
  type JobErrorInfo,
  type JobHandler,
  type JobLogLevel,
} from './types';

/** How a kind was registered (see `JobKindOptions`, here with the defaults applied). */
export interface Registration {
  kind: string;
  handler: JobHandler<unknown, unknown>;
  concurrency: number;
  maxAttempts: number;
  retentionMs: number | null;
  retentionFrom: 'finished' | 'created';
  resumable: boolean;
  onExpire?: (job: Job) => void | Promise<void>;
}

export type AbortCause = 'cancel' | 'shutdown' | 'lease-lost';

export interface ActiveJob {
  id: string;
  kind: string;
  attempt: number;
  row: JobRow;
  controller: AbortController;
  abortCause: AbortCause | null;
  /** The job was handed back (shutdown) or taken over: the handler's ending is ignored. */
  detached: boolean;
  done: Promise<void>;
}

/** What a thrown error becomes in the job's `error`. */
export function jobErrorOf(error: unknown): JobErrorInfo {
  if (error instanceof JobFailure) {
    return {
      code: error.code,
      message: error.message,
      ...(error.options.status !== undefined ? { status: error.options.status } : {}),
      ...(error.options.details ? { details: error.options.details } : {}),
    };
  }
  if (error instanceof ApiError) {
    const details = { ...error.extras };
    return { code: error.code, message: error.detail, status: error.status, ...(Object.keys(details).length ? { details } : {}) };
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { code: typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : 'JOB_HANDLER_FAILED', message: error.message };
  }
  return { code: 'JOB_HANDLER_FAILED', message: String(error) };
}

export interface ExecutionEnv {
  db: Db;
  clock: Clock;
  log: Logger | undefined;
  owner: string;
  retryDelayMs: (attempt: number) => number;
  /** Tells listeners about a change of a job. */
  emit(job: Job): void;
  /** Whether anyone listens (a progress write reads the job back only for listeners). */
  hasListeners(): boolean;
  /** Called after a handler ended, whatever the outcome (the runner looks for more work). */
  settled(): void;
}

/** The handlers running in this process, by job id. */
export class RunningJobs {
  private readonly active = new Map<string, ActiveJob>();
  private readonly idleWaiters = new Set<() => void>();

  constructor(private readonly env: ExecutionEnv) {}

  get size(): number {
    return this.active.size;
  }

  get(id: string): ActiveJob | undefined {
    return this.active.get(id);
  }

  list(): ActiveJob[] {
    return [...this.active.values()];
  }

  ids(): string[] {
    return [...this.active.keys()];
  }

  countOf(kind: string): number {
    let n = 0;
    for (const job of this.active.values()) if (job.kind === kind) n++;
    return n;
  }

  /** Resolves when no handler of this process is running. */
  whenIdle(): Promise<void> {
    if (this.active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  /** Starts the handler of a job this worker just claimed. */
  launch(row: JobRow, registration: Registration): void {
    const controller = new AbortController();
    const active: ActiveJob = {
      id: row.id,
      kind: row.kind,
      attempt: row.attempts,
      row,
      controller,
      abortCause: null,
      detached: false,
      done: Promise.resolve(),
    };
    this.active.set(row.id, active);
    const job = toJob(row);
    this.env.emit(job);
    if (row.cancel_requested === 1) this.abort(active, 'cancel');
    const ctx = this.contextFor(active);
    active.done = (async () => {
      try {
        const value = await Promise.resolve().then(() => registration.handler(job, ctx));
        this.finishWith(active, value instanceof JobOutcome ? value : JobOutcome.completed(value));
      } catch (error) {
        this.finishWithError(active, error);
      } finally {
        this.active.delete(active.id);
        if (this.active.size === 0) {
          for (const resolve of this.idleWaiters) resolve();
          this.idleWaiters.clear();
        }
        this.env.settled();
      }
    })();
  }

  abort(active: ActiveJob, cause: AbortCause): void {
    if (active.controller.signal.aborted) {
      // A cancel outranks a shutdown that is already under way: the job must end CANCELLED.
      if (cause === 'cancel' && active.abortCause === 'shutdown') active.abortCause = 'cancel';
      return;
    }
    active.abortCause = cause;
    const reason =
      cause === 'cancel' ? new JobCancelledError(active.id) : cause === 'shutdown' ? new JobShutdownError(active.id) : new JobLeaseLostError(active.id);
    active.controller.abort(reason);
  }

  /** Hands a running job back: QUEUED for any worker (CANCELLED if cancellation was requested). */
  release(active: ActiveJob): void {
    if (active.detached) return;
    active.detached = true;
    const { db, clock, log, owner } = this.env;
    try {
      const now = clock.now().toISOString();
      const row = db
        .prepare(
          `UPDATE jobs SET
             status = CASE WHEN cancel_requested = 1 THEN 'CANCELLED' ELSE 'QUEUED' END,
             finished_at = CASE WHEN cancel_requested = 1 THEN ? ELSE finished_at END,
             expires_at = CASE WHEN cancel_requested = 1 THEN ? ELSE expires_at END,
             attempts = CASE WHEN cancel_requested = 1 THEN attempts ELSE MAX(attempts - 1, 0) END,
             available_at = ?, lease_owner = NULL, lease_expires_at = NULL
           WHERE id = ? AND lease_owner = ? RETURNING *`,
        )
        .get(now, expiryFor(active.row, now), now, active.id, owner) as JobRow | undefined;
      if (row) {
        log?.info(row.status === 'QUEUED' ? 'job released for another worker' : 'job cancelled during shutdown', { jobId: active.id });
        this.env.emit(toJob(row));
      }
    } catch (error) {
      log?.warn('could not release job; its lease will lapse instead', { jobId: active.id, error: (error as Error).message });
    }
  }

  private contextFor(active: ActiveJob): JobContext {
    const { db, clock, log, owner } = this.env;
    let lastProgress = '';
    const write = (sql: string, ...args: unknown[]): boolean => {
      if (active.detached) return false;
      try {
        const changed = db.prepare(sql).run(...args, active.id, owner).changes > 0;
        if (!changed) {
          active.detached = true;
          this.abort(active, 'lease-lost');
        }
        return changed;
      } catch (error) {
        // The database may be closing under a handler that ignored shutdown; nothing to record then.
        log?.warn('job write failed', { jobId: active.id, error: (error as Error).message });
        return false;
      }
    };
    return {
      attempt: active.attempt,
      signal: active.controller.signal,
      progress: (stage, percentComplete) => {
        const pct = Math.max(0, Math.min(100, Math.round(Number.isFinite(percentComplete) ? percentComplete : 0)));
        const progress = JSON.stringify({ stage, percentComplete: pct });
        if (progress === lastProgress) return;
        lastProgress = progress;
        if (write('UPDATE jobs SET progress = ? WHERE id = ? AND lease_owner = ?', progress) && this.env.hasListeners()) {
          const row = db.prepare('SELECT * FROM jobs WHERE id = ?').get(active.id) as JobRow | undefined;
          if (row) this.env.emit(toJob(row));
        }
      },
      isCancelRequested: () => {
        if (active.abortCause === 'cancel') return true;
        if (this.cancelFlag(active.id)) {
          this.abort(active, 'cancel');
          return true;
        }
        return false;
      },
      checkpoint: (value) => {
        write('UPDATE jobs SET checkpoint = ? WHERE id = ? AND lease_owner = ?', JSON.stringify(value ?? null));
      },
      log: (message, fields, level: JobLogLevel = 'info') => {
        if (active.detached) return;
        try {
          db.prepare('INSERT INTO job_logs (job_id, attempt, level, message, fields, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
            active.id,
            active.attempt,
            level,
            message,
            fields ? JSON.stringify(fields) : null,
            clock.now().toISOString(),
          );
        } catch (error) {
          log?.warn('job log write failed', { jobId: active.id, error: (error as Error).message });
        }
      },
    };
  }

  private finishWith(active: ActiveJob, outcome: JobOutcome<unknown>): void {
    if (active.detached) return;
    const now = this.env.clock.now().toISOString();
    const done = outcome.status === 'COMPLETED' || outcome.status === 'PARTIAL';
    const row = this.env.db
      .prepare(
        `UPDATE jobs SET status = ?, result = ?, error = ?, progress = CASE WHEN ? THEN ? ELSE progress END,
           finished_at = ?, expires_at = ?, lease_owner = NULL, lease_expires_at = NULL
         WHERE id = ? AND lease_owner = ? RETURNING *`,
      )
      .get(
        outcome.status,
        outcome.result === null || outcome.result === undefined ? null : JSON.stringify(outcome.result),
        outcome.error ? JSON.stringify(outcome.error) : null,
        done ? 1 : 0,
        JSON.stringify({ stage: outcome.status === 'PARTIAL' ? 'partial' : 'completed', percentComplete: 100 }),
        now,
        expiryFor(active.row, now),
        active.id,
        this.env.owner,
      ) as JobRow | undefined;
    active.detached = true;
    if (row) this.env.emit(toJob(row));
  }

  private finishWithError(active: ActiveJob, error: unknown): void {
    if (active.detached) return;
    const { db, clock, log, owner } = this.env;
    const cancelRequested = active.abortCause === 'cancel' || this.cancelFlag(active.id);
    if (cancelRequested) {
      this.finishWith(active, JobOutcome.cancelled());
      return;
    }
    if (active.abortCause === 'shutdown') {
      this.release(active);
      return;
    }
    if (error instanceof RetryableJobError && active.attempt < active.row.max_attempts) {
      const now = clock.now().toISOString();
      const delay = error.options.delayMs ?? this.env.retryDelayMs(active.attempt);
      const row = db
        .prepare(
          `UPDATE jobs SET status = 'QUEUED', available_at = ?, lease_owner = NULL, lease_expires_at = NULL
           WHERE id = ? AND lease_owner = ? RETURNING *`,
        )
        .get(addMs(now, delay), active.id, owner) as JobRow | undefined;
      active.detached = true;
      log?.warn('job failed transiently; queued again', { jobId: active.id, attempt: active.attempt, error: error.message });
      if (row) this.env.emit(toJob(row));
      return;
    }
    if (!(error instanceof JobFailure) && !(error instanceof ApiError) && !(error instanceof RetryableJobError)) {
      log?.error('job handler failed', { jobId: active.id, kind: active.kind, error: (error as Error)?.stack ?? String(error) });
    }
    const info = error instanceof RetryableJobError ? { code: error.options.code ?? 'JOB_RETRIES_EXHAUSTED', message: error.message } : jobErrorOf(error);
    this.finishWith(active, JobOutcome.failed(info));
  }

  /** Whether cancellation of the job was requested (in this process or another); false while the database closes. */
  private cancelFlag(id: string): boolean {
    try {
      const row = this.env.db.prepare('SELECT cancel_requested FROM jobs WHERE id = ?').get(id) as { cancel_requested: number } | undefined;
      return row?.cancel_requested === 1;
    } catch {
      return false;
    }
  }
}
