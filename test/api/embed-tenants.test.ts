import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { createUser } from '../support/users';

let svc: TestService;
let dep: number;

beforeAll(async () => {
  svc = await startTestService();
  dep = await createDeployment(svc);
  await svc.call('PUT', '/api/v1/tenant/settings', { body: { embeddingEnabled: true } });
});
afterAll(async () => svc.stop());

/** Creates the tenant (and a user in it) the way embedding apps do: through a session. */
async function embedUser(tenant: string, externalId: string, extra: Record<string, unknown> = {}): Promise<{ sessionId: string; embedUserId: number }> {
  const res = await svc.call('POST', '/api/v1/embed/generate-session', {
    body: { deploymentId: dep, embedTenantName: tenant, externalId, name: `Name of ${externalId}`, ...extra },
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const T = (tenant: string) => `/api/v1/embed-tenants/${tenant}`;
async function group(tenant: string, name: string): Promise<number> {
  const res = await svc.call('POST', `${T(tenant)}/groups`, { body: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe('embed tenants', () => {
  it('lists tenants with cursor pagination', async () => {
    for (const name of ['list-a', 'list-b', 'list-c']) await embedUser(name, 'u1');
    const names: string[] = [];
    let after: string | null = null;
    do {
      const res = await svc.call('GET', `/api/v1/embed-tenants/?first=2${after ? `&after=${after}` : ''}`);
      expect(res.status).toBe(200);
      names.push(...res.body.items.map((t: { name: string }) => t.name));
      after = res.body.pageInfo.hasNextPage ? res.body.pageInfo.endCursor : null;
    } while (after);
    expect(names).toEqual(expect.arrayContaining(['list-a', 'list-b', 'list-c']));
    expect(new Set(names).size).toBe(names.length);
  });

  it('gets a tenant with its settings (enableDashboardComments off by default) and counts', async () => {
    await embedUser('getco', 'u1');
    await embedUser('getco', 'u2');
    const res = await svc.call('GET', T('getco'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'getco', settings: { enableDashboardComments: false }, userCount: 2, groupCount: 0 });
    const missing = await svc.call('GET', T('nobody'));
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('EMBED_TENANT_NOT_FOUND');
  });

  it('lists the users of a tenant', async () => {
    await embedUser('userco', 'alice', { email: 'alice@userco.example' });
    await embedUser('userco', 'bob');
    await embedUser('otherco', 'carol');
    const res = await svc.call('GET', `${T('userco')}/users`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((u: { externalId: string }) => u.externalId)).toEqual(['alice', 'bob']);
    expect(res.body.items[0]).toMatchObject({ embedTenantName: 'userco', email: 'alice@userco.example', name: 'Name of alice', groups: [] });
  });

  it('deletes a tenant at the path without a trailing slash (204), with its users and groups', async () => {
    await embedUser('doomed', 'u1');
    await group('doomed', 'team');
    expect((await svc.call('DELETE', `${T('doomed')}/`)).status).toBe(404);
    expect((await svc.call('DELETE', T('doomed'))).status).toBe(204);
    expect((await svc.call('GET', T('doomed'))).status).toBe(404);
    expect(svc.ctx.db.prepare("SELECT COUNT(*) AS n FROM embed_users WHERE tenant_name = 'doomed'").get()).toEqual({ n: 0 });
    expect((await svc.call('DELETE', T('doomed'))).status).toBe(404);
  });

  it('revokes the live sessions of a deleted tenant', async () => {
    const { sessionId } = await embedUser('revokedco', 'u1');
    const exchanged = await svc.call('POST', '/api/v1/embed/session/token', { body: { sessionId }, auth: null });
    const auth = `Bearer ${exchanged.body.token}`;
    expect((await svc.call('GET', '/api/v1/app-config', { auth })).status).toBe(200);
    await svc.call('DELETE', T('revokedco'));
    expect((await svc.call('GET', '/api/v1/app-config', { auth })).status).toBe(401);
  });

  it('is admin only', async () => {
    await embedUser('adminco', 'u1');
    const developer = createUser(svc, 'developer');
    expect((await svc.call('GET', '/api/v1/embed-tenants/', { auth: developer.auth })).status).toBe(403);
    expect((await svc.call('DELETE', T('adminco'), { auth: developer.auth })).status).toBe(403);
    expect((await svc.call('POST', `${T('adminco')}/groups`, { body: { name: 'x' }, auth: developer.auth })).status).toBe(403);
  });
});

describe('embed groups', () => {
  it('creates, gets, renames and deletes (204) a group', async () => {
    await embedUser('grp', 'u1');
    const id = await group('grp', 'analysts');
    const got = await svc.call('GET', `${T('grp')}/groups/${id}`);
    expect(got.body).toMatchObject({ id, name: 'analysts', embedTenantName: 'grp', description: null, userCount: 0 });
    const patched = await svc.call('PATCH', `${T('grp')}/groups/${id}`, { body: { name: 'readers', description: 'Read only' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'readers', description: 'Read only' });
    const list = await svc.call('GET', `${T('grp')}/groups`);
    expect(list.body.items.map((g: { name: string }) => g.name)).toEqual(['readers']);
    expect((await svc.call('DELETE', `${T('grp')}/groups/${id}`)).status).toBe(204);
    const gone = await svc.call('GET', `${T('grp')}/groups/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('EMBED_GROUP_NOT_FOUND');
  });

  it('refuses a duplicate group name in a tenant with 409, but allows it in another tenant', async () => {
    await embedUser('dup1', 'u1');
    await embedUser('dup2', 'u1');
    await group('dup1', 'team');
    const dup = await svc.call('POST', `${T('dup1')}/groups`, { body: { name: 'TEAM' } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('EMBED_GROUP_NAME_TAKEN');
    expect((await svc.call('POST', `${T('dup2')}/groups`, { body: { name: 'team' } })).status).toBe(201);
  });

  it('does not reach a group through another tenant’s path (404)', async () => {
    await embedUser('iso1', 'u1');
    await embedUser('iso2', 'u1');
    const id = await group('iso1', 'private');
    expect((await svc.call('GET', `${T('iso2')}/groups/${id}`)).status).toBe(404);
    expect((await svc.call('DELETE', `${T('iso2')}/groups/${id}`)).status).toBe(404);
    expect((await svc.call('GET', `${T('iso1')}/groups/${id}`)).status).toBe(200);
  });

  it('answers 404 for groups of an unknown tenant', async () => {
    const res = await svc.call('POST', `${T('ghost-tenant')}/groups`, { body: { name: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('EMBED_TENANT_NOT_FOUND');
  });

  it('adds members by id or external id, idempotently, and lists them', async () => {
    const alice = await embedUser('mem', 'alice');
    await embedUser('mem', 'bob');
    const id = await group('mem', 'team');
    const first = await svc.call('POST', `${T('mem')}/groups/${id}/users`, { body: { userIds: [alice.embedUserId] } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ groupId: id, added: [alice.embedUserId], userIds: [alice.embedUserId] });
    const second = await svc.call('POST', `${T('mem')}/groups/${id}/users`, { body: { externalIds: ['bob', 'alice'] } });
    expect(second.body.added).toHaveLength(1);
    expect(second.body.userIds).toHaveLength(2);
    const members = await svc.call('GET', `${T('mem')}/groups/${id}/users`);
    expect(members.body.items.map((u: { externalId: string }) => u.externalId)).toEqual(['alice', 'bob']);
    expect(members.body.items[0].groups).toEqual(['team']);
    expect((await svc.call('GET', `${T('mem')}/groups/${id}`)).body.userCount).toBe(2);
  });

  it('refuses users of another tenant or unknown users with 400, adding nobody', async () => {
    const alice = await embedUser('mem2', 'alice');
    const outsider = await embedUser('mem3', 'mallory');
    const id = await group('mem2', 'team');
    const res = await svc.call('POST', `${T('mem2')}/groups/${id}/users`, { body: { userIds: [alice.embedUserId, outsider.embedUserId] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('EMBED_USER_NOT_FOUND');
    expect(res.body.errors[0].pointer).toBe('/body/userIds/1');
    expect((await svc.call('POST', `${T('mem2')}/groups/${id}/users`, { body: { externalIds: ['nobody'] } })).status).toBe(400);
    expect((await svc.call('POST', `${T('mem2')}/groups/${id}/users`, { body: {} })).status).toBe(400);
    expect((await svc.call('GET', `${T('mem2')}/groups/${id}/users`)).body.items).toEqual([]);
  });
});
