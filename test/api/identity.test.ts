import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoginCode } from '../../src-main/features/system/routes';
import { sha256 } from '../../src-main/platform/tokens/tokens';
import { ADMIN_KEY, startTestService, type TestService } from '../support/service';
import { bearerFor, createUser } from '../support/users';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc.stop());

describe('bootstrap', () => {
  it('creates the tenant, an admin user and the admin API key on an empty data dir', async () => {
    const me = await svc.call('GET', '/api/v1/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ role: 'admin', email: 'admin@localhost', via: 'apiKey' });
  });

  it('uses DRYDOCK_BOOTSTRAP_API_KEY as the admin key and stores it only as a SHA-256 hash', () => {
    const rows = svc.ctx.db.prepare('SELECT key_hash FROM api_keys').all() as { key_hash: string }[];
    expect(rows.map((r) => r.key_hash)).toContain(sha256(ADMIN_KEY));
    svc.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = readFileSync(join(svc.dataDir, 'drydock.sqlite')).toString('latin1');
    expect(bytes.includes(ADMIN_KEY)).toBe(false);
  });

  it('keeps the JWT signing key in the SecretStore, never in SQLite', async () => {
    const key = await svc.ctx.secrets.get('jwt-signing-key');
    expect(key).toBeTruthy();
    svc.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = readFileSync(join(svc.dataDir, 'drydock.sqlite')).toString('latin1');
    expect(bytes.includes(key!)).toBe(false);
  });
});

describe('API keys (admin only; secret shown once)', () => {
  it('returns the key only in the create response, and it authenticates', async () => {
    const created = await svc.call('POST', '/api/v1/api-keys', { body: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^dd_/);
    const got = await svc.call('GET', `/api/v1/api-keys/${created.body.id}`);
    expect(got.body.token).toBeUndefined();
    expect(got.body.prefix).toBe(created.body.token.slice(0, 8));
    const list = await svc.call('GET', '/api/v1/api-keys');
    expect(list.body.items.every((k: Record<string, unknown>) => !('token' in k))).toBe(true);
    expect((await svc.call('GET', '/api/v1/users/me', { auth: `Api-Key ${created.body.token}` })).status).toBe(200);
  });

  it('a deleted key stops working', async () => {
    const created = await svc.call('POST', '/api/v1/api-keys', { body: { name: 'temp' } });
    expect((await svc.call('DELETE', `/api/v1/api-keys/${created.body.id}`)).status).toBe(204);
    expect((await svc.call('GET', '/api/v1/users/me', { auth: `Api-Key ${created.body.token}` })).status).toBe(401);
  });

  it('refuses non-admins with 403', async () => {
    const dev = createUser(svc, 'developer');
    const res = await svc.call('GET', '/api/v1/api-keys', { auth: dev.auth });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });

  it('validates input with JSON pointers', async () => {
    const res = await svc.call('POST', '/api/v1/api-keys', { body: { name: '' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors[0].pointer).toBe('/body/name');
  });
});

describe('bearer tokens', () => {
  it('a workspace JWT authenticates and carries a sid that revokes it', async () => {
    const admin = (await svc.call('GET', '/api/v1/users/me')).body;
    const issued = await svc.ctx.tokens.issue({ userId: admin.id, kind: 'workspace', ttlSeconds: 60 });
    const auth = `Bearer ${issued.token}`;
    expect((await svc.call('GET', '/api/v1/users/me', { auth })).body.via).toBe('workspace');
    svc.ctx.tokens.revoke(issued.sid);
    const res = await svc.call('GET', '/api/v1/users/me', { auth });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_REVOKED');
  });

  it('an expired JWT is refused', async () => {
    const issued = await svc.ctx.tokens.issue({ userId: 1, kind: 'workspace', ttlSeconds: -10 });
    expect((await svc.call('GET', '/api/v1/users/me', { auth: `Bearer ${issued.token}` })).status).toBe(401);
  });

  it('a login code opens one session, once', async () => {
    const code = createLoginCode(svc.ctx, 1);
    const first = await svc.call('POST', '/api/v1/auth/login-code', { body: { code }, auth: null });
    expect(first.status).toBe(200);
    expect((await svc.call('GET', '/api/v1/users/me', { auth: `Bearer ${first.body.token}` })).status).toBe(200);
    const second = await svc.call('POST', '/api/v1/auth/login-code', { body: { code }, auth: null });
    expect(second.status).toBe(401);
    expect(second.body.code).toBe('LOGIN_CODE_INVALID');
  });

  it('a deactivated user’s credentials stop working', async () => {
    const viewer = createUser(svc, 'viewer');
    expect((await svc.call('POST', '/api/v1/users/bulk', { body: { action: 'DEACTIVATE', userIds: [viewer.id] } })).status).toBe(200);
    expect((await svc.call('GET', '/api/v1/users/me', { auth: viewer.auth })).status).toBe(401);
  });
});

describe('users', () => {
  it('PATCH /users/me/settings merges sheets field by field and null clears it', async () => {
    await svc.call('PATCH', '/api/v1/users/me/settings', { body: { sheets: { a: 1, b: 2 }, locale: 'en' } });
    let res = await svc.call('PATCH', '/api/v1/users/me/settings', { body: { sheets: { b: null, c: 3 }, lastSeenChangelogId: 'x' } });
    expect(res.body).toEqual({ sheets: { a: 1, c: 3 }, locale: 'en' });
    res = await svc.call('PATCH', '/api/v1/users/me/settings', { body: { sheets: null } });
    expect(res.body).toEqual({ locale: 'en' });
  });

  it('GET /users/me includes userPolicies', async () => {
    const dev = createUser(svc, 'developer', { actions: ['SecretsManage'] });
    expect((await svc.call('GET', '/api/v1/users/me', { auth: dev.auth })).body.userPolicies).toEqual(['SecretsManage']);
  });

  it('lists users with first/after pagination and search', async () => {
    createUser(svc, 'viewer', { email: 'findme-1@example.com' });
    createUser(svc, 'viewer', { email: 'findme-2@example.com' });
    const page1 = await svc.call('GET', '/api/v1/users/?first=1&search=findme');
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    const page2 = await svc.call('GET', `/api/v1/users/?first=1&search=findme&after=${page1.body.pageInfo.endCursor}`);
    expect(page2.body.items[0].email).toBe('findme-2@example.com');
    expect(page2.body.pageInfo.hasNextPage).toBe(false);
  });

  it('bulk actions report per-user failures and still apply the rest', async () => {
    const a = createUser(svc, 'viewer');
    const res = await svc.call('POST', '/api/v1/users/bulk', { body: { action: 'DELETE', userIds: [a.id, 99999] } });
    expect(res.body.succeeded).toEqual([a.id]);
    expect(res.body.failed).toEqual([expect.objectContaining({ userId: 99999, code: 'USER_NOT_FOUND' })]);
  });

  it('refuses to remove the last admin', async () => {
    const res = await svc.call('DELETE', '/api/v1/users/1');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('LAST_ADMIN');
  });

  it('refuses an OAuth or embed token on admin routes without the role', async () => {
    const viewer = createUser(svc, 'viewer');
    expect((await svc.call('GET', '/api/v1/users/', { auth: await bearerFor(svc, viewer.id, 'workspace') })).status).toBe(403);
    expect((await svc.call('GET', '/api/v1/api-keys', { auth: await bearerFor(svc, null, 'embed') })).body.code).toBe('EMBED_SESSION_REFUSED');
  });
});
