import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordBuildState } from '../../src-main/features/deployments';
import { exchangeSession } from '../../src-main/features/embed-sessions';
import { ManualClock } from '../../src-main/platform/clock';
import { sha256 } from '../../src-main/platform/tokens/tokens';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { createUser } from '../support/users';

let svc: TestService;
let dep: number;
const clock = new ManualClock(new Date('2026-02-01T09:00:00.000Z'));

beforeAll(async () => {
  svc = await startTestService({ clock });
  dep = await createDeployment(svc);
  const enabled = await svc.call('PUT', '/api/v1/tenant/settings', { body: { embeddingEnabled: true } });
  expect(enabled.status).toBe(200);
});
afterAll(async () => svc.stop());

let counter = 0;
const externalId = () => `user-${++counter}`;
const generate = (body: Record<string, unknown> = {}, auth?: string) =>
  svc.call('POST', '/api/v1/embed/generate-session', { body: { deploymentId: dep, embedTenantName: 'acme', externalId: externalId(), ...body }, auth });
const exchange = (sessionId: string) => svc.call('POST', '/api/v1/embed/session/token', { body: { sessionId }, auth: null });
const revoke = (sessionId: string, auth?: string) => svc.call('POST', '/api/v1/embed/session/revoke', { body: { sessionId }, auth });
const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
/** A call only an embed session may make and that needs nothing else: the app config. */
const useToken = (token: string) => svc.call('GET', '/api/v1/app-config', { auth: `Bearer ${token}` });

async function session(body: Record<string, unknown> = {}): Promise<string> {
  const res = await generate(body);
  expect(res.status, res.text).toBe(200);
  return res.body.sessionId;
}
async function token(body: Record<string, unknown> = {}): Promise<{ sessionId: string; token: string; body: Record<string, unknown> }> {
  const sessionId = await session(body);
  const res = await exchange(sessionId);
  expect(res.status, res.text).toBe(200);
  return { sessionId, token: res.body.token, body: res.body };
}
const setTenant = (body: Record<string, unknown>) => svc.call('PUT', '/api/v1/tenant/settings', { body });

