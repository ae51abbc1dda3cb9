import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src-main/platform/clock';
import { ensureDevelopmentEnvironment } from '../../src-main/features/environments';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser, type TestUser } from '../support/users';

let svc: TestService;
let viewer: TestUser;
let developer: TestUser;
let developerWithoutSqlRunner: TestUser;

beforeAll(async () => {
  svc = await startTestService();
  viewer = createUser(svc, 'viewer');
  developer = createUser(svc, 'developer');
  developerWithoutSqlRunner = createUser(svc, 'developer', { actions: ['-SqlRunnerRead'] });
});
afterAll(async () => svc.stop());

const D = (id: number) => `/api/v1/deployments/${id}`;

async function newDeployment(target: TestService = svc): Promise<{ id: number; envId: number }> {
  const res = await target.call('POST', '/build/api/v1/deployments/', {
    body: { name: 'Env test', cloudProvider: 'gcp', creationMethod: 'platform-git', deployMode: 'git', storageProvider: { type: 'local' } },
  });
  expect(res.status, res.text).toBe(201);
  const envs = await target.call('GET', `${D(res.body.id)}/environments`);
  return { id: res.body.id, envId: envs.body.items[0].id };
}

async function mint(id: number, envId: number, body: unknown, auth?: string, target: TestService = svc) {
  return target.call('POST', `${D(id)}/environments/${envId}/tokens`, { body, ...(auth ? { auth } : {}) });
}

describe('environments (GET D/environments)', () => {
  it('environments: each deployment has a production environment, created with it', async () => {
    const { id } = await newDeployment();
    const res = await svc.call('GET', `${D(id)}/environments`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { id: expect.any(Number), deploymentId: id, name: 'production', kind: 'production', branchName: 'main', ownerUserId: null, createdAt: expect.any(String) },
    ]);
  });

  it('environments: available to embed sessions', async () => {
    const { id } = await newDeployment();
    const other = await newDeployment();
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme', deploymentId: id });
    const res = await svc.call('GET', `${D(id)}/environments`, { auth: embed });
    expect(res.status).toBe(200);
    expect(res.body.items[0].kind).toBe('production');
    // Only the deployment the session was issued for.
    const elsewhere = await svc.call('GET', `${D(other.id)}/environments`, { auth: embed });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.code).toBe('DEPLOYMENT_OUT_OF_SCOPE');
  });

  it('environments: development environments appear once a developer has one, cursor paginated', async () => {
    const { id } = await newDeployment();
    const a = ensureDevelopmentEnvironment(svc.ctx, id, developer.id, 'feature/a');
    const again = ensureDevelopmentEnvironment(svc.ctx, id, developer.id, 'feature/b');
    expect(again.id).toBe(a.id);
    expect(again.branchName).toBe('feature/b');
    const first = await svc.call('GET', `${D(id)}/environments?first=1`);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.pageInfo.hasNextPage).toBe(true);
    const second = await svc.call('GET', `${D(id)}/environments?first=1&after=${first.body.pageInfo.endCursor}`);
    expect(second.body.items).toEqual([expect.objectContaining({ kind: 'development', ownerUserId: developer.id, branchName: 'feature/b' })]);
    expect(second.body.pageInfo.hasNextPage).toBe(false);
  });

  it('environments: need deployment read access; unknown deployment 404', async () => {
    const { id } = await newDeployment();
    const noRead = createUser(svc, 'viewer', { actions: ['-DeploymentRead'] });
    expect((await svc.call('GET', `${D(id)}/environments`, { auth: noRead.auth })).status).toBe(403);
    expect((await svc.call('GET', `${D(999999)}/environments`)).status).toBe(404);
  });
});

