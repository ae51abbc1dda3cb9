import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseMetricViewYaml } from '../../src-main/connectors/lakehouse';
import { createDeployment } from '../support/deployments';
import { createUser, type TestUser } from '../support/users';
import {
  CUSTOMER_ORDERS_VIEW,
  deployFiles,
  Gate,
  hookConnector,
  integration,
  openEmulator,
  ORDERS_CUBE,
  ORDERS_VIEW,
  publish,
  saveSettings,
  type SampleProjectService,
  startSampleProjectService,
  useModelAsSampleProject,
  viewOf,
  waitForBuildOf,
  waitForRun,
} from '../support/lakehouse';

let svc: SampleProjectService;
let viewer: TestUser;
let developer: TestUser;
let undoHook: (() => void) | null = null;

beforeAll(async () => {
  svc = await startSampleProjectService();
  viewer = createUser(svc, 'viewer');
  developer = createUser(svc, 'developer');
});
afterAll(() => svc.stop());
afterEach(() => {
  undoHook?.();
  undoHook = null;
});

/** A deployment with settings saved; its targets are `main.default.mv<id>_<view>`. */
async function deployment(configuration: Record<string, unknown> = {}) {
  const id = await createDeployment(svc);
  const prefix = `mv${id}_`;
  const settings = await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'selected', selectedViews: ['orders_view', 'orders_customers'], ...configuration });
  return { id, prefix, settings };
}

const syncs = (id: number) => `${integration(id)}/syncs`;