describe('POST /api/v1/embed/generate-session', () => {
  it('returns a session id and creates the tenant and its user on first use', async () => {
    const res = await generate({ embedTenantName: 'first-co', externalId: 'ext-1', email: 'ext1@first.example', name: 'Ext One', embedTenantProfile: { displayName: 'First Co' } });
    expect(res.status).toBe(200);
    expect(res.body.sessionId).toMatch(/^es_/);
    expect(res.body).toMatchObject({ embedTenantName: 'first-co', deploymentId: dep });
    const tenant = await svc.call('GET', '/api/v1/embed-tenants/first-co');
    expect(tenant.body).toMatchObject({ name: 'first-co', displayName: 'First Co', userCount: 1 });
    const users = await svc.call('GET', '/api/v1/embed-tenants/first-co/users');
    expect(users.body.items[0]).toMatchObject({ externalId: 'ext-1', email: 'ext1@first.example', name: 'Ext One', id: res.body.embedUserId });
    expect(JSON.stringify(svc.ctx.db.prepare('SELECT * FROM embed_sessions').all())).not.toContain(res.body.sessionId);
  });

  it('uses production when branchName is omitted or names the production branch', async () => {
    const omitted = await generate();
    const production = omitted.body.branchName as string;
    expect(production.length).toBeGreaterThan(0);
    const named = await generate({ branchName: production });
    expect(named.status).toBe(200);
    expect(named.body.branchName).toBe(production);
  });

  it('answers 404 for a branchName that is not a branch', async () => {
    const res = await generate({ branchName: 'no-such-branch' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('BRANCH_NOT_FOUND');
  });

  it('answers 400 for a branch with nothing running, and opens it once it runs', async () => {
    const created = await svc.call('POST', `/build/api/v1/deployments/${dep}/branches`, { body: { branchName: 'feature-x' } });
    expect(created.status, created.text).toBe(201);
    const idle = await generate({ branchName: 'feature-x' });
    expect(idle.status).toBe(400);
    expect(idle.body.code).toBe('EMBED_BRANCH_NOT_RUNNING');
    expect(idle.body.detail).toContain('nothing running');
    recordBuildState(svc.ctx, dep, 'feature-x', { buildStatus: 'succeeded', deployStatus: 'deployed' });
    const running = await generate({ branchName: 'feature-x' });
    expect(running.status).toBe(200);
    expect(running.body.branchName).toBe('feature-x');
    const exchanged = await exchange(running.body.sessionId);
    expect(decode(exchanged.body.token).branch).toBe('feature-x');
  });

  it('answers 404 for an unknown deployment', async () => {
    expect((await generate({ deploymentId: 999999 })).status).toBe(404);
  });

  it('is admin only and needs embedding enabled (403 EMBEDDING_DISABLED)', async () => {
    const developer = createUser(svc, 'developer');
    expect((await generate({}, developer.auth)).status).toBe(403);
    await setTenant({ embeddingEnabled: false });
    try {
      const res = await generate();
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('EMBEDDING_DISABLED');
    } finally {
      await setTenant({ embeddingEnabled: true });
    }
  });

  it('validates settings: unknown keys, a bad time zone or locale are 400', async () => {
    expect((await generate({ settings: { showEverything: true } })).status).toBe(400);
    const zone = await generate({ settings: { timezone: 'Nowhere/Special' } });
    expect(zone.status).toBe(400);
    expect(zone.body.errors[0].pointer).toBe('/body/settings/timezone');
    expect((await generate({ settings: { locale: 'not a locale!' } })).status).toBe(400);
  });

  it('defines tenant groups and makes the user a member of exactly tenantGroups', async () => {
    const ext = externalId();
    const res = await generate({
      embedTenantName: 'groupco',
      externalId: ext,
      tenantGroupDefinitions: [{ name: 'sales', description: 'Sales team' }, { name: 'ops' }],
      tenantGroups: ['sales', 'ops'],
    });
    expect(res.status, res.text).toBe(200);
    const groups = await svc.call('GET', '/api/v1/embed-tenants/groupco/groups');
    expect(groups.body.items.map((g: { name: string }) => g.name).sort()).toEqual(['ops', 'sales']);
    const claims = decode((await exchange(res.body.sessionId)).body.token);
    expect(claims.groups).toEqual(['ops', 'sales']);
    await generate({ embedTenantName: 'groupco', externalId: ext, tenantGroups: ['ops'] });
    const users = await svc.call('GET', '/api/v1/embed-tenants/groupco/users');
    expect(users.body.items.find((u: { externalId: string }) => u.externalId === ext).groups).toEqual(['ops']);
  });

  it('refuses a tenant group that is neither defined nor existing with 400, writing nothing', async () => {
    const res = await generate({ embedTenantName: 'brand-new-co', tenantGroups: ['ghosts'] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('EMBED_GROUP_NOT_FOUND');
    expect(res.body.errors[0].pointer).toBe('/body/tenantGroups/0');
    expect((await svc.call('GET', '/api/v1/embed-tenants/brand-new-co')).status).toBe(404);
  });

  it('sets the tenant profile (display name, enableDashboardComments) from embedTenantProfile', async () => {
    await generate({ embedTenantName: 'profiled', embedTenantProfile: { displayName: 'Profiled Inc', settings: { enableDashboardComments: true } } });
    const tenant = (await svc.call('GET', '/api/v1/embed-tenants/profiled')).body;
    expect(tenant).toMatchObject({ displayName: 'Profiled Inc', settings: { enableDashboardComments: true } });
    await generate({ embedTenantName: 'profiled' });
    expect((await svc.call('GET', '/api/v1/embed-tenants/profiled')).body).toMatchObject({ displayName: 'Profiled Inc', settings: { enableDashboardComments: true } });
  });
});

describe('POST /api/v1/embed/session/token', () => {
  it('exchanges an unexchanged session id, without a credential, for an embed token expiring within 24 hours', async () => {
    const sessionId = await session({ embedTenantName: 'acme' });
    const res = await exchange(sessionId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ embedTenantName: 'acme', deploymentId: dep });
    const lifetime = new Date(res.body.expiresAt).getTime() - clock.now().getTime();
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(24 * 3600 * 1000);
    const claims = decode(res.body.token);
    expect(claims).toMatchObject({ kind: 'embed', embedTenant: 'acme', deploymentId: dep });
    expect(typeof claims.sid).toBe('string');
    expect(claims.sub).toBeUndefined();
    expect((await useToken(res.body.token)).status).toBe(200);
  });

  it('exchanges a session id only once (401 afterwards)', async () => {
    const sessionId = await session();
    expect((await exchange(sessionId)).status).toBe(200);
    const again = await exchange(sessionId);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('EMBED_SESSION_INVALID');
  });

  it('refuses an unknown id and an id older than ten minutes with 401', async () => {
    expect((await exchange('es_unknown')).status).toBe(401);
    const sessionId = await session();
    clock.advance(10 * 60 * 1000 + 1);
    expect((await exchange(sessionId)).status).toBe(401);
  });

  it('refuses to exchange while embedding is disabled (403), leaving the id redeemable', async () => {
    const sessionId = await session();
    await setTenant({ embeddingEnabled: false });
    try {
      const res = await exchange(sessionId);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('EMBEDDING_DISABLED');
    } finally {
      await setTenant({ embeddingEnabled: true });
    }
    expect((await exchange(sessionId)).status).toBe(200);
  });

  it('gives a token that the management API refuses outside embed-enabled routes', async () => {
    const { token: t } = await token();
    const res = await svc.call('GET', '/api/v1/groups', { auth: `Bearer ${t}` });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('EMBED_SESSION_REFUSED');
  });

  it('records allowAi: false in the claims and turns every AI surface off', async () => {
    await setTenant({ aiEnabled: true });
    try {
      const off = await token({ settings: { allowAi: false, showDashboardChat: true, showAiWidgets: true, showWorkbookChat: true, allowChatWorkspaceAuthoring: true, locale: 'de-DE' } });
      expect(off.body.settings).toMatchObject({
        allowAi: false,
        showDashboardChat: false,
        showAiWidgets: false,
        showWorkbookChat: false,
        allowChatWorkspaceAuthoring: false,
        locale: 'de-DE',
      });
      const claims = decode(off.token);
      expect(claims.allowAi).toBe(false);
      expect(claims.settings.showDashboardChat).toBe(false);
      const on = await token({ settings: { showWorkbookChat: true } });
      expect(on.body.settings).toMatchObject({ allowAi: true, showWorkbookChat: true });
      expect(decode(on.token).allowAi).toBe(true);
    } finally {
      await setTenant({ aiEnabled: false });
    }
  });

  it('offers no AI in an embed when the tenant’s AI is paywalled (new UI without AI)', async () => {
    await setTenant({ aiEnabled: false, newUiEnabled: true });
    const res = await token({ settings: { allowAi: true, showDashboardChat: true } });
    expect(res.body.settings).toMatchObject({ allowAi: false, showDashboardChat: false });
  });
});

describe('POST /api/v1/embed/session/revoke', () => {
  it('revokes an unexchanged id: it can no longer be redeemed', async () => {
    const sessionId = await session();
    expect((await revoke(sessionId)).status).toBe(204);
    const res = await exchange(sessionId);
    expect(res.status).toBe(401);
  });

  it('revokes an exchanged session: its token is refused with 401 afterwards', async () => {
    const { sessionId, token: t } = await token();
    expect((await useToken(t)).status).toBe(200);
    expect((await revoke(sessionId)).status).toBe(204);
    const res = await useToken(t);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_REVOKED');
  });

  it('answers 204 for unknown, expired and already revoked ids, changing nothing', async () => {
    expect((await revoke('es_never_issued')).status).toBe(204);
    const revoked = await session();
    await revoke(revoked);
    expect((await revoke(revoked)).status).toBe(204);
    const expired = await session();
    clock.advance(11 * 60 * 1000);
    expect((await revoke(expired)).status).toBe(204);
    const statusOf = (id: string) =>
      (svc.ctx.db.prepare('SELECT status FROM embed_sessions WHERE session_hash = ?').get(sha256(id)) as { status: string }).status;
    expect(statusOf(expired)).toBe('unexchanged'); // expired ids are left as they are
    expect(statusOf(revoked)).toBe('revoked');
  });

  it('keeps a legacy token without the revocation claim working until it expires (24 h)', async () => {
    const sessionId = await session();
    const legacy = await exchangeSession(svc.ctx, sessionId, { revocable: false });
    expect(decode(legacy.token).sid).toBeUndefined();
    expect((await revoke(sessionId)).status).toBe(204);
    expect((await useToken(legacy.token)).status).toBe(200);
    clock.advance(24 * 3600 * 1000 + 1000);
    expect((await useToken(legacy.token)).status).toBe(401);
  });

  it('is admin only and needs embedding enabled', async () => {
    const { sessionId, token: t } = await token();
    const developer = createUser(svc, 'developer');
    expect((await revoke(sessionId, developer.auth)).status).toBe(403);
    await setTenant({ embeddingEnabled: false });
    try {
      const res = await revoke(sessionId);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('EMBEDDING_DISABLED');
    } finally {
      await setTenant({ embeddingEnabled: true });
    }
    expect((await useToken(t)).status).toBe(200);
  });

  it('refuses embed sessions calling revoke', async () => {
    const { sessionId, token: t } = await token();
    expect((await revoke(sessionId, `Bearer ${t}`)).status).toBe(403);
  });
});
