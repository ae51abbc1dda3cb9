import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOwnedTargets, setPublicationActive } from '../../src-main/features/lakehouse';
import { createDeployment } from '../support/deployments';
import type { TestService } from '../support/service';
import {
  deployFiles,
  integration,
  openEmulator,
  ORDERS_CUBE,
  ORDERS_VIEW,
  publish,
  saveSettings,
  startSampleProjectService,
  viewOf,
  waitForBuildOf,
} from '../support/lakehouse';
import { createLakehouseConnector, defaultEmulatorFile, LakehouseError, type LakehouseConnector, type LakehouseEmulator } from '../../src-main/connectors/lakehouse';

let svc: TestService;
let emulator: LakehouseEmulator;

beforeAll(async () => {
  svc = await startSampleProjectService();
  emulator = openEmulator(svc);
});
afterAll(async () => {
  emulator.close();
  await svc.stop();
});

async function deployment(configuration: Record<string, unknown> = {}) {
  const id = await createDeployment(svc);
  const prefix = `mv${id}_`;
  await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'selected', selectedViews: ['orders_view', 'orders_customers'], ...configuration });
  return { id, prefix };
}

const update = (id: number, prefix: string, configuration: Record<string, unknown>) =>
  saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'selected', selectedViews: ['orders_view', 'orders_customers'], ...configuration });

/** Deploys a change that alters both selected views (the `status` dimension's title) and waits for its build. */
async function changeModel(id: number, title: string) {
  const commit = await deployFiles(svc, id, { 'model/cubes/orders.yml': ORDERS_CUBE.replace('title: Order status', `title: ${title}`) });
  expect((await waitForBuildOf(svc, id, commit)).buildStatus).toBe('succeeded');
}

const definitionOf = (name: string) => emulator.getObject('main', 'default', name)?.definition;

