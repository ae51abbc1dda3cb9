import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabricksClientFactory, DatabricksConnectOptions, LakehouseConnector } from '../../src-main/connectors/lakehouse';
import { createLakehouseConnector, defaultEmulatorFile } from '../../src-main/connectors/lakehouse';
import { createDeployment } from '../support/deployments';
import type { TestService } from '../support/service';
import { createUser } from '../support/users';
import { integration, openEmulator, publish, saveSettings, startSampleProjectService } from '../support/lakehouse';

let svc: TestService;

beforeAll(async () => {
  svc = await startSampleProjectService();
});
afterAll(() => svc.stop());
afterEach(() => {
  delete svc.ctx.services.lakehouseConnectorFactory;
  delete svc.ctx.services.databricksClientFactory;
});

const accessTest = (id: number, body?: unknown, auth?: string) =>
  svc.call('POST', `${integration(id)}/access-test`, { ...(body !== undefined ? { body } : {}), ...(auth ? { auth } : {}) });

type Check = { name: string; status: string; subject: string | null; errorCode: string | null };
const statuses = (checks: Check[]) => checks.map((c) => `${c.name}:${c.status}${c.subject && c.name === 'source_read' ? `:${c.subject}` : ''}`);

/** Records every statement a connector receives, on top of the emulator. */
function recordCalls(): string[] {
  const calls: string[] = [];
  svc.ctx.services.lakehouseConnectorFactory = () => {
    const real = createLakehouseConnector({ kind: 'local', file: defaultEmulatorFile(svc.dataDir) });
    const recorder: LakehouseConnector = {
      getObject: (c, s, n) => (calls.push(`get ${c}.${s}.${n}`), real.getObject(c, s, n)),
      createOrReplaceMetricView: (c, s, n, yaml, props, opts) => (calls.push(`write ${c}.${s}.${n}`), real.createOrReplaceMetricView(c, s, n, yaml, props, opts)),
      dropView: (c, s, n) => (calls.push(`drop ${c}.${s}.${n}`), real.dropView(c, s, n)),
      checkSourceReadable: (source) => real.checkSourceReadable(source),
      checkWarehouseAccess: () => real.checkWarehouseAccess(),
      checkSchemaAccess: (c, s) => real.checkSchemaAccess(c, s),
      close: () => real.close(),
    };
    return recorder;
  };
  return calls;
}

