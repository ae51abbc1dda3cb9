import type { Policy } from '../../../../src-shared/api/access';

/**
 * A group's policies are stored on the policies (`groupIds`). Choosing a group's policies in the
 * group's form therefore becomes one `PUT policy` per policy whose attachment changes, each with
 * its full new `groupIds` list (the service replaces the list).
 */
export function attachmentChanges(policies: readonly Pick<Policy, 'id' | 'groupIds'>[], groupId: number, wanted: ReadonlySet<number>): { policyId: number; groupIds: number[] }[] {
  const changes: { policyId: number; groupIds: number[] }[] = [];
  for (const policy of policies) {
    const attached = policy.groupIds.includes(groupId);
    if (attached === wanted.has(policy.id)) continue;
    const groupIds = attached ? policy.groupIds.filter((id) => id !== groupId) : [...policy.groupIds, groupId];
    changes.push({ policyId: policy.id, groupIds });
  }
  return changes;
}

/** Ids of the policies attached to a group. */
export const policiesOfGroup = (policies: readonly Pick<Policy, 'id' | 'groupIds'>[], groupId: number): Set<number> =>
  new Set(policies.filter((p) => p.groupIds.includes(groupId)).map((p) => p.id));

/** `nullable text` inputs: blank becomes null (the service's "no description"). */
export const blankToNull = (text: string): string | null => (text.trim() === '' ? null : text.trim());
