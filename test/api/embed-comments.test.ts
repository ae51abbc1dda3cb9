import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser } from '../support/users';

let svc: TestService;
let dep: number;
let otherDep: number;
let publicId: string;
/** Embed bearer headers by user. */
const as: Record<string, string> = {};
const ids: Record<string, number> = {};

async function embedSession(tenant: string, externalId: string, extra: Record<string, unknown> = {}, deploymentId = dep): Promise<string> {
  const generated = await svc.call('POST', '/api/v1/embed/generate-session', {
    body: { deploymentId, embedTenantName: tenant, externalId, name: `${externalId} name`, email: `${externalId}@${tenant}.example`, ...extra },
  });
  expect(generated.status, generated.text).toBe(200);
  ids[`${tenant}/${externalId}`] = generated.body.embedUserId;
  const exchanged = await svc.call('POST', '/api/v1/embed/session/token', { body: { sessionId: generated.body.sessionId }, auth: null });
  expect(exchanged.status).toBe(200);
  return `Bearer ${exchanged.body.token}`;
}

async function dashboard(deploymentId: number, options: { signed?: boolean; access?: 'read' | 'none' | null } = {}): Promise<{ id: number; publicId: string }> {
  const created = await svc.call('POST', `/api/v1/deployments/${deploymentId}/workbooks`, { body: { name: `wb ${Math.random().toString(36).slice(2, 8)}` } });
  expect(created.status, created.text).toBe(201);
  const published = await svc.call('POST', `/api/v1/deployments/${deploymentId}/workbooks/${created.body.id}/publish`, {
    body: { config: { title: 'Sales', widgets: [{ id: 'py-1', type: 'CHART', position: { x: 0, y: 0, w: 4, h: 4 } }] } },
  });
  expect(published.status, published.text).toBe(200);
  if (options.access !== null) {
    const access = await svc.call('PUT', `/api/v1/deployments/${deploymentId}/workbooks/${created.body.id}/embed-access`, {
      body: { scope: 'allEmbedUsers', action: options.access ?? 'read' },
    });
    expect(access.status, access.text).toBe(200);
  }
  if (options.signed !== false) {
    const patched = await svc.call('PATCH', `/api/v1/embed/dashboard/${created.body.publicId}`, { body: { signedEmbeddingEnabled: true } });
    expect(patched.status, patched.text).toBe(200);
  }
  return { id: created.body.id, publicId: created.body.publicId };
}

beforeAll(async () => {
  svc = await startTestService();
  dep = await createDeployment(svc);
  otherDep = await createDeployment(svc);
  await svc.call('PUT', '/api/v1/tenant/settings', { body: { embeddingEnabled: true } });
  ({ publicId } = await dashboard(dep));
  const comments = { embedTenantProfile: { settings: { enableDashboardComments: true } } };
  as.alice = await embedSession('acme', 'alice', comments);
  as.bob = await embedSession('acme', 'bob');
  as.gina = await embedSession('globex', 'gina', comments);
  as.quiet = await embedSession('quietco', 'quinn', { embedTenantProfile: { settings: { enableDashboardComments: false } } });
});
afterAll(async () => svc.stop());

