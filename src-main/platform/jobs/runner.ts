import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ErrorCodes } from '../../../src-shared/api/errors';
import type { Logger } from '../../context';
import { ApiError } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { addMs, inputsHashOf, toJob, toLogEntry, type JobLogRow, type JobRow } from './store';
import {
  JobCancelledError,
  JobFailure,
  JobLeaseLostError,
  JobOutcome,
  JobShutdownError,
  RetryableJobError,
  TERMINAL_STATUSES,
  isTerminal,
  type EnqueueInput,
  type Job,
  type JobContext,
  type JobErrorInfo,
  type JobFilter,
  type JobHandler,
  type JobKindOptions,
  type JobLogEntry,
  type JobLogLevel,
  type JobScope,
} from './types';

export interface JobRunnerOptions {
  db: Db;
  clock: Clock;
  log?: Logger;
  /** Identity of this worker in `lease_owner` (default host:pid:random). */
  owner?: string;
  /** How long a claim holds without a heartbeat (default 30 s). */
  leaseMs?: number;
  /** How often leases are renewed (default a third of the lease). */
  heartbeatMs?: number;
  /** How often the queue is polled for work other processes enqueued or released (default 250 ms). */
  pollMs?: number;
  /** How often expired jobs are swept (default 1 minute). */
  sweepMs?: number;
  /** How long `stop()` waits for handlers to observe the abort before releasing their jobs (default 2 s). */
  shutdownGraceMs?: number;
  /** Back-off before a retryable failure runs again (default 1 s × 2^(attempt-1), at most 1 minute). */
  retryDelayMs?: (attempt: number) => number;
}

interface Registration {
  kind: string;
  handler: JobHandler<unknown, unknown>;
  concurrency: number;
  maxAttempts: number;
  retentionMs: number | null;
  retentionFrom: 'finished' | 'created';
  resumable: boolean;
  onExpire?: (job: Job) => void | Promise<void>;
}

type AbortCause = 'cancel' | 'shutdown' | 'lease-lost';

interface ActiveJob {
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

const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ');

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

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

/**
 * The one mechanism for every long operation. Jobs live in the `jobs` table; a worker claims one
 * atomically with a lease it renews by heartbeat. A job whose lease lapses (its process died) is
 * taken up again by any worker, or FAILED once it used its attempts, so it is never lost and never
 * runs twice at once. Several processes may share one database.
 */
export class JobRunner {
  readonly owner: string;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly log: Logger | undefined;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly pollMs: number;
  private readonly sweepMs: number;
  private readonly shutdownGraceMs: number;
  private readonly retryDelayMs: (attempt: number) => number;
  private readonly kinds = new Map<string, Registration>();
  private readonly active = new Map<string, ActiveJob>();
  private readonly listeners = new Set<(job: Job) => void>();
  private readonly idleWaiters = new Set<() => void>();
  private timers: NodeJS.Timeout[] = [];
  private started = false;
  private stopping: Promise<void> | null = null;
  private kickScheduled = false;
  private sweeping: Promise<number> | null = null;

  constructor(options: JobRunnerOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.log = options.log;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.heartbeatMs = options.heartbeatMs ?? Math.max(10, Math.floor(this.leaseMs / 3));
    this.pollMs = options.pollMs ?? 250;
    this.sweepMs = options.sweepMs ?? 60_000;
    this.shutdownGraceMs = options.shutdownGraceMs ?? 2_000;
    this.retryDelayMs = options.retryDelayMs ?? ((attempt) => Math.min(60_000, 1000 * 2 ** Math.max(0, attempt - 1)));
  }

  // ---- registration and submission -----------------------------------------------------------