describe('rule 8: ownership', () => {
  it('never adopts or overwrites an existing unmanaged target; the other views still publish', async () => {
    const { id, prefix } = await deployment();
    emulator.createUnmanagedView('main', 'default', `${prefix}orders_view`, { sql: 'SELECT 1 AS x' });
    const run = await publish(svc, id);
    expect(run.status).toBe('PARTIAL');
    const refused = viewOf(run.views, 'orders_view');
    expect(refused.outcome).toBe('publish_failed');
    expect(refused.reasons[0].code).toBe('LAKEHOUSE_TARGET_UNMANAGED');
    expect(refused.reasons[0].message).toContain('never adopted or overwritten');
    expect(viewOf(run.views, 'orders_customers').outcome).toBe('created');
    const kept = emulator.getObject('main', 'default', `${prefix}orders_view`)!;
    expect(kept.kind).toBe('VIEW');
    expect(kept.definition).toBe('SELECT 1 AS x');
    expect(listOwnedTargets(svc.ctx, id, 'lake').map((t) => t.name)).toEqual([`${prefix}orders_customers`]);
  });

  it('never overwrites an unmanaged metric view of the same name either', async () => {
    const { id, prefix } = await deployment({ selectedViews: ['orders_view'] });
    const foreign = 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: n\n    expr: COUNT(1)\n';
    emulator.createUnmanagedView('main', 'default', `${prefix}orders_view`, { metricYaml: foreign });
    const run = await publish(svc, id);
    expect(viewOf(run.views, 'orders_view').reasons[0].code).toBe('LAKEHOUSE_TARGET_UNMANAGED');
    expect(definitionOf(`${prefix}orders_view`)).toBe(foreign);
  });

  it('refuses a managed target whose remote definition drifted, and leaves the remote edit in place', async () => {
    const { id, prefix } = await deployment();
    await publish(svc, id);
    const edited = definitionOf(`${prefix}orders_view`)!.replace('Orders with the customer region', 'Edited by hand');
    emulator.editOutOfBand('main', 'default', `${prefix}orders_view`, edited);
    await changeModel(id, 'Status of the order');
    const run = await publish(svc, id);
    expect(run.status).toBe('PARTIAL');
    expect(viewOf(run.views, 'orders_view').outcome).toBe('publish_failed');
    expect(viewOf(run.views, 'orders_view').reasons[0].code).toBe('LAKEHOUSE_TARGET_DRIFTED');
    expect(viewOf(run.views, 'orders_customers').outcome).toBe('updated');
    expect(definitionOf(`${prefix}orders_view`)).toBe(edited);
  });

  it('a failed write leaves the view’s previous definition in place while the other views publish', async () => {
    const { id, prefix } = await deployment();
    await publish(svc, id);
    const before = definitionOf(`${prefix}orders_view`);
    await changeModel(id, 'State');
    emulator.failNextWrite(`${prefix}orders_view`, 'LAKEHOUSE_FAILED', 'injected outage');
    const run = await publish(svc, id);
    expect(run.status).toBe('PARTIAL');
    expect(viewOf(run.views, 'orders_view')).toMatchObject({ outcome: 'publish_failed', definitionWritten: false });
    expect(viewOf(run.views, 'orders_view').reasons[0]).toMatchObject({ code: 'LAKEHOUSE_FAILED', message: 'injected outage' });
    expect(viewOf(run.views, 'orders_customers').outcome).toBe('updated');
    expect(definitionOf(`${prefix}orders_view`)).toBe(before);
    expect(definitionOf(`${prefix}orders_customers`)).toContain('State');
    // The next run finishes the job: the target is still ours.
    const retry = await publish(svc, id);
    expect(viewOf(retry.views, 'orders_view').outcome).toBe('updated');
  });

  it('an ALTER whose property step failed is reported with definitionWritten, not taken for drift, and repaired by the next run', async () => {
    const { id, prefix } = await deployment({ selectedViews: ['orders_view'] });
    await publish(svc, id);
    await changeModel(id, 'Half written');
    // As Databricks can: ALTER VIEW … AS succeeds, the following SET TBLPROPERTIES fails.
    svc.ctx.services.lakehouseConnectorFactory = () => {
      const real = createLakehouseConnector({ kind: 'local', file: defaultEmulatorFile(svc.dataDir) });
      const halfWriting: LakehouseConnector = {
        getObject: (c, s, n) => real.getObject(c, s, n),
        dropView: (c, s, n) => real.dropView(c, s, n),
        checkSourceReadable: (source) => real.checkSourceReadable(source),
        checkWarehouseAccess: () => real.checkWarehouseAccess(),
        checkSchemaAccess: (c, s) => real.checkSchemaAccess(c, s),
        close: () => real.close(),
        createOrReplaceMetricView: async (c, s, n, yaml, _properties, opts) => {
          const before = (await real.getObject(c, s, n))!.properties;
          await real.createOrReplaceMetricView(c, s, n, yaml, before, opts);
          throw new LakehouseError('LAKEHOUSE_FAILED', 'SET TBLPROPERTIES failed', { definitionWritten: true });
        },
      };
      return halfWriting;
    };
    let run;
    try {
      run = await publish(svc, id);
    } finally {
      delete svc.ctx.services.lakehouseConnectorFactory;
    }
    expect(viewOf(run.views, 'orders_view')).toMatchObject({ outcome: 'publish_failed', definitionWritten: true });
    expect(definitionOf(`${prefix}orders_view`)).toContain('Half written');
    const repaired = await publish(svc, id);
    expect(viewOf(repaired.views, 'orders_view').outcome).toBe('updated');
    const again = await publish(svc, id);
    expect(viewOf(again.views, 'orders_view').outcome).toBe('unchanged');
  });

  it('records ownership only after a confirmed write: a failed create leaves nothing recorded', async () => {
    const { id, prefix } = await deployment({ selectedViews: ['orders_view'] });
    emulator.failNextWrite(`${prefix}orders_view`);
    const run = await publish(svc, id);
    expect(viewOf(run.views, 'orders_view').outcome).toBe('publish_failed');
    expect(listOwnedTargets(svc.ctx, id, 'lake')).toEqual([]);
    expect(emulator.getObject('main', 'default', `${prefix}orders_view`)).toBeNull();
    const retry = await publish(svc, id);
    expect(viewOf(retry.views, 'orders_view').outcome).toBe('created');
    expect(listOwnedTargets(svc.ctx, id, 'lake')).toMatchObject([{ name: `${prefix}orders_view`, viewName: 'orders_view', lastRunId: retry.runId }]);
  });

  it('leaves a target another deployment published alone', async () => {
    const first = await deployment({ selectedViews: ['orders_view'] });
    await publish(svc, first.id);
    const second = await createDeployment(svc);
    await saveSettings(svc, second, { targetNamePrefix: first.prefix, selectionMode: 'selected', selectedViews: ['orders_view'] });
    const run = await publish(svc, second);
    expect(viewOf(run.views, 'orders_view').reasons[0].code).toBe('LAKEHOUSE_TARGET_MANAGED_ELSEWHERE');
    expect(emulator.getObject('main', 'default', `${first.prefix}orders_view`)!.properties['drydock.deployment']).toBe(String(first.id));
  });
});

