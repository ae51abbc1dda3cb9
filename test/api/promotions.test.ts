import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser, type TestUser } from '../support/users';

let svc: TestService;
let source: number;
let target: number;
let developer: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  svc = await startTestService();
  source = await createDeployment(svc, 'staging');
  target = await createDeployment(svc, 'production');
  developer = createUser(svc, 'developer');
  viewer = createUser(svc, 'viewer');
});
afterAll(async () => svc.stop());

const pos = (x = 0, y = 0, w = 4, h = 3) => ({ x, y, w, h });
const wbUrl = (dep: number, id?: number) => `/api/v1/deployments/${dep}/workbooks${id === undefined ? '' : `/${id}`}`;

let slugCounter = 0;
async function sourceWorkbook(dashboard: Record<string, unknown> = { title: 'Board', widgets: [{ id: 'a', type: 'CHART', position: pos() }] }) {
  const res = await svc.call('POST', wbUrl(source), { body: { name: 'Revenue', slug: `revenue-${++slugCounter}`, dashboardDraft: dashboard } });
  expect(res.status, res.text).toBe(201);
  await svc.call('POST', `${wbUrl(source, res.body.id)}/publish`);
  return res.body as { id: number; slug: string };
}

const preview = (workbookId: number, body: Record<string, unknown> = { targetDeploymentId: target }, auth?: string) =>
  svc.call('POST', `${wbUrl(source, workbookId)}/promotion-previews`, { body, auth });
const apply = (workbookId: number, body: Record<string, unknown>, auth?: string) =>
  svc.call('POST', `${wbUrl(source, workbookId)}/promotions`, { body: { targetDeploymentId: target, ...body }, auth });

describe('promotion preview', () => {
  it('stores nothing and returns the content hashes and what would change (create)', async () => {
    const wb = await sourceWorkbook();
    const before = await svc.call('GET', `${wbUrl(target)}?first=1000`);
    const res = await preview(wb.id);
    expect(res.status).toBe(200);
    expect(res.body.operation).toBe('CREATE');
    expect(res.body.sourceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.targetHash).toBeNull();
    expect(res.body.target).toMatchObject({ deploymentId: target, workbookId: null, slug: wb.slug });
    expect(res.body.changes.dashboardPublished).toMatchObject({ changed: true, presence: 'added', widgetsAdded: ['a'] });
    const after = await svc.call('GET', `${wbUrl(target)}?first=1000`);
    expect(after.body.items).toEqual(before.body.items);
    expect((await svc.call('GET', `${wbUrl(source, wb.id)}/promotions`)).body.items).toEqual([]);
    expect((await svc.call('GET', wbUrl(source, wb.id))).body.promotion).toBeNull();
  });

  it('hashes the canonical JSON of the promotable content: key order does not matter, content does', async () => {
    const a = await sourceWorkbook({ title: 'T', description: 'D', widgets: [{ id: 'x', type: 'TEXT', position: { x: 1, y: 2, w: 3, h: 4 } }] });
    const b = await sourceWorkbook({ widgets: [{ position: { h: 4, w: 3, y: 2, x: 1 }, type: 'TEXT', id: 'x' }], description: 'D', title: 'T' });
    const c = await sourceWorkbook({ title: 'T', description: 'D', widgets: [{ id: 'x', type: 'TEXT', position: { x: 1, y: 2, w: 3, h: 5 } }] });
    const [ha, hb, hc] = await Promise.all([a, b, c].map(async (w) => (await preview(w.id)).body.sourceHash));
    expect(ha).toBe(hb);
    expect(ha).not.toBe(hc);
  });

  it('answers 404 for an unknown target deployment', async () => {
    const wb = await sourceWorkbook();
    const res = await preview(wb.id, { targetDeploymentId: 999999 });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('TARGET_DEPLOYMENT_NOT_FOUND');
  });
});

