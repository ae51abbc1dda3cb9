/** Submitting jobs: the `jobs` row of a new job, idempotent replays, and one-active-job-per-kind. */
import { randomUUID } from 'node:crypto';
import { ErrorCodes } from '../../../src-shared/api/errors';
import { ApiError } from '../../http/problem';
import type { Db } from '../db/connection';
import type { Registration } from './execution';
import { addMs, inputsHashOf, toJob, type JobRow } from './store';
import type { EnqueueInput, Job } from './types';

/**
 * The job an idempotency key already started: the original job for the same inputs, null when
 * the key is new (or absent); 409 `IDEMPOTENCY_KEY_REUSED` for changed inputs.
 */
export function replayOf<I>(db: Db, kind: string, deploymentId: number | null, key: string | null, inputsHash: string): Job<I> | null {
  if (key === null) return null;
  const existing = db
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

/** What "same inputs" compares for an idempotent retry. */
export const idempotencyHashOf = (input: Pick<EnqueueInput, 'inputs' | 'idempotencyInputs'>): string =>
  inputsHashOf(input.idempotencyInputs === undefined ? input.inputs : input.idempotencyInputs);

/**
 * Inserts a QUEUED job (or returns the replayed one) in one immediate transaction. With
 * `exclusive`, refuses while another job of the kind is active in the deployment.
 */
export function insertJob<I>(db: Db, registration: Registration, input: EnqueueInput<I>, now: () => string): Job<I> {
  const inputsHash = idempotencyHashOf(input);
  const key = input.idempotencyKey ?? null;
  return db
    .transaction((): Job<I> => {
      const existing = replayOf<I>(db, input.kind, input.deploymentId, key, inputsHash);
      if (existing) return existing;
      if (input.exclusive) {
        const active = db
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
      const at = now();
      const fromCreation = registration.retentionFrom === 'created' && registration.retentionMs !== null;
      const row = db
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
          at,
          input.createdBy,
          at,
          fromCreation ? addMs(at, registration.retentionMs as number) : null,
        ) as JobRow;
      return toJob<I>(row);
    })
    .immediate();
}
