import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import type { TestService } from '../support/service';
import {
  CUSTOMERS_CUBE,
  deployFiles,
  integration,
  LAKEHOUSE_MODEL,
  openEmulator,
  preview,
  publish,
  saveSettings,
  DEFAULT_CONFIGURATION,
  startSampleProjectService,
  viewOf,
  waitForBuildOf,
} from '../support/lakehouse';

/**
 * Issue 13 item 1: a lakehouse integration's scope holds only the views whose cubes use its own
 * data source (`lake`); views of the warehouse data source (`default`) are outside it for
 * previews, runs, `all`/`pattern` scopes and the 128-view limit.
 */

/** A warehouse cube (no `data_source`: the `default` data source) and a view of it. */
const WAREHOUSE_CUBE = `cubes:
  - name: wh_line_items
    sql_table: ecommerce.line_items
    joins:
      - name: orders
        sql: "{CUBE}.order_id = {orders.id}"
        relationship: many_to_one
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
    measures:
      - name: units
        sql: quantity
        type: sum
`;
const WAREHOUSE_VIEW = `views:
  - name: warehouse_sales
    cubes:
      - join_path: wh_line_items
        includes: [units]
`;
/** Joins the warehouse cube to the lakehouse's `orders`: two data sources in one view. */
const MIXED_VIEW = `views:
  - name: mixed_lines
    cubes:
      - join_path: wh_line_items
        includes: [units]
      - join_path: wh_line_items.orders
        prefix: true
        includes: [status]
`;
/** A view of the lakehouse's `customers` alone. */
const CUSTOMERS_VIEW = `views:
  - name: customer_regions
    cubes:
      - join_path: customers
        includes: [region, count]
`;

/** A lake cube that names its data source in another case (`Lake`): the same data source. */
const LAKE_ITEMS_CUBE = `cubes:
  - name: lake_items
    data_source: Lake
    sql_table: default.orders
    joins:
      - name: customers
        sql: "{CUBE}.customer_id = {customers.id}"
        relationship: many_to_one
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
    measures:
      - name: quantity
        sql: quantity
        type: sum
`;
const LAKE_ITEMS_VIEW = `views:
  - name: items_by_region
    cubes:
      - join_path: lake_items
        includes: [quantity]
      - join_path: lake_items.customers
        prefix: true
        includes: [region]
`;
/** Only lakehouse members, but reached through the warehouse cube: the join needs the warehouse's table. */
const THROUGH_WAREHOUSE_VIEW = `views:
  - name: through_warehouse
    cubes:
      - join_path: wh_line_items.orders
        includes: [status, count]
`;

let svc: TestService;

beforeAll(async () => {
  svc = await startSampleProjectService({
    ...LAKEHOUSE_MODEL,
    'model/cubes/wh_line_items.yml': WAREHOUSE_CUBE,
    'model/views/warehouse_sales.yml': WAREHOUSE_VIEW,
    'model/views/mixed_lines.yml': MIXED_VIEW,
    'model/views/customer_regions.yml': CUSTOMERS_VIEW,
    'model/cubes/lake_items.yml': LAKE_ITEMS_CUBE,
    'model/views/items_by_region.yml': LAKE_ITEMS_VIEW,
    'model/views/through_warehouse.yml': THROUGH_WAREHOUSE_VIEW,
  });
});
afterAll(() => svc.stop());

const LAKE_VIEWS = ['customer_orders', 'customer_regions', 'items_by_region', 'mixed_lines', 'orders_customers', 'orders_view', 'through_warehouse'];

