import type { ServiceContext } from '../../context';
import { ApiError, notFound } from '../../http/problem';
import { newApiKey } from '../system/bootstrap';
import { sha256 } from '../../platform/tokens/tokens';

export interface UserRow {
  id: number;
  email: string;
  name: string;
  role: 'admin' | 'developer' | 'viewer';
  actions: string;
  active: number;
  settings: string;
  created_at: string;
  updated_at: string;
}

export const toUser = (row: UserRow) => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  active: row.active === 1,
  userPolicies: JSON.parse(row.actions) as string[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function getUserRow(ctx: ServiceContext, id: number): UserRow {
  const row = ctx.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  if (!row) throw notFound(`User ${id}`, 'USER_NOT_FOUND');
  return row;
}

/** Name and email of a user, for records that show an owner (null when the user is gone). */
export function userSummary(ctx: ServiceContext, id: number | null): { id: number; name: string; email: string } | null {
  if (id === null) return null;
  const row = ctx.db.prepare('SELECT id, name, email FROM users WHERE id = ?').get(id) as { id: number; name: string; email: string } | undefined;
  return row ?? null;
}

/** {@link userSummary} for several users in one query (a page of records that show an owner). */
export function userSummaries(ctx: ServiceContext, ids: readonly (number | null)[]): Map<number, { id: number; name: string; email: string }> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = ctx.db
    .prepare('SELECT id, name, email FROM users WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(wanted)) as { id: number; name: string; email: string }[];
  return new Map(rows.map((row) => [row.id, row]));
}

/** The last active admin cannot be removed or demoted: the tenant would be locked out. */
export function assertNotLastAdmin(ctx: ServiceContext, userId: number): void {
  const row = ctx.db.prepare("SELECT COUNT(*) AS n FROM users WHERE role = 'admin' AND active = 1 AND id != ?").get(userId) as { n: number };
  const target = getUserRow(ctx, userId);
  if (target.role === 'admin' && target.active === 1 && row.n === 0) {
    throw new ApiError(409, 'LAST_ADMIN', 'This is the last active admin; make another user admin first.');
  }
}

export interface ApiKeyRow {
  id: number;
  user_id: number;
  name: string;
  key_prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export const toApiKey = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.key_prefix,
  userId: row.user_id,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** Creates a key for a user; returns the secret once. Only its SHA-256 hash is stored. */
export function createApiKeyFor(ctx: ServiceContext, userId: number, name: string): { row: ApiKeyRow; token: string } {
  getUserRow(ctx, userId);
  const token = newApiKey();
  const now = ctx.clock.now().toISOString();
  const id = Number(
    ctx.db
      .prepare('INSERT INTO api_keys (user_id, name, key_hash, key_prefix, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(userId, name, sha256(token), token.slice(0, 8), now).lastInsertRowid,
  );
  const row = ctx.db.prepare('SELECT id, user_id, name, key_prefix, created_at, last_used_at FROM api_keys WHERE id = ?').get(id) as ApiKeyRow;
  return { row, token };
}
