import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  classifyTarget,
  EMULATOR_MIGRATIONS,
  LakehouseEmulator,
  LakehouseError,
  LocalLakehouseConnector,
  metricViewYamlEquals,
  ownershipProperties,
} from '../../../../src-main/connectors/lakehouse';
import { failure, ORDERS_YAML, tempLakehouse, type TempLakehouse } from './fixtures';

let lake: TempLakehouse;
beforeEach(() => {
  lake = tempLakehouse();
});
afterEach(() => {
  lake.cleanup();
});

const ours = (yaml = ORDERS_YAML) => ownershipProperties({ deployment: 7, view: 'orders', yaml });

describe('local lakehouse emulator: defaults', () => {
  it('seeds catalog main, schema default and sample tables with columns in a fresh file', () => {
    expect(lake.emulator.listCatalogs()).toEqual(['main']);
    expect(lake.emulator.listSchemas('main')).toEqual(['default', 'ecommerce']);
    expect(lake.emulator.listObjects('main', 'ecommerce').map((t) => t.name)).toEqual(['categories', 'customers', 'line_items', 'orders', 'products']);
    const tables = lake.emulator.listObjects('main', 'default');
    expect(tables.map((t) => `${t.name}:${t.kind}`)).toEqual(['customers:TABLE', 'orders:TABLE', 'products:TABLE']);
    expect(tables.find((t) => t.name === 'orders')?.columns.map((c) => c.name)).toContain('amount');
  });

  it('lets the default principal publish, read back and drop a metric view out of the box', async () => {
    const c = lake.connector;
    await c.checkWarehouseAccess();
    await c.checkSchemaAccess('main', 'default');
    await c.checkSourceReadable('main.default.orders');
    await c.createOrReplaceMetricView('main', 'default', 'orders_metrics', ORDERS_YAML, ours(), { replaceWithAlter: false });
    const object = await c.getObject('main', 'default', 'orders_metrics');
    expect(object).toMatchObject({ kind: 'METRIC_VIEW', owner: 'drydock', comment: 'Orders KPIs' });
    expect(object?.definition?.yaml).toBe(ORDERS_YAML);
    expect(object?.definition?.properties['drydock.managed']).toBe('true');
    await c.dropView('main', 'default', 'orders_metrics');
    expect(await c.getObject('main', 'default', 'orders_metrics')).toBeNull();
  });

  it('records created and updated timestamps from its clock', async () => {
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, ours(), { replaceWithAlter: false });
    lake.clock.advance(60_000);
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML.replace('Orders KPIs', 'KPIs'), ours(), {
      replaceWithAlter: true,
    });
    const stored = lake.emulator.getObject('main', 'default', 'm');
    expect(stored?.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(stored?.updatedAt).toBe('2026-01-01T00:01:00.000Z');
  });

  it('treats names case-insensitively, as Unity Catalog does', async () => {
    await lake.connector.createOrReplaceMetricView('Main', 'DEFAULT', 'Orders_Metrics', ORDERS_YAML, {}, { replaceWithAlter: false });
    expect((await lake.connector.getObject('main', 'default', 'orders_metrics'))?.name).toBe('orders_metrics');
  });
});

