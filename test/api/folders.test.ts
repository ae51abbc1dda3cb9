import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';

let svc: TestService;
let owner: TestUser;
let otherDeveloper: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  svc = await startTestService();
  owner = createUser(svc, 'developer', { name: 'Folder Owner', email: 'folder-owner@example.com' });
  otherDeveloper = createUser(svc, 'developer');
  viewer = createUser(svc, 'viewer');
});
afterAll(async () => svc.stop());

async function folder(dep: number, name: string, parentId?: number, auth?: string) {
  const res = await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: { name, ...(parentId ? { parentId } : {}) }, auth });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; path: string };
}

describe('folders', () => {
  it('creates a folder with its path and owner', async () => {
    const dep = await createDeployment(svc);
    const top = await folder(dep, 'Sales', undefined, owner.auth);
    const sub = await folder(dep, 'EMEA', top.id, owner.auth);
    expect(sub).toMatchObject({ name: 'EMEA', parentId: top.id, path: '/Sales/EMEA', owner: { name: 'Folder Owner', email: 'folder-owner@example.com' }, canManage: true });
  });

  it('lists folders with cursor pagination in items/pageInfo and keeps the deprecated data and count', async () => {
    const dep = await createDeployment(svc);
    for (const name of ['A', 'B', 'C']) await folder(dep, name);
    const page1 = await svc.call('GET', `/api/v1/deployments/${dep}/folders?first=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((f: { name: string }) => f.name)).toEqual(['A', 'B']);
    expect(page1.body.data).toEqual(page1.body.items);
    expect(page1.body.count).toBe(3);
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    const page2 = await svc.call('GET', `/api/v1/deployments/${dep}/folders?first=2&after=${page1.body.pageInfo.endCursor}`);
    expect(page2.body.items.map((f: { name: string }) => f.name)).toEqual(['C']);
    expect(page2.body.pageInfo).toEqual({ hasNextPage: false, endCursor: page2.body.pageInfo.endCursor });
  });

  it('marks data and count deprecated in the OpenAPI document (FoldersListResponse)', async () => {
    const spec = await svc.call('GET', '/api/v1/spec', { auth: null });
    const schema = spec.body.paths['/api/v1/deployments/{deploymentId}/folders'].get.responses['200'].content['application/json'].schema;
    expect(schema.title).toBe('FoldersListResponse');
    expect(schema.properties.data.deprecated).toBe(true);
    expect(schema.properties.count.deprecated).toBe(true);
  });

  it('filters the list by parentId (0 = top level)', async () => {
    const dep = await createDeployment(svc);
    const top = await folder(dep, 'Top');
    await folder(dep, 'Child', top.id);
    const topLevel = await svc.call('GET', `/api/v1/deployments/${dep}/folders?parentId=0`);
    expect(topLevel.body.items.map((f: { name: string }) => f.name)).toEqual(['Top']);
    const children = await svc.call('GET', `/api/v1/deployments/${dep}/folders?parentId=${top.id}`);
    expect(children.body.items.map((f: { name: string }) => f.name)).toEqual(['Child']);
    expect(children.body.count).toBe(1);
  });

  it('refuses a second folder of the same name beside the first with 409 FOLDER_NAME_TAKEN', async () => {
    const dep = await createDeployment(svc);
    await folder(dep, 'Reports');
    const res = await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: { name: 'reports' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('FOLDER_NAME_TAKEN');
  });

  it('refuses a name with a slash, an empty name and a name over 255 characters with 400', async () => {
    const dep = await createDeployment(svc);
    for (const name of ['a/b', '', 'n'.repeat(256)]) {
      expect((await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: { name } })).status).toBe(400);
    }
  });

  it('renames and moves a folder, and refuses to move it into its own subfolder with 409 FOLDER_CYCLE', async () => {
    const dep = await createDeployment(svc);
    const a = await folder(dep, 'A');
    const b = await folder(dep, 'B', a.id);
    const c = await folder(dep, 'C');
    const moved = await svc.call('PUT', `/api/v1/deployments/${dep}/folders/${c.id}`, { body: { name: 'C2', parentId: b.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.path).toBe('/A/B/C2');
    const cycle = await svc.call('PUT', `/api/v1/deployments/${dep}/folders/${a.id}`, { body: { parentId: c.id } });
    expect(cycle.status).toBe(409);
    expect(cycle.body.code).toBe('FOLDER_CYCLE');
    const backToTop = await svc.call('PUT', `/api/v1/deployments/${dep}/folders/${c.id}`, { body: { parentId: null } });
    expect(backToTop.body).toMatchObject({ parentId: null, path: '/C2' });
  });

  it('deletes an empty folder (204) and refuses a folder that still holds something with 409 FOLDER_NOT_EMPTY', async () => {
    const dep = await createDeployment(svc);
    const full = await folder(dep, 'Full');
    await svc.call('POST', `/api/v1/deployments/${dep}/workbooks`, { body: { name: 'inside', folderId: full.id } });
    const refused = await svc.call('DELETE', `/api/v1/deployments/${dep}/folders/${full.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('FOLDER_NOT_EMPTY');
    expect((await svc.call('GET', `/api/v1/deployments/${dep}/folders/${full.id}`)).status).toBe(200);
    const empty = await folder(dep, 'Empty');
    expect((await svc.call('DELETE', `/api/v1/deployments/${dep}/folders/${empty.id}`)).status).toBe(204);
    expect((await svc.call('GET', `/api/v1/deployments/${dep}/folders/${empty.id}`)).body.code).toBe('FOLDER_NOT_FOUND');
  });

  it('lets only the owner or an admin change or delete a folder; viewers cannot create', async () => {
    const dep = await createDeployment(svc);
    const mine = await folder(dep, 'Mine', undefined, owner.auth);
    expect((await svc.call('DELETE', `/api/v1/deployments/${dep}/folders/${mine.id}`, { auth: otherDeveloper.auth })).status).toBe(403);
    expect((await svc.call('PUT', `/api/v1/deployments/${dep}/folders/${mine.id}`, { body: { name: 'x' }, auth: otherDeveloper.auth })).status).toBe(403);
    expect((await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: { name: 'v' }, auth: viewer.auth })).status).toBe(403);
    expect((await svc.call('GET', `/api/v1/deployments/${dep}/folders`, { auth: viewer.auth })).status).toBe(200);
    expect((await svc.call('DELETE', `/api/v1/deployments/${dep}/folders/${mine.id}`, { auth: owner.auth })).status).toBe(204);
  });
});

describe('folder list pages', () => {
  it('show every folder as reading it alone does: nested paths and owners (ancestors read once per page)', async () => {
    const dep = await createDeployment(svc);
    const a = await folder(dep, 'A', undefined, owner.auth);
    const b = await folder(dep, 'B', a.id, otherDeveloper.auth);
    await folder(dep, 'C', b.id, owner.auth);
    await folder(dep, 'D', a.id);
    await folder(dep, 'E');
    const listed: { id: number; path: string }[] = [];
    let after: string | null = null;
    do {
      const page = await svc.call('GET', `/api/v1/deployments/${dep}/folders?first=2${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      expect(page.status, page.text).toBe(200);
      listed.push(...page.body.items);
      after = page.body.pageInfo.hasNextPage ? page.body.pageInfo.endCursor : null;
    } while (after);
    expect(listed.map((f) => f.path)).toEqual(['/A', '/A/B', '/A/B/C', '/A/D', '/E']);
    for (const item of listed) expect(item).toEqual((await svc.call('GET', `/api/v1/deployments/${dep}/folders/${item.id}`)).body);
  });
});