describe('access test', () => {
  it('creates, replaces and drops a uniquely named temporary view and checks warehouse, target schema and source reads', async () => {
    const id = await createDeployment(svc);
    await saveSettings(svc, id, { targetNamePrefix: `mv${id}_`, selectionMode: 'selected', selectedViews: ['orders_view'] });
    const calls = recordCalls();
    const res = await accessTest(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dataSourceName: 'lake', ok: true, targetCatalog: 'main', targetSchema: 'default' });
    expect(res.body.temporaryViewName).toMatch(/^drydock_access_test_[0-9a-f]{32}$/);
    expect(statuses(res.body.checks)).toEqual([
      'warehouse:passed',
      'target_schema:passed',
      'source_read:passed:main.default.customers',
      'source_read:passed:main.default.orders',
      'create_view:passed',
      'replace_view:passed',
      'drop_view:passed',
    ]);
    const temporary = `main.default.${res.body.temporaryViewName}`;
    // Only the temporary view was written: created, replaced, dropped.
    expect(calls.filter((c) => !c.startsWith('get'))).toEqual([`write ${temporary}`, `write ${temporary}`, `drop ${temporary}`]);
    const emulator = openEmulator(svc);
    try {
      expect(emulator.getObject('main', 'default', res.body.temporaryViewName)).toBeNull();
    } finally {
      emulator.close();
    }
    const second = await accessTest(id);
    expect(second.body.temporaryViewName).not.toBe(res.body.temporaryViewName);
  });

  it('never touches a published target', async () => {
    const id = await createDeployment(svc);
    const prefix = `mv${id}_`;
    await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'selected', selectedViews: ['orders_view'] });
    await publish(svc, id);
    const emulator = openEmulator(svc);
    try {
      const before = emulator.getObject('main', 'default', `${prefix}orders_view`)!;
      const res = await accessTest(id);
      expect(res.body.ok).toBe(true);
      const after = emulator.getObject('main', 'default', `${prefix}orders_view`)!;
      expect(after.updatedAt).toBe(before.updatedAt);
      expect(after.definition).toBe(before.definition);
    } finally {
      emulator.close();
    }
  });

  it('reports each failing check: a source without SELECT, and a target schema without CREATE TABLE', async () => {
    const id = await createDeployment(svc);
    await saveSettings(svc, id, { targetNamePrefix: `mv${id}_`, selectionMode: 'selected', selectedViews: ['orders_view'] });
    const emulator = openEmulator(svc);
    // A schema the credential was granted nothing on.
    emulator.createSchema('main', `locked${id}`);
    emulator.createTable('main', `locked${id}`, 'orders', [{ name: 'id', type: 'BIGINT' }]);
    emulator.revoke('drydock', 'CREATE TABLE', ['main', 'default']);
    try {
      await saveSettings(svc, id, { targetNamePrefix: `mv${id}_`, selectionMode: 'selected', selectedViews: ['orders_view'], rootSourceOverrides: { orders_view: `main.locked${id}.orders` } });
      const res = await accessTest(id);
      expect(res.status).toBe(200);
      expect(res.body.ok).toBe(false);
      const byName = (name: string, subject?: string) => res.body.checks.find((c: Check) => c.name === name && (subject === undefined || c.subject === subject));
      expect(byName('warehouse').status).toBe('passed');
      expect(byName('target_schema')).toMatchObject({ status: 'failed', errorCode: 'LAKEHOUSE_PERMISSION_DENIED' });
      expect(byName('source_read', `main.locked${id}.orders`)).toMatchObject({ status: 'failed', errorCode: 'LAKEHOUSE_PERMISSION_DENIED' });
      expect(byName('source_read', 'main.default.customers').status).toBe('passed');
      expect(byName('create_view')).toMatchObject({ status: 'failed', errorCode: 'LAKEHOUSE_PERMISSION_DENIED' });
      expect(byName('replace_view').status).toBe('skipped');
      expect(byName('drop_view').status).toBe('skipped');
    } finally {
      emulator.grant('drydock', 'CREATE TABLE', ['main', 'default']);
      emulator.close();
    }
  });

  it('reports a warehouse the credential cannot use and skips what depends on it', async () => {
    const id = await createDeployment(svc);
    await saveSettings(svc, id, { targetNamePrefix: `mv${id}_` });
    const emulator = openEmulator(svc);
    emulator.setWarehouseAccess('drydock', false);
    try {
      const res = await accessTest(id);
      expect(res.body.ok).toBe(false);
      expect(statuses(res.body.checks)).toEqual(['warehouse:failed', 'target_schema:skipped', 'source_read:skipped', 'create_view:skipped', 'replace_view:skipped', 'drop_view:skipped']);
      expect(res.body.checks[0].errorCode).toBe('LAKEHOUSE_PERMISSION_DENIED');
    } finally {
      emulator.setWarehouseAccess('drydock', true);
      emulator.close();
    }
  });

  it('tests a target given in the request when none is saved, and needs one of them', async () => {
    const id = await createDeployment(svc);
    const missing = await accessTest(id);
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('LAKEHOUSE_TARGET_REQUIRED');
    const res = await accessTest(id, { targetCatalog: 'main', targetSchema: 'nowhere' });
    expect(res.body.ok).toBe(false);
    expect(res.body.checks.find((c: Check) => c.name === 'target_schema').errorCode).toBe('LAKEHOUSE_NOT_FOUND');
  });

  it('needs SchemaUpdate', async () => {
    const id = await createDeployment(svc);
    await saveSettings(svc, id, { targetNamePrefix: `mv${id}_` });
    const viewer = createUser(svc, 'viewer');
    expect((await accessTest(id, undefined, viewer.auth)).status).toBe(403);
    const developer = createUser(svc, 'developer');
    expect((await accessTest(id, undefined, developer.auth)).status).toBe(200);
  });
});

describe('remote lakehouse data sources', () => {
  it('use Databricks with the token from the SecretStore once a host is configured (checked at the driver boundary)', async () => {
    const id = await createDeployment(svc);
    const env = await svc.call('PUT', `/api/v1/deployments/${id}/env-vars`, {
      body: [
        { name: 'CUBEJS_DS_LAKE_DB_DATABRICKS_URL', value: 'jdbc:databricks://dbc-test.cloud.databricks.com:443/default;transportMode=http;ssl=1;httpPath=/sql/1.0/warehouses/abc123;AuthMech=3' },
        { name: 'CUBEJS_DS_LAKE_DB_DATABRICKS_TOKEN', value: 'dapi-secret-token', isSecret: true },
      ],
    });
    expect(env.status).toBe(200);
    await saveSettings(svc, id, { targetNamePrefix: `mv${id}_` });
    const connects: DatabricksConnectOptions[] = [];
    const statements: string[] = [];
    const factory: DatabricksClientFactory = () => ({
      connect: async (options) => connects.push(options),
      openSession: async () => ({
        executeStatement: async (statement: string) => {
          statements.push(statement);
          throw Object.assign(new Error('[INSUFFICIENT_PERMISSIONS] User does not have USE SCHEMA'), { sqlState: '42501' });
        },
        close: async () => undefined,
      }),
      close: async () => undefined,
    });
    svc.ctx.services.databricksClientFactory = factory;
    const res = await accessTest(id);
    expect(res.status).toBe(200);
    expect(connects[0]).toMatchObject({ host: 'dbc-test.cloud.databricks.com', path: '/sql/1.0/warehouses/abc123', token: 'dapi-secret-token' });
    expect(statements.length).toBeGreaterThan(0);
    expect(res.body.ok).toBe(false);
    expect(res.body.checks[0]).toMatchObject({ name: 'warehouse', status: 'failed' });
    // The credential never reaches the response.
    expect(res.text).not.toContain('dapi-secret-token');
  });
});
