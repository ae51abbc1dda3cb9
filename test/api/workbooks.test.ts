import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';

let svc: TestService;
let dep: number;
let developer: TestUser;
let otherDeveloper: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  svc = await startTestService();
  dep = await createDeployment(svc);
  developer = createUser(svc, 'developer', { name: 'Dev One' });
  otherDeveloper = createUser(svc, 'developer', { name: 'Dev Two' });
  viewer = createUser(svc, 'viewer');
});
afterAll(async () => svc.stop());

const W = () => `/api/v1/deployments/${dep}/workbooks`;
const pos = (x = 0, y = 0, w = 4, h = 3) => ({ x, y, w, h });

async function newWorkbook(body: Record<string, unknown> = {}, auth?: string) {
  const res = await svc.call('POST', W(), { body: { name: `Workbook ${Math.random().toString(36).slice(2, 8)}`, ...body }, auth });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('workbook records', () => {
  it('creates a workbook with a slug from its name, folderPath `/`, its owner as `user` and promotion null', async () => {
    const res = await svc.call('POST', W(), { body: { name: 'Sales Overview – Q1' }, auth: developer.auth });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      deploymentId: dep,
      name: 'Sales Overview – Q1',
      slug: 'sales-overview-q1',
      folderPath: '/',
      folderId: null,
      shared: true,
      promotion: null,
      user: { id: developer.id, name: 'Dev One' },
      canManage: true,
      dashboardDraft: null,
      dashboardPublished: null,
    });
    expect(res.body.publicId).toMatch(/^wb_/);
  });

  it('gives a derived slug a free suffix and refuses an explicit slug already taken with 409', async () => {
    const a = await newWorkbook({ name: 'Same Name' });
    const b = await newWorkbook({ name: 'Same Name' });
    expect(b.slug).toBe(`${a.slug}-2`);
    const res = await svc.call('POST', W(), { body: { name: 'x', slug: a.slug } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('WORKBOOK_SLUG_TAKEN');
  });

  it('refuses a slug outside lowercase letters, digits and dashes with 400', async () => {
    const res = await svc.call('POST', W(), { body: { name: 'x', slug: 'Bad Slug' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it('shows the folder path of a workbook in a nested folder', async () => {
    const top = await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: { name: 'Finance' } });
    const sub = await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: { name: 'EMEA', parentId: top.body.id } });
    const wb = await newWorkbook({ folderId: sub.body.id });
    expect(wb.folderPath).toBe('/Finance/EMEA');
    expect(wb.folderId).toBe(sub.body.id);
  });

  it('answers 404 for an unknown folder, workbook or deployment', async () => {
    expect((await svc.call('POST', W(), { body: { name: 'x', folderId: 999999 } })).body.code).toBe('FOLDER_NOT_FOUND');
    const missing = await svc.call('GET', `${W()}/999999`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('WORKBOOK_NOT_FOUND');
    expect((await svc.call('GET', '/api/v1/deployments/999999/workbooks')).status).toBe(404);
  });

  it('lists workbooks with cursor pagination (first/after, items/pageInfo)', async () => {
      const d = await createDeployment(svc);
      for (let i = 0; i < 3; i += 1) await svc.call('POST', `/api/v1/deployments/${d}/workbooks`, { body: { name: `List ${i}` } });
      const first = await svc.call('GET', `/api/v1/deployments/${d}/workbooks?first=2`);
      expect(first.body.items.map((w: { name: string }) => w.name)).toEqual(['List 0', 'List 1']);
      expect(first.body.pageInfo.hasNextPage).toBe(true);
      const rest = await svc.call('GET', `/api/v1/deployments/${d}/workbooks?first=2&after=${first.body.pageInfo.endCursor}`);
      expect(rest.body.items.map((w: { name: string }) => w.name)).toEqual(['List 2']);
      expect(rest.body.pageInfo.hasNextPage).toBe(false);
  });

  it('lets viewers read workbooks but not create them (deployment edit needed for writes)', async () => {
    await newWorkbook();
    expect((await svc.call('GET', W(), { auth: viewer.auth })).status).toBe(200);
    const res = await svc.call('POST', W(), { body: { name: 'nope' }, auth: viewer.auth });
    expect(res.status).toBe(403);
  });

  it('deletes a workbook for its owner or an admin only (manage access), 204 then 404', async () => {
    const wb = await newWorkbook({}, developer.auth);
    const refused = await svc.call('DELETE', `${W()}/${wb.id}`, { auth: otherDeveloper.auth });
    expect(refused.status).toBe(403);
    expect((await svc.call('GET', `${W()}/${wb.id}`)).status).toBe(200);
    expect((await svc.call('DELETE', `${W()}/${wb.id}`, { auth: developer.auth })).status).toBe(204);
    expect((await svc.call('GET', `${W()}/${wb.id}`)).status).toBe(404);
  });

  it('hides a private (not shared) workbook from other users but not from its owner or admins', async () => {
    const wb = await newWorkbook({ shared: false }, developer.auth);
    expect((await svc.call('GET', `${W()}/${wb.id}`, { auth: otherDeveloper.auth })).status).toBe(404);
    const listed = await svc.call('GET', `${W()}?first=1000`, { auth: otherDeveloper.auth });
    expect(listed.body.items.some((w: { id: number }) => w.id === wb.id)).toBe(false);
    expect((await svc.call('GET', `${W()}/${wb.id}`, { auth: developer.auth })).status).toBe(200);
    expect((await svc.call('GET', `${W()}/${wb.id}`)).status).toBe(200);
  });
});

describe('PUT by-slug (create-or-update)', () => {
  it('creates the workbook when the slug is new, then updates it, keeping fields left out', async () => {
    const url = `${W()}/by-slug/kpi-board`;
    const created = await svc.call('PUT', url, { body: { name: 'KPI board', description: 'first' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ created: true, slug: 'kpi-board', name: 'KPI board', description: 'first' });
    const updated = await svc.call('PUT', url, { body: { name: 'KPI board v2' } });
    expect(updated.body).toMatchObject({ created: false, id: created.body.id, name: 'KPI board v2', description: 'first' });
  });

  it('requires an id on every widget of a dashboard it sets', async () => {
    const res = await svc.call('PUT', `${W()}/by-slug/no-ids`, {
      body: { name: 'x', dashboardDraft: { widgets: [{ type: 'TEXT', position: pos() }] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/body/dashboardDraft/widgets/0/id');
  });
});

describe('POST …/duplicate', () => {
  it('copies both dashboards into a private copy owned by the caller by default', async () => {
    const source = await newWorkbook({ dashboardDraft: { title: 'Src', widgets: [{ id: 'a', type: 'TEXT', position: pos() }] } });
    await svc.call('POST', `${W()}/${source.id}/publish`);
    const copy = await svc.call('POST', `${W()}/${source.id}/duplicate`, { auth: developer.auth });
    expect(copy.status).toBe(201);
    expect(copy.body.id).not.toBe(source.id);
    expect(copy.body).toMatchObject({ name: `${source.name} (copy)`, slug: `${source.slug}-copy`, shared: false, user: { id: developer.id } });
    expect(copy.body.dashboardDraft).toEqual(source.dashboardDraft);
    expect(copy.body.dashboardPublished).toEqual(source.dashboardDraft);
  });

  it('makes a shared copy when `shared: true` is sent', async () => {
    const source = await newWorkbook();
    const copy = await svc.call('POST', `${W()}/${source.id}/duplicate`, { body: { shared: true } });
    expect(copy.body.shared).toBe(true);
  });
});

describe('PUT …/dashboard (updateWorkbookDashboard)', () => {
  it('saves the draft and answers 200 with dashboardDraft and dashboardPublished', async () => {
    const wb = await newWorkbook();
    const res = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, {
      body: { dashboardDraft: { title: 'Revenue', kind: 'CLASSIC', widgets: [{ id: 'chart-1', type: 'CHART', position: pos() }] } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      dashboardDraft: { title: 'Revenue', kind: 'CLASSIC', widgets: [{ id: 'chart-1', type: 'CHART', position: pos() }] },
      dashboardPublished: null,
    });
    expect((await svc.call('GET', `${W()}/${wb.id}`)).body.dashboardDraft.title).toBe('Revenue');
  });

  it('assigns an id to each draft widget sent without one (omitted or null) and keeps given ids', async () => {
    const wb = await newWorkbook();
    const res = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, {
      body: {
        dashboardDraft: {
          widgets: [
            { type: 'TEXT', position: pos() },
            { id: null, type: 'DIVIDER', position: pos(0, 3) },
            { id: 'keep-me', type: 'SPACER', position: pos(0, 6) },
          ],
        },
      },
    });
    expect(res.status).toBe(200);
    const ids = res.body.dashboardDraft.widgets.map((w: { id: string }) => w.id);
    expect(ids[2]).toBe('keep-me');
    expect(typeof ids[0]).toBe('string');
    expect(typeof ids[1]).toBe('string');
    expect(new Set(ids).size).toBe(3);
  });

  it('refuses a draft widget id longer than 128 characters with 400', async () => {
    const wb = await newWorkbook();
    const ok = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, {
      body: { dashboardDraft: { widgets: [{ id: 'x'.repeat(128), type: 'TEXT', position: pos() }] } },
    });
    expect(ok.status).toBe(200);
    const res = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, {
      body: { dashboardDraft: { widgets: [{ id: 'x'.repeat(129), type: 'TEXT', position: pos() }] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.some((e: { pointer: string }) => e.pointer.startsWith('/body/dashboardDraft/widgets/0/id'))).toBe(true);
  });

  it('refuses two widgets with the same id with 400 DUPLICATE_WIDGET_ID', async () => {
    const wb = await newWorkbook();
    const res = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, {
      body: { dashboardDraft: { widgets: [{ id: 'a', type: 'TEXT', position: pos() }, { id: 'a', type: 'TEXT', position: pos(0, 3) }] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('DUPLICATE_WIDGET_ID');
  });

  it('accepts the ten widget types and refuses any other type with 400', async () => {
    const wb = await newWorkbook();
    const types = ['CHART', 'TEXT', 'FILTER', 'AI', 'TIME_GRAIN', 'FIELD', 'PARENT', 'SPACER', 'DIVIDER', 'CONTAINER'];
    const ok = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, {
      body: { dashboardDraft: { widgets: types.map((type, i) => ({ id: `w${i}`, type, position: pos(0, i) })) } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.dashboardDraft.widgets.map((w: { type: string }) => w.type)).toEqual(types);
    const bad = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, {
      body: { dashboardDraft: { widgets: [{ id: 'w', type: 'PIE', position: pos() }] } },
    });
    expect(bad.status).toBe(400);
  });

  it('requires x, y, w and h on every widget position', async () => {
    const wb = await newWorkbook();
    const res = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, {
      body: { dashboardDraft: { widgets: [{ id: 'w', type: 'TEXT', position: { x: 0, y: 0, w: 4 } }] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/body/dashboardDraft/widgets/0/position/h');
  });

  it('heals a legacy TABS_CONTAINER widget into a CONTAINER whose config.layout is `tabs`', async () => {
    const wb = await newWorkbook();
    const res = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, {
      body: { dashboardDraft: { widgets: [{ id: 'tabs', type: 'TABS_CONTAINER', position: pos(), config: { tabs: ['A', 'B'] } }] } },
    });
    expect(res.status).toBe(200);
    expect(res.body.dashboardDraft.widgets[0]).toEqual({ id: 'tabs', type: 'CONTAINER', position: pos(), config: { tabs: ['A', 'B'], layout: 'tabs' } });
  });

  it('does not advertise TABS_CONTAINER in the OpenAPI document', async () => {
    const spec = await svc.call('GET', '/api/v1/spec', { auth: null });
    expect(spec.text.includes('TABS_CONTAINER')).toBe(false);
    const op = spec.body.paths['/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard'].put;
    expect(op.operationId).toBe('updateWorkbookDashboard');
  });

  it('keeps every field of the spec’s dashboard shapes and refuses fields it does not know, naming each (top level and nested)', async () => {
    const wb = await newWorkbook();
    const draft = {
      title: 'App',
      description: 'An app dashboard',
      kind: 'APP',
      app: { entry: 'index.tsx', files: { 'index.tsx': 'export default 1' }, html: '<div/>', manifest: { dependencies: { react: '19.0.0' }, version: 2 } },
      layout: {
        breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
        cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: null },
        containerPadding: [8, 8],
        margin: [10, 10],
        rowHeight: 30,
      },
      settings: { autoRefresh: true, anything: { nested: [1, 2] } },
      theme: {
        backgroundColor: '#fff',
        fontFamily: 'Inter',
        primaryColor: '#00f',
        themeId: 'light',
        dashboard: { backgroundColor: '#eee', padding: '8px' },
        controls: {
          backgroundColor: '#ddd',
          padding: '4px',
          border: { color: '#000', radius: '4px', style: 'solid', width: '1px' },
          title: { color: '#111', fontFamily: 'Inter', fontSize: '12px', fontWeight: '600' },
        },
        widgets: {
          backgroundColor: '#fafafa',
          margin: '4px',
          padding: '8px',
          border: { color: '#ccc', radius: '2px', style: 'dashed', width: '2px' },
          text: { codeFontFamily: 'Mono', color: '#222', fontFamily: 'Inter', secondaryColor: '#666' },
          title: { color: '#333', fontFamily: 'Inter', fontSize: '14px', fontWeight: '700' },
        },
      },
      widgets: [
        {
          id: 'w1',
          type: 'CHART',
          position: pos(1, 2, 3, 4),
          responsiveLayouts: { lg: pos(1, 2, 3, 4), md: null, sm: pos(0, 0, 6, 4) },
          config: { query: { measures: ['orders.count'] } },
          style: { color: 'red' },
        },
      ],
    };
    const refused = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, {
      body: { dashboardDraft: { ...draft, invented: true, theme: { ...draft.theme, madeUp: 'x' }, widgets: [{ ...draft.widgets[0], extra: 1 }] } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('UNKNOWN_FIELD');
    expect(refused.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(
      ['/body/dashboardDraft/invented', '/body/dashboardDraft/theme/madeUp', '/body/dashboardDraft/widgets/0/extra'].sort(),
    );
    expect((await svc.call('GET', `${W()}/${wb.id}`)).body.dashboardDraft).toBeNull();
    const res = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, { body: { dashboardDraft: draft } });
    expect(res.status).toBe(200);
    expect(res.body.dashboardDraft).toEqual(draft);
  });

  it('refuses an app entry longer than 255 characters with 400', async () => {
    const wb = await newWorkbook();
    const res = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, { body: { dashboardDraft: { kind: 'APP', app: { entry: 'e'.repeat(256) } } } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/body/dashboardDraft/app/entry');
  });

  it('refuses a kind other than CLASSIC or APP, and a theme field of the wrong shape, with 400', async () => {
    const wb = await newWorkbook();
    expect((await svc.call('PUT', `${W()}/${wb.id}/dashboard`, { body: { dashboardDraft: { kind: 'WIDE' } } })).status).toBe(400);
    const theme = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, { body: { dashboardDraft: { theme: { controls: { border: 'thin' } } } } });
    expect(theme.status).toBe(400);
  });

  it('changes nothing when the body is omitted, and clears the draft with `dashboardDraft: null`', async () => {
    const wb = await newWorkbook({ dashboardDraft: { title: 'Kept' } });
    const omitted = await svc.call('PUT', `${W()}/${wb.id}/dashboard`);
    expect(omitted.status).toBe(200);
    expect(omitted.body.dashboardDraft).toEqual({ title: 'Kept' });
    const cleared = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, { body: { dashboardDraft: null } });
    expect(cleared.body.dashboardDraft).toBeNull();
  });

  it('treats dashboardPublished as response-only: sending it is a 400 and publishes nothing', async () => {
    const wb = await newWorkbook();
    const res = await svc.call('PUT', `${W()}/${wb.id}/dashboard`, { body: { dashboardDraft: { title: 'a' }, dashboardPublished: { title: 'b' } } });
    expect(res.status).toBe(400);
    // The request shape carries only `dashboardDraft` (spec): the response-only field is a key it does not describe.
    expect(res.body.code).toBe('UNKNOWN_FIELD');
    expect(res.body.errors).toEqual([{ pointer: '/body/dashboardPublished', detail: 'is not a known field' }]);
    const after = await svc.call('GET', `${W()}/${wb.id}`);
    expect(after.body.dashboardPublished).toBeNull();
    expect(after.body.dashboardDraft).toBeNull();
  });
});

describe('POST …/publish', () => {
  it('publishes the saved draft when `config` is omitted', async () => {
    const wb = await newWorkbook();
    await svc.call('PUT', `${W()}/${wb.id}/dashboard`, { body: { dashboardDraft: { title: 'Draft', widgets: [{ type: 'TEXT', position: pos() }] } } });
    const res = await svc.call('POST', `${W()}/${wb.id}/publish`);
    expect(res.status).toBe(200);
    expect(res.body.dashboardPublished).toEqual(res.body.dashboardDraft);
    expect(res.body.dashboardPublished.title).toBe('Draft');
    expect((await svc.call('GET', `${W()}/${wb.id}`)).body.publishedAt).not.toBeNull();
  });

  it('answers 409 NO_DRAFT_TO_PUBLISH when there is no saved draft and no config', async () => {
    const wb = await newWorkbook();
    const res = await svc.call('POST', `${W()}/${wb.id}/publish`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('NO_DRAFT_TO_PUBLISH');
  });

  it('still accepts an explicit config, which is published and becomes the draft', async () => {
    const wb = await newWorkbook({ dashboardDraft: { title: 'old draft' } });
    const config = { title: 'Explicit', widgets: [{ id: 'x1', type: 'CHART', position: pos() }] };
    const res = await svc.call('POST', `${W()}/${wb.id}/publish`, { body: { config } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ dashboardDraft: config, dashboardPublished: config });
  });

  it('requires an id on every widget of an explicit config and publishes nothing otherwise', async () => {
    const wb = await newWorkbook();
    const res = await svc.call('POST', `${W()}/${wb.id}/publish`, { body: { config: { widgets: [{ type: 'CHART', position: pos() }] } } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/body/config/widgets/0/id');
    expect((await svc.call('GET', `${W()}/${wb.id}`)).body.dashboardPublished).toBeNull();
  });

  it('requires an id on every widget when a workbook is created with a dashboard', async () => {
    const res = await svc.call('POST', W(), { body: { name: 'x', dashboardDraft: { widgets: [{ type: 'TEXT', position: pos() }] } } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/body/dashboardDraft/widgets/0/id');
  });

  it('heals a legacy TABS_CONTAINER in an explicit config too', async () => {
    const wb = await newWorkbook();
    const res = await svc.call('POST', `${W()}/${wb.id}/publish`, { body: { config: { widgets: [{ id: 't', type: 'TABS_CONTAINER', position: pos() }] } } });
    expect(res.status).toBe(200);
    expect(res.body.dashboardPublished.widgets[0]).toMatchObject({ type: 'CONTAINER', config: { layout: 'tabs' } });
  });
});
