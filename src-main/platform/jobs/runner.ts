import type { Logger } from '../../context';
import type { PageRequest, PageResult } from '../../http/pagination';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { RunningJobs, type Registration } from './execution';
import { anythingToClaim, claimJobs, markLostWorkers, othersHoldJobs, reapExpiredLeases, renewLease } from './leases';
import { isOwnerKnownDead, newOwnerId } from './owners';
import { getJob, jobLogs, listJobs } from './queries';
import { DEFAULT_RETENTION_MS, expiryFor, sweepExpiredJobs } from './retention';
import { toJob, type JobRow } from './store';
import { idempotencyHashOf, insertJob, replayOf } from './submission';
import { isTerminal, type EnqueueInput, type Job, type JobFilter, type JobHandler, type JobKindOptions, type JobLogEntry, type JobScope } from './types';

export { jobErrorOf } from './execution';

export interface JobRunnerOptions {
  db: Db;
  clock: Clock;
  log?: Logger;
  /** Identity of this worker in `lease_owner` (default `w1:pid:boot:random@host`, which lets a restart see its predecessor died). */
  owner?: string;
  /** Whether a lease owner's process certainly ended (default: same host, and an earlier boot or a pid that is gone). */
  isOwnerDead?: (owner: string) => boolean;
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

/**
 * The one mechanism for every long operation. Jobs live in the `jobs` table; a worker claims one
 * atomically with a lease it renews by heartbeat. A job whose lease lapses (its process died) is
 * taken up again by any worker, or FAILED once it used its attempts, so it is never lost and never
 * runs twice at once. Several processes may share one database.
 *
 * This class is the front: submission (`submission.ts`), reading (`queries.ts`), leases
 * (`leases.ts`), running handlers (`execution.ts`) and retention (`retention.ts`) live beside it.
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
  private readonly isOwnerDead: (owner: string) => boolean;
  private readonly kinds = new Map<string, Registration>();
  private readonly running: RunningJobs;
  private readonly listeners = new Set<(job: Job) => void>();
  private timers: NodeJS.Timeout[] = [];
  private started = false;
  private stopping: Promise<void> | null = null;
  private kickScheduled = false;
  private sweeping: Promise<number> | null = null;

  constructor(options: JobRunnerOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.log = options.log;
    this.owner = options.owner ?? newOwnerId();
    this.isOwnerDead = options.isOwnerDead ?? isOwnerKnownDead;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.heartbeatMs = options.heartbeatMs ?? Math.max(10, Math.floor(this.leaseMs / 3));
    this.pollMs = options.pollMs ?? 250;
    this.sweepMs = options.sweepMs ?? 60_000;
    this.shutdownGraceMs = options.shutdownGraceMs ?? 2_000;
    this.running = new RunningJobs({
      db: this.db,
      clock: this.clock,
      log: this.log,
      owner: this.owner,
      retryDelayMs: options.retryDelayMs ?? ((attempt) => Math.min(60_000, 1000 * 2 ** Math.max(0, attempt - 1))),
      emit: (job) => this.emit(job),
      hasListeners: () => this.listeners.size > 0,
      settled: () => this.kick(),
    });
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
    const job = insertJob(this.db, registration, input, () => this.clock.now().toISOString());
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
    return replayOf<I>(this.db, input.kind, input.deploymentId, input.idempotencyKey ?? null, idempotencyHashOf(input));
  }

  // ---- reading ----------------------------------------------------------------------------------

  /** The job, or null when it does not exist (or lies outside `scope`). */
  get<I = unknown, R = unknown>(id: string, scope: JobScope = {}): Job<I, R> | null {
    return getJob<I, R>(this.db, id, scope);
  }

  /** Newest first, keyset-paginated. */
  list(filter: JobFilter = {}, page: PageRequest = {}): PageResult<Job> {
    return listJobs(this.db, filter, page);
  }

