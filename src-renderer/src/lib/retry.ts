// Retry of a failed job, whatever its kind (issue 14 item 8): the rules every kind shares. Each
// kind decides in its own feature whether its request can be replayed (features/syncs/retry.ts,
// features/deployments/task-runs.ts); lib/RetryControl.tsx draws the button.

/** A job that ended without doing all it was asked: worth a retry. */
const RETRYABLE = new Set(['FAILED', 'CANCELLED', 'PARTIAL']);

export const offersRetry = (status: string): boolean => RETRYABLE.has(status);

/** The request to send again, or the plain reason shown on the disabled Retry button. */
export type Replay<T> = { ok: true; body: T } | { ok: false; reason: string };

/** A random UUID for idempotency keys (same key on a retried click returns the same job). */
export const newIdempotencyKey = (): string => crypto.randomUUID();