describe('rule 9: targets are retained', () => {
  it('a view removed from the scope keeps its target and is reported retained_obsolete', async () => {
    const { id, prefix } = await deployment();
    await publish(svc, id);
    await update(id, prefix, { selectedViews: ['orders_view'] });
    const run = await publish(svc, id);
    expect(run.status).toBe('COMPLETED');
    expect(run.viewNames).toEqual(['orders_view']);
    expect(viewOf(run.views, 'orders_customers')).toMatchObject({ outcome: 'retained_obsolete', target: `main.default.${prefix}orders_customers` });
    expect(emulator.getObject('main', 'default', `${prefix}orders_customers`)?.kind).toBe('METRIC_VIEW');
  });

  it('disabling publication writes nothing and reports every managed target retained_obsolete', async () => {
    const { id, prefix } = await deployment();
    await publish(svc, id);
    await changeModel(id, 'Disabled title');
    await update(id, prefix, { enabled: false });
    const run = await publish(svc, id);
    expect(run.status).toBe('COMPLETED');
    expect(run.viewNames).toEqual([]);
    expect(run.views.map((v: { outcome: string }) => v.outcome)).toEqual(['retained_obsolete', 'retained_obsolete']);
    expect(definitionOf(`${prefix}orders_view`)).not.toContain('Disabled title');
  });

  it('the deprecated delete-managed policy is accepted and behaves like retain: nothing is deleted', async () => {
    const { id, prefix } = await deployment();
    await publish(svc, id);
    const saved = await update(id, prefix, { selectedViews: ['orders_view'], deletionPolicy: 'delete-managed' });
    expect(saved.configuration.deletionPolicy).toBe('delete-managed');
    const run = await publish(svc, id);
    expect(viewOf(run.views, 'orders_customers').outcome).toBe('retained_obsolete');
    expect(run.views.some((v: { outcome: string }) => v.outcome === 'deleted_obsolete')).toBe(false);
    expect(emulator.getObject('main', 'default', `${prefix}orders_customers`)).not.toBeNull();
  });

  it('deactivating the preview refuses new runs and settings changes but keeps every target', async () => {
    const { id, prefix } = await deployment();
    await publish(svc, id);
    setPublicationActive(svc.ctx, id, false);
    try {
      const settings = await svc.call('GET', integration(id));
      expect(settings.status).toBe(200);
      const start = await svc.call('POST', `${integration(id)}/syncs`, { body: { configurationVersion: settings.body.configurationVersion } });
      expect(start.status).toBe(403);
      expect(start.body.code).toBe('LAKEHOUSE_PUBLICATION_NOT_ACTIVATED');
      const put = await svc.call('PUT', integration(id), { body: { expectedConfigurationVersion: settings.body.configurationVersion, configuration: settings.body.configuration } });
      expect(put.status).toBe(403);
      expect(emulator.getObject('main', 'default', `${prefix}orders_view`)?.kind).toBe('METRIC_VIEW');
      expect(emulator.getObject('main', 'default', `${prefix}orders_customers`)?.kind).toBe('METRIC_VIEW');
    } finally {
      setPublicationActive(svc.ctx, id, true);
    }
    const run = await publish(svc, id);
    expect(run.views.map((v: { outcome: string }) => v.outcome)).toEqual(['unchanged', 'unchanged']);
  });

  it('renaming a view creates a new target and keeps the old one as retained_obsolete', async () => {
    const { id, prefix } = await deployment({ selectionMode: 'all', selectedViews: [] });
    await publish(svc, id);
    const commit = await deployFiles(svc, id, {
      'model/views/orders_view.yml': null,
      'model/views/orders_overview.yml': ORDERS_VIEW.replace('name: orders_view', 'name: orders_overview'),
    });
    await waitForBuildOf(svc, id, commit);
    const run = await publish(svc, id);
    expect(viewOf(run.views, 'orders_overview')).toMatchObject({ outcome: 'created', target: `main.default.${prefix}orders_overview` });
    expect(viewOf(run.views, 'orders_view')).toMatchObject({ outcome: 'retained_obsolete', target: `main.default.${prefix}orders_view` });
    expect(emulator.getObject('main', 'default', `${prefix}orders_view`)).not.toBeNull();
    expect(emulator.getObject('main', 'default', `${prefix}orders_overview`)).not.toBeNull();
  });

  it('renaming a target (override) creates a new target and keeps the old one', async () => {
    const { id, prefix } = await deployment({ selectedViews: ['orders_view'] });
    await publish(svc, id);
    await update(id, prefix, { selectedViews: ['orders_view'], targetNameOverrides: { orders_view: `${prefix}renamed` } });
    const run = await publish(svc, id);
    expect(run.views.map((v: { target: string; outcome: string }) => [v.target, v.outcome])).toEqual([
      [`main.default.${prefix}renamed`, 'created'],
      [`main.default.${prefix}orders_view`, 'retained_obsolete'],
    ]);
  });
});