describe('local lakehouse emulator: validation on write', () => {
  it('rejects an invalid definition with LAKEHOUSE_INVALID_DEFINITION and writes nothing', async () => {
    const error = await failure(
      lake.connector.createOrReplaceMetricView('main', 'default', 'bad', 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: x\n    expr: amount\n', {}, {
        replaceWithAlter: false,
      }),
    );
    expect(error.code).toBe('LAKEHOUSE_INVALID_DEFINITION');
    expect(error).toMatchObject({ errorClass: 'MISSING_AGGREGATION', sqlState: '42803' });
    expect(error.message).toMatch(/^\[MISSING_AGGREGATION\] The non-aggregating expression "amount" /);
    expect(error.details).toEqual(['measures[0] (x): a measure expression must use an aggregate function such as SUM or COUNT, got "amount"']);
    expect(lake.emulator.getObject('main', 'default', 'bad')).toBeNull();
  });

  it('rejects a source table that does not exist as an invalid definition', async () => {
    const yaml = ORDERS_YAML.replace('source: main.default.customers', 'source: main.default.clients');
    const error = await failure(lake.connector.createOrReplaceMetricView('main', 'default', 'm', yaml, {}, { replaceWithAlter: false }));
    expect(error.code).toBe('LAKEHOUSE_INVALID_DEFINITION');
    expect(error).toMatchObject({ errorClass: 'TABLE_OR_VIEW_NOT_FOUND', sqlState: '42P01' });
    expect(error.message).toMatch(/^\[TABLE_OR_VIEW_NOT_FOUND\] The table or view `main`\.`default`\.`clients` cannot be found\./);
    expect(error.details).toEqual(['joins[0].source: main.default.clients not found']);
  });

  it('resolves one- and two-part source names against the view’s catalog and schema', async () => {
    const yaml = 'version: 1.1\nsource: orders\njoins:\n  - name: c\n    source: default.customers\n    using: [id]\nmeasures:\n  - name: n\n    expr: COUNT(1)\n';
    await lake.connector.createOrReplaceMetricView('main', 'default', 'relative', yaml, {}, { replaceWithAlter: false });
    expect(lake.emulator.getObject('main', 'default', 'relative')?.kind).toBe('METRIC_VIEW');
  });

  it('refuses a metric view that reads itself', async () => {
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, {}, { replaceWithAlter: false });
    const selfRead = 'version: 1.1\nsource: main.default.m\nmeasures:\n  - name: n\n    expr: COUNT(1)\n';
    const error = await failure(lake.connector.createOrReplaceMetricView('main', 'default', 'm', selfRead, {}, { replaceWithAlter: true }));
    expect(error.code).toBe('LAKEHOUSE_INVALID_DEFINITION');
    expect(error).toMatchObject({ errorClass: 'RECURSIVE_VIEW', sqlState: '42K0H' });
  });
});

describe('local lakehouse emulator: privileges', () => {
  it('refuses every call without CAN USE on the warehouse', async () => {
    lake.emulator.setWarehouseAccess('drydock', false);
    expect((await failure(lake.connector.checkWarehouseAccess())).code).toBe('LAKEHOUSE_PERMISSION_DENIED');
    expect((await failure(lake.connector.getObject('main', 'default', 'orders'))).code).toBe('LAKEHOUSE_PERMISSION_DENIED');
  });

  it('reports an emulated warehouse outage as LAKEHOUSE_UNAVAILABLE', async () => {
    lake.emulator.setWarehouseAvailable(false);
    expect((await failure(lake.connector.checkWarehouseAccess())).code).toBe('LAKEHOUSE_UNAVAILABLE');
    lake.emulator.setWarehouseAvailable(true);
    await lake.connector.checkWarehouseAccess();
  });

  it('needs USE CATALOG, USE SCHEMA and CREATE TABLE on the target schema', async () => {
    lake.emulator.revoke('drydock', 'CREATE TABLE', 'main.default');
    let error = await failure(lake.connector.checkSchemaAccess('main', 'default'));
    expect(error.code).toBe('LAKEHOUSE_PERMISSION_DENIED');
    expect(error.message).toContain('CREATE TABLE');
    error = await failure(lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, {}, { replaceWithAlter: false }));
    expect(error.code).toBe('LAKEHOUSE_PERMISSION_DENIED');

    lake.emulator.revoke('drydock', 'USE SCHEMA', 'main.default');
    expect((await failure(lake.connector.checkSchemaAccess('main', 'default'))).message).toContain('USE SCHEMA');
    lake.emulator.revoke('drydock', 'USE CATALOG', 'main');
    expect((await failure(lake.connector.checkSchemaAccess('main', 'default'))).message).toContain('USE CATALOG');
  });

  it('reports a missing target catalog or schema as LAKEHOUSE_NOT_FOUND', async () => {
    expect((await failure(lake.connector.checkSchemaAccess('main', 'nope'))).code).toBe('LAKEHOUSE_NOT_FOUND');
    expect((await failure(lake.connector.checkSchemaAccess('nope', 'default'))).code).toBe('LAKEHOUSE_NOT_FOUND');
  });

  it('needs SELECT on every source table, granted on the table or inherited from its schema', async () => {
    lake.emulator.revoke('drydock', 'SELECT', 'main.default');
    lake.emulator.grant('drydock', 'SELECT', 'main.default.orders');
    await lake.connector.checkSourceReadable('main.default.orders');
    const probe = await failure(lake.connector.checkSourceReadable('main.default.customers'));
    expect(probe.code).toBe('LAKEHOUSE_PERMISSION_DENIED');
    const write = await failure(lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, {}, { replaceWithAlter: false }));
    expect(write.code).toBe('LAKEHOUSE_PERMISSION_DENIED');
    expect(write.message).toContain("SELECT on source 'main.default.customers'");
    expect(lake.emulator.getObject('main', 'default', 'm')).toBeNull();
  });

  it('reports a source that does not exist as LAKEHOUSE_NOT_FOUND from the read probe', async () => {
    expect((await failure(lake.connector.checkSourceReadable('main.default.nothing'))).code).toBe('LAKEHOUSE_NOT_FOUND');
  });

  it('grants everything on objects a principal owns', async () => {
    lake.emulator.createSchema('main', 'semantic', { owner: 'drydock' });
    await lake.connector.checkSchemaAccess('main', 'semantic');
    await lake.connector.createOrReplaceMetricView('main', 'semantic', 'm', ORDERS_YAML, {}, { replaceWithAlter: false });
    expect(lake.emulator.hasPrivilege('drydock', 'SELECT', 'main.semantic.m')).toBe(true);
  });

  it('refuses to replace, alter or drop a view the principal does not own', async () => {
    lake.emulator.createUnmanagedView('main', 'default', 'theirs', { metricYaml: ORDERS_YAML }, { owner: 'analyst' });
    for (const attempt of [
      lake.connector.createOrReplaceMetricView('main', 'default', 'theirs', ORDERS_YAML, ours(), { replaceWithAlter: false }),
      lake.connector.createOrReplaceMetricView('main', 'default', 'theirs', ORDERS_YAML, ours(), { replaceWithAlter: true }),
      lake.connector.dropView('main', 'default', 'theirs'),
    ]) {
      expect((await failure(attempt)).code).toBe('LAKEHOUSE_PERMISSION_DENIED');
    }
    expect(lake.emulator.getObject('main', 'default', 'theirs')?.properties).toEqual({});
  });

  it('cannot describe an object it has no privilege on', async () => {
    lake.emulator.revoke('drydock', 'SELECT', 'main.default');
    expect((await failure(lake.connector.getObject('main', 'default', 'orders'))).code).toBe('LAKEHOUSE_PERMISSION_DENIED');
  });
});

