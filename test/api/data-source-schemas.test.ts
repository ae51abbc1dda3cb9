// listDataSourceSchemas (Drydock addition, issue 14 item 6): the schemas that exist in a data source,
// asked of the data source as its credential, for the schema pickers of push, pull and publication.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnowflakeDriverConnection } from '../../src-main/connectors/warehouse/snowflake';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { createDeployment } from '../support/deployments';
import { openEmulator } from '../support/lakehouse';
import { startTestService, type TestService } from '../support/service';
import { createUser } from '../support/users';

let svc: TestService;
let deploymentId: number;
const schemasOf = (dataSource: string, query = '', auth?: string) =>
  svc.call('GET', `/api/v1/deployments/${deploymentId}/data-sources/${encodeURIComponent(dataSource)}/schemas${query}`, auth ? { auth } : {});

beforeAll(async () => {
  svc = await startTestService();
  deploymentId = await createDeployment(svc, 'schemas');
}, 120_000);
afterAll(async () => svc?.stop(), 120_000);

describe('the local warehouse lists the schemas of the data source’s database', () => {
  it('lists what exists there (a new schema included), never INFORMATION_SCHEMA', async () => {
    const first = await schemasOf('default');
    expect(first.status, first.text).toBe(200);
    const warehouse = getLocalWarehouse(svc.ctx);
    // Owned by the role Drydock connects as, so that role may use it (SHOW lists only what the role may use).
    warehouse.createSchema('ANALYTICS', 'MARTS_E2E', { owner: warehouse.defaultContext().role });
    warehouse.createSchema('ANALYTICS', 'HIDDEN_E2E', { owner: 'SYSADMIN' });
    const res = await schemasOf('default');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ dataSource: 'default', kind: 'warehouse', engine: 'local warehouse', catalog: 'ANALYTICS' });
    expect(res.body.catalogs).toContain('ANALYTICS');
    expect(res.body.schemas).toContain('MARTS_E2E');
    expect(res.body.schemas).toEqual([...first.body.schemas, 'MARTS_E2E'].sort((a: string, b: string) => a.localeCompare(b)));
    expect(res.body.schemas).not.toContain('INFORMATION_SCHEMA');
    expect(res.body.schemas, 'a schema the role may not use').not.toContain('HIDDEN_E2E');
  });

  it('an unknown database is a 404 problem with the warehouse’s code', async () => {
    const res = await schemasOf('default', '?catalog=NO_SUCH_DB');
    expect(res.status, res.text).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('WAREHOUSE_OBJECT_NOT_FOUND');
  });
});

describe('the local lakehouse lists catalogs and the schemas of the chosen one', () => {
  it('defaults to the data source’s catalog and lists a schema created there', async () => {
    const emulator = openEmulator(svc);
    try {
      emulator.createSchema('main', 'semantic_e2e', { owner: emulator.defaultPrincipal });
    } finally {
      emulator.close();
    }
    const res = await schemasOf('lake');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ dataSource: 'lake', kind: 'lakehouse', engine: 'local lakehouse', catalog: 'main' });
    expect(res.body.catalogs).toContain('main');
    expect(res.body.schemas).toContain('semantic_e2e');
  });

  it('an unknown catalog is a 404 problem', async () => {
    const res = await schemasOf('lake', '?catalog=no_such_catalog');
    expect(res.status, res.text).toBe(404);
    expect(res.body.code).toBe('LAKEHOUSE_NOT_FOUND');
  });

  it('a lakehouse that cannot be reached is a 502 problem with the connector’s code', async () => {
    const emulator = openEmulator(svc);
    emulator.setWarehouseAvailable(false);
    try {
      const res = await schemasOf('lake');
      expect(res.status, res.text).toBe(502);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('LAKEHOUSE_UNAVAILABLE');
    } finally {
      emulator.setWarehouseAvailable(true);
      emulator.close();
    }
  });
});

describe('failures and permissions', () => {
  it('an unknown data source is a 404 problem', async () => {
    const res = await schemasOf('nope');
    expect(res.status, res.text).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('DATA_SOURCE_NOT_FOUND');
  });

  it('a Snowflake account that refuses the connection is a 502 problem, and the secret is not in it', async () => {
    const other = await createDeployment(svc, 'schemas-snowflake');
    const env = await svc.call('PUT', `/api/v1/deployments/${other}/env-vars`, {
      body: [
        { name: 'CUBEJS_DB_SNOWFLAKE_ACCOUNT', value: 'myorg-unreachable' },
        { name: 'CUBEJS_DB_USER', value: 'DRYDOCK_SVC' },
        { name: 'CUBEJS_DB_SNOWFLAKE_WAREHOUSE', value: 'COMPUTE_WH' },
        { name: 'CUBEJS_DB_PASS', value: 'hunter2-secret', isSecret: true },
      ],
    });
    expect(env.status, env.text).toBe(200);
    // snowflake-sdk's boundary: the network connection fails as a DNS failure would.
    svc.ctx.services.snowflakeCreateConnection = (): SnowflakeDriverConnection => ({
      connect: (callback) => setImmediate(() => callback(Object.assign(new Error('getaddrinfo ENOTFOUND myorg-unreachable.snowflakecomputing.com'), { code: 'ENOTFOUND' }), {})),
      execute: () => {
        throw new Error('not connected');
      },
      destroy: (callback) => setImmediate(() => callback(undefined, {})),
    });
    try {
      const res = await svc.call('GET', `/api/v1/deployments/${other}/data-sources/default/schemas`);
      expect(res.status, res.text).toBe(502);
      expect(res.body.code).toMatch(/^WAREHOUSE_/);
      expect(res.text).not.toContain('hunter2-secret');
    } finally {
      delete svc.ctx.services.snowflakeCreateConnection;
    }
  });

  it('needs SchemaUpdate: a developer may list, a viewer may not', async () => {
    const developer = createUser(svc, 'developer');
    const viewer = createUser(svc, 'viewer');
    expect((await schemasOf('default', '', developer.auth)).status).toBe(200);
    const refused = await schemasOf('default', '', viewer.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
  });
});
