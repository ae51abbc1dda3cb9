import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { Authenticator } from '../../src-main/http/auth';
import { dep, svc, useServiceWithDeployment } from '../support/deployment-service';
import { bearerFor, createUser } from '../support/users';

useServiceWithDeployment();

let counter = 0;
const name = (base: string) => `${base} ${++counter}`;
async function group(body: Record<string, unknown> = {}): Promise<{ id: number; userIds: number[] }> {
  const res = await svc.call('POST', '/api/v1/groups', { body: { name: name('group'), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
async function policy(body: Record<string, unknown>): Promise<{ id: number }> {
  const res = await svc.call('POST', '/api/v1/policies', { body: { name: name('policy'), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const createFolder = (auth: string) => svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: { name: name('folder') }, auth });

describe('groups', () => {
  it('creates a group with members and reads it back', async () => {
    const a = createUser(svc, 'viewer');
    const b = createUser(svc, 'developer');
    const created = await group({ description: 'analysts', userIds: [b.id, a.id] });
    const res = await svc.call('GET', `/api/v1/groups/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: 'analysts', userIds: [a.id, b.id].sort((x, y) => x - y), policyIds: [] });
  });

  it('replaces the members with PUT userIds and keeps fields left out', async () => {
    const a = createUser(svc, 'viewer');
    const b = createUser(svc, 'viewer');
    const created = await group({ description: 'keep me', userIds: [a.id] });
    const res = await svc.call('PUT', `/api/v1/groups/${created.id}`, { body: { userIds: [b.id] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userIds: [b.id], description: 'keep me' });
  });

  it('refuses an unknown member with 400 naming it, and a taken name with 409', async () => {
    const res = await svc.call('POST', '/api/v1/groups', { body: { name: name('g'), userIds: [999999] } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/body/userIds/0');
    const first = await group();
    const got = await svc.call('GET', `/api/v1/groups/${first.id}`);
    const dup = await svc.call('POST', '/api/v1/groups', { body: { name: got.body.name } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('GROUP_NAME_TAKEN');
  });

  it('lists with cursor pagination and deletes with 204, then 404', async () => {
    await group();
    await group();
    const page = await svc.call('GET', '/api/v1/groups?first=1');
    expect(page.body.items).toHaveLength(1);
    expect(page.body.pageInfo.hasNextPage).toBe(true);
    const next = await svc.call('GET', `/api/v1/groups?first=1&after=${page.body.pageInfo.endCursor}`);
    expect(next.body.items[0].id).toBeGreaterThan(page.body.items[0].id);
    const doomed = await group();
    expect((await svc.call('DELETE', `/api/v1/groups/${doomed.id}`)).status).toBe(204);
    const gone = await svc.call('GET', `/api/v1/groups/${doomed.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('GROUP_NOT_FOUND');
  });

  it('is admin only', async () => {
    const developer = createUser(svc, 'developer');
    expect((await svc.call('GET', '/api/v1/groups', { auth: developer.auth })).status).toBe(403);
    expect((await svc.call('POST', '/api/v1/policies', { body: { name: 'p', actions: ['SchemaRead'] }, auth: developer.auth })).status).toBe(403);
  });
});

describe('policies', () => {
  it('accepts the action values SecretsManage, DownloadData, ChatHistoryRead and the access-level actions', async () => {
    const actions = ['SecretsManage', 'DownloadData', 'ChatHistoryRead', 'SchemaRead', 'SchemaUpdate', 'SqlRunnerRead', 'DeploymentRead', 'DeploymentEdit'];
    const created = await policy({ actions });
    const res = await svc.call('GET', `/api/v1/policies/${created.id}`);
    expect(res.body.actions).toEqual(actions);
  });

  it('refuses an unknown action and an empty action list with 400', async () => {
    expect((await svc.call('POST', '/api/v1/policies', { body: { name: name('p'), actions: ['RootEverything'] } })).status).toBe(400);
    expect((await svc.call('POST', '/api/v1/policies', { body: { name: name('p'), actions: [] } })).status).toBe(400);
  });

  it('attaches to groups and users, shown on both sides; PUT replaces attachments', async () => {
    const g = await group();
    const u = createUser(svc, 'viewer');
    const created = await policy({ actions: ['DownloadData'], groupIds: [g.id], userIds: [u.id] });
    expect(created).toMatchObject({ groupIds: [g.id], userIds: [u.id] });
    expect((await svc.call('GET', `/api/v1/groups/${g.id}`)).body.policyIds).toEqual([created.id]);
    const res = await svc.call('PUT', `/api/v1/policies/${created.id}`, { body: { groupIds: [] } });
    expect(res.body).toMatchObject({ groupIds: [], userIds: [u.id], actions: ['DownloadData'] });
    const unknownGroup = await svc.call('PUT', `/api/v1/policies/${created.id}`, { body: { groupIds: [999999] } });
    expect(unknownGroup.status).toBe(400);
    expect(unknownGroup.body.code).toBe('GROUP_NOT_FOUND');
  });

  it('deletes with 204; then 404 POLICY_NOT_FOUND', async () => {
    const created = await policy({ actions: ['SchemaRead'] });
    expect((await svc.call('DELETE', `/api/v1/policies/${created.id}`)).status).toBe(204);
    expect((await svc.call('DELETE', `/api/v1/policies/${created.id}`)).body.code).toBe('POLICY_NOT_FOUND');
  });
});

describe('policy grants feed the caller’s access', () => {
  it('gives a viewer deployment edit through a policy attached to a group they are in, and takes it away with the membership', async () => {
    const viewer = createUser(svc, 'viewer');
    expect((await createFolder(viewer.auth)).status).toBe(403);
    const g = await group({ userIds: [viewer.id] });
    await policy({ actions: ['DeploymentEdit'], groupIds: [g.id] });
    expect((await createFolder(viewer.auth)).status).toBe(201);
    await svc.call('PUT', `/api/v1/groups/${g.id}`, { body: { userIds: [] } });
    expect((await createFolder(viewer.auth)).status).toBe(403);
  });

  it('grants through a policy attached to the user directly, for bearer sessions too', async () => {
    const viewer = createUser(svc, 'viewer');
    const session = await bearerFor(svc, viewer.id, 'workspace');
    expect((await createFolder(session)).status).toBe(403);
    const p = await policy({ actions: ['DeploymentEdit'], userIds: [viewer.id] });
    expect((await createFolder(session)).status).toBe(201);
    await svc.call('DELETE', `/api/v1/policies/${p.id}`);
    expect((await createFolder(session)).status).toBe(403);
  });

  it('lets a user’s own withdrawn action (-DeploymentEdit) win over a policy grant', async () => {
    const viewer = createUser(svc, 'viewer', { actions: ['-DeploymentEdit'] });
    await policy({ actions: ['DeploymentEdit'], userIds: [viewer.id] });
    expect((await createFolder(viewer.auth)).status).toBe(403);
  });

  it('GET /users/me userPolicies lists the actions granted through /api/v1/policies, directly and through groups, each once', async () => {
    const viewer = createUser(svc, 'viewer', { actions: ['-SqlRunnerRead'] });
    const me = async () => (await svc.call('GET', '/api/v1/users/me', { auth: viewer.auth })).body.userPolicies as string[];
    expect(await me()).toEqual(['-SqlRunnerRead']);
    const g = await group({ userIds: [viewer.id] });
    const viaGroup = await policy({ actions: ['DownloadData', 'SchemaUpdate'], groupIds: [g.id] });
    await policy({ actions: ['DownloadData'], userIds: [viewer.id] });
    expect((await me()).sort()).toEqual(['-SqlRunnerRead', 'DownloadData', 'SchemaUpdate']);
    await svc.call('DELETE', `/api/v1/policies/${viaGroup.id}`);
    expect((await me()).sort()).toEqual(['-SqlRunnerRead', 'DownloadData']);
    // The user record (what an admin edits with PATCH) keeps only the user's own actions.
    expect((await svc.call('GET', `/api/v1/users/${viewer.id}`)).body.userPolicies).toEqual(['-SqlRunnerRead']);
  });

  it('never grants admin through a policy', async () => {
    const developer = createUser(svc, 'developer');
    await policy({ actions: ['SecretsManage', 'DeploymentEdit'], userIds: [developer.id] });
    expect((await svc.call('GET', '/api/v1/groups', { auth: developer.auth })).status).toBe(403);
  });

  it('puts the named actions of group policies (DownloadData, ChatHistoryRead) in the principal’s actions, once each', async () => {
    const viewer = createUser(svc, 'viewer', { actions: ['SqlRunnerRead'] });
    const g1 = await group({ userIds: [viewer.id] });
    const g2 = await group({ userIds: [viewer.id] });
    await policy({ actions: ['DownloadData', 'ChatHistoryRead'], groupIds: [g1.id, g2.id] });
    await policy({ actions: ['DownloadData'], groupIds: [g2.id] });
    const authenticator = new Authenticator(svc.ctx.db, svc.ctx.tokens, svc.ctx.clock);
    const principal = await authenticator.authenticate({ headers: { authorization: viewer.auth } } as FastifyRequest);
    expect(principal.actions.filter((a) => a === 'DownloadData')).toHaveLength(1);
    expect(principal.actions).toEqual(expect.arrayContaining(['DownloadData', 'ChatHistoryRead', 'SqlRunnerRead']));
    const other = createUser(svc, 'viewer');
    expect((await authenticator.authenticate({ headers: { authorization: other.auth } } as FastifyRequest)).actions).toEqual([]);
  });
});
