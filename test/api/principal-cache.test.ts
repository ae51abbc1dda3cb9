// Resolved principals are cached per credential (src-main/http/principal-cache.ts). These tests
// pin down that the cache never outlives what it was made of: every credential is used first (so
// its principal is cached), then the change is made, and the very next request must see it — the
// issue allows up to 1 s; invalidation is explicit, so no waiting is needed or done.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser, type TestUser } from '../support/users';

let svc: TestService;
let dep: number;
beforeAll(async () => {
  svc = await startTestService();
  dep = await createDeployment(svc);
  const settings = await svc.call('PUT', '/api/v1/tenant/settings', { body: { embeddingEnabled: true } });
  expect(settings.status, settings.text).toBe(200);
});
afterAll(async () => svc.stop());

let counter = 0;
const unique = (base: string) => `${base} ${++counter}`;
const me = (auth: string) => svc.call('GET', '/api/v1/users/me', { auth });
/** Needs the admin role. */
const listUsers = (auth: string) => svc.call('GET', '/api/v1/users/?first=1', { auth });
/** Needs DeploymentEdit (a viewer gets it only through a policy). */
const createFolder = (auth: string) => svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: { name: unique('folder') }, auth });

/** Uses the credential twice, so its principal is resolved and then served from the cache. */
async function warm(auth: string, request: (auth: string) => ReturnType<typeof me> = me, status = 200): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await request(auth)).status).toBe(status);
}

