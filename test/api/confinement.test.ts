/**
 * Scoped credentials stay in scope (issue 11, item 1): the privilege escalation the probe found,
 * step by step, and the documented OAuth scope → operations mapping. The full operation × caller
 * grid is in authorization-matrix.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser, type TestUser } from '../support/users';

let svc: TestService;
let home: number;
let other: number;
let admin: TestUser;
let token: string;

beforeAll(async () => {
  svc = await startTestService();
  home = await createDeployment(svc);
  other = await createDeployment(svc);
  admin = createUser(svc, 'admin');
  const minted = await svc.call('POST', `/api/v1/deployments/${home}/token`, { auth: admin.auth });
  expect(minted.status).toBe(200);
  token = `Bearer ${minted.body.token}`;
});
afterAll(async () => svc.stop());

describe('a deployment token (even an admin’s) reaches only its own deployment', () => {
  it('cannot mint an API key', async () => {
    const res = await svc.call('POST', '/api/v1/api-keys', { auth: token, body: { name: 'escalated' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('DEPLOYMENT_TOKEN_REFUSED');
    expect(svc.ctx.db.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE name = 'escalated'").get()).toEqual({ n: 0 });
  });

  it('cannot create an admin user', async () => {
    const res = await svc.call('POST', '/api/v1/users/', { auth: token, body: { email: 'mallory@example.com', name: 'Mallory', role: 'admin' } });
    expect(res.status).toBe(403);
    expect(svc.ctx.db.prepare("SELECT COUNT(*) AS n FROM users WHERE email = 'mallory@example.com'").get()).toEqual({ n: 0 });
  });

  it('cannot change tenant settings', async () => {
    const before = await svc.call('GET', '/api/v1/tenant/settings');
    const res = await svc.call('PUT', '/api/v1/tenant/settings', { auth: token, body: { embeddingEnabled: !before.body.embeddingEnabled } });
    expect(res.status).toBe(403);
    expect((await svc.call('GET', '/api/v1/tenant/settings')).body).toEqual(before.body);
  });

  it('cannot delete another deployment, nor its own', async () => {
    expect((await svc.call('DELETE', `/api/v1/deployments/${other}`, { auth: token })).status).toBe(403);
    expect((await svc.call('DELETE', `/api/v1/deployments/${home}`, { auth: token })).status).toBe(403);
    expect((await svc.call('GET', `/api/v1/deployments/${other}`)).status).toBe(200);
    expect((await svc.call('GET', `/api/v1/deployments/${home}`)).status).toBe(200);
  });

  it('cannot read another deployment (403 DEPLOYMENT_OUT_OF_SCOPE)', async () => {
    const res = await svc.call('GET', `/build/api/v1/deployments/${other}/data-model/files`, { auth: token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('DEPLOYMENT_OUT_OF_SCOPE');
  });

  it('cannot mint tokens of any kind: deployment, environment, meta-sync, usage analytics, embed sessions', async () => {
    const environments = await svc.call('GET', `/api/v1/deployments/${home}/environments`, { auth: token });
    expect(environments.status).toBe(200);
    const envId = environments.body.items[0].id;
    const attempts = [
      ['POST', `/api/v1/deployments/${home}/token`, {}],
      ['POST', `/api/v1/deployments/${home}/environments/${envId}/tokens`, { scopes: ['meta'] }],
      ['POST', `/api/v1/deployments/${home}/environments/${envId}/tokens-for-meta-sync`, {}],
      ['POST', '/api/v1/usage-analytics/token', undefined],
      ['POST', '/api/v1/embed/generate-session', { deploymentId: home, embedTenantName: 'acme', externalId: 'x' }],
      ['POST', '/api/v1/oauth-integrations/', { name: 'x' }],
    ] as const;
    for (const [method, path, body] of attempts) {
      const res = await svc.call(method, path, { auth: token, body });
      expect(res.status, path).toBe(403);
    }
  });

  it('still works on its own deployment’s operations: reading, editing model files', async () => {
    expect((await svc.call('GET', `/api/v1/deployments/${home}`, { auth: token })).status).toBe(200);
    const files = await svc.call('GET', `/build/api/v1/deployments/${home}/data-model/files`, { auth: token });
    expect(files.status).toBe(200);
    const list = await svc.call('GET', '/api/v1/deployments', { auth: token });
    expect(list.body.items.map((d: { id: number }) => d.id)).toEqual([home]);
  });
});

describe('OAuth scopes open only the operations the documented mapping gives them', () => {
  it('deployment.read reads one deployment but changes nothing', async () => {
    const read = await bearerFor(svc, admin.id, 'oauth', { scopes: ['deployment.read'] });
    expect((await svc.call('GET', `/api/v1/deployments/${home}/settings`, { auth: read })).status).toBe(200);
    const put = await svc.call('PUT', `/api/v1/deployments/${home}`, { auth: read, body: { name: 'renamed' } });
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('deployment.write changes one deployment but reaches no tenant administration', async () => {
    const write = await bearerFor(svc, admin.id, 'oauth', { scopes: ['deployment.write'] });
    expect((await svc.call('PUT', `/api/v1/deployments/${home}`, { auth: write, body: { name: 'renamed-by-oauth' } })).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/api/v1/users/'],
      ['GET', '/api/v1/api-keys'],
      ['GET', '/api/v1/tenant/settings'],
      ['POST', `/api/v1/deployments/${home}/token`],
    ] as const) {
      const res = await svc.call(method, path, { auth: write });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
    }
  });

  it('a token without scopes reaches nothing', async () => {
    const bare = await bearerFor(svc, admin.id, 'oauth', { scopes: [] });
    expect((await svc.call('GET', `/api/v1/deployments/${home}`, { auth: bare })).status).toBe(403);
  });

  it('the OpenAPI document states the scope mapping and, per operation, which credentials it accepts', async () => {
    const spec = (await svc.call('GET', '/api/v1/spec', { auth: null })).body;
    const bearer = spec.components.securitySchemes.bearerAuth.description as string;
    expect(bearer).toContain('`deployment.read`');
    expect(bearer).toContain('`deployment.write`');
    expect(bearer).toMatch(/warehouse semantic view sync/);
    const sync = spec.paths['/api/v1/deployments/{deploymentId}/warehouse-semantic-view-syncs'].post.description as string;
    expect(sync).toContain('OAuth token with scope `deployment.write`');
    expect(sync).toContain('deployment token of this deployment');
    const apiKeys = spec.paths['/api/v1/api-keys'].post.description as string;
    expect(apiKeys).toContain('Credentials: API key or workspace session.');
  });
});

describe('embed sessions stay in their deployment', () => {
  it('an embed session without a deployment claim reaches no deployment', async () => {
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    const res = await svc.call('GET', `/api/v1/deployments/${home}/environments`, { auth: embed });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('DEPLOYMENT_OUT_OF_SCOPE');
  });
});
