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
  owner = createUser(svc, 'developer');
  otherDeveloper = createUser(svc, 'developer');
  viewer = createUser(svc, 'viewer');
});
afterAll(async () => svc.stop());

interface Fixture {
  dep: number;
  folder: number;
  workbook: number;
  report: number;
}

async function fixture(auth = owner.auth): Promise<Fixture> {
  const dep = await createDeployment(svc);
  const base = `/api/v1/deployments/${dep}`;
  const folder = (await svc.call('POST', `${base}/folders`, { body: { name: 'Folder' }, auth })).body.id;
  const workbook = (await svc.call('POST', `${base}/workbooks`, { body: { name: 'Workbook' }, auth })).body.id;
  const report = (await svc.call('PUT', `${base}/reports/by-public-id/r1`, { body: { name: 'Report' }, auth })).body.id;
  return { dep, folder, workbook, report };
}

const exists = async (dep: number, kind: 'folders' | 'workbooks' | 'reports', id: number) =>
  (await svc.call('GET', `/api/v1/deployments/${dep}/${kind}/${id}`)).status === 200;

describe('POST D/workspace/bulk-delete', () => {
  it('deletes folders, workbooks and reports and reports each item', async () => {
    const f = await fixture();
    const res = await svc.call('POST', `/api/v1/deployments/${f.dep}/workspace/bulk-delete`, {
      body: { items: [{ type: 'FOLDER', id: f.folder }, { type: 'WORKBOOK', id: f.workbook }, { type: 'REPORT', id: f.report }] },
      auth: owner.auth,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [
        { type: 'FOLDER', id: f.folder, status: 'SUCCEEDED', error: null },
        { type: 'WORKBOOK', id: f.workbook, status: 'SUCCEEDED', error: null },
        { type: 'REPORT', id: f.report, status: 'SUCCEEDED', error: null },
      ],
      succeeded: 3,
      failed: 0,
    });
    expect(await exists(f.dep, 'folders', f.folder)).toBe(false);
    expect(await exists(f.dep, 'workbooks', f.workbook)).toBe(false);
    expect(await exists(f.dep, 'reports', f.report)).toBe(false);
  });

  it('never lets one bad item block the others: the unknown item fails with its reason, the rest are deleted', async () => {
    const f = await fixture();
    const res = await svc.call('POST', `/api/v1/deployments/${f.dep}/workspace/bulk-delete`, {
      body: { items: [{ type: 'WORKBOOK', id: 999999 }, { type: 'WORKBOOK', id: f.workbook }, { type: 'REPORT', id: f.report }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toEqual({ type: 'WORKBOOK', id: 999999, status: 'FAILED', error: { status: 404, code: 'WORKBOOK_NOT_FOUND', detail: expect.any(String) } });
    expect(res.body).toMatchObject({ succeeded: 2, failed: 1 });
    expect(await exists(f.dep, 'workbooks', f.workbook)).toBe(false);
  });

  it('leaves a failing item untouched: a non-empty folder keeps its content, an item the caller does not manage stays', async () => {
    const f = await fixture();
    const base = `/api/v1/deployments/${f.dep}`;
    const inner = (await svc.call('POST', `${base}/workbooks`, { body: { name: 'inner', folderId: f.folder }, auth: owner.auth })).body.id;
    const res = await svc.call('POST', `${base}/workspace/bulk-delete`, {
      body: { items: [{ type: 'FOLDER', id: f.folder }, { type: 'WORKBOOK', id: f.workbook }, { type: 'REPORT', id: f.report }] },
      auth: otherDeveloper.auth,
    });
    expect(res.body.results.map((r: { status: string; error: { code: string } | null }) => [r.status, r.error?.code])).toEqual([
      ['FAILED', 'FORBIDDEN'],
      ['FAILED', 'FORBIDDEN'],
      ['FAILED', 'FORBIDDEN'],
    ]);
    const asOwner = await svc.call('POST', `${base}/workspace/bulk-delete`, {
      body: { items: [{ type: 'FOLDER', id: f.folder }, { type: 'REPORT', id: f.report }] },
      auth: owner.auth,
    });
    expect(asOwner.body.results[0].error.code).toBe('FOLDER_NOT_EMPTY');
    expect(asOwner.body.results[1].status).toBe('SUCCEEDED');
    expect(await exists(f.dep, 'folders', f.folder)).toBe(true);
    expect((await svc.call('GET', `${base}/workbooks/${inner}`)).body.folderId).toBe(f.folder);
    expect(await exists(f.dep, 'workbooks', f.workbook)).toBe(true);
  });

  it('reports an unexpected failure of one item as INTERNAL, rolls that item back and still processes the others', async () => {
    const f = await fixture();
    const base = `/api/v1/deployments/${f.dep}`;
    const doomed = (await svc.call('POST', `${base}/workbooks`, { body: { name: 'guarded' } })).body.id;
    svc.ctx.db.exec(`CREATE TRIGGER guard_workbook BEFORE DELETE ON workbooks WHEN old.id = ${Number(doomed)} BEGIN SELECT RAISE(ABORT, 'injected'); END`);
    try {
      const res = await svc.call('POST', `${base}/workspace/bulk-delete`, {
        body: { items: [{ type: 'WORKBOOK', id: doomed }, { type: 'WORKBOOK', id: f.workbook }] },
      });
      expect(res.status).toBe(200);
      expect(res.body.results[0]).toMatchObject({ status: 'FAILED', error: { status: 500, code: 'INTERNAL' } });
      expect(res.body.results[1].status).toBe('SUCCEEDED');
    } finally {
      svc.ctx.db.exec('DROP TRIGGER guard_workbook');
    }
    expect(await exists(f.dep, 'workbooks', doomed)).toBe(true);
    expect(await exists(f.dep, 'workbooks', f.workbook)).toBe(false);
  });

  it('deletes a folder whose content was deleted earlier in the same request', async () => {
    const f = await fixture();
    const base = `/api/v1/deployments/${f.dep}`;
    const inner = (await svc.call('POST', `${base}/workbooks`, { body: { name: 'inner', folderId: f.folder } })).body.id;
    const res = await svc.call('POST', `${base}/workspace/bulk-delete`, {
      body: { items: [{ type: 'WORKBOOK', id: inner }, { type: 'FOLDER', id: f.folder }] },
    });
    expect(res.body).toMatchObject({ succeeded: 2, failed: 0 });
  });

  it('needs deployment edit access (403 for a viewer) and refuses an empty or unknown-type item list with 400', async () => {
    const f = await fixture();
    const url = `/api/v1/deployments/${f.dep}/workspace/bulk-delete`;
    expect((await svc.call('POST', url, { body: { items: [{ type: 'REPORT', id: f.report }] }, auth: viewer.auth })).status).toBe(403);
    expect((await svc.call('POST', url, { body: { items: [] } })).status).toBe(400);
    expect((await svc.call('POST', url, { body: { items: [{ type: 'DASHBOARD', id: 1 }] } })).status).toBe(400);
    expect(await exists(f.dep, 'reports', f.report)).toBe(true);
  });
});

describe('POST D/workspace/bulk-move', () => {
  it('moves folders, workbooks and reports into a folder, and back to the top level with null', async () => {
    const f = await fixture();
    const base = `/api/v1/deployments/${f.dep}`;
    const target = (await svc.call('POST', `${base}/folders`, { body: { name: 'Target' } })).body.id;
    const items = [{ type: 'FOLDER', id: f.folder }, { type: 'WORKBOOK', id: f.workbook }, { type: 'REPORT', id: f.report }];
    const res = await svc.call('POST', `${base}/workspace/bulk-move`, { body: { items, targetFolderId: target } });
    expect(res.body).toMatchObject({ succeeded: 3, failed: 0 });
    expect((await svc.call('GET', `${base}/folders/${f.folder}`)).body.path).toBe('/Target/Folder');
    expect((await svc.call('GET', `${base}/workbooks/${f.workbook}`)).body.folderPath).toBe('/Target');
    expect((await svc.call('GET', `${base}/reports/${f.report}`)).body.folderId).toBe(target);
    const back = await svc.call('POST', `${base}/workspace/bulk-move`, { body: { items, targetFolderId: null } });
    expect(back.body.succeeded).toBe(3);
    expect((await svc.call('GET', `${base}/workbooks/${f.workbook}`)).body.folderPath).toBe('/');
  });

  it('fails only the item that cannot move (a folder into itself) and moves the others', async () => {
    const f = await fixture();
    const base = `/api/v1/deployments/${f.dep}`;
    const res = await svc.call('POST', `${base}/workspace/bulk-move`, {
      body: { items: [{ type: 'FOLDER', id: f.folder }, { type: 'WORKBOOK', id: f.workbook }], targetFolderId: f.folder },
    });
    expect(res.body.results[0]).toMatchObject({ status: 'FAILED', error: { status: 409, code: 'FOLDER_CYCLE' } });
    expect(res.body.results[1].status).toBe('SUCCEEDED');
    expect((await svc.call('GET', `${base}/folders/${f.folder}`)).body.parentId).toBeNull();
    expect((await svc.call('GET', `${base}/workbooks/${f.workbook}`)).body.folderId).toBe(f.folder);
  });

  it('answers 404 for an unknown target folder and moves nothing', async () => {
    const f = await fixture();
    const base = `/api/v1/deployments/${f.dep}`;
    const res = await svc.call('POST', `${base}/workspace/bulk-move`, { body: { items: [{ type: 'WORKBOOK', id: f.workbook }], targetFolderId: 999999 } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('FOLDER_NOT_FOUND');
    expect((await svc.call('GET', `${base}/workbooks/${f.workbook}`)).body.folderId).toBeNull();
  });
});

describe('deleting a deployment', () => {
  it('removes its folders (nested), workbooks, reports, placements and notifications, and keeps promotion history elsewhere', async () => {
    const f = await fixture();
    const base = `/api/v1/deployments/${f.dep}`;
    const sub = (await svc.call('POST', `${base}/folders`, { body: { name: 'Sub', parentId: f.folder } })).body.id;
    await svc.call('POST', `${base}/workbooks`, { body: { name: 'nested', folderId: sub } });
    await svc.call('PUT', `${base}/reports/${f.report}/connect-workbook`, { body: { externalWorkbookId: 'doc-gone', sheetName: 'S', anchorCell: 'A1' } });
    await svc.call('POST', `${base}/notifications`, {
      body: { name: 'n', dashboardId: f.workbook, schedule: { cron: '0 8 * * 1', timezone: 'UTC' }, recipients: [{ type: 'EMAIL', email: 'a@example.com' }] },
    });
    const other = await createDeployment(svc);
    const pre = await svc.call('POST', `${base}/workbooks/${f.workbook}/promotion-previews`, { body: { targetDeploymentId: other } });
    const promoted = await svc.call('POST', `${base}/workbooks/${f.workbook}/promotions`, { body: { targetDeploymentId: other, sourceHash: pre.body.sourceHash } });
    expect(promoted.status).toBe(201);

    const res = await svc.call('DELETE', `/api/v1/deployments/${f.dep}`);
    expect(res.status).toBe(204);
    const count = (table: string) => (svc.ctx.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE deployment_id = ?`).get(f.dep) as { n: number }).n;
    expect([count('folders'), count('workbooks'), count('reports'), count('notifications')]).toEqual([0, 0, 0, 0]);
    expect((await svc.call('GET', '/api/v1/external-documents/doc-gone/placements')).body.items).toEqual([]);
    const provenance = await svc.call('GET', `/api/v1/deployments/${other}/workbooks/${promoted.body.target.workbookId}/promotion`);
    expect(provenance.body.promotedFrom).toMatchObject({ sourceDeploymentId: f.dep, sourceWorkbookId: null, sourceChangedSince: null });
  });
});