describe('lakehouse scope: only views on the integration’s data source', () => {
  it('an `all` preview and run hold only the views whose cubes use the lakehouse data source; a warehouse view is neither previewed nor published', async () => {
    const id = await createDeployment(svc);
    const prefix = `mv${id}_`;
    await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'all' });

    const { result } = await preview(svc, id, { selectionMode: 'all' });
    expect(result.status).toBe(200);
    const previewed = (result.body.views as { viewName: string }[]).map((v) => v.viewName).sort();
    expect(previewed).toEqual(LAKE_VIEWS);

    const run = await publish(svc, id);
    expect([...run.viewNames].sort()).toEqual(LAKE_VIEWS);
    expect(run.views.map((v: { viewName: string }) => v.viewName)).not.toContain('warehouse_sales');
    const emulator = openEmulator(svc);
    try {
      expect(emulator.getObject('main', 'default', `${prefix}warehouse_sales`)).toBeNull();
      expect(emulator.getObject('main', 'default', `${prefix}orders_view`)).not.toBeNull();
    } finally {
      emulator.close();
    }
  });

  it('a view mixing the lakehouse data source with another stays in scope and is blocked with MODEL_PUBLISH_MIXED_DATA_SOURCES', async () => {
    const id = await createDeployment(svc);
    await saveSettings(svc, id, { targetNamePrefix: `mv${id}_`, selectionMode: 'pattern', namePattern: '^mixed_' });
    const { result } = await preview(svc, id);
    expect(result.body.views).toHaveLength(1);
    const mixed = viewOf(result.body.views, 'mixed_lines');
    expect(mixed.outcome).toBe('blocked');
    expect(mixed.blockedReasons.map((r: { code: string }) => r.code)).toContain('MODEL_PUBLISH_MIXED_DATA_SOURCES');
  });

  it('a view whose join path passes through a warehouse cube is mixed, even when it includes only lakehouse members', async () => {
    const id = await createDeployment(svc);
    const prefix = `mv${id}_`;
    await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'pattern', namePattern: '^through_' });
    const { result } = await preview(svc, id);
    const through = viewOf(result.body.views, 'through_warehouse');
    expect(through.outcome).toBe('blocked');
    expect(through.blockedReasons.map((r: { code: string }) => r.code)).toContain('MODEL_PUBLISH_MIXED_DATA_SOURCES');
    const run = await publish(svc, id);
    expect(viewOf(run.views, 'through_warehouse').outcome).toBe('blocked');
    const emulator = openEmulator(svc);
    try {
      expect(emulator.getObject('main', 'default', `${prefix}through_warehouse`)).toBeNull();
    } finally {
      emulator.close();
    }
  });

  it('cubes naming the lakehouse data source in another case are on it: their view is in scope, not mixed, and published', async () => {
    const id = await createDeployment(svc);
    const prefix = `mv${id}_`;
    await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'pattern', namePattern: '^items_' });
    const { result } = await preview(svc, id);
    expect((result.body.views as { viewName: string }[]).map((v) => v.viewName)).toEqual(['items_by_region']);
    expect(viewOf(result.body.views, 'items_by_region').blockedReasons).toEqual([]);
    const run = await publish(svc, id);
    expect(viewOf(run.views, 'items_by_region').outcome).toBe('created');
    const emulator = openEmulator(svc);
    try {
      expect(emulator.getObject('main', 'default', `${prefix}items_by_region`)?.definition).toContain('source: main.default.orders');
    } finally {
      emulator.close();
    }
  });

  it('a pattern scope matches only the data source’s own views (a warehouse view of a matching name is not in it)', async () => {
    const id = await createDeployment(svc);
    await saveSettings(svc, id, { targetNamePrefix: `mv${id}_`, selectionMode: 'pattern', namePattern: '_sales$' });
    const { result } = await preview(svc, id);
    expect(result.status).toBe(200);
    expect(result.body.views).toEqual([]);
  });

  it('the 128-view limit counts only the data source’s views: 129 warehouse views leave an `all` scope of the lakehouse within the limit', async () => {
    const id = await createDeployment(svc);
    const many = Array.from({ length: 129 }, (_, i) => WAREHOUSE_VIEW.replace('name: warehouse_sales', `name: wh_${String(i).padStart(3, '0')}`).slice('views:\n'.length));
    const commit = await deployFiles(svc, id, { 'model/views/many.yml': `views:\n${many.join('')}` });
    expect((await waitForBuildOf(svc, id, commit)).buildStatus).toBe('succeeded');
    const saved = await svc.call('PUT', integration(id), {
      body: { expectedConfigurationVersion: 0, configuration: { ...DEFAULT_CONFIGURATION, targetNamePrefix: `mv${id}_`, selectionMode: 'all' } },
    });
    expect(saved.status).toBe(200);
    const { result } = await preview(svc, id);
    expect(result.status).toBe(200);
    expect((result.body.views as { viewName: string }[]).map((v) => v.viewName).sort()).toEqual(LAKE_VIEWS);
  });

  it('saving a selected view of another data source is refused with 422 LAKEHOUSE_VIEW_OF_OTHER_DATA_SOURCE naming it, and nothing is saved', async () => {
    const id = await createDeployment(svc);
    // Settings are checked against the latest deployed build: deploy one first.
    const commit = await deployFiles(svc, id, { 'model/views/customer_regions.yml': CUSTOMERS_VIEW.replace('[region, count]', '[region]') });
    expect((await waitForBuildOf(svc, id, commit)).buildStatus).toBe('succeeded');
    const res = await svc.call('PUT', integration(id), {
      body: { expectedConfigurationVersion: 0, configuration: { ...DEFAULT_CONFIGURATION, selectionMode: 'selected', selectedViews: ['orders_view', 'warehouse_sales'] } },
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('LAKEHOUSE_VIEW_OF_OTHER_DATA_SOURCE');
    expect(res.body.detail).toContain('warehouse_sales');
    expect(res.body.views).toEqual([{ view: 'warehouse_sales', dataSources: ['default'] }]);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/body/configuration/selectedViews/1' })]);
    expect((await svc.call('GET', integration(id))).status).toBe(404);
  });

  it('a selected view whose cubes moved to another data source after saving is blocked with MODEL_PUBLISH_OTHER_DATA_SOURCE and not published', async () => {
    const id = await createDeployment(svc);
    const prefix = `mv${id}_`;
    await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'selected', selectedViews: ['customer_regions'] });
    const commit = await deployFiles(svc, id, { 'model/cubes/customers.yml': CUSTOMERS_CUBE.replace('    data_source: lake\n', '') });
    expect((await waitForBuildOf(svc, id, commit)).buildStatus).toBe('succeeded');

    const { result } = await preview(svc, id);
    const blocked = viewOf(result.body.views, 'customer_regions');
    expect(blocked.outcome).toBe('blocked');
    expect(blocked.blockedReasons.map((r: { code: string }) => r.code)).toEqual(['MODEL_PUBLISH_OTHER_DATA_SOURCE']);

    const run = await publish(svc, id);
    expect(viewOf(run.views, 'customer_regions').outcome).toBe('blocked');
    const emulator = openEmulator(svc);
    try {
      expect(emulator.getObject('main', 'default', `${prefix}customer_regions`)).toBeNull();
    } finally {
      emulator.close();
    }
  });
});
