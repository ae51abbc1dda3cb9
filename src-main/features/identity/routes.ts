import * as api from '../../../src-shared/api/identity';
import type { Api } from '../../http/route';
import { ApiError, notFound } from '../../http/problem';
import { pageWindow, toPage } from '../../http/pagination';
import { assertNotLastAdmin, createApiKeyFor, getUserRow, toApiKey, toUser, type ApiKeyRow, type UserRow } from './store';
import { DEPLOYMENT_READ_CREDENTIALS } from '../../http/credentials';
import { userActions } from '../../http/auth';

const isConstraint = (error: unknown, what: string) => error instanceof Error && error.message.includes(what);

export function registerIdentityRoutes({ route, ctx }: Api): void {
  const { db } = ctx;
  const now = () => ctx.clock.now().toISOString();

  // Who am I: every kind of credential may ask (a scoped one learns only its own user).
  route(api.getMe, { credentials: [...DEPLOYMENT_READ_CREDENTIALS, 'embed'] }, ({ principal }) => {
    if (principal.userId === null) throw new ApiError(404, 'USER_NOT_FOUND', 'This session has no workspace user.');
    const row = getUserRow(ctx, principal.userId);
    // Every policy the caller holds: granted through /api/v1/policies (to them or a group they are in), then their own.
    const userPolicies = [...new Set(userActions(db, row))];
    return { ...toUser(row), userPolicies, settings: JSON.parse(row.settings), via: principal.via };
  });

  route(api.updateMySettings, {}, ({ principal, body }) => {
    if (principal.userId === null) throw new ApiError(404, 'USER_NOT_FOUND', 'This session has no workspace user.');
    const userId = principal.userId;
    return db.transaction(() => {
      const current = JSON.parse(getUserRow(ctx, userId).settings) as Record<string, unknown>;
      const { lastSeenChangelogId: _ignored, sheets, ...rest } = body;
      const next: Record<string, unknown> = { ...current };
      for (const [key, value] of Object.entries(rest)) {
        if (value === null) delete next[key];
        else if (value !== undefined) next[key] = value;
      }
      if (sheets === null) delete next.sheets;
      else if (sheets !== undefined) {
        // Field by field: a null field clears that field only.
        const merged: Record<string, unknown> = { ...((current.sheets as Record<string, unknown>) ?? {}) };
        for (const [key, value] of Object.entries(sheets)) {
          if (value === null) delete merged[key];
          else merged[key] = value;
        }
        next.sheets = merged;
      }
      db.prepare('UPDATE users SET settings = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(next), now(), userId);
      return next;
    })();
  });

  route(api.listUsers, { access: ['admin'] }, ({ query }) => {
    const { limit, after } = pageWindow<number>(query);
    const search = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const rows = db
      .prepare(
        `SELECT * FROM users WHERE id > ? AND (? IS NULL OR email LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\') ORDER BY id LIMIT ?`,
      )
      .all(after ?? 0, search, search, search, limit) as UserRow[];
    return toPage(rows, query, (r) => r.id, toUser);
  });

  route(api.createUser, { access: ['admin'] }, ({ body }) => {
    try {
      const id = Number(
        db
          .prepare('INSERT INTO users (email, name, role, actions, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
          .run(body.email, body.name, body.role, JSON.stringify(body.userPolicies ?? []), now(), now()).lastInsertRowid,
      );
      return toUser(getUserRow(ctx, id));
    } catch (error) {
      if (isConstraint(error, 'UNIQUE')) throw new ApiError(409, 'USER_EMAIL_TAKEN', `A user with email ${body.email} already exists.`);
      throw error;
    }
  });

  route(api.getUser, { access: ['admin'] }, ({ params }) => toUser(getUserRow(ctx, params.id)));

  route(api.updateUser, { access: ['admin'] }, ({ params, body }) =>
    db.transaction(() => {
      const row = getUserRow(ctx, params.id);
      if ((body.role !== undefined && body.role !== 'admin') || body.active === false) assertNotLastAdmin(ctx, params.id);
      try {
        db.prepare('UPDATE users SET email = ?, name = ?, role = ?, active = ?, actions = ?, updated_at = ? WHERE id = ?').run(
          body.email ?? row.email,
          body.name ?? row.name,
          body.role ?? row.role,
          body.active === undefined ? row.active : body.active ? 1 : 0,
          body.userPolicies ? JSON.stringify(body.userPolicies) : row.actions,
          now(),
          params.id,
        );
      } catch (error) {
        if (isConstraint(error, 'UNIQUE')) throw new ApiError(409, 'USER_EMAIL_TAKEN', `A user with email ${body.email} already exists.`);
        throw error;
      }
      return toUser(getUserRow(ctx, params.id));
    })(),
  );

  route(api.deleteUser, { access: ['admin'] }, ({ params }) => {
    db.transaction(() => {
      assertNotLastAdmin(ctx, params.id);
      db.prepare('DELETE FROM users WHERE id = ?').run(params.id);
    })();
    return null;
  });

  route(api.bulkUsers, { access: ['admin'] }, ({ body }) => {
    const succeeded: number[] = [];
    const failed: { userId: number; code: string; detail: string }[] = [];
    for (const userId of body.userIds) {
      // Each user in its own savepoint: one failure leaves that user untouched and blocks no other.
      try {
        db.transaction(() => {
          assertNotLastAdmin(ctx, userId);
          if (body.action === 'DELETE') db.prepare('DELETE FROM users WHERE id = ?').run(userId);
          else db.prepare('UPDATE users SET active = ?, updated_at = ? WHERE id = ?').run(body.action === 'ACTIVATE' ? 1 : 0, now(), userId);
        })();
        succeeded.push(userId);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        failed.push({ userId, code: error.code, detail: error.detail });
      }
    }
    return { succeeded, failed };
  });

  route(api.listApiKeys, { access: ['admin'] }, ({ query }) => {
    const { limit, after } = pageWindow<number>(query);
    const rows = db
      .prepare('SELECT id, user_id, name, key_prefix, created_at, last_used_at FROM api_keys WHERE id > ? ORDER BY id LIMIT ?')
      .all(after ?? 0, limit) as ApiKeyRow[];
    return toPage(rows, query, (r) => r.id, toApiKey);
  });

  route(api.createApiKey, { access: ['admin'] }, ({ body, principal }) => {
    const ownerId = body.userId ?? principal.userId;
    if (ownerId === null) throw new ApiError(400, 'API_KEY_OWNER_REQUIRED', 'Name the user who owns the key (`userId`).');
    const { row, token } = createApiKeyFor(ctx, ownerId, body.name);
    return { ...toApiKey(row), token };
  });

  route(api.getApiKey, { access: ['admin'] }, ({ params }) => {
    const row = db.prepare('SELECT id, user_id, name, key_prefix, created_at, last_used_at FROM api_keys WHERE id = ?').get(params.id) as
      | ApiKeyRow
      | undefined;
    if (!row) throw notFound(`API key ${params.id}`, 'API_KEY_NOT_FOUND');
    return toApiKey(row);
  });

  route(api.deleteApiKey, { access: ['admin'] }, ({ params }) => {
    const result = db.prepare('DELETE FROM api_keys WHERE id = ?').run(params.id);
    if (result.changes === 0) throw notFound(`API key ${params.id}`, 'API_KEY_NOT_FOUND');
    return null;
  });
}