describe('environment tokens (POST D/environments/{environmentId}/tokens)', () => {
  it('environment token: signs the allowlisted scopes meta and sql-runner', async () => {
    const { id, envId } = await newDeployment();
    const res = await mint(id, envId, { scopes: ['meta', 'sql-runner'] });
    expect(res.status).toBe(200);
    expect(res.body.data.scopes).toEqual(['meta', 'sql-runner']);
    expect(decodeJwt(res.body.data.token).scopes).toEqual(['meta', 'sql-runner']);
  });

  it('environment token: drops scopes outside the allowlist', async () => {
    const { id, envId } = await newDeployment();
    const res = await mint(id, envId, { scopes: ['meta', 'graphql', 'data', 'jobs', 'admin'] });
    expect(res.body.data.scopes).toEqual(['meta']);
    expect(res.body.data.dropped_scopes).toEqual(['graphql', 'data', 'jobs', 'admin']);
    expect(decodeJwt(res.body.data.token).scopes).toEqual(['meta']);
  });

  it('environment token: sql-runner also needs SQL Runner read access, else it is dropped', async () => {
    const { id, envId } = await newDeployment();
    const without = await mint(id, envId, { scopes: ['meta', 'sql-runner'] }, developerWithoutSqlRunner.auth);
    expect(without.status).toBe(200);
    expect(without.body.data.scopes).toEqual(['meta']);
    expect(decodeJwt(without.body.data.token).scopes).toEqual(['meta']);
    const withAccess = await mint(id, envId, { scopes: ['sql-runner'] }, developer.auth);
    expect(withAccess.body.data.scopes).toEqual(['sql-runner']);
  });

  it('environment token: caller-supplied sql-runner-permissions:* entries are ignored', async () => {
    const { id, envId } = await newDeployment();
    const res = await mint(id, envId, { scopes: ['sql-runner', 'sql-runner-permissions:ddl', 'sql-runner-permissions:all'] });
    expect(res.body.data.scopes).toEqual(['sql-runner']);
    expect(decodeJwt(res.body.data.token).scopes).toEqual(['sql-runner']);
  });

  it('environment token: the server appends sql-runner-permissions:no-ddl when DDL is disabled and sql-runner was signed', async () => {
    const { id, envId } = await newDeployment();
    await svc.call('PUT', D(id), { body: { sqlRunnerDdlEnabled: false } });
    const res = await mint(id, envId, { scopes: ['sql-runner', 'meta'] });
    expect(res.body.data.scopes).toEqual(['sql-runner', 'meta', 'sql-runner-permissions:no-ddl']);
    expect(decodeJwt(res.body.data.token).scopes).toEqual(['sql-runner', 'meta', 'sql-runner-permissions:no-ddl']);
    await svc.call('PUT', D(id), { body: { sqlRunnerDdlEnabled: true } });
    expect((await mint(id, envId, { scopes: ['sql-runner'] })).body.data.scopes).toEqual(['sql-runner']);
  });

  it('environment token: no DDL qualifier when sql-runner was not signed', async () => {
    const { id, envId } = await newDeployment();
    await svc.call('PUT', D(id), { body: { sqlRunnerDdlEnabled: false } });
    expect((await mint(id, envId, { scopes: ['meta'] })).body.data.scopes).toEqual(['meta']);
    expect((await mint(id, envId, { scopes: ['sql-runner'] }, developerWithoutSqlRunner.auth)).body.data.scopes).toEqual([]);
  });

  it('environment token: without deployment edit access every security_context key is dropped and scopes are ignored', async () => {
    const { id, envId } = await newDeployment();
    const res = await mint(id, envId, { scopes: ['meta', 'sql-runner'], security_context: { tenantId: 42, region: 'emea' } }, viewer.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ scopes: [], security_context: {}, dropped_security_context_keys: ['tenantId', 'region'] });
    const claims = decodeJwt(res.body.data.token);
    expect(claims.scopes).toEqual([]);
    expect(claims.securityContext).toEqual({});
    // Edit access granted by policy restores both.
    const granted = createUser(svc, 'viewer', { actions: ['DeploymentEdit', 'SqlRunnerRead'] });
    const ok = await mint(id, envId, { scopes: ['meta'], security_context: { tenantId: 42 } }, granted.auth);
    expect(ok.body.data).toMatchObject({ scopes: ['meta'], security_context: { tenantId: 42 } });
  });

  it('environment token: a caller-supplied scope claim is never signed', async () => {
    const { id, envId } = await newDeployment();
    const res = await mint(id, envId, { scope: 'meta sql-runner admin', security_context: { scope: 'admin', scopes: ['dev-token'], tenantId: 7 } });
    expect(res.status).toBe(200);
    expect(res.body.data.security_context).toEqual({ tenantId: 7 });
    expect(res.body.data.dropped_security_context_keys).toEqual(['scope', 'scopes']);
    const claims = decodeJwt(res.body.data.token);
    expect(claims).not.toHaveProperty('scope');
    expect(claims.securityContext).toEqual({ tenantId: 7 });
    expect(claims.scopes).toEqual([]);
  });

  it('environment token: a dev-token entry is never signed', async () => {
    const { id, envId } = await newDeployment();
    const res = await mint(id, envId, { scopes: ['dev-token', 'meta'], security_context: { 'dev-token': true, team: 'core' } });
    expect(res.body.data.scopes).toEqual(['meta']);
    expect(res.body.data.security_context).toEqual({ team: 'core' });
    expect(JSON.stringify(decodeJwt(res.body.data.token))).not.toContain('dev-token');
  });

  it('environment token: the response security_context and scopes echo exactly what was signed', async () => {
    const { id, envId } = await newDeployment();
    const context = { tenantId: 'acme', roles: ['analyst'], nested: { region: 'emea', level: 3 }, scope: 'x' };
    const res = await mint(id, envId, { scopes: ['sql-runner', 'meta', 'bogus'], security_context: context });
    const claims = decodeJwt(res.body.data.token);
    expect(claims.securityContext).toEqual(res.body.data.security_context);
    expect(claims.scopes).toEqual(res.body.data.scopes);
    expect(res.body.data.security_context).toEqual({ tenantId: 'acme', roles: ['analyst'], nested: { region: 'emea', level: 3 } });
    expect(claims).toMatchObject({ kind: 'environment', deploymentId: id, environmentId: envId });
  });

  it('environment token: expires within the hour (expires_in default and maximum 3600 s)', async () => {
    const { id, envId } = await newDeployment();
    const byDefault = await mint(id, envId, {});
    let claims = decodeJwt(byDefault.body.data.token);
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(Date.parse(byDefault.body.data.expires_at) - Date.parse(byDefault.body.data.created_at)).toBe(3600_000);
    const shorter = await mint(id, envId, { expires_in: 300 });
    claims = decodeJwt(shorter.body.data.token);
    expect((claims.exp as number) - (claims.iat as number)).toBe(300);
    const tooLong = await mint(id, envId, { expires_in: 3601 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/body/expires_in');
  });

  it('environment token: a JWT for the data API, refused by the management API', async () => {
    const { id, envId } = await newDeployment();
    const res = await mint(id, envId, {});
    const call = await svc.call('GET', D(id), { auth: `Bearer ${res.body.data.token}` });
    expect(call.status).toBe(401);
  });

  it('environment token: token routes refuse embed sessions', async () => {
    const { id, envId } = await newDeployment();
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    for (const [method, path] of [
      ['POST', `${D(id)}/environments/${envId}/tokens`],
      ['GET', `${D(id)}/environments/${envId}/tokens`],
      ['POST', `${D(id)}/environments/${envId}/tokens-for-meta-sync`],
    ] as const) {
      const res = await svc.call(method, path, { auth: embed, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('EMBED_SESSION_REFUSED');
    }
  });

  it('environment token: an environment of another deployment, or none, is 404', async () => {
    const a = await newDeployment();
    const b = await newDeployment();
    const res = await mint(a.id, b.envId, {});
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ENVIRONMENT_NOT_FOUND');
    expect((await mint(a.id, 999999, {})).status).toBe(404);
  });

  it('environment token: the body is optional', async () => {
    const { id, envId } = await newDeployment();
    const res = await svc.call('POST', `${D(id)}/environments/${envId}/tokens`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ scopes: [], security_context: {} });
  });

  it('environment token: minting is logged in the api-proxy log, without the token or context values', async () => {
    const { id, envId } = await newDeployment();
    const res = await mint(id, envId, { scopes: ['meta'], security_context: { customer: 'context-value-xyz' } });
    const logs = await svc.call('GET', `${D(id)}/logs?container=api-proxy&source=production`);
    expect(logs.body.items[0].message).toContain('Environment token');
    expect(logs.body.items[0].message).toContain('scopes [meta], security context keys [customer]');
    expect(logs.text).not.toContain(res.body.data.token);
    expect(logs.text).not.toContain('context-value-xyz');
  });
});

describe('environment token list (GET D/environments/{environmentId}/tokens)', () => {
  it('environment token list: only tokens minted by the calling user', async () => {
    const { id, envId } = await newDeployment();
    const other = createUser(svc, 'developer');
    await mint(id, envId, { security_context: { who: 'admin' } });
    await mint(id, envId, { security_context: { who: 'other' } }, other.auth);
    await mint(id, envId, { security_context: { who: 'other-2' } }, other.auth);
    const mine = await svc.call('GET', `${D(id)}/environments/${envId}/tokens`, { auth: other.auth });
    expect(mine.body.items.map((t: { security_context: { who: string } }) => t.security_context.who)).toEqual(['other-2', 'other']);
    const admins = await svc.call('GET', `${D(id)}/environments/${envId}/tokens`);
    expect(admins.body.items.map((t: { security_context: { who: string } }) => t.security_context.who)).toEqual(['admin']);
  });

  it('environment token list: newest first, and never the token string', async () => {
    const { id, envId } = await newDeployment();
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) tokens.push((await mint(id, envId, { security_context: { n: i } })).body.data.token);
    const res = await svc.call('GET', `${D(id)}/environments/${envId}/tokens`);
    expect(res.body.items.map((t: { security_context: { n: number } }) => t.security_context.n)).toEqual([2, 1, 0]);
    for (const token of tokens) expect(res.text).not.toContain(token);
    expect(Object.keys(res.body.items[0]).sort()).toEqual(['created_at', 'expires_at', 'id', 'purpose', 'scopes', 'security_context']);
  });

  it('environment token list: cursor paginated', async () => {
    const { id, envId } = await newDeployment();
    for (let i = 0; i < 5; i++) await mint(id, envId, { security_context: { n: i } });
    const seen: number[] = [];
    let after: string | null = null;
    do {
      const res = await svc.call('GET', `${D(id)}/environments/${envId}/tokens?first=2${after ? `&after=${after}` : ''}`);
      seen.push(...res.body.items.map((t: { security_context: { n: number } }) => t.security_context.n));
      after = res.body.pageInfo.hasNextPage ? res.body.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual([4, 3, 2, 1, 0]);
  });

  it('environment token list: needs deployment read access; embed sessions refused (see token routes)', async () => {
    const { id, envId } = await newDeployment();
    const noRead = createUser(svc, 'viewer', { actions: ['-DeploymentRead'] });
    expect((await svc.call('GET', `${D(id)}/environments/${envId}/tokens`, { auth: noRead.auth })).status).toBe(403);
    expect((await svc.call('GET', `${D(id)}/environments/${envId}/tokens`, { auth: viewer.auth })).status).toBe(200);
  });
});

describe('environment tokens over time (manual clock)', () => {
  let timed: TestService;
  const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
  beforeAll(async () => {
    timed = await startTestService({ clock });
  });
  afterAll(async () => timed.stop());

  it('environment token list: only live tokens; expired ones are not listed', async () => {
    const { id, envId } = await newDeployment(timed);
    await mint(id, envId, { expires_in: 60, security_context: { n: 'short' } }, undefined, timed);
    await mint(id, envId, { expires_in: 3600, security_context: { n: 'long' } }, undefined, timed);
    const list = async () =>
      (await timed.call('GET', `${D(id)}/environments/${envId}/tokens`)).body.items.map((t: { security_context: { n: string } }) => t.security_context.n);
    expect(await list()).toEqual(['long', 'short']);
    clock.advance(61_000);
    expect(await list()).toEqual(['long']);
    clock.advance(3600_000);
    expect(await list()).toEqual([]);
  });

  it('environment token: the token stops verifying when it expires', async () => {
    const { id, envId } = await newDeployment(timed);
    const res = await mint(id, envId, { expires_in: 120 }, undefined, timed);
    await expect(timed.ctx.tokens.verify(res.body.data.token)).resolves.toMatchObject({ kind: 'environment' });
    clock.advance(121_000);
    await expect(timed.ctx.tokens.verify(res.body.data.token)).rejects.toMatchObject({ reason: 'expired' });
  });

  it('environment token list: the latest 1000 live tokens at most', async () => {
    const { id, envId } = await newDeployment(timed);
    const total = 1003;
    for (let start = 0; start < total; start += 50) {
      const batch = [];
      for (let i = start; i < Math.min(start + 50, total); i++) batch.push(mint(id, envId, { security_context: { n: i } }, undefined, timed));
      const results = await Promise.all(batch);
      for (const r of results) expect(r.status).toBe(200);
    }
    const seen: number[] = [];
    let after: string | null = null;
    do {
      const res = await timed.call('GET', `${D(id)}/environments/${envId}/tokens?first=400${after ? `&after=${after}` : ''}`);
      seen.push(...res.body.items.map((t: { security_context: { n: number } }) => t.security_context.n));
      after = res.body.pageInfo.hasNextPage ? res.body.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toHaveLength(1000);
    const minted = (timed.ctx.db.prepare('SELECT COUNT(*) AS n FROM environment_tokens WHERE environment_id = ?').get(envId) as { n: number }).n;
    expect(minted).toBe(total);
    // The three oldest are the ones left out.
    const ids = (await timed.call('GET', `${D(id)}/environments/${envId}/tokens?first=1000`)).body.items.map((t: { id: number }) => t.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const oldest = timed.ctx.db.prepare('SELECT id FROM environment_tokens WHERE environment_id = ? ORDER BY id LIMIT 3').all(envId) as { id: number }[];
    for (const { id: tokenId } of oldest) expect(ids).not.toContain(tokenId);
  }, 120_000);
});

describe('meta sync token (POST D/environments/{environmentId}/tokens-for-meta-sync)', () => {
  it('meta sync token: the scope meta is always forced', async () => {
    const { id, envId } = await newDeployment();
    const path = `${D(id)}/environments/${envId}/tokens-for-meta-sync`;
    const none = await svc.call('POST', path, { body: { scopes: [] } });
    expect(none.body.data.scopes).toEqual(['meta']);
    const asViewer = await svc.call('POST', path, { body: { scopes: ['sql-runner'] }, auth: viewer.auth });
    expect(asViewer.body.data.scopes).toEqual(['meta']);
    expect(decodeJwt(asViewer.body.data.token).scopes).toEqual(['meta']);
    const withRunner = await svc.call('POST', path, { body: { scopes: ['sql-runner', 'meta'] } });
    expect(withRunner.body.data.scopes).toEqual(['sql-runner', 'meta']);
  });

  it('meta sync token: responds { data: { created_at, expires_at, scopes, security_context, token } }', async () => {
    const { id, envId } = await newDeployment();
    const res = await svc.call('POST', `${D(id)}/environments/${envId}/tokens-for-meta-sync`, {
      body: { security_context: { tenant: 'acme' }, expires_in: 900 },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(Object.keys(res.body.data).sort()).toEqual(['created_at', 'expires_at', 'scopes', 'security_context', 'token']);
    expect(res.body.data.security_context).toEqual({ tenant: 'acme' });
    expect(Date.parse(res.body.data.expires_at) - Date.parse(res.body.data.created_at)).toBe(900_000);
    expect(decodeJwt(res.body.data.token).securityContext).toEqual({ tenant: 'acme' });
  });

  it('meta sync token: refuses embed sessions with 403', async () => {
    const { id, envId } = await newDeployment();
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    const res = await svc.call('POST', `${D(id)}/environments/${envId}/tokens-for-meta-sync`, { body: {}, auth: embed });
    expect(res.status).toBe(403);
  });

  it('meta sync token: listed among the caller’s tokens with purpose meta-sync', async () => {
    const { id, envId } = await newDeployment();
    await svc.call('POST', `${D(id)}/environments/${envId}/tokens-for-meta-sync`, { body: {} });
    const list = await svc.call('GET', `${D(id)}/environments/${envId}/tokens`);
    expect(list.body.items[0]).toMatchObject({ purpose: 'meta-sync', scopes: ['meta'] });
  });
});