  /** The job's log, oldest first. */
  logs(id: string, page: PageRequest = {}): PageResult<JobLogEntry> {
    return jobLogs(this.db, id, page);
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
            .get(now, expiryFor(current, now), id) as JobRow;
        }
        if (current.status === 'RUNNING') {
          return this.db.prepare(`UPDATE jobs SET status = 'CANCELLING', cancel_requested = 1 WHERE id = ? RETURNING *`).get(id) as JobRow;
        }
        return current;
      })
      .immediate();
    if (!row) return null;
    const local = this.running.get(id);
    if (local && row.cancel_requested === 1) this.running.abort(local, 'cancel');
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
    every(this.sweepMs, () => {
      this.recoverLostWorkers();
      sweepLogged();
    });
    // After a crash, the jobs the dead process held resume now rather than when their leases lapse.
    this.recoverLostWorkers();
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
      for (const job of this.running.list()) this.running.abort(job, 'shutdown');
      if (this.running.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled(this.running.list().map((job) => job.done)),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, this.shutdownGraceMs))),
        ]);
        clearTimeout(timer);
      }
      for (const job of this.running.list()) this.running.release(job);
      if (this.sweeping) await this.sweeping.catch(() => 0);
    })();
    return this.stopping;
  }

  /** Resolves when no handler of this process is running. */
  whenIdle(): Promise<void> {
    return this.running.whenIdle();
  }

  /** Ids of the jobs this process is running now. */
  runningJobIds(): string[] {
    return this.running.ids();
  }

  // ---- the worker loop (public so tests can drive it step by step) ------------------------------

  /**
   * Ends jobs whose lease lapsed and cannot run again, then claims as many runnable jobs as the
   * kinds' free capacity allows and starts their handlers. Returns how many it started.
   */
  poll(): number {
    if (this.stopping) return 0;
    if (!anythingToClaim(this.db, this.clock.now().toISOString())) return 0;
    const claimed = this.db
      .transaction((): JobRow[] => {
        const now = this.clock.now().toISOString();
        markLostWorkers(this.db, this.owner, now, this.isOwnerDead, this.log);
        reapExpiredLeases(this.db, now, (job) => this.emit(job), this.log);
        const kinds = [...this.kinds.values()].map((r) => ({ kind: r.kind, free: r.concurrency - this.running.countOf(r.kind) }));
        return claimJobs(this.db, this.owner, now, this.leaseMs, kinds);
      })
      .immediate();
    for (const row of claimed) this.running.launch(row, this.kinds.get(row.kind)!);
    return claimed.length;
  }

  /** Renews this worker's leases; aborts handlers whose job was cancelled elsewhere or taken over. */
  heartbeat(): void {
    if (this.running.size === 0) return;
    const now = this.clock.now().toISOString();
    for (const job of this.running.list()) {
      if (job.detached) continue;
      const renewed = renewLease(this.db, this.owner, job.id, now, this.leaseMs);
      if (renewed === 'lost') {
        this.log?.warn('job lease lost; another worker owns the job now', { jobId: job.id });
        job.detached = true;
        this.running.abort(job, 'lease-lost');
      } else if (renewed.cancelRequested) {
        this.running.abort(job, 'cancel');
      }
    }
  }

  /**
   * Ends the leases of jobs whose worker is known dead (a crashed earlier process of this host) and
   * marks every job whose worker is lost "worker lost, resuming". Returns how many it marked.
   */
  recoverLostWorkers(): number {
    if (this.stopping || !othersHoldJobs(this.db, this.owner)) return 0;
    return this.db.transaction(() => markLostWorkers(this.db, this.owner, this.clock.now().toISOString(), this.isOwnerDead, this.log)).immediate();
  }

  /** Deletes finished jobs past their retention (after their kind's `onExpire`). Returns how many. */
  sweep(): Promise<number> {
    if (this.sweeping) return this.sweeping;
    const tracked: Promise<number> = sweepExpiredJobs(this.db, this.clock.now().toISOString(), (kind) => this.kinds.get(kind)?.onExpire, this.log).finally(
      () => {
        if (this.sweeping === tracked) this.sweeping = null;
      },
    );
    this.sweeping = tracked;
    return tracked;
  }

  // ---- internals ------------------------------------------------------------------------------

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
