import type { User } from '../../../../src-shared/api/identity';
import { plural } from '../../lib/plural';

export type BulkAction = 'ACTIVATE' | 'DEACTIVATE' | 'DELETE';

export const BULK_VERBS: Record<BulkAction, { verb: string; past: string }> = {
  ACTIVATE: { verb: 'Activate', past: 'activated' },
  DEACTIVATE: { verb: 'Deactivate', past: 'deactivated' },
  DELETE: { verb: 'Delete', past: 'deleted' },
};

export interface BulkReport {
  action: BulkAction;
  succeeded: { userId: number; label: string }[];
  failed: { userId: number; label: string; code: string; detail: string }[];
  /** One line for the banner: "2 users deactivated; 1 failed." */
  summary: string;
}


/**
 * The service's per-user outcome of a bulk call, with each user named (email when known, since
 * the ids alone mean nothing to the reader). Users unknown to the page keep their id.
 */
export function bulkReport(
  action: BulkAction,
  result: { succeeded: number[]; failed: { userId: number; code: string; detail: string }[] },
  known: ReadonlyMap<number, Pick<User, 'email' | 'name'>>,
): BulkReport {
  const label = (id: number) => known.get(id)?.email ?? `user ${id}`;
  const succeeded = result.succeeded.map((userId) => ({ userId, label: label(userId) }));
  const failed = result.failed.map((f) => ({ ...f, label: label(f.userId) }));
  const parts: string[] = [];
  if (succeeded.length > 0 || failed.length === 0) parts.push(`${plural(succeeded.length, 'user')} ${BULK_VERBS[action].past}`);
  if (failed.length > 0) parts.push(`${plural(failed.length, 'user')} could not be ${BULK_VERBS[action].past}`);
  return { action, succeeded, failed, summary: `${parts.join('; ')}.` };
}
