import type { Group, Policy, PolicyActionName } from '../../../src-shared/api/access';
import type { ServiceContext } from '../../context';
import { ApiError, conflict, notFound } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';

interface GroupRow {
  id: number;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

interface PolicyRow extends GroupRow {
  actions: string;
}

export const GROUP_NOT_FOUND = 'GROUP_NOT_FOUND';
export const POLICY_NOT_FOUND = 'POLICY_NOT_FOUND';

const isUnique = (error: unknown) => error instanceof Error && error.message.includes('UNIQUE');
const ids = (ctx: ServiceContext, sql: string, id: number) => (ctx.db.prepare(sql).all(id) as { id: number }[]).map((r) => r.id);

function toGroup(ctx: ServiceContext, row: GroupRow): Group {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    userIds: ids(ctx, 'SELECT user_id AS id FROM user_group_members WHERE group_id = ? ORDER BY user_id', row.id),
    policyIds: ids(ctx, 'SELECT policy_id AS id FROM access_policy_attachments WHERE group_id = ? ORDER BY policy_id', row.id),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toPolicy(ctx: ServiceContext, row: PolicyRow): Policy {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    actions: JSON.parse(row.actions) as PolicyActionName[],
    groupIds: ids(ctx, 'SELECT group_id AS id FROM access_policy_attachments WHERE policy_id = ? AND group_id IS NOT NULL ORDER BY group_id', row.id),
    userIds: ids(ctx, 'SELECT user_id AS id FROM access_policy_attachments WHERE policy_id = ? AND user_id IS NOT NULL ORDER BY user_id', row.id),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function groupRow(ctx: ServiceContext, id: number): GroupRow {
  const row = ctx.db.prepare('SELECT * FROM user_groups WHERE id = ?').get(id) as GroupRow | undefined;
  if (!row) throw notFound(`Group ${id}`, GROUP_NOT_FOUND);
  return row;
}

function policyRow(ctx: ServiceContext, id: number): PolicyRow {
  const row = ctx.db.prepare('SELECT * FROM access_policies WHERE id = ?').get(id) as PolicyRow | undefined;
  if (!row) throw notFound(`Policy ${id}`, POLICY_NOT_FOUND);
  return row;
}

/** 400 naming the first id in `list` that has no row in `table`. */
function assertExisting(ctx: ServiceContext, table: 'users' | 'user_groups', list: number[], pointer: string): void {
  const exists = ctx.db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`);
  list.forEach((id, index) => {
    if (!exists.get(id)) {
      const what = table === 'users' ? 'User' : 'Group';
      throw new ApiError(400, table === 'users' ? 'USER_NOT_FOUND' : GROUP_NOT_FOUND, `${what} ${id} does not exist.`, {
        errors: [{ pointer: `${pointer}/${index}`, detail: `no such ${what.toLowerCase()}` }],
      });
    }
  });
}

// ---- groups ----------------------------------------------------------------------------------

export function listGroups(ctx: ServiceContext, page: PageRequest): PageResult<Group> {
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db.prepare('SELECT * FROM user_groups WHERE id > ? ORDER BY id LIMIT ?').all(after ?? 0, limit) as GroupRow[];
  return toPage(rows, page, (r) => r.id, (r) => toGroup(ctx, r));
}

export const getGroup = (ctx: ServiceContext, id: number): Group => toGroup(ctx, groupRow(ctx, id));

/** Names of the groups a user is in (data model access policies match them). */
export function groupNamesOf(ctx: ServiceContext, userId: number): string[] {
  return (
    ctx.db.prepare('SELECT g.name FROM user_groups g JOIN user_group_members m ON m.group_id = g.id WHERE m.user_id = ? ORDER BY g.name').all(userId) as { name: string }[]
  ).map((r) => r.name);
}

export interface GroupInput {
  name?: string;
  description?: string | null;
  userIds?: number[];
}

function setMembers(ctx: ServiceContext, groupId: number, userIds: number[]): void {
  ctx.db.prepare('DELETE FROM user_group_members WHERE group_id = ?').run(groupId);
  const add = ctx.db.prepare('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)');
  for (const userId of userIds) add.run(groupId, userId);
}

export function createGroup(ctx: ServiceContext, input: GroupInput & { name: string }): Group {
  return ctx.db.transaction(() => {
    assertExisting(ctx, 'users', input.userIds ?? [], '/body/userIds');
    const now = ctx.clock.now().toISOString();
    let id: number;
    try {
      id = Number(
        ctx.db
          .prepare('INSERT INTO user_groups (name, description, created_at, updated_at) VALUES (?, ?, ?, ?)')
          .run(input.name, input.description ?? null, now, now).lastInsertRowid,
      );
    } catch (error) {
      if (isUnique(error)) throw conflict('GROUP_NAME_TAKEN', `A group named "${input.name}" already exists.`);
      throw error;
    }
    setMembers(ctx, id, input.userIds ?? []);
    return getGroup(ctx, id);
  })();
}

export function updateGroup(ctx: ServiceContext, id: number, input: GroupInput): Group {
  return ctx.db.transaction(() => {
    const row = groupRow(ctx, id);
    if (input.userIds) assertExisting(ctx, 'users', input.userIds, '/body/userIds');
    try {
      ctx.db
        .prepare('UPDATE user_groups SET name = ?, description = ?, updated_at = ? WHERE id = ?')
        .run(input.name ?? row.name, input.description !== undefined ? input.description : row.description, ctx.clock.now().toISOString(), id);
    } catch (error) {
      if (isUnique(error)) throw conflict('GROUP_NAME_TAKEN', `A group named "${input.name}" already exists.`);
      throw error;
    }
    if (input.userIds) setMembers(ctx, id, input.userIds);
    return getGroup(ctx, id);
  })();
}

export function deleteGroup(ctx: ServiceContext, id: number): void {
  if (ctx.db.prepare('DELETE FROM user_groups WHERE id = ?').run(id).changes === 0) throw notFound(`Group ${id}`, GROUP_NOT_FOUND);
}

// ---- policies --------------------------------------------------------------------------------

export function listPolicies(ctx: ServiceContext, page: PageRequest): PageResult<Policy> {
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db.prepare('SELECT * FROM access_policies WHERE id > ? ORDER BY id LIMIT ?').all(after ?? 0, limit) as PolicyRow[];
  return toPage(rows, page, (r) => r.id, (r) => toPolicy(ctx, r));
}

export const getPolicy = (ctx: ServiceContext, id: number): Policy => toPolicy(ctx, policyRow(ctx, id));

export interface PolicyInput {
  name?: string;
  description?: string | null;
  actions?: PolicyActionName[];
  groupIds?: number[];
  userIds?: number[];
}

function setAttachments(ctx: ServiceContext, policyId: number, column: 'group_id' | 'user_id', list: number[]): void {
  ctx.db.prepare(`DELETE FROM access_policy_attachments WHERE policy_id = ? AND ${column} IS NOT NULL`).run(policyId);
  const add = ctx.db.prepare(`INSERT INTO access_policy_attachments (policy_id, ${column}) VALUES (?, ?)`);
  for (const id of list) add.run(policyId, id);
}

export function createPolicy(ctx: ServiceContext, input: PolicyInput & { name: string; actions: PolicyActionName[] }): Policy {
  return ctx.db.transaction(() => {
    assertExisting(ctx, 'user_groups', input.groupIds ?? [], '/body/groupIds');
    assertExisting(ctx, 'users', input.userIds ?? [], '/body/userIds');
    const now = ctx.clock.now().toISOString();
    let id: number;
    try {
      id = Number(
        ctx.db
          .prepare('INSERT INTO access_policies (name, description, actions, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
          .run(input.name, input.description ?? null, JSON.stringify(input.actions), now, now).lastInsertRowid,
      );
    } catch (error) {
      if (isUnique(error)) throw conflict('POLICY_NAME_TAKEN', `A policy named "${input.name}" already exists.`);
      throw error;
    }
    setAttachments(ctx, id, 'group_id', input.groupIds ?? []);
    setAttachments(ctx, id, 'user_id', input.userIds ?? []);
    return getPolicy(ctx, id);
  })();
}

export function updatePolicy(ctx: ServiceContext, id: number, input: PolicyInput): Policy {
  return ctx.db.transaction(() => {
    const row = policyRow(ctx, id);
    if (input.groupIds) assertExisting(ctx, 'user_groups', input.groupIds, '/body/groupIds');
    if (input.userIds) assertExisting(ctx, 'users', input.userIds, '/body/userIds');
    try {
      ctx.db
        .prepare('UPDATE access_policies SET name = ?, description = ?, actions = ?, updated_at = ? WHERE id = ?')
        .run(
          input.name ?? row.name,
          input.description !== undefined ? input.description : row.description,
          input.actions ? JSON.stringify(input.actions) : row.actions,
          ctx.clock.now().toISOString(),
          id,
        );
    } catch (error) {
      if (isUnique(error)) throw conflict('POLICY_NAME_TAKEN', `A policy named "${input.name}" already exists.`);
      throw error;
    }
    if (input.groupIds) setAttachments(ctx, id, 'group_id', input.groupIds);
    if (input.userIds) setAttachments(ctx, id, 'user_id', input.userIds);
    return getPolicy(ctx, id);
  })();
}

export function deletePolicy(ctx: ServiceContext, id: number): void {
  if (ctx.db.prepare('DELETE FROM access_policies WHERE id = ?').run(id).changes === 0) throw notFound(`Policy ${id}`, POLICY_NOT_FOUND);
}
