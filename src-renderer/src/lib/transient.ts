// Reads that may fail for a moment (the service busy, restarting or out of reach): which failures
// are worth another try, and a bounded retry with back-off for them. A refusal (403), a missing
// resource (404) or a rejected request (4xx) answers the same the next time: never retried.
import { ApiProblem } from '../../../src-shared/api/client';

/**
 * A failure that may not happen again: the service out of reach (status 0), a timeout (408, or
 * the fetch's `TimeoutError`), too many requests (429) or a server error (5xx).
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ApiProblem) return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
  return error instanceof Error && error.name === 'TimeoutError';
}

export interface RetryOptions {
  /** Tries in all, the first included (default 4). */
  attempts?: number;
  /** Wait before the first retry, doubled for each one after (default 500 ms). */
  baseDelayMs?: number;
  /** Longest wait between two tries (default 4 s). */
  maxDelayMs?: number;
  /** Which failures are tried again (default: `isTransient`). */
  retryOn?: (error: unknown) => boolean;
  /** Called before each wait: the try that failed (1 = the first), its failure and the wait. */
  onRetry?: (attempt: number, error: unknown, delayMs: number) => void;
  /** Waits `ms` (tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `read()`, tried again after a transient failure with exponential back-off (500 ms, 1 s, 2 s by
 * default: about 3.5 s in all); the last failure, or the first that is not transient, is thrown.
 */
export async function withRetry<T>(read: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 4);
  const base = options.baseDelayMs ?? 500;
  const max = options.maxDelayMs ?? 4000;
  const retryOn = options.retryOn ?? isTransient;
  const sleep = options.sleep ?? wait;
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= attempts || !retryOn(error)) throw error;
      const delay = Math.min(max, base * 2 ** (attempt - 1));
      options.onRetry?.(attempt, error, delay);
      await sleep(delay);
    }
  }
}