describe('local lakehouse emulator: unmanaged objects', () => {
  it('shows tables, plain views and foreign metric views as they are, without Drydock ownership', async () => {
    lake.emulator.createUnmanagedView('main', 'default', 'recent_orders', { sql: 'SELECT * FROM main.default.orders' });
    lake.emulator.createUnmanagedView('main', 'default', 'hand_made', { metricYaml: ORDERS_YAML }, { properties: { team: 'bi' } });
    const table = await lake.connector.getObject('main', 'default', 'orders');
    const view = await lake.connector.getObject('main', 'default', 'recent_orders');
    const metric = await lake.connector.getObject('main', 'default', 'hand_made');
    expect(table).toMatchObject({ kind: 'TABLE', owner: 'admin' });
    expect(table?.definition).toBeUndefined();
    expect(view).toMatchObject({ kind: 'VIEW', owner: 'admin' });
    expect(metric).toMatchObject({ kind: 'METRIC_VIEW', owner: 'admin', properties: { team: 'bi' } });
    for (const object of [table, view, metric]) expect(classifyTarget(object, { deployment: 7 }).state).toBe('unmanaged');
  });

  it('will not replace a table with a view', async () => {
    lake.emulator.createTable('main', 'default', 'facts', [{ name: 'id', type: 'BIGINT' }], { owner: 'drydock' });
    const error = await failure(lake.connector.createOrReplaceMetricView('main', 'default', 'facts', ORDERS_YAML, {}, { replaceWithAlter: false }));
    expect(error.code).toBe('LAKEHOUSE_CONFLICT');
    expect((await failure(lake.connector.dropView('main', 'default', 'facts'))).code).toBe('LAKEHOUSE_CONFLICT');
    expect(lake.emulator.getObject('main', 'default', 'facts')?.kind).toBe('TABLE');
  });

  it('rejects a foreign metric view whose YAML is invalid', () => {
    expect(() => lake.emulator.createUnmanagedView('main', 'default', 'x', { metricYaml: 'version: 1.1\n' })).toThrow(LakehouseError);
  });
});

