/** Public types of the durable job runner. */

export const JOB_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job in one of these states never changes again (except being swept away). */
export const TERMINAL_STATUSES: readonly JobStatus[] = ['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'];
export const ACTIVE_STATUSES: readonly JobStatus[] = ['QUEUED', 'RUNNING', 'CANCELLING'];

export const isTerminal = (status: JobStatus): boolean => TERMINAL_STATUSES.includes(status);

export interface JobProgress {
  stage: string;
  /** 0–100. */
  percentComplete: number;
}

/** Why a job failed, as stored and as the API shows it. */
export interface JobErrorInfo {
  /** Stable UPPER_SNAKE code (e.g. `SQL_RUNNER_DDL_DISABLED`, `JOB_LEASE_EXPIRED`). */
  code: string;
  message: string;
  /** HTTP-like class of the failure when it maps onto one (403 for a permissions failure). */
  status?: number;
  /** Structured extras (the missing privilege, the failing statement, …). */
  details?: Record<string, unknown>;
}

export interface Job<I = unknown, R = unknown> {
  id: string;
  deploymentId: number | null;
  kind: string;
  inputs: I;
  inputsHash: string;
  idempotencyKey: string | null;
  status: JobStatus;
  progress: JobProgress;
  result: R | null;
  error: JobErrorInfo | null;
  /** Resume state a handler saved with `ctx.checkpoint()` (null until it saves one). */
  checkpoint: unknown;
  workflowId: string;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  heartbeatAt: string | null;
  cancelRequested: boolean;
  /** How many times a worker claimed the job. */
  attempts: number;
  maxAttempts: number;
  createdBy: number | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** When the retention sweep deletes the job (null: kept). */
  expiresAt: string | null;
}

export type JobLogLevel = 'info' | 'warn' | 'error';

export interface JobLogEntry {
  id: number;
  attempt: number;
  level: JobLogLevel;
  message: string;
  fields: Record<string, unknown> | null;
  createdAt: string;
}

/** What a handler gets besides the job itself. */
export interface JobContext {
  /** 1 on the first run; higher when the job is taken up again after its lease lapsed or a retry. */
  readonly attempt: number;
  /**
   * Aborted when cancellation is requested, when the runner shuts down (the job is handed to another
   * worker) or when this worker lost the lease. `signal.reason` is a `JobCancelledError`,
   * `JobShutdownError` or `JobLeaseLostError`; `signal.throwIfAborted()` throws it.
   */
  readonly signal: AbortSignal;
  /** Records the current stage and percentage (0–100) for pollers. */
  progress(stage: string, percentComplete: number): void;
  /** True once cancellation was requested (in this process or another). */
  isCancelRequested(): boolean;
  /** Saves resume state; a later attempt reads it from `job.checkpoint`. */
  checkpoint(value: unknown): void;
  /** Appends to the job's log (kept with the job, readable through `JobRunner.logs`). */
  log(message: string, fields?: Record<string, unknown>, level?: JobLogLevel): void;
}

/**
 * Lets timers and I/O run. Handlers whose awaits resolve without real I/O (an in-process
 * connector, a loop of synchronous work) call it between steps: otherwise heartbeats stall, the
 * lease lapses under a live worker and HTTP requests (progress polls) wait for the whole job.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * For a loop of synchronous pieces of work: the function it returns, awaited between two pieces,
 * gives the event loop a turn once `sliceMs` have passed since the last one.
 */
export function turnEvery(sliceMs: number): () => Promise<void> {
  let started = performance.now();
  return async () => {
    if (performance.now() - started <= sliceMs) return;
    await yieldToEventLoop();
    started = performance.now();
  };
}

export type JobHandler<I = unknown, R = unknown> = (job: Job<I, R>, ctx: JobContext) => Promise<R | JobOutcome<R>>;

