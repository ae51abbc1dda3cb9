import type { ProfileCheck } from '../../../src-shared/api/profiles';

/**
 * Operations of `required` the active service does not serve, as its spec said when the header
 * connected to it. None for the local service (no check), or when the spec listed nothing (unknown).
 */
export function missingOperations(required: readonly string[], check: Pick<ProfileCheck, 'operationIds'> | null): string[] {
  if (!check || check.operationIds.length === 0) return [];
  const served = new Set(check.operationIds);
  return required.filter((id) => !served.has(id));
}
