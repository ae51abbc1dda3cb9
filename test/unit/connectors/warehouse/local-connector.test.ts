import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalWarehouseConnector, WarehouseErrorCodes, type WarehouseConnector, type WarehouseEmulator } from '../../../../src-main/connectors/warehouse';
import { memoryEmulator, ordersView, rejection, SALES_DDL } from './fixtures';

let emulator: WarehouseEmulator;
let connector: WarehouseConnector;

beforeEach(() => {
  emulator = memoryEmulator();
  connector = new LocalWarehouseConnector(emulator);
});
afterEach(async () => {
  await connector.close();
  emulator.close();
});

describe('LocalWarehouseConnector', () => {
  it('lists the semantic views of a schema', async () => {
    await connector.execute(SALES_DDL);
    await connector.execute(ordersView('"quiet view"'));
    expect(await connector.listSemanticViews('ANALYTICS', 'PUBLIC')).toEqual([
      { created_on: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), name: 'SALES_SV', database_name: 'ANALYTICS', schema_name: 'PUBLIC', comment: 'Sales analysis', owner: 'DRYDOCK' },
      { created_on: expect.any(String), name: 'quiet view', database_name: 'ANALYTICS', schema_name: 'PUBLIC', comment: null, owner: 'DRYDOCK' },
    ]);
  });

  it('describes a view by exact name, quoting it where needed', async () => {
    await connector.execute(ordersView('"quiet view"'));
    const rows = await connector.describeSemanticView('ANALYTICS', 'PUBLIC', 'quiet view');
    expect(rows[0]).toEqual({ object_kind: 'TABLE', object_name: 'ORDERS', parent_entity: null, property: 'BASE_TABLE_DATABASE_NAME', property_value: 'ANALYTICS' });
  });

  it('returns GET_DDL text that recreates the view', async () => {
    await connector.execute(SALES_DDL);
    const ddl = await connector.getDdl('ANALYTICS', 'PUBLIC', 'SALES_SV');
    expect(ddl.startsWith('create or replace semantic view SALES_SV\n\ttables (')).toBe(true);
    await connector.execute(ddl);
    expect(await connector.getDdl('ANALYTICS', 'PUBLIC', 'SALES_SV')).toBe(ddl);
  });

  it('runs as the configured role and warehouse', async () => {
    emulator.createRole('ANALYST');
    const analyst = new LocalWarehouseConnector(emulator, { role: 'ANALYST' });
    const error = await rejection(analyst.execute(ordersView('V')));
    expect(error.missingPrivilege).toMatchObject({ role: 'ANALYST', privilege: 'USAGE', objectType: 'DATABASE' });
    const noWarehouse = new LocalWarehouseConnector(emulator, { warehouse: null });
    expect((await rejection(noWarehouse.execute(ordersView('V')))).code).toBe(WarehouseErrorCodes.NO_ACTIVE_WAREHOUSE);
  });

  it('reports an unknown role on first use, like a failed login', async () => {
    const stranger = new LocalWarehouseConnector(emulator, { role: 'STRANGER' });
    expect((await rejection(stranger.listSemanticViews('ANALYTICS', 'PUBLIC'))).code).toBe(WarehouseErrorCodes.AUTHENTICATION_FAILED);
  });

  it('reports a missing view as not found', async () => {
    expect((await rejection(connector.getDdl('ANALYTICS', 'PUBLIC', 'NOPE'))).code).toBe(WarehouseErrorCodes.OBJECT_NOT_FOUND);
  });

  it('refuses work after close, leaving the shared emulator open', async () => {
    await connector.close();
    expect((await rejection(connector.execute('SHOW SEMANTIC VIEWS'))).code).toBe(WarehouseErrorCodes.CONNECTION_CLOSED);
    expect(emulator.openSession().execute('SHOW SEMANTIC VIEWS').rows).toEqual([]);
  });
});
