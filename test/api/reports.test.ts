import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser, type TestUser } from '../support/users';

let svc: TestService;
let dep: number;
let owner: TestUser;
let otherDeveloper: TestUser;
let viewer: TestUser;
let now = Date.parse('2025-01-01T00:00:00Z');

beforeAll(async () => {
  // A clock that moves one second per call keeps createdAt/updatedAt/lastViewedAt distinct and ordered.
  svc = await startTestService({ clock: { now: () => new Date((now += 1000)) } });
  dep = await createDeployment(svc);
  owner = createUser(svc, 'developer', { name: 'Report Owner', email: 'report-owner@example.com' });
  otherDeveloper = createUser(svc, 'developer');
  viewer = createUser(svc, 'viewer');
});
afterAll(async () => svc.stop());

const R = (d = dep) => `/api/v1/deployments/${d}/reports`;
let publicCounter = 0;
async function report(body: Record<string, unknown> = {}, auth?: string, d = dep) {
  const res = await svc.call('PUT', `${R(d)}/by-public-id/rep-${++publicCounter}`, {
    body: { name: `Report ${publicCounter}`, query: { measures: ['orders.count'] }, ...body },
    auth,
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const address = (cell = 'B2') => ({ externalWorkbookId: 'sheet-doc-1', sheetName: 'Summary', anchorCell: cell });

describe('reports', () => {
  it('creates a report by public id, then updates it, keeping fields left out', async () => {
    const created = await report({ title: 'Orders', description: 'count of orders' }, owner.auth);
    expect(created).toMatchObject({ created: true, name: `Report ${publicCounter}`, title: 'Orders', owner: { name: 'Report Owner' }, placements: [] });
    expect(created.currentQueryChecksum).toMatch(/^[0-9a-f]{64}$/);
    const updated = await svc.call('PUT', `${R()}/by-public-id/${created.publicId}`, { body: { name: 'Renamed' }, auth: owner.auth });
    expect(updated.body).toMatchObject({ created: false, id: created.id, name: 'Renamed', title: 'Orders', description: 'count of orders' });
    expect(updated.body.currentQueryChecksum).toBe(created.currentQueryChecksum);
  });

  it('refuses a name or a title over 255 characters with 400 (255 is fine)', async () => {
    expect((await svc.call('PUT', `${R()}/by-public-id/long-ok`, { body: { name: 'n'.repeat(255), title: 't'.repeat(255) } })).status).toBe(200);
    const name = await svc.call('PUT', `${R()}/by-public-id/long-name`, { body: { name: 'n'.repeat(256) } });
    expect(name.status).toBe(400);
    expect(name.body.errors[0].pointer).toBe('/body/name');
    const title = await svc.call('PUT', `${R()}/by-public-id/long-title`, { body: { name: 'ok', title: 't'.repeat(256) } });
    expect(title.status).toBe(400);
    expect(title.body.errors[0].pointer).toBe('/body/title');
  });

  it('derives currentQueryChecksum from the query: same query in any key order, new query new checksum, no query null', async () => {
    const a = await report({ query: { measures: ['m'], dimensions: ['d'] } });
    const b = await report({ query: { dimensions: ['d'], measures: ['m'] } });
    const c = await report({ query: { measures: ['m2'] } });
    const none = await report({ query: null });
    expect(a.currentQueryChecksum).toBe(b.currentQueryChecksum);
    expect(c.currentQueryChecksum).not.toBe(a.currentQueryChecksum);
    expect(none.currentQueryChecksum).toBeNull();
  });

  it('computes canEdit and canManage from the caller: owner and admin manage, developers edit, viewers neither', async () => {
    const r = await report({}, owner.auth);
    const as = async (auth?: string) => (await svc.call('GET', `${R()}/${r.id}`, { auth })).body;
    expect(await as(owner.auth)).toMatchObject({ canEdit: true, canManage: true });
    expect(await as()).toMatchObject({ canEdit: true, canManage: true });
    expect(await as(otherDeveloper.auth)).toMatchObject({ canEdit: true, canManage: false });
    expect(await as(viewer.auth)).toMatchObject({ canEdit: false, canManage: false });
  });

  it('deletes a report for its owner or an admin only', async () => {
    const r = await report({}, owner.auth);
    expect((await svc.call('DELETE', `${R()}/${r.id}`, { auth: otherDeveloper.auth })).status).toBe(403);
    expect((await svc.call('DELETE', `${R()}/${r.id}`, { auth: owner.auth })).status).toBe(204);
    const gone = await svc.call('GET', `${R()}/${r.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('REPORT_NOT_FOUND');
  });
});

describe('GET D/reports', () => {
  it('filters by search, folderId and externalWorkbookId, with items/pageInfo and the deprecated data/count', async () => {
    const d = await createDeployment(svc);
    const f = (await svc.call('POST', `/api/v1/deployments/${d}/folders`, { body: { name: 'F' } })).body.id;
    const alpha = await report({ name: 'Alpha revenue' }, undefined, d);
    const beta = await report({ name: 'Beta', title: 'Weekly REVENUE', folderId: f }, undefined, d);
    const gamma = await report({ name: 'Gamma' }, undefined, d);
    await svc.call('PUT', `${R(d)}/${gamma.id}/connect-workbook`, { body: { ...address(), externalWorkbookId: 'doc-filter' } });
    const ids = (body: { items: { id: number }[] }) => body.items.map((r) => r.id).sort();
    const search = await svc.call('GET', `${R(d)}?search=revenue`);
    expect(ids(search.body)).toEqual([alpha.id, beta.id].sort());
    expect(search.body.count).toBe(2);
    expect(search.body.data).toEqual(search.body.items);
    expect(ids((await svc.call('GET', `${R(d)}?folderId=${f}`)).body)).toEqual([beta.id]);
    expect(ids((await svc.call('GET', `${R(d)}?folderId=0`)).body)).toEqual([alpha.id, gamma.id].sort());
    expect(ids((await svc.call('GET', `${R(d)}?externalWorkbookId=doc-filter`)).body)).toEqual([gamma.id]);
  });

  it('sorts by name, createdAt or updatedAt and pages each with a cursor', async () => {
    const d = await createDeployment(svc);
    const c = await report({ name: 'charlie' }, undefined, d);
    const a = await report({ name: 'Alpha' }, undefined, d);
    const b = await report({ name: 'bravo' }, undefined, d);
    await svc.call('PUT', `${R(d)}/by-public-id/${c.publicId}`, { body: { name: 'charlie' } });
    const walk = async (sortBy: string) => {
      const seen: number[] = [];
      let after = '';
      for (;;) {
        const page = await svc.call('GET', `${R(d)}?sortBy=${sortBy}&first=2${after}`);
        expect(page.status).toBe(200);
        seen.push(...page.body.items.map((r: { id: number }) => r.id));
        if (!page.body.pageInfo.hasNextPage) return seen;
        after = `&after=${page.body.pageInfo.endCursor}`;
      }
    };
    expect(await walk('name')).toEqual([a.id, b.id, c.id]);
    expect(await walk('createdAt')).toEqual([b.id, a.id, c.id]);
    expect(await walk('updatedAt')).toEqual([c.id, b.id, a.id]);
  });

  it('sorts by lastViewedAt (most recent first) without cursor pagination: `after` is a 400 with a clear code', async () => {
    const d = await createDeployment(svc);
    const first = await report({}, undefined, d);
    const second = await report({}, undefined, d);
    const never = await report({}, undefined, d);
    await svc.call('GET', `${R(d)}/${second.id}`);
    await svc.call('GET', `${R(d)}/${first.id}`);
    const res = await svc.call('GET', `${R(d)}?sortBy=lastViewedAt`);
    expect(res.body.items.map((r: { id: number }) => r.id)).toEqual([first.id, second.id, never.id]);
    expect(res.body.items[0].lastViewedAt).not.toBeNull();
    expect(res.body.items[2].lastViewedAt).toBeNull();
    expect(res.body.pageInfo.endCursor).toBeNull();
    const cursor = (await svc.call('GET', `${R(d)}?first=1`)).body.pageInfo.endCursor;
    const refused = await svc.call('GET', `${R(d)}?sortBy=lastViewedAt&after=${cursor}`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('CURSOR_NOT_SUPPORTED_FOR_SORT');
    expect(refused.body.detail).toMatch(/lastViewedAt/);
  });
});

describe('placements', () => {
  it('lets a caller with only read access connect a report to a workbook, recording one placement', async () => {
    const r = await report({}, owner.auth);
    const res = await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, {
      body: { ...address(), host: 'SHEETS', sheetId: 's1', workbookName: 'Budget', resultChecksum: { payload: 'abc' } },
      auth: viewer.auth,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      externalWorkbookId: 'sheet-doc-1',
      sheetName: 'Summary',
      anchorCell: 'B2',
      host: 'SHEETS',
      workbookName: 'Budget',
      placedByUserId: viewer.id,
      resultChecksum: { payload: 'abc' },
      queryChecksum: r.currentQueryChecksum,
      syncStatus: 'UP_TO_DATE',
    });
    const again = await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, { body: address(), auth: viewer.auth });
    expect(again.body.id).toBe(res.body.id);
    expect((await svc.call('GET', `${R()}/${r.id}`)).body.placements).toHaveLength(1);
  });

  it('keeps the stored fingerprint with addressOnly while the placement moves', async () => {
    const r = await report();
    const placed = await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, { body: { ...address('A1'), resultChecksum: { payload: 'fp-1' } } });
    const moved = await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, {
      body: { placementId: placed.body.id, ...address('C7'), resultChecksum: { payload: 'ignored' }, addressOnly: true },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: placed.body.id, anchorCell: 'C7', resultChecksum: { payload: 'fp-1' }, queryChecksum: placed.body.queryChecksum });
    const replaced = await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, { body: { ...address('C7'), resultChecksum: { payload: 'fp-2' } } });
    expect(replaced.body).toMatchObject({ id: placed.body.id, resultChecksum: { payload: 'fp-2' } });
  });

  it('accepts a result checksum payload of 1 to 128 characters and refuses others with 400', async () => {
    const r = await report();
    const put = (payload: string) => svc.call('PUT', `${R()}/${r.id}/connect-workbook`, { body: { ...address('D4'), resultChecksum: { payload } } });
    expect((await put('x')).status).toBe(200);
    expect((await put('x'.repeat(128))).status).toBe(200);
    expect((await put('')).status).toBe(400);
    const long = await put('x'.repeat(129));
    expect(long.status).toBe(400);
    expect(long.body.errors[0].pointer).toBe('/body/resultChecksum/payload');
  });

  it('derives syncStatus honestly: CHANGED after the query changes, UNKNOWN when either checksum is missing', async () => {
    const r = await report({ query: { measures: ['a'] } });
    const placed = await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, { body: address('E5') });
    expect(placed.body.syncStatus).toBe('UP_TO_DATE');
    await svc.call('PUT', `${R()}/by-public-id/${r.publicId}`, { body: { name: r.name, query: { measures: ['b'] } } });
    expect((await svc.call('GET', `${R()}/${r.id}`)).body.placements[0].syncStatus).toBe('CHANGED');
    await svc.call('PUT', `${R()}/by-public-id/${r.publicId}`, { body: { name: r.name, query: null } });
    expect((await svc.call('GET', `${R()}/${r.id}`)).body.placements[0].syncStatus).toBe('UNKNOWN');
    const other = await report();
    const addressOnly = await svc.call('PUT', `${R()}/${other.id}/connect-workbook`, { body: { ...address('F6'), addressOnly: true } });
    expect(addressOnly.body).toMatchObject({ queryChecksum: null, syncStatus: 'UNKNOWN' });
  });

  it('records a refresh on the placement addressed by id or by address, bringing it up to date', async () => {
    const r = await report({ query: { measures: ['a'] } });
    const placed = await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, { body: address('G7') });
    await svc.call('PUT', `${R()}/by-public-id/${r.publicId}`, { body: { name: r.name, query: { measures: ['z'] } } });
    const refreshed = await svc.call('PUT', `${R()}/${r.id}/refresh`, { body: { ...address('G7'), resultChecksum: { payload: 'new' } }, auth: viewer.auth });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ id: placed.body.id, syncStatus: 'UP_TO_DATE', refreshedByUserId: viewer.id, resultChecksum: { payload: 'new' } });
    expect(refreshed.body.refreshedAt).not.toBeNull();
    const byId = await svc.call('PUT', `${R()}/${r.id}/refresh`, { body: { placementId: placed.body.id } });
    expect(byId.body).toMatchObject({ id: placed.body.id, resultChecksum: null });
  });

  it('removes one placement by placementId or by address; an incomplete address is a 400, an unknown one a 404', async () => {
    const r = await report();
    const p1 = await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, { body: address('H1') });
    await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, { body: address('H2') });
    await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, { body: address('H3') });
    expect((await svc.call('DELETE', `${R()}/${r.id}/connect-workbook?placementId=${p1.body.id}`, { auth: viewer.auth })).status).toBe(204);
    const q = new URLSearchParams(address('H2')).toString();
    expect((await svc.call('DELETE', `${R()}/${r.id}/connect-workbook?${q}`)).status).toBe(204);
    const left = (await svc.call('GET', `${R()}/${r.id}`)).body.placements.map((p: { anchorCell: string }) => p.anchorCell);
    expect(left).toEqual(['H3']);
    const partial = await svc.call('DELETE', `${R()}/${r.id}/connect-workbook?externalWorkbookId=sheet-doc-1&sheetName=Summary`);
    expect(partial.status).toBe(400);
    expect(partial.body.code).toBe('PLACEMENT_ADDRESS_REQUIRED');
    expect(partial.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/querystring/anchorCell']);
    const unknown = await svc.call('DELETE', `${R()}/${r.id}/connect-workbook?placementId=${p1.body.id}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PLACEMENT_NOT_FOUND');
  });
});

describe('GET /api/v1/external-documents/{externalWorkbookId}/placements', () => {
  it('lists placements tenant-wide; entries the caller cannot read are DENIED but keep address, deployment and owner', async () => {
    const other = await createDeployment(svc);
    const mine = await report({ name: 'Visible' }, owner.auth);
    const theirs = await report({ name: 'Secret' }, owner.auth, other);
    const doc = 'doc-tenant-wide';
    await svc.call('PUT', `${R()}/${mine.id}/connect-workbook`, { body: { externalWorkbookId: doc, sheetName: 'S', anchorCell: 'A1', workbookName: 'Plan' } });
    await svc.call('PUT', `${R(other)}/${theirs.id}/connect-workbook`, { body: { externalWorkbookId: doc, sheetName: 'T', anchorCell: 'B2', workbookName: 'Plan' } });
    const admin = await svc.call('GET', `/api/v1/external-documents/${doc}/placements`);
    expect(admin.body.items.map((p: { access: string; deploymentId: number }) => [p.access, p.deploymentId])).toEqual([
      ['GRANTED', dep],
      ['GRANTED', other],
    ]);
    const blind = createUser(svc, 'viewer', { actions: ['-DeploymentRead'] });
    const res = await svc.call('GET', `/api/v1/external-documents/${doc}/placements`, { auth: blind.auth });
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ access: 'DENIED', deploymentId: dep, reportName: null, reportId: null, sheetName: 'S' });
    expect(res.body.items[1]).toEqual({
      placementId: res.body.items[1].placementId,
      access: 'DENIED',
      deploymentId: other,
      reportId: null,
      reportPublicId: null,
      reportName: null,
      owner: { name: 'Report Owner', email: 'report-owner@example.com' },
      externalWorkbookId: doc,
      host: null,
      sheetId: null,
      sheetName: 'T',
      anchorCell: 'B2',
      workbookName: 'Plan',
      placedAt: null,
      refreshedAt: null,
      syncStatus: null,
    });
  });

  it('is tenant-wide: a deployment token is refused (403), even one of a deployment with placements', async () => {
    const mine = await report({ name: 'Visible' }, owner.auth);
    const doc = 'doc-scoped';
    await svc.call('PUT', `${R()}/${mine.id}/connect-workbook`, { body: { externalWorkbookId: doc, sheetName: 'S', anchorCell: 'A1', workbookName: 'Plan' } });
    const scoped = await bearerFor(svc, viewer.id, 'deployment', { deploymentId: dep });
    const res = await svc.call('GET', `/api/v1/external-documents/${doc}/placements`, { auth: scoped });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('DEPLOYMENT_TOKEN_REFUSED');
  });

  it('pages with first/after', async () => {
    const r = await report();
    const doc = 'doc-paged';
    for (const cell of ['A1', 'A2', 'A3']) {
      await svc.call('PUT', `${R()}/${r.id}/connect-workbook`, { body: { externalWorkbookId: doc, sheetName: 'S', anchorCell: cell } });
    }
    const page1 = await svc.call('GET', `/api/v1/external-documents/${doc}/placements?first=2`);
    expect(page1.body.items.map((p: { anchorCell: string }) => p.anchorCell)).toEqual(['A1', 'A2']);
    const page2 = await svc.call('GET', `/api/v1/external-documents/${doc}/placements?first=2&after=${page1.body.pageInfo.endCursor}`);
    expect(page2.body.items.map((p: { anchorCell: string }) => p.anchorCell)).toEqual(['A3']);
    expect(page2.body.pageInfo.hasNextPage).toBe(false);
  });

  // Bulk fixtures go straight into SQLite: thousands of API calls would only slow the test down.
  function placeMany(doc: string, reports: number, perReport: number): void {
    const db = svc.ctx.db;
    const ts = new Date().toISOString();
    db.transaction(() => {
      for (let i = 0; i < reports; i += 1) {
        const id = Number(
          db
            .prepare('INSERT INTO reports (deployment_id, public_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
            .run(dep, `${doc}-${i}`, `bulk ${i}`, ts, ts).lastInsertRowid,
        );
        for (let j = 0; j < perReport; j += 1) {
          db.prepare(
            'INSERT INTO report_placements (report_id, external_workbook_id, sheet_name, anchor_cell, placed_at) VALUES (?, ?, ?, ?, ?)',
          ).run(id, doc, 'S', `A${j + 1}`, ts);
        }
      }
    })();
  }

  it('answers 422 above 2000 placements (2000 is fine)', async () => {
    placeMany('doc-2000', 4, 500);
    expect((await svc.call('GET', '/api/v1/external-documents/doc-2000/placements?first=1')).status).toBe(200);
    placeMany('doc-2001', 1, 2001);
    const res = await svc.call('GET', '/api/v1/external-documents/doc-2001/placements');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('DOCUMENT_PLACEMENT_LIMIT_EXCEEDED');
  });

  it('answers 422 above 500 placed explorations (500 is fine)', async () => {
    placeMany('doc-500', 500, 1);
    expect((await svc.call('GET', '/api/v1/external-documents/doc-500/placements?first=1')).status).toBe(200);
    placeMany('doc-501', 501, 1);
    const res = await svc.call('GET', '/api/v1/external-documents/doc-501/placements');
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/500 placed explorations/);
  });
});

describe('report list pages', () => {
  it('show every report as reading it alone does: owner, folder path and placements of each (read once per page)', async () => {
    const d = await createDeployment(svc);
    const folder = await svc.call('POST', `/api/v1/deployments/${d}/folders`, { body: { name: 'Finance' } });
    expect(folder.status, folder.text).toBe(201);
    const a = await report({ name: 'A in folder', folderId: folder.body.id }, owner.auth, d);
    const b = await report({ name: 'B placed twice' }, otherDeveloper.auth, d);
    await report({ name: 'C plain' }, owner.auth, d);
    const c = await report({ name: 'D placed once' }, undefined, d);
    for (const [id, cell] of [[b.id, 'A1'], [b.id, 'C3'], [c.id, 'B2'], [a.id, 'D4']] as const) {
      const placed = await svc.call('PUT', `${R(d)}/${id}/connect-workbook`, { body: address(cell), auth: viewer.auth });
      expect(placed.status, placed.text).toBe(200);
    }
    const listed: Record<string, unknown>[] = [];
    let after: string | null = null;
    do {
      const page = await svc.call('GET', `${R(d)}?first=3&sortBy=name${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      expect(page.status, page.text).toBe(200);
      listed.push(...page.body.items);
      after = page.body.pageInfo.hasNextPage ? page.body.pageInfo.endCursor : null;
    } while (after);
    expect(listed.map((r) => r.name)).toEqual(['A in folder', 'B placed twice', 'C plain', 'D placed once']);
    expect(listed[0]).toMatchObject({ folderPath: '/Finance', owner: { name: 'Report Owner' } });
    expect((listed[1]!.placements as unknown[]).length).toBe(2);
    for (const item of listed) {
      const alone = await svc.call('GET', `${R(d)}/${item.id}`);
      // Reading a report alone records the view; everything else must match the list's entry.
      expect({ ...item, lastViewedAt: null }).toEqual({ ...alone.body, lastViewedAt: null });
    }
  });
});
