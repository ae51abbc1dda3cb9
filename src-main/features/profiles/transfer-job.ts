import type { RouteDef } from '../../../src-shared/api/contract';
import { ProfileErrorCodes } from '../../../src-shared/api/profiles';
import type { RemoteTransfer } from '../../../src-shared/api/remote-transfers';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { getJobRunner, JobCancelledError, JobFailure, JobOutcome } from '../../platform/jobs';
import type { Remote } from './remote';
import { finishTransfer, insertTransfer, requireTransferRow, transferView, type NewTransfer } from './transfers';

/** Time allowed to undo what a failed transfer wrote on the remote (its own budget: the job's signal may be aborted). */
const UNDO_TIMEOUT_MS = 30_000;
export const undoTimeout = (): AbortSignal => AbortSignal.timeout(UNDO_TIMEOUT_MS);

/**
 * Whether the remote serves an operation, as its spec said at the last connection test. Unknown
 * (never tested, or the test failed before reading the spec) counts as served: the call itself
 * then says what went wrong.
 */
export function serves(remote: Remote, operationId: string): boolean {
  const check = remote.profile.lastCheck;
  if (!check || check.operationIds.length === 0) return true;
  return check.operationIds.includes(operationId);
}

/** 422 `PROFILE_OPERATION_NOT_SERVED` naming what the remote lacks. */
export function assertServed(remote: Remote, defs: RouteDef[]): void {
  const missing = defs.filter((def) => !serves(remote, def.operationId)).map((def) => def.operationId);
  if (missing.length === 0) return;
  const version = remote.profile.lastCheck?.specVersion;
  throw new ApiError(
    422,
    ProfileErrorCodes.PROFILE_OPERATION_NOT_SERVED,
    `Profile "${remote.name}"${version ? ` (interface version ${version})` : ''} does not serve ${missing.join(', ')}, which this needs.`,
    { profile: remote.name, missingOperations: missing },
  );
}

/**
 * The end of a transfer that did not complete: its row gets the reason and whether the remote
 * was put back; the job ends CANCELLED (cancel requested) or FAILED.
 */
export function endTransferWith(ctx: ServiceContext, id: string, error: unknown, signal: AbortSignal, rolledBack: boolean | null): JobOutcome<unknown> {
  const undone =
    rolledBack === null ? '' : rolledBack ? ' What it had written on the remote was undone.' : ' What it had written on the remote could NOT be undone: check the remote.';
  if (signal.aborted && signal.reason instanceof JobCancelledError) {
    const message = `Cancelled.${undone}`;
    finishTransfer(ctx, id, 'CANCELLED', { error_code: 'CANCELLED', error_message: message, rolled_back: rolledBack === null ? null : rolledBack ? 1 : 0 });
    return JobOutcome.cancelled();
  }
  let code = 'TRANSFER_FAILED';
  let message = error instanceof Error ? error.message : String(error);
  if (signal.aborted) {
    code = 'TRANSFER_INTERRUPTED';
    message = 'The service stopped while the transfer ran.';
  } else if (error instanceof JobFailure) {
    code = error.code;
  } else if (error instanceof ApiError) {
    code = error.code;
    message = error.detail;
  }
  message += undone;
  finishTransfer(ctx, id, 'FAILED', { error_code: code, error_message: message, rolled_back: rolledBack === null ? null : rolledBack ? 1 : 0 });
  return JobOutcome.failed({ code, message });
}

/** The transfer an earlier start with the same idempotency key (or the same inputs, still running) made, if any. */
export function replayedTransfer(ctx: ServiceContext, kind: string, deploymentId: number, identity: Record<string, unknown>, idempotencyKey: string | undefined): RemoteTransfer | undefined {
  const replay = getJobRunner(ctx).findReplay({ kind, deploymentId, inputs: identity, idempotencyKey, idempotencyInputs: identity });
  return replay ? transferView(ctx, requireTransferRow(ctx, replay.id)) : undefined;
}

/**
 * Enqueues the job of a transfer and records its history row in one go: what every transfer
 * records about the remote and who started it, plus `row` (what this kind of transfer moves).
 */
export function enqueueTransfer(
  ctx: ServiceContext,
  principal: Principal,
  remote: Remote,
  job: { kind: string; deploymentId: number; inputs: unknown; identity: Record<string, unknown>; idempotencyKey: string | undefined },
  row: Omit<NewTransfer, 'id' | 'profile_name' | 'remote_base_url' | 'remote_spec_version' | 'source_deployment_id' | 'idempotency_key' | 'created_by'>,
): RemoteTransfer {
  const { kind, deploymentId, inputs, identity, idempotencyKey } = job;
  const enqueued = getJobRunner(ctx).enqueue({ kind, deploymentId, inputs, idempotencyKey, idempotencyInputs: identity, createdBy: principal.userId });
  const inserted = insertTransfer(ctx, {
    ...row,
    id: enqueued.id,
    profile_name: remote.name,
    remote_base_url: remote.baseUrl,
    remote_spec_version: remote.profile.lastCheck?.specVersion ?? null,
    source_deployment_id: deploymentId,
    idempotency_key: idempotencyKey ?? null,
    created_by: principal.userId,
  });
  return transferView(ctx, inserted);
}