describe('local lakehouse emulator: ALTER versus CREATE OR REPLACE', () => {
  beforeEach(async () => {
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, { ...ours(), team: 'bi' }, { replaceWithAlter: false });
    lake.emulator.grant('analysts', 'SELECT', 'main.default.m');
  });

  it('ALTER VIEW AS keeps the owner, the grants and other properties, and updates ours', async () => {
    const next = ORDERS_YAML.replace('COUNT(1)', 'COUNT(DISTINCT source.id)');
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', next, ours(next), { replaceWithAlter: true });
    const stored = lake.emulator.getObject('main', 'default', 'm');
    expect(stored?.definition).toBe(next);
    expect(stored?.owner).toBe('drydock');
    expect(stored?.properties.team).toBe('bi');
    expect(stored?.properties['drydock.definition_hash']).toBe(ours(next)['drydock.definition_hash']);
    expect(lake.emulator.listGrants('main.default.m')).toEqual([{ principal: 'analysts', privilege: 'SELECT', securable: ['main', 'default', 'm'] }]);
  });

  it('CREATE OR REPLACE drops the grants on the replaced view, as Databricks does', async () => {
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, ours(), { replaceWithAlter: false });
    expect(lake.emulator.listGrants('main.default.m')).toEqual([]);
    expect(lake.emulator.getObject('main', 'default', 'm')?.properties.team).toBeUndefined();
  });

  it('ALTER of a view that does not exist fails with LAKEHOUSE_NOT_FOUND', async () => {
    const error = await failure(lake.connector.createOrReplaceMetricView('main', 'default', 'absent', ORDERS_YAML, {}, { replaceWithAlter: true }));
    expect(error.code).toBe('LAKEHOUSE_NOT_FOUND');
  });

  it('a failed ALTER leaves the previous definition in place', async () => {
    const error = await failure(
      lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML.replace('COUNT(1)', 'source.id'), {}, { replaceWithAlter: true }),
    );
    expect(error.code).toBe('LAKEHOUSE_INVALID_DEFINITION');
    expect(lake.emulator.getObject('main', 'default', 'm')?.definition).toBe(ORDERS_YAML);
  });
});

describe('local lakehouse emulator: drift and fault injection', () => {
  it('an out-of-band edit keeps owner and properties but changes the YAML, so the target reads as drifted', async () => {
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, ours(), { replaceWithAlter: false });
    expect(classifyTarget(await lake.connector.getObject('main', 'default', 'm'), { deployment: 7 })).toEqual({ state: 'managed' });

    const edited = ORDERS_YAML.replace("filter: status <> 'cancelled'\n", '');
    lake.emulator.editOutOfBand('main', 'default', 'm', edited, { by: 'alice' });
    const object = await lake.connector.getObject('main', 'default', 'm');
    expect(object?.owner).toBe('drydock');
    expect(object?.definition?.yaml).toBe(edited);
    expect(lake.emulator.getObject('main', 'default', 'm')?.updatedBy).toBe('alice');
    expect(classifyTarget(object, { deployment: 7 })).toEqual({ state: 'drifted' });
  });

  it('a reformatting-only edit is not drift', async () => {
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, ours(), { replaceWithAlter: false });
    const reformatted = `# edited by hand\n${ORDERS_YAML.replace('comment: Orders KPIs', 'comment: "Orders KPIs"')}`;
    lake.emulator.editOutOfBand('main', 'default', 'm', reformatted);
    expect(metricViewYamlEquals(reformatted, ORDERS_YAML)).toBe(true);
    expect(classifyTarget(await lake.connector.getObject('main', 'default', 'm'), { deployment: 7 }).state).toBe('managed');
  });

  it('failNextWrite fails only the next write of that view, before anything changes', async () => {
    lake.emulator.failNextWrite('m', 'LAKEHOUSE_UNAVAILABLE', 'warehouse hiccup');
    const error = await failure(lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, ours(), { replaceWithAlter: false }));
    expect(error).toMatchObject({ code: 'LAKEHOUSE_UNAVAILABLE', message: 'warehouse hiccup' });
    expect(lake.emulator.getObject('main', 'default', 'm')).toBeNull();
    await lake.connector.createOrReplaceMetricView('main', 'default', 'other', ORDERS_YAML, ours(), { replaceWithAlter: false });
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, ours(), { replaceWithAlter: false });
    expect(lake.emulator.getObject('main', 'default', 'm')?.kind).toBe('METRIC_VIEW');
  });

  it('failNextWrite accepts a fully qualified name and applies to ALTER and DROP too', async () => {
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, ours(), { replaceWithAlter: false });
    lake.emulator.failNextWrite('main.default.m', 'LAKEHOUSE_PERMISSION_DENIED');
    expect((await failure(lake.connector.dropView('main', 'default', 'm'))).code).toBe('LAKEHOUSE_PERMISSION_DENIED');
    lake.emulator.failNextWrite('m');
    const next = ORDERS_YAML.replace('Orders KPIs', 'Changed');
    expect((await failure(lake.connector.createOrReplaceMetricView('main', 'default', 'm', next, {}, { replaceWithAlter: true }))).code).toBe(
      'LAKEHOUSE_FAILED',
    );
    expect(lake.emulator.getObject('main', 'default', 'm')?.definition).toBe(ORDERS_YAML);
  });
});