describe('promotion apply', () => {
  it('applies when the source hash still matches the preview: creates the target with the same content', async () => {
    const wb = await sourceWorkbook();
    const pre = await preview(wb.id);
    const res = await apply(wb.id, { sourceHash: pre.body.sourceHash, targetHash: pre.body.targetHash, idempotencyKey: 'k-create' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'APPLIED', operation: 'CREATE', sourceHash: pre.body.sourceHash, targetHashBefore: null });
    expect(res.body.targetHashAfter).toBe(pre.body.sourceHash);
    const created = await svc.call('GET', wbUrl(target, res.body.target.workbookId));
    expect(created.body).toMatchObject({ slug: wb.slug, name: 'Revenue' });
    const src = await svc.call('GET', wbUrl(source, wb.id));
    expect(created.body.dashboardPublished).toEqual(src.body.dashboardPublished);
    expect(created.body.dashboardDraft).toEqual(src.body.dashboardDraft);
  });

  it('refuses with 409 PROMOTION_SOURCE_CHANGED, explaining why, when the source changed since the preview; nothing is written', async () => {
    const wb = await sourceWorkbook();
    const pre = await preview(wb.id);
    await svc.call('PUT', `${wbUrl(source, wb.id)}/dashboard`, { body: { dashboardDraft: { title: 'edited after preview' } } });
    const before = await svc.call('GET', `${wbUrl(target)}?first=1000`);
    const res = await apply(wb.id, { sourceHash: pre.body.sourceHash });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PROMOTION_SOURCE_CHANGED');
    expect(res.body.detail).toMatch(/changed since the preview/);
    expect(res.body.previewSourceHash).toBe(pre.body.sourceHash);
    expect(res.body.currentSourceHash).not.toBe(pre.body.sourceHash);
    expect((await svc.call('GET', `${wbUrl(target)}?first=1000`)).body.items).toEqual(before.body.items);
    expect((await svc.call('GET', `${wbUrl(source, wb.id)}/promotions`)).body.items).toEqual([]);
    // A fresh preview shows the new hash, and applying with it succeeds.
    const again = await preview(wb.id);
    expect(again.body.sourceHash).toBe(res.body.currentSourceHash);
    expect((await apply(wb.id, { sourceHash: again.body.sourceHash })).status).toBe(201);
  });

  it('returns the first result for a repeat with the same idempotency key, even after the source changed', async () => {
    const wb = await sourceWorkbook();
    const pre = await preview(wb.id);
    const first = await apply(wb.id, { sourceHash: pre.body.sourceHash, idempotencyKey: 'repeat-me' });
    await svc.call('PUT', `${wbUrl(source, wb.id)}/dashboard`, { body: { dashboardDraft: { title: 'later' } } });
    const second = await apply(wb.id, { sourceHash: pre.body.sourceHash, idempotencyKey: 'repeat-me' });
    expect(second.body).toEqual(first.body);
    expect((await svc.call('GET', `${wbUrl(source, wb.id)}/promotions`)).body.items).toHaveLength(1);
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED when the same key comes with other inputs', async () => {
    const wb = await sourceWorkbook();
    const pre = await preview(wb.id);
    await apply(wb.id, { sourceHash: pre.body.sourceHash, idempotencyKey: 'used-once' });
    const other = await sourceWorkbook();
    const otherPre = await preview(other.id);
    const res = await apply(other.id, { sourceHash: otherPre.body.sourceHash, idempotencyKey: 'used-once' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('updates the same target on the next promotion and summarises the dashboard diff', async () => {
    const wb = await sourceWorkbook({
      theme: { primaryColor: '#111' },
      layout: { rowHeight: 30 },
      widgets: [
        { id: 'keep', type: 'TEXT', position: pos(0, 0) },
        { id: 'move', type: 'TEXT', position: pos(0, 3) },
        { id: 'change', type: 'CHART', position: pos(0, 6), config: { q: 1 } },
        { id: 'drop', type: 'DIVIDER', position: pos(0, 9) },
      ],
    });
    const first = await apply(wb.id, { sourceHash: (await preview(wb.id)).body.sourceHash });
    const targetId = first.body.target.workbookId;
    await svc.call('POST', `${wbUrl(source, wb.id)}/publish`, {
      body: {
        config: {
          theme: { primaryColor: '#222' },
          layout: { rowHeight: 40 },
          widgets: [
            { id: 'keep', type: 'TEXT', position: pos(0, 0) },
            { id: 'move', type: 'TEXT', position: pos(4, 3) },
            { id: 'change', type: 'CHART', position: pos(0, 6), config: { q: 2 } },
            { id: 'new', type: 'AI', position: pos(0, 12) },
          ],
        },
      },
    });
    const pre = await preview(wb.id);
    expect(pre.body.operation).toBe('UPDATE');
    expect(pre.body.target.workbookId).toBe(targetId);
    expect(pre.body.targetHash).toBe(first.body.targetHashAfter);
    expect(pre.body.changes.dashboardPublished).toMatchObject({
      changed: true,
      presence: 'both',
      widgetsAdded: ['new'],
      widgetsRemoved: ['drop'],
      widgetsMoved: ['move'],
      widgetsChanged: ['change'],
      themeChanged: true,
      layoutChanged: true,
      settingsChanged: false,
    });
    expect(pre.body.targetContent.dashboardPublished.widgets.map((w: { id: string }) => w.id)).toEqual(['keep', 'move', 'change', 'drop']);
    const second = await apply(wb.id, { sourceHash: pre.body.sourceHash, targetHash: pre.body.targetHash });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ operation: 'UPDATE', targetHashBefore: pre.body.targetHash });
    expect(second.body.target.workbookId).toBe(targetId);
  });

  it('refuses with 409 PROMOTION_TARGET_CHANGED when the previewed target changed meanwhile', async () => {
    const wb = await sourceWorkbook();
    const first = await apply(wb.id, { sourceHash: (await preview(wb.id)).body.sourceHash });
    await svc.call('PUT', `${wbUrl(source, wb.id)}/dashboard`, { body: { dashboardDraft: { title: 'v2' } } });
    const pre = await preview(wb.id);
    await svc.call('PUT', `${wbUrl(target, first.body.target.workbookId)}/dashboard`, { body: { dashboardDraft: { title: 'hotfix in prod' } } });
    const res = await apply(wb.id, { sourceHash: pre.body.sourceHash, targetHash: pre.body.targetHash });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PROMOTION_TARGET_CHANGED');
    expect((await svc.call('GET', wbUrl(target, first.body.target.workbookId))).body.dashboardDraft.title).toBe('hotfix in prod');
  });

  it('overwrites the workbook with the same slug in the target deployment, or the one named by targetWorkbookId', async () => {
    const wb = await sourceWorkbook();
    const existing = await svc.call('POST', wbUrl(target), { body: { name: 'Old', slug: wb.slug } });
    const bySlug = await preview(wb.id);
    expect(bySlug.body).toMatchObject({ operation: 'UPDATE', target: { workbookId: existing.body.id } });
    const named = await svc.call('POST', wbUrl(target), { body: { name: 'Elsewhere' } });
    const explicit = await preview(wb.id, { targetDeploymentId: target, targetWorkbookId: named.body.id });
    expect(explicit.body.target.workbookId).toBe(named.body.id);
    expect((await preview(wb.id, { targetDeploymentId: target, targetWorkbookId: 999999 })).body.code).toBe('TARGET_WORKBOOK_NOT_FOUND');
  });

  it('applies atomically: when recording the promotion fails, the target workbook is left as it was', async () => {
    const wb = await sourceWorkbook();
    const first = await apply(wb.id, { sourceHash: (await preview(wb.id)).body.sourceHash });
    const targetUrl = wbUrl(target, first.body.target.workbookId);
    const before = (await svc.call('GET', targetUrl)).body;
    await svc.call('PUT', `${wbUrl(source, wb.id)}/dashboard`, { body: { dashboardDraft: { title: 'should not arrive' } } });
    const pre = await preview(wb.id);
    // Make the last write of the apply (its history row) fail, after the target was already updated.
    svc.ctx.db.exec("CREATE TRIGGER fail_promotion_record BEFORE INSERT ON workbook_promotions BEGIN SELECT RAISE(ABORT, 'injected'); END");
    try {
      const res = await apply(wb.id, { sourceHash: pre.body.sourceHash });
      expect(res.status).toBe(500);
    } finally {
      svc.ctx.db.exec('DROP TRIGGER fail_promotion_record');
    }
    expect((await svc.call('GET', targetUrl)).body).toEqual(before);
    expect((await svc.call('GET', `${wbUrl(source, wb.id)}/promotions`)).body.items).toHaveLength(1);
  });

  it('refuses to promote a workbook onto itself with 400', async () => {
    const wb = await sourceWorkbook();
    const res = await preview(wb.id, { targetDeploymentId: source, targetWorkbookId: wb.id });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PROMOTION_TARGET_IS_SOURCE');
  });
});

describe('who may promote', () => {
  it('accepts a workspace session as well as an API key', async () => {
    const wb = await sourceWorkbook();
    const session = await bearerFor(svc, developer.id, 'workspace');
    const pre = await preview(wb.id, { targetDeploymentId: target }, session);
    expect(pre.status).toBe(200);
    const res = await apply(wb.id, { sourceHash: pre.body.sourceHash }, session);
    expect(res.status).toBe(201);
    expect(res.body.promotedBy.id).toBe(developer.id);
  });

  it('refuses deployment and OAuth tokens with 403 PROMOTION_CREDENTIAL_REFUSED', async () => {
    const wb = await sourceWorkbook();
    const sourceHash = (await preview(wb.id)).body.sourceHash;
    const deploymentToken = await bearerFor(svc, developer.id, 'deployment', { deploymentId: source });
    const oauth = await bearerFor(svc, developer.id, 'oauth', { scopes: ['deployment.write'] });
    for (const auth of [deploymentToken, oauth]) {
      const res = await apply(wb.id, { sourceHash }, auth);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('PROMOTION_CREDENTIAL_REFUSED');
      expect((await preview(wb.id, { targetDeploymentId: target }, auth)).status).toBe(403);
    }
  });

  it('needs access to both deployments: edit access on the target to apply (403 otherwise)', async () => {
    const wb = await sourceWorkbook();
    const sourceHash = (await preview(wb.id)).body.sourceHash;
    const viewerSession = await bearerFor(svc, viewer.id, 'workspace');
    expect((await preview(wb.id, { targetDeploymentId: target }, viewerSession)).status).toBe(200);
    const res = await apply(wb.id, { sourceHash }, viewerSession);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/both deployments/);
    const noEdit = createUser(svc, 'developer', { actions: ['-DeploymentEdit'] });
    expect((await apply(wb.id, { sourceHash }, noEdit.auth)).status).toBe(403);
  });
});

describe('provenance, history and links', () => {
  it('shows a promotion summary on both workbooks once promoted (null before)', async () => {
    const wb = await sourceWorkbook();
    expect((await svc.call('GET', wbUrl(source, wb.id))).body.promotion).toBeNull();
    const res = await apply(wb.id, { sourceHash: (await preview(wb.id)).body.sourceHash });
    const src = await svc.call('GET', wbUrl(source, wb.id));
    expect(src.body.promotion).toMatchObject({ promotedFrom: null, destinationCount: 1, lastPromotedAt: res.body.createdAt });
    const dst = await svc.call('GET', wbUrl(target, res.body.target.workbookId));
    expect(dst.body.promotion).toMatchObject({
      promotedFrom: { deploymentId: source, workbookId: wb.id, promotionId: res.body.id },
      destinationCount: 0,
    });
  });

  it('GET …/promotion tells where a workbook came from and went, and what changed since', async () => {
    const wb = await sourceWorkbook();
    const res = await apply(wb.id, { sourceHash: (await preview(wb.id)).body.sourceHash });
    const targetId = res.body.target.workbookId;
    const fresh = await svc.call('GET', `${wbUrl(target, targetId)}/promotion`);
    expect(fresh.body.promotedFrom).toMatchObject({
      promotionId: res.body.id,
      sourceDeploymentId: source,
      sourceWorkbookId: wb.id,
      modifiedSincePromotion: false,
      sourceChangedSince: false,
    });
    expect(fresh.body.contentHash).toBe(res.body.targetHashAfter);
    await svc.call('PUT', `${wbUrl(target, targetId)}/dashboard`, { body: { dashboardDraft: { title: 'prod edit' } } });
    await svc.call('PUT', `${wbUrl(source, wb.id)}/dashboard`, { body: { dashboardDraft: { title: 'staging edit' } } });
    const later = await svc.call('GET', `${wbUrl(target, targetId)}/promotion`);
    expect(later.body.promotedFrom).toMatchObject({ modifiedSincePromotion: true, sourceChangedSince: true });
    const origin = await svc.call('GET', `${wbUrl(source, wb.id)}/promotion`);
    expect(origin.body.promotedFrom).toBeNull();
    expect(origin.body.promotedTo).toMatchObject([
      { targetDeploymentId: target, targetWorkbookId: targetId, promotionCount: 1, targetModifiedSince: true, sourceChangedSince: true },
    ]);
  });

  it('lists promotion history newest first with cursor pagination, on both sides', async () => {
    const wb = await sourceWorkbook();
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      await svc.call('PUT', `${wbUrl(source, wb.id)}/dashboard`, { body: { dashboardDraft: { title: `v${i}` } } });
      ids.push((await apply(wb.id, { sourceHash: (await preview(wb.id)).body.sourceHash })).body.id);
    }
    const page1 = await svc.call('GET', `${wbUrl(source, wb.id)}/promotions?first=2`);
    expect(page1.body.items.map((p: { id: number }) => p.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    const page2 = await svc.call('GET', `${wbUrl(source, wb.id)}/promotions?first=2&after=${page1.body.pageInfo.endCursor}`);
    expect(page2.body.items.map((p: { id: number }) => p.id)).toEqual([ids[0]]);
    expect(page2.body.pageInfo.hasNextPage).toBe(false);
    const targetId = page1.body.items[0].target.workbookId;
    const onTarget = await svc.call('GET', `${wbUrl(target, targetId)}/promotions`);
    expect(onTarget.body.items.map((p: { id: number }) => p.id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('lists the destinations of a workbook in …/promotion-links, one per target workbook', async () => {
    const third = await createDeployment(svc, 'qa');
    const wb = await sourceWorkbook();
    const hash = (await preview(wb.id)).body.sourceHash;
    await apply(wb.id, { sourceHash: hash });
    await apply(wb.id, { sourceHash: hash });
    await apply(wb.id, { sourceHash: hash, targetDeploymentId: third });
    const links = await svc.call('GET', `${wbUrl(source, wb.id)}/promotion-links`);
    expect(links.status).toBe(200);
    expect(links.body.items.map((l: { targetDeploymentId: number; promotionCount: number }) => [l.targetDeploymentId, l.promotionCount])).toEqual([
      [third, 1],
      [target, 2],
    ]);
    expect(links.body.items[0]).toMatchObject({ sourceChangedSince: false, targetModifiedSince: false, promotedHash: hash });
  });
});
