import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEmbedTenant } from '../../src-main/features/embed/tenants';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';

let svc: TestService;
let dep: number;
let owner: TestUser;
let otherDeveloper: TestUser;

beforeAll(async () => {
  svc = await startTestService();
  dep = await createDeployment(svc);
  owner = createUser(svc, 'developer');
  otherDeveloper = createUser(svc, 'developer');
  ensureEmbedTenant(svc.ctx, 'acme', 'Acme Corp');
  ensureEmbedTenant(svc.ctx, 'globex');
});
afterAll(async () => svc.stop());

const D = () => `/api/v1/deployments/${dep}`;
async function workbook(body: Record<string, unknown> = {}, auth?: string): Promise<number> {
  const res = await svc.call('POST', `${D()}/workbooks`, { body: { name: `wb ${Math.random().toString(36).slice(2, 8)}`, ...body }, auth });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}
const setAccess = (id: number, body: Record<string, unknown>, auth?: string) =>
  svc.call('PUT', `${D()}/workbooks/${id}/embed-access`, { body, auth });
const tenantWorkbooks = (tenant: string, query = '', auth?: string) =>
  svc.call('GET', `${D()}/embed-tenants/${tenant}/workbooks${query}`, { auth });

describe('workbook embed access', () => {
  it('starts with no entries', async () => {
    const id = await workbook();
    const res = await svc.call('GET', `${D()}/workbooks/${id}/embed-access`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ workbookId: id, entries: [] });
  });

  it('sets access per embed tenant and for all embed users, with actions read and none', async () => {
    const id = await workbook();
    await setAccess(id, { scope: 'tenant', embedTenantName: 'acme', action: 'read' });
    await setAccess(id, { scope: 'tenant', embedTenantName: 'globex', action: 'none' });
    const res = await setAccess(id, { scope: 'allEmbedUsers', action: 'read' });
    expect(res.status).toBe(200);
    expect(res.body.entries.map((e: { scope: string; embedTenantName: string | null; action: string }) => [e.scope, e.embedTenantName, e.action])).toEqual([
      ['allEmbedUsers', null, 'read'],
      ['tenant', 'acme', 'read'],
      ['tenant', 'globex', 'none'],
    ]);
    const changed = await setAccess(id, { scope: 'tenant', embedTenantName: 'acme', action: 'none' });
    expect(changed.body.entries.find((e: { embedTenantName: string | null }) => e.embedTenantName === 'acme').action).toBe('none');
    expect(changed.body.entries).toHaveLength(3);
  });

  it('refuses an action other than read or none, and a tenant entry without a tenant name, with 400', async () => {
    const id = await workbook();
    expect((await setAccess(id, { scope: 'tenant', embedTenantName: 'acme', action: 'write' })).status).toBe(400);
    const noName = await setAccess(id, { scope: 'tenant', action: 'read' });
    expect(noName.status).toBe(400);
    expect(noName.body.errors[0].pointer).toBe('/body/embedTenantName');
  });

  it('answers 404 EMBED_TENANT_NOT_FOUND for an embed tenant that does not exist', async () => {
    const id = await workbook();
    const res = await setAccess(id, { scope: 'tenant', embedTenantName: 'nobody', action: 'read' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('EMBED_TENANT_NOT_FOUND');
  });

  it('needs manage access to the workbook (owner or admin) to change it', async () => {
    const id = await workbook({}, owner.auth);
    expect((await setAccess(id, { scope: 'allEmbedUsers', action: 'read' }, otherDeveloper.auth)).status).toBe(403);
    expect((await setAccess(id, { scope: 'allEmbedUsers', action: 'read' }, owner.auth)).status).toBe(200);
    expect((await setAccess(id, { scope: 'allEmbedUsers', action: 'none' })).status).toBe(200);
  });
});

describe('GET D/embed-tenants/{embedTenantName}/workbooks', () => {
  it('lists the workbooks a tenant can read with how: tenant entry, all embed users, or a folder', async () => {
    const d = await createDeployment(svc);
    const url = (id?: number) => `/api/v1/deployments/${d}/workbooks${id ? `/${id}` : ''}`;
    const mk = async (name: string, folderId?: number) =>
      (await svc.call('POST', url(), { body: { name, ...(folderId ? { folderId } : {}) } })).body.id as number;
    const folder = (await svc.call('POST', `/api/v1/deployments/${d}/folders`, { body: { name: 'Shared' } })).body.id as number;
    const sub = (await svc.call('POST', `/api/v1/deployments/${d}/folders`, { body: { name: 'Inner', parentId: folder } })).body.id as number;
    const direct = await mk('direct');
    const everyone = await mk('everyone');
    const blocked = await mk('blocked');
    const inFolder = await mk('in-folder', sub);
    const optedOut = await mk('opted-out', sub);
    await mk('nothing');
    const put = (id: number, body: Record<string, unknown>) => svc.call('PUT', `${url(id)}/embed-access`, { body });
    await put(direct, { scope: 'tenant', embedTenantName: 'acme', action: 'read' });
    await put(everyone, { scope: 'allEmbedUsers', action: 'read' });
    await put(blocked, { scope: 'allEmbedUsers', action: 'read' });
    await put(blocked, { scope: 'tenant', embedTenantName: 'acme', action: 'none' });
    await put(optedOut, { scope: 'allEmbedUsers', action: 'none' });
    const folderAccess = await svc.call('PUT', `/api/v1/deployments/${d}/folders/${folder}/embed-access`, {
      body: { scope: 'tenant', embedTenantName: 'acme', action: 'read' },
    });
    expect(folderAccess.status).toBe(200);

    const res = await svc.call('GET', `/api/v1/deployments/${d}/embed-tenants/acme/workbooks`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((w: { workbookId: number; accessSource: string; sourceFolderId: number | null }) => [w.workbookId, w.accessSource, w.sourceFolderId])).toEqual([
      [direct, 'tenant', null],
      [everyone, 'allEmbedUsers', null],
      [inFolder, 'folder', folder],
    ]);
    expect(res.body.items[2].folderPath).toBe('/Shared/Inner');

    const globex = await svc.call('GET', `/api/v1/deployments/${d}/embed-tenants/globex/workbooks`);
    expect(globex.body.items.map((w: { workbookId: number }) => w.workbookId)).toEqual([everyone, blocked]);
  });

  it('filters by accessSource and paginates with a cursor', async () => {
    const d = await createDeployment(svc);
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const id = (await svc.call('POST', `/api/v1/deployments/${d}/workbooks`, { body: { name: `t${i}` } })).body.id;
      await svc.call('PUT', `/api/v1/deployments/${d}/workbooks/${id}/embed-access`, { body: { scope: 'tenant', embedTenantName: 'acme', action: 'read' } });
      ids.push(id);
    }
    const all = (await svc.call('POST', `/api/v1/deployments/${d}/workbooks`, { body: { name: 'all' } })).body.id;
    await svc.call('PUT', `/api/v1/deployments/${d}/workbooks/${all}/embed-access`, { body: { scope: 'allEmbedUsers', action: 'read' } });
    const base = `/api/v1/deployments/${d}/embed-tenants/acme/workbooks`;
    const onlyAll = await svc.call('GET', `${base}?accessSource=allEmbedUsers`);
    expect(onlyAll.body.items.map((w: { workbookId: number }) => w.workbookId)).toEqual([all]);
    const page1 = await svc.call('GET', `${base}?accessSource=tenant&first=2`);
    expect(page1.body.items.map((w: { workbookId: number }) => w.workbookId)).toEqual(ids.slice(0, 2));
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    const page2 = await svc.call('GET', `${base}?accessSource=tenant&first=2&after=${page1.body.pageInfo.endCursor}`);
    expect(page2.body.items.map((w: { workbookId: number }) => w.workbookId)).toEqual([ids[2]]);
    expect((await svc.call('GET', `${base}?accessSource=somewhere`)).status).toBe(400);
  });

  it('is for admins only (403 for a developer)', async () => {
    const res = await tenantWorkbooks('acme', '', owner.auth);
    expect(res.status).toBe(403);
    expect((await tenantWorkbooks('acme')).status).toBe(200);
  });

  it('answers 404 for an unknown embed tenant', async () => {
    const res = await tenantWorkbooks('unknown-tenant');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('EMBED_TENANT_NOT_FOUND');
  });
});