describe('rule 11: scope follows deploys for all and pattern only', () => {
  const newView = ORDERS_VIEW.replace('name: orders_view', 'name: orders_recent');

  it('a newly deployed view enters an `all` scope on the next sync', async () => {
    const { id, prefix } = await deployment({ selectionMode: 'all', selectedViews: [] });
    const first = await publish(svc, id);
    expect(first.viewNames).not.toContain('orders_recent');
    const commit = await deployFiles(svc, id, { 'model/views/orders_recent.yml': newView });
    await waitForBuildOf(svc, id, commit);
    const run = await publish(svc, id);
    expect(run.viewNames).toContain('orders_recent');
    expect(viewOf(run.views, 'orders_recent').outcome).toBe('created');
    expect(emulator.getObject('main', 'default', `${prefix}orders_recent`)).not.toBeNull();
  });

  it('a newly deployed view enters a matching `pattern` scope on the next sync, and a non-matching one does not', async () => {
    const { id } = await deployment({ selectionMode: 'pattern', namePattern: '^orders_.*', selectedViews: [] });
    const first = await publish(svc, id);
    expect(first.viewNames).toEqual(['orders_customers', 'orders_view']);
    const commit = await deployFiles(svc, id, {
      'model/views/orders_recent.yml': newView,
      'model/views/recent_orders.yml': ORDERS_VIEW.replace('name: orders_view', 'name: recent_orders'),
    });
    await waitForBuildOf(svc, id, commit);
    const run = await publish(svc, id);
    expect(run.viewNames).toEqual(['orders_customers', 'orders_recent', 'orders_view']);
  });

  it('a `selected` scope changes only when edited', async () => {
    const { id, prefix } = await deployment({ selectedViews: ['orders_view'] });
    const commit = await deployFiles(svc, id, { 'model/views/orders_recent.yml': newView });
    await waitForBuildOf(svc, id, commit);
    const run = await publish(svc, id);
    expect(run.viewNames).toEqual(['orders_view']);
    await update(id, prefix, { selectedViews: ['orders_view', 'orders_recent'] });
    expect((await publish(svc, id)).viewNames).toEqual(['orders_view', 'orders_recent']);
  });
});