  /** Declares how to run jobs of `kind`. Every process sharing the database registers the same kinds. */
  register<I, R>(kind: string, handler: JobHandler<I, R>, options: JobKindOptions = {}): void {
    if (this.kinds.has(kind)) throw new Error(`Job kind "${kind}" is already registered.`);
    const concurrency = options.concurrency ?? 4;
    const maxAttempts = options.maxAttempts ?? 3;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`Job kind "${kind}": concurrency must be a positive integer.`);
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`Job kind "${kind}": maxAttempts must be a positive integer.`);
    this.kinds.set(kind, {
      kind,
      handler: handler as JobHandler<unknown, unknown>,
      concurrency,
      maxAttempts,
      retentionMs: options.retentionMs === undefined ? DEFAULT_RETENTION_MS : options.retentionMs,
      retentionFrom: options.retentionFrom ?? 'finished',
      resumable: options.resumable ?? true,
      ...(options.onExpire ? { onExpire: options.onExpire } : {}),
    });
    this.kick();
  }

  isRegistered(kind: string): boolean {
    return this.kinds.has(kind);
  }

  /**
   * Queues a job. With an idempotency key already used for this kind and deployment: the same
   * inputs return the original job (whatever its state); different inputs throw 409
   * `IDEMPOTENCY_KEY_REUSED`.
   */
  enqueue<I>(input: EnqueueInput<I>): Job<I> {
    const registration = this.kinds.get(input.kind);
    if (!registration) throw new Error(`Job kind "${input.kind}" is not registered.`);
    const inputsHash = inputsHashOf(input.idempotencyInputs === undefined ? input.inputs : input.idempotencyInputs);
    const key = input.idempotencyKey ?? null;
    const job = this.db
      .transaction((): Job<I> => {
        const existing = this.replayOf<I>(input.kind, input.deploymentId, key, inputsHash);
        if (existing) return existing;
        if (input.exclusive) {
          const active = this.db
            .prepare(
              `SELECT * FROM jobs WHERE kind = ? AND COALESCE(deployment_id, 0) = ? AND status IN ('QUEUED', 'RUNNING', 'CANCELLING')
               ORDER BY created_at LIMIT 1`,
            )
            .get(input.kind, input.deploymentId ?? 0) as JobRow | undefined;
          if (active) {
            if (typeof input.exclusive === 'function') throw input.exclusive(toJob(active));
            throw new ApiError(409, 'JOB_ALREADY_ACTIVE', `Job ${active.id} of this kind is still ${active.status}; wait for it to end or cancel it.`, {
              jobId: active.id,
            });
          }
        }
        const now = this.clock.now().toISOString();
        const fromCreation = registration.retentionFrom === 'created' && registration.retentionMs !== null;
        const row = this.db
          .prepare(
            `INSERT INTO jobs (id, deployment_id, kind, inputs, inputs_hash, idempotency_key, status, workflow_id, max_attempts,
               resumable, retention_ms, available_at, created_by, created_at, expires_at)
             VALUES (?, ?, ?, ?, ?, ?, 'QUEUED', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          )
          .get(
            randomUUID(),
            input.deploymentId,
            input.kind,
            JSON.stringify(input.inputs ?? null),
            inputsHash,
            key,
            `${input.kind}-${randomUUID()}`,
            registration.maxAttempts,
            registration.resumable ? 1 : 0,
            fromCreation ? null : registration.retentionMs,
            now,
            input.createdBy,
            now,
            fromCreation ? addMs(now, registration.retentionMs as number) : null,
          ) as JobRow;
        return toJob<I>(row);
      })
      .immediate();
    this.emit(job);
    this.kick();
    return job;
  }

  /**
   * The job an idempotent retry of `input` returns, without enqueueing: the original job for the
   * same key and inputs, null when the key is new (or absent); 409 `IDEMPOTENCY_KEY_REUSED` for
   * changed inputs. Lets a caller answer a replay before re-validating a request.
   */
  findReplay<I>(input: Pick<EnqueueInput<I>, 'kind' | 'deploymentId' | 'inputs' | 'idempotencyKey' | 'idempotencyInputs'>): Job<I> | null {
    const inputsHash = inputsHashOf(input.idempotencyInputs === undefined ? input.inputs : input.idempotencyInputs);
    return this.replayOf<I>(input.kind, input.deploymentId, input.idempotencyKey ?? null, inputsHash);
  }

  private replayOf<I>(kind: string, deploymentId: number | null, key: string | null, inputsHash: string): Job<I> | null {
    if (key === null) return null;
    const existing = this.db
      .prepare('SELECT * FROM jobs WHERE kind = ? AND COALESCE(deployment_id, 0) = ? AND idempotency_key = ?')
      .get(kind, deploymentId ?? 0, key) as JobRow | undefined;
    if (!existing) return null;
    if (existing.inputs_hash === inputsHash) return toJob<I>(existing);
    throw new ApiError(
      409,
      ErrorCodes.IDEMPOTENCY_KEY_REUSED,
      `The idempotency key ${key} was already used for job ${existing.id} with different inputs. ` +
        'Send a new idempotency key to start a job with changed inputs, or resend the original inputs to get the original job.',
      { jobId: existing.id },
    );
  }

  // ---- reading ----------------------------------------------------------------------------------

  /** The job, or null when it does not exist (or lies outside `scope`). */
  get<I = unknown, R = unknown>(id: string, scope: JobScope = {}): Job<I, R> | null {
    const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
    if (!row) return null;
    if (scope.deploymentId !== undefined && row.deployment_id !== scope.deploymentId) return null;
    if (scope.kinds && !scope.kinds.includes(row.kind)) return null;
    return toJob<I, R>(row);
  }

  /** Newest first, keyset-paginated. */
  list(filter: JobFilter = {}, page: PageRequest = {}): PageResult<Job> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.deploymentId !== undefined) {
      where.push('deployment_id = ?');
      args.push(filter.deploymentId);
    }
    if (filter.kinds) {
      if (filter.kinds.length === 0) return { items: [], pageInfo: { hasNextPage: false, endCursor: null } };
      where.push(`kind IN (${filter.kinds.map(() => '?').join(', ')})`);
      args.push(...filter.kinds);
    }
    if (filter.statuses) {
      if (filter.statuses.length === 0) return { items: [], pageInfo: { hasNextPage: false, endCursor: null } };
      where.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
      args.push(...filter.statuses);
    }
    if (filter.createdBy !== undefined) {
      where.push('created_by = ?');
      args.push(filter.createdBy);
    }
    const { limit, after } = pageWindow<[string, string]>(page);
    if (after !== null) {
      if (!Array.isArray(after) || after.length !== 2 || typeof after[0] !== 'string' || typeof after[1] !== 'string') {
        throw new ApiError(400, ErrorCodes.INVALID_CURSOR, 'The `after` cursor is not one this service issued.');
      }
      where.push('(created_at < ? OR (created_at = ? AND id < ?))');
      args.push(after[0], after[0], after[1]);
    }
    const rows = this.db
      .prepare(`SELECT * FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`)
      .all(...args, limit) as JobRow[];
    return toPage(rows, page, (row) => [row.created_at, row.id], (row) => toJob(row));
  }

  /** The job's log, oldest first. */
  logs(id: string, page: PageRequest = {}): PageResult<JobLogEntry> {
    const { limit, after } = pageWindow<number>(page);
    const rows = this.db
      .prepare('SELECT * FROM job_logs WHERE job_id = ? AND id > ? ORDER BY id LIMIT ?')
      .all(id, typeof after === 'number' ? after : 0, limit) as JobLogRow[];
    return toPage(rows, page, (row) => row.id, toLogEntry);
  }

  /** Calls `listener` with the job after every change this process makes (enqueue, progress, end). */
  onChange(listener: (job: Job) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the job once it is terminal (polling the table, so jobs of other processes too). */
  async wait<I = unknown, R = unknown>(id: string, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<Job<I, R>> {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    for (;;) {
      const job = this.get<I, R>(id);
      if (!job) throw new Error(`Job ${id} does not exist.`);
      if (isTerminal(job.status)) return job;
      if (Date.now() > deadline) throw new Error(`Job ${id} is still ${job.status} after ${options.timeoutMs ?? 60_000} ms.`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 10));
    }
  }

  // ---- cancellation -----------------------------------------------------------------------------

  /**
   * Requests cancellation. A QUEUED job is CANCELLED at once; a RUNNING one becomes CANCELLING and
   * its handler's signal aborts (in whichever process runs it, at that process's next heartbeat).
   * A job already ending or ended is returned unchanged. Null when the job does not exist.
   */
  requestCancel(id: string): Job | null {
    const row = this.db
      .transaction((): JobRow | null => {
        const current = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
        if (!current) return null;
        const now = this.clock.now().toISOString();
        if (current.status === 'QUEUED') {
          return this.db
            .prepare(
              `UPDATE jobs SET status = 'CANCELLED', cancel_requested = 1, finished_at = ?, expires_at = COALESCE(expires_at, ?),
                 lease_owner = NULL, lease_expires_at = NULL WHERE id = ? RETURNING *`,
            )
            .get(now, this.expiryFor(current, now), id) as JobRow;
        }
        if (current.status === 'RUNNING') {
          return this.db.prepare(`UPDATE jobs SET status = 'CANCELLING', cancel_requested = 1 WHERE id = ? RETURNING *`).get(id) as JobRow;
        }
        return current;
      })
      .immediate();
    if (!row) return null;
    const local = this.active.get(id);
    if (local && row.cancel_requested === 1) this.abort(local, 'cancel');
    const job = toJob(row);
    this.emit(job);
    return job;
  }

  // ---- lifecycle --------------------------------------------------------------------------------

  /** Starts polling, heartbeats and retention sweeps. */
  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    const every = (ms: number, fn: () => void) => {
      const timer = setInterval(() => {
        try {
          fn();
        } catch (error) {
          this.log?.error('job runner tick failed', { error: (error as Error).message });
        }
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.pollMs, () => this.poll());
    every(this.heartbeatMs, () => this.heartbeat());
    const sweepLogged = () =>
      void this.sweep().catch((error: Error) => this.log?.error('job retention sweep failed', { error: error.message }));
    every(this.sweepMs, sweepLogged);
    this.poll();
    sweepLogged();
  }

  /**
   * Stops taking work, aborts running handlers (reason `JobShutdownError`), waits up to the grace
   * period for them to end, then releases the leases of jobs still running so another process takes
   * them up at once (a released job does not use up an attempt).
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const timer of this.timers) clearInterval(timer);
      this.timers = [];
      for (const job of this.active.values()) this.abort(job, 'shutdown');
      if (this.active.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...this.active.values()].map((job) => job.done)),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, this.shutdownGraceMs))),
        ]);
        clearTimeout(timer);
      }
      for (const job of [...this.active.values()]) this.release(job);
      if (this.sweeping) await this.sweeping.catch(() => 0);
    })();
    return this.stopping;
  }

  /** Resolves when no handler of this process is running. */
  whenIdle(): Promise<void> {
    if (this.active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  /** Ids of the jobs this process is running now. */
  runningJobIds(): string[] {
    return [...this.active.keys()];
  }

  // ---- the worker loop (public so tests can drive it step by step) ------------------------------

  /**
   * Ends jobs whose lease lapsed and cannot run again, then claims as many runnable jobs as the
   * kinds' free capacity allows and starts their handlers. Returns how many it started.
   */
  poll(): number {
    if (this.stopping) return 0;
    // A cheap read first: most polls find nothing, and need not take the write lock.
    const now0 = this.clock.now().toISOString();
    const anything = this.db
      .prepare(
        `SELECT 1 FROM jobs WHERE (status = 'QUEUED' AND available_at <= ?)
           OR (status IN ('RUNNING', 'CANCELLING') AND lease_expires_at < ?) LIMIT 1`,
      )
      .get(now0, now0);
    if (!anything) return 0;
    let started = 0;
    const claimed = this.db
      .transaction((): JobRow[] => {
        const now = this.clock.now().toISOString();
        this.reapExpiredLeases(now);
        const rows: JobRow[] = [];
        const claim = this.db.prepare(
          `UPDATE jobs SET status = 'RUNNING', lease_owner = ?, lease_expires_at = ?, heartbeat_at = ?, attempts = attempts + 1,
             started_at = COALESCE(started_at, ?)
           WHERE id = (
             SELECT id FROM jobs
             WHERE kind = ? AND ((status = 'QUEUED' AND available_at <= ?) OR (status = 'RUNNING' AND lease_expires_at < ?))
             ORDER BY created_at, id LIMIT 1)
           RETURNING *`,
        );
        const leaseUntil = addMs(now, this.leaseMs);
        for (const registration of this.kinds.values()) {
          let free = registration.concurrency - this.countActive(registration.kind);
          while (free > 0) {
            const row = claim.get(this.owner, leaseUntil, now, now, registration.kind, now, now) as JobRow | undefined;
            if (!row) break;
            rows.push(row);
            free--;
          }
        }
        return rows;
      })
      .immediate();
    for (const row of claimed) {
      this.launch(row);
      started++;
    }
    return started;
  }

  /** Renews this worker's leases; aborts handlers whose job was cancelled elsewhere or taken over. */
  heartbeat(): void {
    if (this.active.size === 0) return;
    const now = this.clock.now().toISOString();
    const leaseUntil = addMs(now, this.leaseMs);
    const renew = this.db.prepare(
      'UPDATE jobs SET lease_expires_at = ?, heartbeat_at = ? WHERE id = ? AND lease_owner = ? RETURNING cancel_requested',
    );
    for (const job of [...this.active.values()]) {
      if (job.detached) continue;
      const row = renew.get(leaseUntil, now, job.id, this.owner) as { cancel_requested: number } | undefined;
      if (!row) {
        this.log?.warn('job lease lost; another worker owns the job now', { jobId: job.id });
        job.detached = true;
        this.abort(job, 'lease-lost');
      } else if (row.cancel_requested === 1) {
        this.abort(job, 'cancel');
      }
    }
  }

  /** Deletes finished jobs past their retention (after their kind's `onExpire`). Returns how many. */
  sweep(): Promise<number> {
    if (this.sweeping) return this.sweeping;
    const tracked: Promise<number> = this.sweepOnce().finally(() => {
      if (this.sweeping === tracked) this.sweeping = null;
    });
    this.sweeping = tracked;
    return tracked;
  }

  // ---- internals ------------------------------------------------------------------------------

  private async sweepOnce(): Promise<number> {
    const now = this.clock.now().toISOString();
    const rows = this.db
      .prepare(`SELECT * FROM jobs WHERE expires_at IS NOT NULL AND expires_at <= ? AND status IN (${TERMINAL_SQL}) LIMIT 500`)
      .all(now) as JobRow[];
    let deleted = 0;
    const remove = this.db.prepare('DELETE FROM jobs WHERE id = ? AND expires_at <= ?');
    for (const row of rows) {
      const onExpire = this.kinds.get(row.kind)?.onExpire;
      try {
        if (onExpire) await onExpire(toJob(row));
      } catch (error) {
        // Keep the row so the next sweep tries the cleanup again.
        this.log?.warn('job expiry cleanup failed; will retry', { jobId: row.id, error: (error as Error).message });
        continue;
      }
      deleted += remove.run(row.id, now).changes;
    }
    return deleted;
  }

  private countActive(kind: string): number {
    let n = 0;
    for (const job of this.active.values()) if (job.kind === kind) n++;
    return n;
  }

  private expiryFor(row: Pick<JobRow, 'retention_ms' | 'expires_at'>, finishedAt: string): string | null {
    if (row.expires_at !== null) return row.expires_at;
    return row.retention_ms === null ? null : addMs(finishedAt, row.retention_ms);
  }

  /** Jobs whose worker vanished and that may not run again end here, whoever registered their kind. */
  private reapExpiredLeases(now: string): void {
    const stale = this.db
      .prepare(
        `SELECT * FROM jobs WHERE status IN ('RUNNING', 'CANCELLING') AND lease_expires_at < ?
           AND (status = 'CANCELLING' OR attempts >= max_attempts OR resumable = 0)`,
      )
      .all(now) as JobRow[];
    const end = this.db.prepare(
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
      const updated = end.get(
        cancelled ? 'CANCELLED' : 'FAILED',
        error ? JSON.stringify(error) : null,
        now,
        this.expiryFor(row, now),
        row.id,
        now,
      ) as JobRow | undefined;
      if (updated) {
        this.log?.warn(cancelled ? 'job cancelled after its worker vanished' : 'job failed: lease expired', { jobId: row.id, kind: row.kind });
        this.emit(toJob(updated));
      }
    }
  }

  private launch(row: JobRow): void {
    const registration = this.kinds.get(row.kind)!;
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
    this.emit(job);
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
        this.kick();
      }
    })();
  }

  private contextFor(active: ActiveJob): JobContext {
    let lastProgress = '';
    const write = (sql: string, ...args: unknown[]): boolean => {
      if (active.detached) return false;
      try {
        const changed = this.db.prepare(sql).run(...args, active.id, this.owner).changes > 0;
        if (!changed) {
          active.detached = true;
          this.abort(active, 'lease-lost');
        }
        return changed;
      } catch (error) {
        // The database may be closing under a handler that ignored shutdown; nothing to record then.
        this.log?.warn('job write failed', { jobId: active.id, error: (error as Error).message });
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
        if (write('UPDATE jobs SET progress = ? WHERE id = ? AND lease_owner = ?', progress) && this.listeners.size > 0) {
          const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(active.id) as JobRow | undefined;
          if (row) this.emit(toJob(row));
        }
      },
      isCancelRequested: () => {
        if (active.abortCause === 'cancel') return true;
        try {
          const row = this.db.prepare('SELECT cancel_requested FROM jobs WHERE id = ?').get(active.id) as { cancel_requested: number } | undefined;
          if (row?.cancel_requested === 1) {
            this.abort(active, 'cancel');
            return true;
          }
        } catch {
          /* database closing: treat as not cancelled */
        }
        return false;
      },
      checkpoint: (value) => {
        write('UPDATE jobs SET checkpoint = ? WHERE id = ? AND lease_owner = ?', JSON.stringify(value ?? null));
      },
      log: (message, fields, level: JobLogLevel = 'info') => {
        if (active.detached) return;
        try {
          this.db
            .prepare('INSERT INTO job_logs (job_id, attempt, level, message, fields, created_at) VALUES (?, ?, ?, ?, ?, ?)')
            .run(active.id, active.attempt, level, message, fields ? JSON.stringify(fields) : null, this.clock.now().toISOString());
        } catch (error) {
          this.log?.warn('job log write failed', { jobId: active.id, error: (error as Error).message });
        }
      },
    };
  }

  private abort(active: ActiveJob, cause: AbortCause): void {
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

  private finishWith(active: ActiveJob, outcome: JobOutcome<unknown>): void {
    if (active.detached) return;
    const now = this.clock.now().toISOString();
    const done = outcome.status === 'COMPLETED' || outcome.status === 'PARTIAL';
    const row = this.db
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
        this.expiryFor(active.row, now),
        active.id,
        this.owner,
      ) as JobRow | undefined;
    active.detached = true;
    if (row) this.emit(toJob(row));
  }

  private finishWithError(active: ActiveJob, error: unknown): void {
    if (active.detached) return;
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
      const now = this.clock.now().toISOString();
      const delay = error.options.delayMs ?? this.retryDelayMs(active.attempt);
      const row = this.db
        .prepare(
          `UPDATE jobs SET status = 'QUEUED', available_at = ?, lease_owner = NULL, lease_expires_at = NULL
           WHERE id = ? AND lease_owner = ? RETURNING *`,
        )
        .get(addMs(now, delay), active.id, this.owner) as JobRow | undefined;
      active.detached = true;
      this.log?.warn('job failed transiently; queued again', { jobId: active.id, attempt: active.attempt, error: error.message });
      if (row) this.emit(toJob(row));
      return;
    }
    if (!(error instanceof JobFailure) && !(error instanceof ApiError) && !(error instanceof RetryableJobError)) {
      this.log?.error('job handler failed', { jobId: active.id, kind: active.kind, error: (error as Error)?.stack ?? String(error) });
    }
    const info = error instanceof RetryableJobError ? { code: error.options.code ?? 'JOB_RETRIES_EXHAUSTED', message: error.message } : jobErrorOf(error);
    this.finishWith(active, JobOutcome.failed(info));
  }

  private cancelFlag(id: string): boolean {
    try {
      const row = this.db.prepare('SELECT cancel_requested FROM jobs WHERE id = ?').get(id) as { cancel_requested: number } | undefined;
      return row?.cancel_requested === 1;
    } catch {
      return false;
    }
  }

  /** Hands a running job back: QUEUED for any worker (CANCELLED if cancellation was requested). */
  private release(active: ActiveJob): void {
    if (active.detached) return;
    active.detached = true;
    try {
      const now = this.clock.now().toISOString();
      const row = this.db
        .prepare(
          `UPDATE jobs SET
             status = CASE WHEN cancel_requested = 1 THEN 'CANCELLED' ELSE 'QUEUED' END,
             finished_at = CASE WHEN cancel_requested = 1 THEN ? ELSE finished_at END,
             expires_at = CASE WHEN cancel_requested = 1 THEN ? ELSE expires_at END,
             attempts = CASE WHEN cancel_requested = 1 THEN attempts ELSE MAX(attempts - 1, 0) END,
             available_at = ?, lease_owner = NULL, lease_expires_at = NULL
           WHERE id = ? AND lease_owner = ? RETURNING *`,
        )
        .get(now, this.expiryFor(active.row, now), now, active.id, this.owner) as JobRow | undefined;
      if (row) {
        this.log?.info(row.status === 'QUEUED' ? 'job released for another worker' : 'job cancelled during shutdown', { jobId: active.id });
        this.emit(toJob(row));
      }
    } catch (error) {
      this.log?.warn('could not release job; its lease will lapse instead', { jobId: active.id, error: (error as Error).message });
    }
  }

  private emit(job: Job): void {
    for (const listener of this.listeners) {
      try {
        listener(job);
      } catch (error) {
        this.log?.warn('job listener failed', { error: (error as Error).message });
      }
    }
  }

  /** Polls soon (on the next turn) when the runner was started, so new work starts without waiting for the timer. */
  private kick(): void {
    if (!this.started || this.stopping || this.kickScheduled) return;
    this.kickScheduled = true;
    setImmediate(() => {
      this.kickScheduled = false;
      try {
        this.poll();
      } catch (error) {
        this.log?.error('job runner poll failed', { error: (error as Error).message });
      }
    });
  }
}