async function created(res: Awaited<ReturnType<typeof me>>): Promise<{ id: number }> {
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const group = async (body: Record<string, unknown>) => created(await svc.call('POST', '/api/v1/groups', { body: { name: unique('group'), ...body } }));
const policy = async (body: Record<string, unknown>) => created(await svc.call('POST', '/api/v1/policies', { body: { name: unique('policy'), ...body } }));

describe('revocation reaches the next request', () => {
  it('a deleted API key is refused by the next request', async () => {
    const created = await svc.call('POST', '/api/v1/api-keys', { body: { name: 'short-lived' } });
    expect(created.status, created.text).toBe(201);
    const auth = `Api-Key ${created.body.token}`;
    await warm(auth);
    expect((await svc.call('DELETE', `/api/v1/api-keys/${created.body.id}`)).status).toBe(204);
    const res = await me(auth);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('a revoked embed session token is refused by the next request', async () => {
    const generated = await svc.call('POST', '/api/v1/embed/generate-session', {
      body: { deploymentId: dep, embedTenantName: 'cache', externalId: 'cache-user' },
    });
    expect(generated.status, generated.text).toBe(200);
    const exchanged = await svc.call('POST', '/api/v1/embed/session/token', { auth: null, body: { sessionId: generated.body.sessionId } });
    expect(exchanged.status, exchanged.text).toBe(200);
    const auth = `Bearer ${exchanged.body.token}`;
    // An embed session has no workspace user: `users/me` answers 404 to it until it is revoked.
    await warm(auth, me, 404);
    expect((await svc.call('POST', '/api/v1/embed/session/revoke', { body: { sessionId: generated.body.sessionId } })).status).toBe(204);
    const res = await me(auth);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_REVOKED');
  });

  it('a workspace session revoked by the app (sign-out) is refused by the next request', async () => {
    const user = createUser(svc, 'viewer');
    const issued = await svc.ctx.tokens.issue({ userId: user.id, kind: 'workspace', ttlSeconds: 3600 });
    const auth = `Bearer ${issued.token}`;
    await warm(auth);
    svc.ctx.tokens.revoke(issued.sid);
    const res = await me(auth);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_REVOKED');
  });

  it('the tokens of a deleted deployment are refused by the next request', async () => {
    const doomed = await createDeployment(svc, 'doomed');
    const minted = await svc.call('POST', `/api/v1/deployments/${doomed}/token`, { body: {} });
    expect(minted.status, minted.text).toBe(200);
    const auth = `Bearer ${minted.body.token}`;
    await warm(auth);
    expect((await svc.call('DELETE', `/api/v1/deployments/${doomed}`)).status).toBe(204);
    const res = await me(auth);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_REVOKED');
  });
});

describe('user changes reach the next request', () => {
  it('a deactivated user is refused by the next request, with an API key and with a session', async () => {
    const user = createUser(svc, 'developer');
    const session = await bearerFor(svc, user.id, 'workspace');
    await warm(user.auth);
    await warm(session);
    const res = await svc.call('PUT', `/api/v1/users/${user.id}`, { body: { active: false } });
    expect(res.status, res.text).toBe(200);
    for (const auth of [user.auth, session]) {
      const refused = await me(auth);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('USER_DEACTIVATED');
    }
  });

  it('a user deactivated in bulk is refused by the next request, and served again once reactivated', async () => {
    const user = createUser(svc, 'viewer');
    await warm(user.auth);
    expect((await svc.call('POST', '/api/v1/users/bulk', { body: { action: 'DEACTIVATE', userIds: [user.id] } })).status).toBe(200);
    expect((await me(user.auth)).status).toBe(401);
    expect((await svc.call('POST', '/api/v1/users/bulk', { body: { action: 'ACTIVATE', userIds: [user.id] } })).status).toBe(200);
    expect((await me(user.auth)).status).toBe(200);
  });

  it('a deleted user is refused by the next request', async () => {
    const user = createUser(svc, 'viewer');
    await warm(user.auth);
    expect((await svc.call('DELETE', `/api/v1/users/${user.id}`)).status).toBe(204);
    expect((await me(user.auth)).status).toBe(401);
  });

  it('a role change takes effect on the next request, both ways', async () => {
    const user = createUser(svc, 'admin');
    await warm(user.auth, listUsers);
    expect((await svc.call('PUT', `/api/v1/users/${user.id}`, { body: { role: 'viewer' } })).status).toBe(200);
    const demoted = await listUsers(user.auth);
    expect(demoted.status).toBe(403);
    expect((await me(user.auth)).body.role).toBe('viewer');
    expect((await svc.call('PUT', `/api/v1/users/${user.id}`, { body: { role: 'admin' } })).status).toBe(200);
    expect((await listUsers(user.auth)).status).toBe(200);
  });

  it('a change of the user’s own actions takes effect on the next request', async () => {
    const user = createUser(svc, 'viewer', { actions: ['DeploymentEdit'] });
    await warm(user.auth, createFolder, 201);
    expect((await svc.call('PUT', `/api/v1/users/${user.id}`, { body: { userPolicies: [] } })).status).toBe(200);
    expect((await createFolder(user.auth)).status).toBe(403);
  });
});

describe('policy, group and attachment changes reach the next request', () => {
  let viewer: TestUser;
  beforeAll(() => {
    viewer = createUser(svc, 'viewer');
  });

  it('a policy attached to the user grants on the next request, and its detachment withdraws', async () => {
    await warm(viewer.auth, createFolder, 403);
    const p = await policy({ actions: ['DeploymentEdit'], userIds: [viewer.id] });
    expect((await createFolder(viewer.auth)).status).toBe(201);
    expect((await svc.call('PUT', `/api/v1/policies/${p.id}`, { body: { userIds: [] } })).status).toBe(200);
    expect((await createFolder(viewer.auth)).status).toBe(403);
  });

  it('a change of a policy’s actions takes effect on the next request', async () => {
    const p = await policy({ actions: ['DeploymentEdit'], userIds: [viewer.id] });
    await warm(viewer.auth, createFolder, 201);
    expect((await svc.call('PUT', `/api/v1/policies/${p.id}`, { body: { actions: ['SchemaRead'] } })).status).toBe(200);
    expect((await createFolder(viewer.auth)).status).toBe(403);
    expect((await svc.call('DELETE', `/api/v1/policies/${p.id}`)).status).toBe(204);
  });

  it('leaving a group withdraws its policies on the next request; joining grants them', async () => {
    const g = await group({ userIds: [viewer.id] });
    const p = await policy({ actions: ['DeploymentEdit'], groupIds: [g.id] });
    await warm(viewer.auth, createFolder, 201);
    expect((await svc.call('PUT', `/api/v1/groups/${g.id}`, { body: { userIds: [] } })).status).toBe(200);
    expect((await createFolder(viewer.auth)).status).toBe(403);
    expect((await svc.call('PUT', `/api/v1/groups/${g.id}`, { body: { userIds: [viewer.id] } })).status).toBe(200);
    expect((await createFolder(viewer.auth)).status).toBe(201);
    // Detaching the policy from the group, then deleting the group, each withdraw it again.
    expect((await svc.call('PUT', `/api/v1/policies/${p.id}`, { body: { groupIds: [] } })).status).toBe(200);
    expect((await createFolder(viewer.auth)).status).toBe(403);
    expect((await svc.call('PUT', `/api/v1/policies/${p.id}`, { body: { groupIds: [g.id] } })).status).toBe(200);
    expect((await createFolder(viewer.auth)).status).toBe(201);
    expect((await svc.call('DELETE', `/api/v1/groups/${g.id}`)).status).toBe(204);
    expect((await createFolder(viewer.auth)).status).toBe(403);
  });
});

describe('changes made outside this service process', () => {
  it('a key deleted and a user demoted through another connection to the database (the CLI, a second process) reach the next request', async () => {
    const admin = createUser(svc, 'admin');
    const other = createUser(svc, 'viewer');
    await warm(admin.auth, listUsers);
    await warm(other.auth);
    const outside = new Database(join(svc.dataDir, 'drydock.sqlite'));
    try {
      outside.pragma('busy_timeout = 5000');
      outside.prepare("UPDATE users SET role = 'viewer' WHERE id = ?").run(admin.id);
      outside.prepare('DELETE FROM api_keys WHERE user_id = ?').run(other.id);
    } finally {
      outside.close();
    }
    expect((await listUsers(admin.auth)).status).toBe(403);
    expect((await me(other.auth)).status).toBe(401);
  });

  it('a credential unchanged stays served, with the same answer, across many requests', async () => {
    const user = createUser(svc, 'developer', { name: 'Steady' });
    for (let i = 0; i < 20; i++) {
      const res = await me(user.auth);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.id, name: 'Steady', role: 'developer', via: 'apiKey' });
    }
  });
});
