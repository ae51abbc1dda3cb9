import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseMetricViewYaml } from '../../src-main/connectors/lakehouse';
import { getJobRunner } from '../../src-main/platform/jobs';
import { createDeployment } from '../support/deployments';
import type { TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';
import {
  D,
  deployFiles,
  eventually,
  Gate,
  hookConnector,
  openEmulator,
  ORDERS_VIEW,
  preview,
  publish,
  saveSettings,
  startSampleProjectService,
  viewOf,
  waitForBuildOf,
} from '../support/lakehouse';

let svc: TestService;
let viewer: TestUser;
let undoHook: (() => void) | null = null;

beforeAll(async () => {
  svc = await startSampleProjectService();
  viewer = createUser(svc, 'viewer');
});
afterAll(() => svc.stop());
afterEach(() => {
  undoHook?.();
  undoHook = null;
});

const previews = (id: number) => `${D(id)}/lakehouse-metric-view-previews`;

async function deployment(configuration: Record<string, unknown> = {}) {
  const id = await createDeployment(svc);
  const prefix = `mv${id}_`;
  await saveSettings(svc, id, { targetNamePrefix: prefix, ...configuration });
  return { id, prefix };
}

describe('previews', () => {
  it('answers 202 with polling URLs and completes with each view’s outcome, YAML, blocked reasons, warnings and withheld members', async () => {
    const { id, prefix } = await deployment();
    const { start, status, result } = await preview(svc, id, { selectionMode: 'all' });
    expect(start.previewId).toMatch(/^[0-9a-f-]{36}$/);
    expect(start.statusUrl).toBe(`/api/v1/deployments/${id}/lakehouse-metric-view-previews/${start.previewId}`);
    expect(start.resultUrl).toBe(`${start.statusUrl}/result`);
    expect(status.status).toBe('COMPLETED');
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ previewId: start.previewId, dataSourceName: 'lake', selectionMode: 'all', targetCatalog: 'main', targetSchema: 'default' });
    expect(result.body.commit).toMatch(/^[0-9a-f]{40}$/);

    const ok = viewOf(result.body.views, 'orders_view');
    expect(ok).toMatchObject({ outcome: 'create', action: 'create', target: `main.default.${prefix}orders_view`, blockedReasons: [], withheldMembers: [] });
    // Spec version 1.1 with the `on` key quoted, so YAML 1.1 readers do not see a boolean.
    expect(ok.yaml).toContain("'on': source.customer_id = customers.id");
    expect(parseMetricViewYaml(ok.yaml)).toMatchObject({
      version: 1.1,
      comment: 'Orders with the customer region',
      source: 'main.default.orders',
      joins: [{ name: 'customers', source: 'main.default.customers', on: 'source.customer_id = customers.id' }],
      dimensions: [
        { name: 'status', expr: 'source.status', display_name: 'Order status' },
        { name: 'customers_region', expr: 'customers.region', display_name: 'Region' },
      ],
      measures: [
        { name: 'count', expr: 'COUNT(1)' },
        { name: 'revenue', expr: 'SUM(source.amount)', display_name: 'Revenue', comment: 'Sum of order amounts' },
      ],
    });

    // Rule 7: a fan-out-unsafe measure is withheld and the view is partial.
    const partial = viewOf(result.body.views, 'orders_customers');
    expect(partial).toMatchObject({ outcome: 'partial', action: 'create', withheldMembers: ['customers_count'] });
    expect(partial.warnings.find((w: { code: string }) => w.code === 'MODEL_MEMBER_WITHHELD').member).toBe('orders_customers.customers_count');
    expect((parseMetricViewYaml(partial.yaml) as { measures: { name: string }[] }).measures.map((m) => m.name)).toEqual(['count']);

    // Rule 6: a one-to-many join blocks the view.
    const blocked = viewOf(result.body.views, 'customer_orders');
    expect(blocked).toMatchObject({ outcome: 'blocked', action: null, yaml: null });
    expect(blocked.blockedReasons.map((r: { code: string }) => r.code)).toEqual(['MODEL_VIEW_JOIN_NOT_REPRESENTABLE']);
    expect(result.body.outcomeCounts).toEqual({ create: 1, partial: 1, blocked: 1 });

    // A preview writes nothing.
    const emulator = openEmulator(svc);
    try {
      expect(emulator.getObject('main', 'default', `${prefix}orders_view`)).toBeNull();
    } finally {
      emulator.close();
    }
  });

  it('compares with the lakehouse: unchanged, update, and refused targets, plus retained_obsolete ones', async () => {
    const { id, prefix } = await deployment({ selectionMode: 'selected', selectedViews: ['orders_view', 'orders_customers'] });
    await publish(svc, id);
    const emulator = openEmulator(svc);
    try {
      const edited = emulator.getObject('main', 'default', `${prefix}orders_customers`)!.definition!.replace('version: 1.1', 'version: 1.1\ncomment: by hand');
      emulator.editOutOfBand('main', 'default', `${prefix}orders_customers`, edited);
      emulator.createUnmanagedView('main', 'default', `${prefix}orders_recent`, { sql: 'SELECT 1' });
    } finally {
      emulator.close();
    }
    const commit = await deployFiles(svc, id, { 'model/views/orders_recent.yml': ORDERS_VIEW.replace('name: orders_view', 'name: orders_recent') });
    await waitForBuildOf(svc, id, commit);
    const { result } = await preview(svc, id, { selectionMode: 'selected', selectedViews: ['orders_view', 'orders_customers', 'orders_recent'] });
    expect(viewOf(result.body.views, 'orders_view')).toMatchObject({ outcome: 'unchanged', action: 'unchanged' });
    expect(viewOf(result.body.views, 'orders_customers').blockedReasons[0].code).toBe('LAKEHOUSE_TARGET_DRIFTED');
    expect(viewOf(result.body.views, 'orders_recent').blockedReasons[0].code).toBe('LAKEHOUSE_TARGET_UNMANAGED');
    const narrowed = await preview(svc, id, { selectionMode: 'pattern', namePattern: '_view$' });
    expect(narrowed.result.body.views.map((v: { viewName: string; outcome: string }) => [v.viewName, v.outcome])).toEqual([
      ['orders_view', 'unchanged'],
      ['orders_customers', 'retained_obsolete'],
    ]);
  });

  it('shows an update when the deployed model changed since the last run', async () => {
    const { id } = await deployment({ selectionMode: 'selected', selectedViews: ['orders_view'] });
    await publish(svc, id);
    const commit = await deployFiles(svc, id, { 'model/views/orders_view.yml': ORDERS_VIEW.replace('Orders with the customer region', 'Orders and regions') });
    await waitForBuildOf(svc, id, commit);
    const { result } = await preview(svc, id);
    expect(viewOf(result.body.views, 'orders_view')).toMatchObject({ outcome: 'update', action: 'update' });
    expect(viewOf(result.body.views, 'orders_view').yaml).toContain('Orders and regions');
  });

  it('reads the latest successful deployed build, never unsaved dev-mode edits', async () => {
    const { id } = await deployment({ selectionMode: 'selected', selectedViews: ['orders_view'] });
    const devMode = await svc.call('POST', `/build/api/v1/deployments/${id}/dev-mode`);
    expect(devMode.status).toBeLessThan(300);
    const edit = await svc.call('PUT', `/build/api/v1/deployments/${id}/data-model/files`, {
      body: { files: [{ path: 'model/views/orders_view.yml', content: ORDERS_VIEW.replace('Orders with the customer region', 'UNSAVED EDIT') }] },
    });
    expect(edit.status).toBeLessThan(300);
    const { result } = await preview(svc, id);
    expect(viewOf(result.body.views, 'orders_view').yaml).toContain('Orders with the customer region');
    expect(viewOf(result.body.views, 'orders_view').yaml).not.toContain('UNSAVED EDIT');
  });

  it('answers the result with 409 while the preview runs, and cancels it on DELETE', async () => {
    const { id } = await deployment();
    const gate = new Gate();
    undoHook = hookConnector(svc, { beforeWarehouseCheck: () => gate.pass() });
    const start = await svc.call('POST', previews(id), { body: { dataSourceName: 'lake', selectionMode: 'all' } });
    expect(start.status).toBe(202);
    await gate.reached;
    expect((await svc.call('GET', start.body.statusUrl)).body.status).toBe('RUNNING');
    const early = await svc.call('GET', start.body.resultUrl);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('LAKEHOUSE_PREVIEW_NOT_FINISHED');
    expect(early.body.previewStatus).toBe('RUNNING');
    const cancel = await svc.call('DELETE', start.body.statusUrl);
    expect(cancel.status).toBe(202);
    expect(cancel.body.status).toBe('CANCELLING');
    gate.open();
    const ended = await eventually(async () => {
      const res = await svc.call('GET', start.body.statusUrl);
      return res.body.status === 'CANCELLED' ? res.body : undefined;
    }, 'the cancelled preview');
    expect(ended.finishedAt).not.toBeNull();
    const none = await svc.call('GET', start.body.resultUrl);
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('LAKEHOUSE_PREVIEW_NO_RESULT');
  });

  it('ends without a result (409 on the result) when the lakehouse cannot be reached', async () => {
    const { id } = await deployment();
    const emulator = openEmulator(svc);
    emulator.setWarehouseAvailable(false);
    try {
      const { status, result } = await preview(svc, id);
      expect(status.status).toBe('FAILED');
      expect(status.error.code).toBe('LAKEHOUSE_UNAVAILABLE');
      expect(result.status).toBe(409);
      expect(result.body.code).toBe('LAKEHOUSE_PREVIEW_NO_RESULT');
    } finally {
      emulator.setWarehouseAvailable(true);
      emulator.close();
    }
  });

  it('keeps a preview’s request and result at most 7 days', async () => {
    const { id } = await deployment();
    const { start, status } = await preview(svc, id);
    const created = Date.parse(status.createdAt);
    expect(Date.parse(status.expiresAt) - created).toBeLessThanOrEqual(7 * 24 * 60 * 60 * 1000);
    expect(Date.parse(status.expiresAt) - created).toBeGreaterThan(6 * 24 * 60 * 60 * 1000);
    // Time passes beyond the expiry: the retention sweep removes it.
    svc.ctx.db.prepare('UPDATE jobs SET expires_at = ? WHERE id = ?').run(new Date(Date.now() - 1000).toISOString(), start.previewId);
    await getJobRunner(svc.ctx).sweep();
    expect((await svc.call('GET', start.statusUrl)).status).toBe(404);
    expect((await svc.call('GET', start.resultUrl)).body.code).toBe('LAKEHOUSE_PREVIEW_NOT_FOUND');
    expect(svc.ctx.db.prepare('SELECT COUNT(*) AS n FROM lakehouse_previews WHERE id = ?').get(start.previewId)).toEqual({ n: 0 });
  });

  it('needs a target: saved settings or targetCatalog and targetSchema in the request', async () => {
    const id = await createDeployment(svc);
    const refused = await svc.call('POST', previews(id), { body: { dataSourceName: 'lake', selectionMode: 'all' } });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('LAKEHOUSE_TARGET_REQUIRED');
    const { status } = await preview(svc, id, { selectionMode: 'all', targetCatalog: 'main', targetSchema: 'default', targetNamePrefix: `mv${id}_` });
    expect(status.status).toBe('COMPLETED');
    const invalid = await svc.call('POST', previews(id), { body: { dataSourceName: 'lake', selectionMode: 'pattern', namePattern: 'a+', targetCatalog: 'main', targetSchema: 'default' } });
    expect(invalid.body.code).toBe('LAKEHOUSE_NAME_PATTERN_INVALID');
    const warehouse = await svc.call('POST', previews(id), { body: { dataSourceName: 'default', targetCatalog: 'main', targetSchema: 'default' } });
    expect(warehouse.body.code).toBe('LAKEHOUSE_DATA_SOURCE_REQUIRED');
  });

  it('needs SchemaRead or SchemaUpdate (a viewer may preview)', async () => {
    const { id } = await deployment();
    const start = await svc.call('POST', previews(id), { body: { dataSourceName: 'lake' }, auth: viewer.auth });
    expect(start.status).toBe(202);
    expect((await svc.call('GET', start.body.statusUrl, { auth: viewer.auth })).status).toBe(200);
    const none = createUser(svc, 'viewer', { actions: ['-SchemaRead'] });
    expect((await svc.call('POST', previews(id), { body: { dataSourceName: 'lake' }, auth: none.auth })).status).toBe(403);
    expect((await svc.call('GET', start.body.statusUrl, { auth: none.auth })).status).toBe(403);
    await eventually(async () => ((await svc.call('GET', start.body.statusUrl)).body.status === 'COMPLETED' ? true : undefined), 'the preview');
  });

  it('answers 404 for an unknown preview', async () => {
    const { id } = await deployment();
    const res = await svc.call('GET', `${previews(id)}/00000000-0000-4000-8000-000000000000`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('LAKEHOUSE_PREVIEW_NOT_FOUND');
  });
});