describe('local lakehouse emulator: access test sequence', () => {
  it('creates, replaces and drops a temporary view without touching other targets', async () => {
    await lake.connector.createOrReplaceMetricView('main', 'default', 'final', ORDERS_YAML, ours(), { replaceWithAlter: false });
    const before = lake.emulator.getObject('main', 'default', 'final');
    const probe = 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: n\n    expr: COUNT(1)\n';
    await lake.connector.createOrReplaceMetricView('main', 'default', 'drydock_access_test_1', probe, {}, { replaceWithAlter: false });
    await lake.connector.createOrReplaceMetricView('main', 'default', 'drydock_access_test_1', probe, {}, { replaceWithAlter: true });
    await lake.connector.dropView('main', 'default', 'drydock_access_test_1');
    await lake.connector.dropView('main', 'default', 'drydock_access_test_1');
    expect(lake.emulator.getObject('main', 'default', 'drydock_access_test_1')).toBeNull();
    expect(lake.emulator.getObject('main', 'default', 'final')).toEqual(before);
  });
});

describe('local lakehouse emulator: storage', () => {
  it('keeps catalog contents, grants and pending faults across reopening the file', async () => {
    await lake.connector.createOrReplaceMetricView('main', 'default', 'm', ORDERS_YAML, ours(), { replaceWithAlter: false });
    lake.emulator.grant('analysts', 'SELECT', 'main.default.m');
    lake.emulator.setWarehouseAccess('bob', true);
    lake.emulator.failNextWrite('m');
    lake.emulator.close();

    const again = lake.reopen();
    expect(again.emulator.listCatalogs()).toEqual(['main']);
    expect(again.emulator.listObjects('main', 'default')).toHaveLength(4);
    expect((await again.connector.getObject('main', 'default', 'm'))?.definition?.yaml).toBe(ORDERS_YAML);
    expect(again.emulator.hasPrivilege('analysts', 'SELECT', 'main.default.m')).toBe(true);
    await new LocalLakehouseConnector(again.emulator, { principal: 'bob' }).checkWarehouseAccess();
    expect((await failure(again.connector.dropView('main', 'default', 'm'))).code).toBe('LAKEHOUSE_FAILED');
  });

  it('does not reseed a file whose seeded objects were removed', () => {
    lake.emulator.dropObject('main', 'default', 'orders');
    lake.emulator.close();
    expect(lake.reopen().emulator.getObject('main', 'default', 'orders')).toBeNull();
  });

  it('uses WAL and records its schema version in user_version', () => {
    lake.emulator.close();
    const db = new Database(lake.file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('user_version', { simple: true })).toBe(EMULATOR_MIGRATIONS.at(-1)?.version);
    } finally {
      db.close();
    }
  });

  it('refuses a file written by a newer emulator schema', () => {
    lake.emulator.close();
    const db = new Database(lake.file);
    db.pragma('user_version = 99');
    db.close();
    expect(() => LakehouseEmulator.open(lake.file)).toThrow(/schema version 99/);
  });

  it('can start empty when seeding is off', () => {
    const empty = tempLakehouse({ seed: false });
    try {
      expect(empty.emulator.listCatalogs()).toEqual([]);
    } finally {
      empty.cleanup();
    }
  });

  it('LocalLakehouseConnector.open owns and closes its emulator', async () => {
    const connector = LocalLakehouseConnector.open(lake.file.replace('lakehouse.sqlite', 'owned.sqlite'));
    await connector.checkWarehouseAccess();
    await connector.close();
    await expect(connector.checkWarehouseAccess()).rejects.toThrow(/closed/);
  });
});