describe('starting and finishing a run', () => {
  it('answers 202 with runId, buildJobId, commit and a root-relative statusUrl, and ends COMPLETED when every view succeeded (withheld members allowed)', async () => {
    const { id, prefix, settings } = await deployment();
    const start = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion } });
    expect(start.status).toBe(202);
    expect(start.body.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(start.body.buildJobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(start.body.statusUrl).toBe(`/api/v1/deployments/${id}/lakehouse-metric-view-integrations/lake/syncs/${start.body.runId}`);
    const run = await waitForRun(svc, start.body.statusUrl);
    expect(run.status).toBe('COMPLETED');
    expect(run.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(run.buildJobId).toBe(start.body.buildJobId);
    expect(run.viewNames).toEqual(['orders_view', 'orders_customers']);
    expect(viewOf(run.views, 'orders_view')).toMatchObject({ outcome: 'created', target: `main.default.${prefix}orders_view`, withheldMembers: [] });
    // Rule 7: the fan-out-unsafe measure is withheld, the view still published, and counted as incomplete.
    const partial = viewOf(run.views, 'orders_customers');
    expect(partial).toMatchObject({ outcome: 'created', withheldMembers: ['customers_count'] });
    expect(partial.warnings.map((w: { code: string }) => w.code)).toContain('MODEL_MEMBER_WITHHELD');
    expect(run.incompleteViewCount).toBe(1);
    expect(run.outcomeCounts).toEqual({ created: 2 });

    const emulator = openEmulator(svc);
    try {
      const target = emulator.getObject('main', 'default', `${prefix}orders_view`)!;
      expect(target.kind).toBe('METRIC_VIEW');
      expect(target.properties['drydock.managed']).toBe('true');
      expect(target.properties['drydock.deployment']).toBe(String(id));
      const definition = parseMetricViewYaml(target.definition!) as Record<string, unknown>;
      expect(definition.source).toBe('main.default.orders');
      expect((definition.measures as { name: string }[]).map((m) => m.name)).toEqual(['count', 'revenue']);
      const withheld = parseMetricViewYaml(emulator.getObject('main', 'default', `${prefix}orders_customers`)!.definition!) as Record<string, unknown>;
      expect((withheld.measures as { name: string }[]).map((m) => m.name)).toEqual(['count']);
    } finally {
      emulator.close();
    }
  });

  it('ends PARTIAL when some views do not publish: a one-to-many join is blocked with MODEL_VIEW_JOIN_NOT_REPRESENTABLE while the others publish', async () => {
    const { id, prefix } = await deployment({ selectedViews: ['orders_view', 'customer_orders'] });
    const run = await publish(svc, id);
    expect(run.status).toBe('PARTIAL');
    const blocked = viewOf(run.views, 'customer_orders');
    expect(blocked.outcome).toBe('blocked');
    expect(blocked.reasons.map((r: { code: string }) => r.code)).toContain('MODEL_VIEW_JOIN_NOT_REPRESENTABLE');
    expect(viewOf(run.views, 'orders_view').outcome).toBe('created');
    const emulator = openEmulator(svc);
    try {
      expect(emulator.getObject('main', 'default', `${prefix}customer_orders`)).toBeNull();
    } finally {
      emulator.close();
    }
  });

  it('reports unchanged views when nothing changed since the last run', async () => {
    const { id } = await deployment();
    await publish(svc, id);
    const again = await publish(svc, id);
    expect(again.status).toBe('COMPLETED');
    expect(again.views.map((v: { outcome: string }) => v.outcome)).toEqual(['unchanged', 'unchanged']);
  });

  it('definitionWritten is true for views the run created or updated, false for unchanged and blocked ones', async () => {
    const { id } = await deployment({ selectedViews: ['orders_view', 'customer_orders'] });
    const first = await publish(svc, id);
    expect(viewOf(first.views, 'orders_view')).toMatchObject({ outcome: 'created', definitionWritten: true });
    expect(viewOf(first.views, 'customer_orders')).toMatchObject({ outcome: 'blocked', definitionWritten: false });
    const again = await publish(svc, id);
    expect(viewOf(again.views, 'orders_view')).toMatchObject({ outcome: 'unchanged', definitionWritten: false });
    await waitForBuildOf(svc, id, await deployFiles(svc, id, { 'model/views/orders_view.yml': ORDERS_VIEW.replace('Orders with the customer region', 'Orders, regions') }));
    const updated = await publish(svc, id);
    expect(viewOf(updated.views, 'orders_view')).toMatchObject({ outcome: 'updated', definitionWritten: true });
  });

  it('changes an existing managed target in place with ALTER, keeping its owner and grants', async () => {
    const { id, prefix } = await deployment({ selectedViews: ['orders_view'] });
    await publish(svc, id);
    const emulator = openEmulator(svc);
    try {
      emulator.grant('analyst', 'SELECT', ['main', 'default', `${prefix}orders_view`]);
      const commit = await deployFiles(svc, id, { 'model/cubes/orders.yml': ORDERS_CUBE.replace('title: Revenue', 'title: Gross revenue') });
      await waitForBuildOf(svc, id, commit);
      const run = await publish(svc, id);
      expect(viewOf(run.views, 'orders_view').outcome).toBe('updated');
      expect(run.commit).toBe(commit);
      const target = emulator.getObject('main', 'default', `${prefix}orders_view`)!;
      expect(target.definition).toContain('Gross revenue');
      expect(target.owner).toBe('drydock');
      expect(emulator.listGrants(['main', 'default', `${prefix}orders_view`]).map((g) => `${g.principal}:${g.privilege}`)).toContain('analyst:SELECT');
    } finally {
      emulator.close();
    }
  });

  it('refuses a start whose configurationVersion is not the current one with 409 and starts nothing', async () => {
    const { id, settings } = await deployment();
    const res = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion + 1 } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('LAKEHOUSE_CONFIGURATION_VERSION_CONFLICT');
    expect(res.body.currentConfigurationVersion).toBe(settings.configurationVersion);
    expect((await svc.call('GET', syncs(id))).body.items).toEqual([]);
  });

  it('refuses to start a run while another run is active with 409 LAKEHOUSE_RUN_ACTIVE', async () => {
    const { id, settings } = await deployment();
    const gate = new Gate();
    undoHook = hookConnector(svc, { beforeWarehouseCheck: () => gate.pass() });
    const first = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion } });
    expect(first.status).toBe(202);
    await gate.reached;
    expect((await svc.call('GET', first.body.statusUrl)).body.status).toBe('RUNNING');
    const second = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion } });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('LAKEHOUSE_RUN_ACTIVE');
    expect(second.body.runId).toBe(first.body.runId);
    gate.open();
    expect((await waitForRun(svc, first.body.statusUrl)).status).toBe('COMPLETED');
    const third = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion } });
    expect(third.status).toBe(202);
    await waitForRun(svc, third.body.statusUrl);
  });

  it('cancellation stops further writes and undoes nothing', async () => {
    const { id, prefix, settings } = await deployment({ selectedViews: ['orders_customers', 'orders_view'] });
    const gate = new Gate();
    undoHook = hookConnector(svc, { beforeGetObject: (name) => (name.endsWith('orders_view') ? gate.pass() : Promise.resolve()) });
    const start = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion } });
    await gate.reached;
    const cancel = await svc.call('DELETE', start.body.statusUrl);
    expect(cancel.status).toBe(202);
    expect(cancel.body.status).toBe('CANCELLING');
    gate.open();
    const run = await waitForRun(svc, start.body.statusUrl);
    expect(run.status).toBe('CANCELLED');
    expect(run.views.map((v: { viewName: string; outcome: string }) => [v.viewName, v.outcome])).toEqual([['orders_customers', 'created']]);
    const emulator = openEmulator(svc);
    try {
      expect(emulator.getObject('main', 'default', `${prefix}orders_customers`)?.kind).toBe('METRIC_VIEW');
      expect(emulator.getObject('main', 'default', `${prefix}orders_view`)).toBeNull();
    } finally {
      emulator.close();
    }
    // The one cancellation rule: a run that already ended is returned unchanged, with the same status code.
    const again = await svc.call('DELETE', start.body.statusUrl);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ runId: start.body.runId, status: 'CANCELLED' });
  });

  it('returns the original run for a repeated idempotencyKey and refuses the key with other inputs', async () => {
    const { id, settings } = await deployment();
    const key = randomUUID();
    const first = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion, idempotencyKey: key } });
    expect(first.status).toBe(202);
    await waitForRun(svc, first.body.statusUrl);
    const again = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion, idempotencyKey: key } });
    expect(again.status).toBe(202);
    expect(again.body.runId).toBe(first.body.runId);
    const changed = await saveSettings(svc, id, { targetNamePrefix: `mv${id}_`, selectionMode: 'selected', selectedViews: ['orders_view'] });
    const reused = await svc.call('POST', syncs(id), { body: { configurationVersion: changed.configurationVersion, idempotencyKey: key } });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await svc.call('GET', syncs(id))).body.items).toHaveLength(1);
  });

  it('reads the latest successful deployed build: a newer commit that fails to build is not published', async () => {
    const { id, prefix } = await deployment({ selectedViews: ['orders_view'] });
    const first = await publish(svc, id);
    const broken = await deployFiles(svc, id, { 'model/views/orders_view.yml': 'views:\n  - name: orders_view\n    cubes:\n      - join_path: nowhere\n        includes: "*"\n' });
    const state = await waitForBuildOf(svc, id, broken);
    expect(state.buildStatus).toBe('failed');
    const run = await publish(svc, id);
    expect(run.buildJobId).toBe(first.buildJobId);
    expect(run.commit).toBe(first.commit);
    expect(viewOf(run.views, 'orders_view').outcome).toBe('unchanged');
    const emulator = openEmulator(svc);
    try {
      expect(emulator.getObject('main', 'default', `${prefix}orders_view`)?.definition).toContain('main.default.orders');
    } finally {
      emulator.close();
    }
  });

  it('ends FAILED when nothing could run: the deploy branch has no successful build', async () => {
    const broken = useModelAsSampleProject({ 'model/views/v.yml': 'views:\n  - name: v\n    cubes:\n      - join_path: missing\n        includes: "*"\n' });
    try {
      const id = await createDeployment(svc);
      await saveSettings(svc, id, { targetNamePrefix: `mv${id}_` });
      const run = await publish(svc, id);
      expect(run.status).toBe('FAILED');
      expect(run.error.code).toBe('LAKEHOUSE_NO_SUCCESSFUL_BUILD');
      expect(run.views).toEqual([]);
    } finally {
      process.env.DRYDOCK_SAMPLE_PROJECT = svc.sampleDir;
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it('ends FAILED when the lakehouse cannot be reached, writing nothing', async () => {
    const { id, prefix } = await deployment();
    const emulator = openEmulator(svc);
    emulator.setWarehouseAvailable(false);
    try {
      const run = await publish(svc, id);
      expect(run.status).toBe('FAILED');
      expect(run.error.code).toBe('LAKEHOUSE_UNAVAILABLE');
      expect(emulator.getObject('main', 'default', `${prefix}orders_view`)).toBeNull();
    } finally {
      emulator.setWarehouseAvailable(true);
      emulator.close();
    }
  });

  it('reports a permission failure per view when the credential lost CREATE TABLE on the target schema', async () => {
    const { id, prefix } = await deployment();
    const emulator = openEmulator(svc);
    emulator.revoke('drydock', 'CREATE TABLE', ['main', 'default']);
    try {
      const run = await publish(svc, id);
      expect(run.status).toBe('PARTIAL');
      for (const view of run.views) {
        expect(view.outcome).toBe('publish_failed');
        expect(view.reasons[0].code).toBe('LAKEHOUSE_PERMISSION_DENIED');
      }
      expect(emulator.getObject('main', 'default', `${prefix}orders_view`)).toBeNull();
    } finally {
      emulator.grant('drydock', 'CREATE TABLE', ['main', 'default']);
      emulator.close();
    }
  });

  it('reports validation_failed when the lakehouse refuses a definition (a source table that does not exist)', async () => {
    const id = await createDeployment(svc);
    await saveSettings(svc, id, {
      targetNamePrefix: `mv${id}_`,
      selectionMode: 'selected',
      selectedViews: ['orders_view'],
      rootSourceOverrides: { orders_view: 'main.default.no_such_table' },
    });
    const run = await publish(svc, id);
    expect(run.status).toBe('PARTIAL');
    expect(viewOf(run.views, 'orders_view')).toMatchObject({ outcome: 'validation_failed' });
    expect(viewOf(run.views, 'orders_view').reasons[0].code).toBe('LAKEHOUSE_INVALID_DEFINITION');
    // The lakehouse's own answer reaches the run: its error class and text.
    expect(viewOf(run.views, 'orders_view').reasons[0].message).toMatch(/^\[TABLE_OR_VIEW_NOT_FOUND\] The table or view `main`\.`default`\.`no_such_table` cannot be found\./);
  });
  it('reports validation_failed with the lakehouse’s UNRESOLVED_COLUMN when a cube reads a column its table lacks (what no analyzer can know)', async () => {
    const { id, prefix } = await deployment();
    const commit = await deployFiles(svc, id, { 'model/cubes/orders.yml': ORDERS_CUBE.replace('sql: status', 'sql: statuss') });
    expect((await waitForBuildOf(svc, id, commit)).buildStatus).toBe('succeeded');
    const run = await publish(svc, id);
    const view = viewOf(run.views, 'orders_view');
    expect(view.outcome).toBe('validation_failed');
    expect(view.reasons[0].code).toBe('LAKEHOUSE_INVALID_DEFINITION');
    expect(view.reasons[0].message).toMatch(/^\[UNRESOLVED_COLUMN\.WITH_SUGGESTION\] A column, variable, or function parameter with name `source`\.`statuss` cannot be resolved\. Did you mean one of the following\? \[`source`\.`status`/);
    const emulator = openEmulator(svc);
    try {
      expect(emulator.getObject('main', 'default', `${prefix}orders_view`)).toBeNull();
    } finally {
      emulator.close();
    }
  });
});

describe('listing and reading runs', () => {
  it('lists a data source’s runs newest first with their outcome counts, cursor-paginated', async () => {
    const { id } = await deployment();
    const first = await publish(svc, id);
    const second = await publish(svc, id);
    const page1 = await svc.call('GET', `${syncs(id)}?first=1`);
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((r: { runId: string }) => r.runId)).toEqual([second.runId]);
    expect(page1.body.items[0]).toMatchObject({ status: 'COMPLETED', viewCount: 2, outcomeCounts: { unchanged: 2 } });
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    const page2 = await svc.call('GET', `${syncs(id)}?first=1&after=${encodeURIComponent(page1.body.pageInfo.endCursor)}`);
    expect(page2.body.items.map((r: { runId: string }) => r.runId)).toEqual([first.runId]);
    expect(page2.body.pageInfo.hasNextPage).toBe(false);
  });

  it('answers 404 for an unknown run', async () => {
    const { id } = await deployment();
    const res = await svc.call('GET', `${syncs(id)}/${randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('LAKEHOUSE_RUN_NOT_FOUND');
  });
});

describe('run permissions', () => {
  it('needs SchemaUpdate to start or cancel a run; SchemaRead reads runs', async () => {
    const { id, settings } = await deployment();
    const refused = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion }, auth: viewer.auth });
    expect(refused.status).toBe(403);
    const start = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion }, auth: developer.auth });
    expect(start.status).toBe(202);
    await waitForRun(svc, start.body.statusUrl);
    expect((await svc.call('GET', syncs(id), { auth: viewer.auth })).status).toBe(200);
    expect((await svc.call('GET', start.body.statusUrl, { auth: viewer.auth })).status).toBe(200);
    expect((await svc.call('DELETE', start.body.statusUrl, { auth: viewer.auth })).status).toBe(403);
    const blind = createUser(svc, 'viewer', { actions: ['-SchemaRead'] });
    expect((await svc.call('GET', syncs(id), { auth: blind.auth })).status).toBe(403);
  });
});

describe('rule 1: publication is on demand only', () => {
  it('a commit on the deploy branch builds but never starts a run', async () => {
    const { id } = await deployment();
    const commit = await deployFiles(svc, id, { 'model/views/customer_orders.yml': CUSTOMER_ORDERS_VIEW.replace('customer_orders', 'customer_orders_2') });
    const state = await waitForBuildOf(svc, id, commit);
    expect(state.buildStatus).toBe('succeeded');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await svc.call('GET', syncs(id))).body.items).toEqual([]);
  });
});
