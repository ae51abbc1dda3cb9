import {
  DEFAULT_EMBED_TENANT_SETTINGS,
  type EmbedGroup,
  type EmbedTenant,
  type EmbedTenantSettings,
  type EmbedUser,
} from '../../../src-shared/api/embed';
import type { ServiceContext } from '../../context';
import { ApiError, conflict, notFound } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { ensureEmbedTenant, listEmbedTenants, requireEmbedTenant, type EmbedTenantRow } from '../embed';

// ---- tenants and their profile -----------------------------------------------------------------

interface ProfileRow {
  display_name: string | null;
  settings: string;
}

export function embedTenantSettings(ctx: ServiceContext, tenantName: string): EmbedTenantSettings {
  const row = ctx.db.prepare('SELECT display_name, settings FROM embed_tenant_profiles WHERE tenant_name = ?').get(tenantName) as ProfileRow | undefined;
  const stored = row ? (JSON.parse(row.settings) as Partial<EmbedTenantSettings>) : {};
  return {
    enableDashboardComments:
      typeof stored.enableDashboardComments === 'boolean' ? stored.enableDashboardComments : DEFAULT_EMBED_TENANT_SETTINGS.enableDashboardComments,
  };
}

function toTenant(ctx: ServiceContext, row: EmbedTenantRow): EmbedTenant {
  const profile = ctx.db.prepare('SELECT display_name, settings FROM embed_tenant_profiles WHERE tenant_name = ?').get(row.name) as ProfileRow | undefined;
  const count = (table: 'embed_users' | 'embed_groups') =>
    (ctx.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE tenant_name = ?`).get(row.name) as { n: number }).n;
  return {
    name: row.name,
    displayName: profile?.display_name ?? row.display_name,
    settings: embedTenantSettings(ctx, row.name),
    userCount: count('embed_users'),
    groupCount: count('embed_groups'),
    createdAt: row.created_at,
  };
}

export function listTenants(ctx: ServiceContext, page: PageRequest): PageResult<EmbedTenant> {
  const { limit, after } = pageWindow<string>(page);
  return toPage(listEmbedTenants(ctx, after, limit), page, (row) => row.name, (row) => toTenant(ctx, row));
}

export const getTenant = (ctx: ServiceContext, name: string): EmbedTenant => toTenant(ctx, requireEmbedTenant(ctx, name));

export interface TenantProfileInput {
  displayName?: string | null;
  settings?: Partial<EmbedTenantSettings>;
}

/** Creates the tenant if needed and merges what the embedding app says about it. */
export function upsertTenantProfile(ctx: ServiceContext, name: string, profile: TenantProfileInput = {}): EmbedTenant {
  return ctx.db.transaction(() => {
    const tenant = ensureEmbedTenant(ctx, name, profile.displayName ?? null);
    const current = ctx.db.prepare('SELECT display_name, settings FROM embed_tenant_profiles WHERE tenant_name = ?').get(name) as ProfileRow | undefined;
    const displayName = profile.displayName !== undefined ? profile.displayName : (current?.display_name ?? tenant.display_name);
    const settings = { ...(current ? (JSON.parse(current.settings) as Record<string, unknown>) : {}) };
    for (const [key, value] of Object.entries(profile.settings ?? {})) if (value !== undefined) settings[key] = value;
    ctx.db
      .prepare(
        `INSERT INTO embed_tenant_profiles (tenant_name, display_name, settings, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (tenant_name) DO UPDATE SET display_name = excluded.display_name, settings = excluded.settings, updated_at = excluded.updated_at`,
      )
      .run(name, displayName, JSON.stringify(settings), ctx.clock.now().toISOString());
    return getTenant(ctx, name);
  })();
}

// ---- embed users ------------------------------------------------------------------------------

interface UserRow {
  id: number;
  tenant_name: string;
  external_id: string;
  email: string | null;
  name: string | null;
  created_at: string;
  last_session_at: string | null;
}

export const EMBED_USER_NOT_FOUND = 'EMBED_USER_NOT_FOUND';

function toUser(ctx: ServiceContext, row: UserRow): EmbedUser {
  const groups = ctx.db
    .prepare('SELECT g.name FROM embed_groups g JOIN embed_group_members m ON m.group_id = g.id WHERE m.embed_user_id = ? ORDER BY g.name')
    .all(row.id) as { name: string }[];
  return {
    id: row.id,
    embedTenantName: row.tenant_name,
    externalId: row.external_id,
    email: row.email,
    name: row.name,
    groups: groups.map((g) => g.name),
    createdAt: row.created_at,
    lastSessionAt: row.last_session_at,
  };
}

export function listTenantUsers(ctx: ServiceContext, tenantName: string, page: PageRequest): PageResult<EmbedUser> {
  requireEmbedTenant(ctx, tenantName);
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db
    .prepare('SELECT * FROM embed_users WHERE tenant_name = ? AND id > ? ORDER BY id LIMIT ?')
    .all(tenantName, after ?? 0, limit) as UserRow[];
  return toPage(rows, page, (r) => r.id, (r) => toUser(ctx, r));
}

/** The embed user of a tenant (null when unknown or of another tenant). */
export function findEmbedUser(ctx: ServiceContext, tenantName: string, id: number): EmbedUser | null {
  const row = ctx.db.prepare('SELECT * FROM embed_users WHERE id = ? AND tenant_name = ?').get(id, tenantName) as UserRow | undefined;
  return row ? toUser(ctx, row) : null;
}

/** Users of a tenant by search on name or email, for mentions. */
/** Users of a tenant matching `search` (name, email or external id), by id after `afterId` (keyset), at most `limit`. */
export function searchTenantUsers(
  ctx: ServiceContext,
  tenantName: string,
  search: string | undefined,
  afterId = 0,
  limit = -1,
): EmbedUser[] {
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = ctx.db
    .prepare(
      `SELECT * FROM embed_users WHERE tenant_name = ? AND id > ?
         AND (? IS NULL OR name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' OR external_id LIKE ? ESCAPE '\\')
       ORDER BY id LIMIT ?`,
    )
    .all(tenantName, afterId, pattern, pattern, pattern, pattern, limit) as UserRow[];
  return rows.map((r) => toUser(ctx, r));
}

/** Creates or refreshes the user the embedding app names; returns its id. */
export function upsertEmbedUser(ctx: ServiceContext, tenantName: string, input: { externalId: string; email?: string | null; name?: string | null }): number {
  const now = ctx.clock.now().toISOString();
  const row = ctx.db
    .prepare(
      `INSERT INTO embed_users (tenant_name, external_id, email, name, created_at, last_session_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_name, external_id) DO UPDATE SET
         email = COALESCE(excluded.email, embed_users.email), name = COALESCE(excluded.name, embed_users.name), last_session_at = excluded.last_session_at
       RETURNING id`,
    )
    .get(tenantName, input.externalId, input.email ?? null, input.name ?? null, now, now) as { id: number };
  return row.id;
}

// ---- embed groups -----------------------------------------------------------------------------

interface GroupRow {
  id: number;
  tenant_name: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export const EMBED_GROUP_NOT_FOUND = 'EMBED_GROUP_NOT_FOUND';

function toGroup(ctx: ServiceContext, row: GroupRow): EmbedGroup {
  const count = ctx.db.prepare('SELECT COUNT(*) AS n FROM embed_group_members WHERE group_id = ?').get(row.id) as { n: number };
  return {
    id: row.id,
    embedTenantName: row.tenant_name,
    name: row.name,
    description: row.description,
    userCount: count.n,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function groupRow(ctx: ServiceContext, tenantName: string, id: number): GroupRow {
  requireEmbedTenant(ctx, tenantName);
  const row = ctx.db.prepare('SELECT * FROM embed_groups WHERE id = ? AND tenant_name = ?').get(id, tenantName) as GroupRow | undefined;
  if (!row) throw notFound(`Embed group ${id} of tenant "${tenantName}"`, EMBED_GROUP_NOT_FOUND);
  return row;
}

const isUnique = (error: unknown) => error instanceof Error && error.message.includes('UNIQUE');
const groupNameTaken = (tenantName: string, name: string) =>
  conflict('EMBED_GROUP_NAME_TAKEN', `Embed tenant "${tenantName}" already has a group named "${name}".`);

export function listGroups(ctx: ServiceContext, tenantName: string, page: PageRequest): PageResult<EmbedGroup> {
  requireEmbedTenant(ctx, tenantName);
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db
    .prepare('SELECT * FROM embed_groups WHERE tenant_name = ? AND id > ? ORDER BY id LIMIT ?')
    .all(tenantName, after ?? 0, limit) as GroupRow[];
  return toPage(rows, page, (r) => r.id, (r) => toGroup(ctx, r));
}

export const getGroup = (ctx: ServiceContext, tenantName: string, id: number): EmbedGroup => toGroup(ctx, groupRow(ctx, tenantName, id));

export function createGroup(ctx: ServiceContext, tenantName: string, input: { name: string; description?: string | null }): EmbedGroup {
  requireEmbedTenant(ctx, tenantName);
  const now = ctx.clock.now().toISOString();
  try {
    const id = Number(
      ctx.db
        .prepare('INSERT INTO embed_groups (tenant_name, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
        .run(tenantName, input.name, input.description ?? null, now, now).lastInsertRowid,
    );
    return getGroup(ctx, tenantName, id);
  } catch (error) {
    if (isUnique(error)) throw groupNameTaken(tenantName, input.name);
    throw error;
  }
}

export function updateGroup(ctx: ServiceContext, tenantName: string, id: number, input: { name?: string; description?: string | null }): EmbedGroup {
  return ctx.db.transaction(() => {
    const row = groupRow(ctx, tenantName, id);
    try {
      ctx.db
        .prepare('UPDATE embed_groups SET name = ?, description = ?, updated_at = ? WHERE id = ?')
        .run(input.name ?? row.name, input.description !== undefined ? input.description : row.description, ctx.clock.now().toISOString(), id);
    } catch (error) {
      if (isUnique(error)) throw groupNameTaken(tenantName, input.name ?? row.name);
      throw error;
    }
    return getGroup(ctx, tenantName, id);
  })();
}

export function deleteGroup(ctx: ServiceContext, tenantName: string, id: number): void {
  groupRow(ctx, tenantName, id);
  ctx.db.prepare('DELETE FROM embed_groups WHERE id = ?').run(id);
}

export function listGroupUsers(ctx: ServiceContext, tenantName: string, id: number, page: PageRequest): PageResult<EmbedUser> {
  groupRow(ctx, tenantName, id);
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db
    .prepare('SELECT u.* FROM embed_users u JOIN embed_group_members m ON m.embed_user_id = u.id WHERE m.group_id = ? AND u.id > ? ORDER BY u.id LIMIT ?')
    .all(id, after ?? 0, limit) as UserRow[];
  return toPage(rows, page, (r) => r.id, (r) => toUser(ctx, r));
}

/** Adds users of the group's tenant, named by id or external id; all must exist or nothing is added. */
export function addGroupUsers(
  ctx: ServiceContext,
  tenantName: string,
  id: number,
  input: { userIds?: number[]; externalIds?: string[] },
): { groupId: number; added: number[]; userIds: number[] } {
  return ctx.db.transaction(() => {
    groupRow(ctx, tenantName, id);
    if (!input.userIds?.length && !input.externalIds?.length) {
      throw new ApiError(400, 'VALIDATION_FAILED', 'Name the users to add with `userIds` or `externalIds`.', {
        errors: [{ pointer: '/body', detail: 'userIds or externalIds is required' }],
      });
    }
    const targets = new Set<number>();
    (input.userIds ?? []).forEach((userId, index) => {
      if (!findEmbedUser(ctx, tenantName, userId)) {
        throw new ApiError(400, EMBED_USER_NOT_FOUND, `Embed user ${userId} is not a user of tenant "${tenantName}".`, {
          errors: [{ pointer: `/body/userIds/${index}`, detail: 'no such user in this tenant' }],
        });
      }
      targets.add(userId);
    });
    (input.externalIds ?? []).forEach((externalId, index) => {
      const row = ctx.db.prepare('SELECT id FROM embed_users WHERE tenant_name = ? AND external_id = ?').get(tenantName, externalId) as
        | { id: number }
        | undefined;
      if (!row) {
        throw new ApiError(400, EMBED_USER_NOT_FOUND, `Tenant "${tenantName}" has no user with external id "${externalId}".`, {
          errors: [{ pointer: `/body/externalIds/${index}`, detail: 'no such user in this tenant' }],
        });
      }
      targets.add(row.id);
    });
    const insert = ctx.db.prepare('INSERT INTO embed_group_members (group_id, embed_user_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
    const added = [...targets].filter((userId) => insert.run(id, userId).changes > 0).sort((a, b) => a - b);
    const members = ctx.db.prepare('SELECT embed_user_id AS id FROM embed_group_members WHERE group_id = ? ORDER BY embed_user_id').all(id) as {
      id: number;
    }[];
    return { groupId: id, added, userIds: members.map((m) => m.id) };
  })();
}

/** Creates (or re-describes) groups the embedding app defines for a tenant. */
export function upsertGroupDefinitions(ctx: ServiceContext, tenantName: string, definitions: { name: string; description?: string | null }[]): void {
  const now = ctx.clock.now().toISOString();
  const upsert = ctx.db.prepare(
    `INSERT INTO embed_groups (tenant_name, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (tenant_name, name) DO UPDATE SET
       description = CASE WHEN ? THEN excluded.description ELSE embed_groups.description END, updated_at = excluded.updated_at`,
  );
  for (const def of definitions) upsert.run(tenantName, def.name, def.description ?? null, now, now, def.description !== undefined ? 1 : 0);
}

/** Makes the user a member of exactly these groups (by name); 400 for a group the tenant does not have. */
export function setUserGroups(ctx: ServiceContext, tenantName: string, embedUserId: number, groupNames: string[], pointer: string): string[] {
  const ids = groupNames.map((name, index) => {
    const row = ctx.db.prepare('SELECT id, name FROM embed_groups WHERE tenant_name = ? AND name = ?').get(tenantName, name) as
      | { id: number; name: string }
      | undefined;
    if (!row) {
      throw new ApiError(400, EMBED_GROUP_NOT_FOUND, `Embed tenant "${tenantName}" has no group "${name}"; define it in tenantGroupDefinitions.`, {
        errors: [{ pointer: `${pointer}/${index}`, detail: 'no such embed group' }],
      });
    }
    return row;
  });
  ctx.db.prepare('DELETE FROM embed_group_members WHERE embed_user_id = ?').run(embedUserId);
  const insert = ctx.db.prepare('INSERT INTO embed_group_members (group_id, embed_user_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
  for (const row of ids) insert.run(row.id, embedUserId);
  return ids.map((r) => r.name);
}

/** Names of the groups an embed user is in. */
export function groupNamesOf(ctx: ServiceContext, embedUserId: number): string[] {
  return (
    ctx.db
      .prepare('SELECT g.name FROM embed_groups g JOIN embed_group_members m ON m.group_id = g.id WHERE m.embed_user_id = ? ORDER BY g.name')
      .all(embedUserId) as { name: string }[]
  ).map((r) => r.name);
}
