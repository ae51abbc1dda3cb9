import { listGroups, listPolicies } from '../../../../src-shared/api/access';
import { listUsers, type User } from '../../../../src-shared/api/identity';
import { api } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import { useQuery } from '../../lib/useQuery';

/** Every user (for owner names, member pickers); lists stop at 5000 entries. */
export function useAllUsers(key: unknown[] = []) {
  return useQuery((signal) => fetchAllPages((after) => api.call(listUsers, { query: { first: 1000, ...(after ? { after } : {}) }, signal })), key, 'Loading users');
}

export function useAllGroups(key: unknown[] = []) {
  return useQuery((signal) => fetchAllPages((after) => api.call(listGroups, { query: { first: 1000, ...(after ? { after } : {}) }, signal })), key, 'Loading groups');
}

export function useAllPolicies(key: unknown[] = []) {
  return useQuery((signal) => fetchAllPages((after) => api.call(listPolicies, { query: { first: 1000, ...(after ? { after } : {}) }, signal })), key, 'Loading policies');
}

export const byId = <T extends { id: number }>(items: readonly T[] | null | undefined): Map<number, T> => new Map((items ?? []).map((item) => [item.id, item]));

/** "Ada Lovelace <ada@example.com>" style label, or the bare id for users the page does not know. */
export const userLabel = (users: ReadonlyMap<number, User>, id: number): string => users.get(id)?.email ?? `user ${id}`;