export interface JobKindOptions {
  /** Jobs of this kind one process runs at once (default 4). */
  concurrency?: number;
  /** Claims allowed before a job whose lease keeps lapsing is FAILED (default 3). */
  maxAttempts?: number;
  /** How long a finished job is kept before the sweep deletes it (default 30 days; null keeps it). */
  retentionMs?: number | null;
  /** Count retention from submission instead of from the end (e.g. exports: "5 minutes after submission"). */
  retentionFrom?: 'finished' | 'created';
  /**
   * Whether a job whose worker died may run again (default true). A handler that cannot safely
   * repeat its side effects sets false: its job then FAILS when the lease lapses.
   */
  resumable?: boolean;
  /** Called before the sweep deletes an expired job (delete files it produced). Must be idempotent. */
  onExpire?: (job: Job) => void | Promise<void>;
}

export interface EnqueueInput<I = unknown> {
  kind: string;
  deploymentId: number | null;
  inputs: I;
  /** Same key + same inputs returns the original job; same key + other inputs is refused with 409. */
  idempotencyKey?: string | null;
  /**
   * What "same inputs" compares (default: `inputs`). Pass the caller's request when `inputs` also
   * holds values resolved at submission (a branch head, an author) that must not count.
   */
  idempotencyInputs?: unknown;
  createdBy: number | null;
  /**
   * Refuse to enqueue while another job of this kind is active in the deployment (409
   * `JOB_ALREADY_ACTIVE`), or with the error the function builds.
   */
  exclusive?: boolean | ((active: Job) => Error);
}

export interface JobFilter {
  deploymentId?: number;
  kinds?: string[];
  statuses?: JobStatus[];
  createdBy?: number;
}

export interface JobScope {
  deploymentId?: number;
  kinds?: string[];
}

/**
 * A handler's explicit ending. Returning a plain value means COMPLETED with that result; return
 * one of these to end PARTIAL, CANCELLED or FAILED while still recording a result.
 */
export class JobOutcome<R = unknown> {
  private constructor(
    readonly status: 'COMPLETED' | 'PARTIAL' | 'CANCELLED' | 'FAILED',
    readonly result: R | null,
    readonly error: JobErrorInfo | null,
  ) {}
  static completed<R>(result: R): JobOutcome<R> {
    return new JobOutcome('COMPLETED', result, null);
  }
  static partial<R>(result: R): JobOutcome<R> {
    return new JobOutcome('PARTIAL', result, null);
  }
  static cancelled<R>(result: R | null = null): JobOutcome<R> {
    return new JobOutcome('CANCELLED', result, null);
  }
  static failed<R>(error: JobErrorInfo, result: R | null = null): JobOutcome<R> {
    return new JobOutcome('FAILED', result, error);
  }
}

/** Thrown by a handler: the job FAILS with this code and message (and optional status class and details). */
export class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly options: { status?: number; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'JobFailure';
  }
}

/** Thrown by a handler for a transient failure: the job is queued again after `delayMs` while attempts remain. */
export class RetryableJobError extends Error {
  constructor(
    message: string,
    readonly options: { delayMs?: number; code?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RetryableJobError';
  }
}

/** `signal.reason` when cancellation was requested. */
export class JobCancelledError extends Error {
  constructor(readonly jobId: string) {
    super(`Job ${jobId} was cancelled.`);
    this.name = 'JobCancelledError';
  }
}

/** `signal.reason` when the runner shuts down: the job is released to another worker. */
export class JobShutdownError extends Error {
  constructor(readonly jobId: string) {
    super(`The job runner is shutting down; job ${jobId} is released to another worker.`);
    this.name = 'JobShutdownError';
  }
}

/** `signal.reason` when another worker took the job over (this worker stalled past its lease). */
export class JobLeaseLostError extends Error {
  constructor(readonly jobId: string) {
    super(`This worker lost the lease of job ${jobId}; another worker owns it now.`);
    this.name = 'JobLeaseLostError';
  }
}
