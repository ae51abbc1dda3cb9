import type { RouteDef } from '../../../src-shared/api/contract';
import { ProfileErrorCodes } from '../../../src-shared/api/profiles';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { JobCancelledError, JobFailure, JobOutcome } from '../../platform/jobs';
import type { Remote } from './remote';
import { finishTransfer } from './transfers';

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