const C = (id = publicId) => `/api/v1/embed/dashboard/${id}/comments`;
async function comment(auth: string, body: Record<string, unknown> = {}, id = publicId): Promise<{ id: number }> {
  const res = await svc.call('POST', C(id), { body: { body: 'Looks off in March', ...body }, auth });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('PATCH /api/v1/embed/dashboard/{publicId}', () => {
  it('enables and disables signed embedding (admin)', async () => {
    const wb = await dashboard(dep, { signed: false });
    const on = await svc.call('PATCH', `/api/v1/embed/dashboard/${wb.publicId}`, { body: { signedEmbeddingEnabled: true } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ publicId: wb.publicId, workbookId: wb.id, deploymentId: dep, signedEmbeddingEnabled: true });
    const off = await svc.call('PATCH', `/api/v1/embed/dashboard/${wb.publicId}`, { body: { signedEmbeddingEnabled: false } });
    expect(off.body.signedEmbeddingEnabled).toBe(false);
  });

  it('answers 404 for an unknown dashboard and 403 for non-admins and embed sessions', async () => {
    const missing = await svc.call('PATCH', '/api/v1/embed/dashboard/nope', { body: { signedEmbeddingEnabled: true } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('DASHBOARD_NOT_FOUND');
    const developer = createUser(svc, 'developer');
    expect((await svc.call('PATCH', `/api/v1/embed/dashboard/${publicId}`, { body: { signedEmbeddingEnabled: false }, auth: developer.auth })).status).toBe(403);
    expect((await svc.call('PATCH', `/api/v1/embed/dashboard/${publicId}`, { body: { signedEmbeddingEnabled: false }, auth: as.alice })).status).toBe(403);
  });
});

describe('embed dashboard comments', () => {
  it('creates and lists comments with author, widget and mentions', async () => {
    const created = await svc.call('POST', C(), { body: { body: 'Check this', widgetId: 'py-1', mentions: [ids['acme/bob']] }, auth: as.alice });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      dashboardPublicId: publicId,
      body: 'Check this',
      widgetId: 'py-1',
      author: { id: ids['acme/alice'], name: 'alice name' },
      mentions: [{ id: ids['acme/bob'], name: 'bob name' }],
      resolved: false,
      canEdit: true,
    });
    const list = await svc.call('GET', C(), { auth: as.bob });
    expect(list.status).toBe(200);
    const seen = list.body.items.find((c: { id: number }) => c.id === created.body.id);
    expect(seen).toMatchObject({ body: 'Check this', canEdit: false });
  });

  it('requires a signed embed session (403 EMBED_SESSION_REQUIRED for API keys and for embed tokens not from a session)', async () => {
    const key = await svc.call('GET', C());
    expect(key.status).toBe(403);
    expect(key.body.code).toBe('EMBED_SESSION_REQUIRED');
    const unsigned = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    expect((await svc.call('GET', C(), { auth: unsigned })).body.code).toBe('EMBED_SESSION_REQUIRED');
  });

  it('requires the tenant’s enableDashboardComments (403 DASHBOARD_COMMENTS_DISABLED)', async () => {
    const res = await svc.call('POST', C(), { body: { body: 'hi' }, auth: as.quiet });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('DASHBOARD_COMMENTS_DISABLED');
  });

  it('keeps comments within the tenant: another tenant neither sees nor edits them', async () => {
    const mine = await comment(as.alice, { body: 'acme only' });
    const theirs = await svc.call('GET', C(), { auth: as.gina });
    expect(theirs.body.items.map((c: { id: number }) => c.id)).not.toContain(mine.id);
    const edit = await svc.call('PATCH', `${C()}/${mine.id}`, { body: { body: 'hijack' }, auth: as.gina });
    expect(edit.status).toBe(404);
    expect(edit.body.code).toBe('COMMENT_NOT_FOUND');
  });

  it('lets only the author edit, delete or resolve (403 COMMENT_AUTHOR_ONLY)', async () => {
    const mine = await comment(as.alice);
    for (const [method, path, body] of [
      ['PATCH', `${C()}/${mine.id}`, { body: 'bob edits' }],
      ['DELETE', `${C()}/${mine.id}`, undefined],
      ['POST', `${C()}/${mine.id}/resolve`, {}],
    ] as const) {
      const res = await svc.call(method, path, { body, auth: as.bob });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('COMMENT_AUTHOR_ONLY');
    }
    const edited = await svc.call('PATCH', `${C()}/${mine.id}`, { body: { body: 'alice edits' }, auth: as.alice });
    expect(edited.status).toBe(200);
    expect(edited.body.body).toBe('alice edits');
    expect((await svc.call('DELETE', `${C()}/${mine.id}`, { auth: as.alice })).status).toBe(204);
    expect((await svc.call('DELETE', `${C()}/${mine.id}`, { auth: as.alice })).status).toBe(404);
  });

  it('resolves and reopens a comment; includeResolved=false hides resolved ones', async () => {
    const mine = await comment(as.alice, { body: 'to resolve' });
    const resolved = await svc.call('POST', `${C()}/${mine.id}/resolve`, { auth: as.alice });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ resolved: true, resolvedBy: { id: ids['acme/alice'] } });
    const open = await svc.call('GET', `${C()}?includeResolved=false`, { auth: as.alice });
    expect(open.body.items.map((c: { id: number }) => c.id)).not.toContain(mine.id);
    const all = await svc.call('GET', C(), { auth: as.alice });
    expect(all.body.items.map((c: { id: number }) => c.id)).toContain(mine.id);
    const reopened = await svc.call('POST', `${C()}/${mine.id}/resolve`, { body: { resolved: false }, auth: as.alice });
    expect(reopened.body).toMatchObject({ resolved: false, resolvedAt: null, resolvedBy: null });
  });

  it('mentions only users of the same tenant (400 EMBED_USER_NOT_FOUND)', async () => {
    const res = await svc.call('POST', C(), { body: { body: 'hey', mentions: [ids['globex/gina']] }, auth: as.alice });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('EMBED_USER_NOT_FOUND');
    expect(res.body.errors[0].pointer).toBe('/body/mentions/0');
  });

  it('lists mentionable users of the caller’s tenant only, with search', async () => {
    const res = await svc.call('GET', `/api/v1/embed/dashboard/${publicId}/mentionable-users`, { auth: as.alice });
    expect(res.status).toBe(200);
    const names = res.body.items.map((u: { name: string }) => u.name);
    expect(names).toEqual(['alice name', 'bob name']);
    const search = await svc.call('GET', `/api/v1/embed/dashboard/${publicId}/mentionable-users?search=bob`, { auth: as.alice });
    expect(search.body.items).toEqual([{ id: ids['acme/bob'], name: 'bob name', email: 'bob@acme.example' }]);
  });

  it('paginates comments with first/after', async () => {
    const wb = await dashboard(dep);
    for (let i = 0; i < 3; i++) await comment(as.alice, { body: `c${i}` }, wb.publicId);
    const first = await svc.call('GET', `${C(wb.publicId)}?first=2`, { auth: as.alice });
    expect(first.body.items.map((c: { body: string }) => c.body)).toEqual(['c0', 'c1']);
    const next = await svc.call('GET', `${C(wb.publicId)}?first=2&after=${first.body.pageInfo.endCursor}`, { auth: as.alice });
    expect(next.body.items.map((c: { body: string }) => c.body)).toEqual(['c2']);
    expect(next.body.pageInfo.hasNextPage).toBe(false);
  });

  it('needs signed embedding on for the dashboard and read access for the tenant', async () => {
    const unsigned = await dashboard(dep, { signed: false });
    const off = await svc.call('GET', C(unsigned.publicId), { auth: as.alice });
    expect(off.status).toBe(403);
    expect(off.body.code).toBe('SIGNED_EMBEDDING_DISABLED');
    const denied = await dashboard(dep, { access: 'none' });
    const res = await svc.call('GET', C(denied.publicId), { auth: as.alice });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('EMBED_ACCESS_DENIED');
  });

  it('answers 404 for an unknown dashboard or one of another deployment', async () => {
    expect((await svc.call('GET', C('nope'), { auth: as.alice })).status).toBe(404);
    const elsewhere = await dashboard(otherDep);
    expect((await svc.call('GET', C(elsewhere.publicId), { auth: as.alice })).status).toBe(404);
  });

  it('deletes the comments with the dashboard’s workbook', async () => {
    const wb = await dashboard(dep);
    await comment(as.alice, {}, wb.publicId);
    await svc.call('DELETE', `/api/v1/deployments/${dep}/workbooks/${wb.id}`);
    expect(svc.ctx.db.prepare('SELECT COUNT(*) AS n FROM embed_dashboard_comments WHERE workbook_id = ?').get(wb.id)).toEqual({ n: 0 });
  });
});

describe('POST /api/v1/embed/dashboard/{publicId}/python-run', () => {
  it('a widget without Python code (config.python) answers 422 WIDGET_HAS_NO_PYTHON, for an embed session and for a user', async () => {
    const res = await svc.call('POST', `/api/v1/embed/dashboard/${publicId}/python-run`, { body: { widgetId: 'py-1', filters: [] }, auth: as.alice });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('WIDGET_HAS_NO_PYTHON');
    expect((await svc.call('POST', `/api/v1/embed/dashboard/${publicId}/python-run`, { body: { widgetId: 'py-1' } })).body.code).toBe('WIDGET_HAS_NO_PYTHON');
  });

  it('answers 404 for an unknown widget and 403 without embed access', async () => {
    const unknown = await svc.call('POST', `/api/v1/embed/dashboard/${publicId}/python-run`, { body: { widgetId: 'nope' }, auth: as.alice });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('WIDGET_NOT_FOUND');
    const denied = await dashboard(dep, { access: 'none' });
    expect((await svc.call('POST', `/api/v1/embed/dashboard/${denied.publicId}/python-run`, { body: { widgetId: 'py-1' }, auth: as.alice })).status).toBe(403);
  });
});
