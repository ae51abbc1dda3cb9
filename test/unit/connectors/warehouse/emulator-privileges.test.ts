import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM_ROLE, WarehouseErrorCodes, type WarehouseEmulator } from '../../../../src-main/connectors/warehouse';
import { memoryEmulator, ordersView, warehouseError } from './fixtures';

let emulator: WarehouseEmulator;
const ROLE = 'DRYDOCK';
const PUBLIC_SCHEMA = { type: 'SCHEMA', database: 'ANALYTICS', schema: 'PUBLIC' } as const;

beforeEach(() => {
  emulator = memoryEmulator();
});
afterEach(() => emulator.close());

const run = (sql: string) => emulator.openSession().execute(sql).rows;
const fails = (sql: string) => warehouseError(() => emulator.openSession().execute(sql));
const CREATE = ordersView('V');

describe('seeded defaults', () => {
  it('grants the seeded role everything a push needs on ANALYTICS.PUBLIC (and CREATE SCHEMA for dev-mode per-user schemas), without owning it', () => {
    const onPublic = emulator.listGrants(ROLE).filter((g) => !('schema' in g.target) || g.target.schema === 'PUBLIC');
    expect(onPublic.map((g) => `${g.privilege} ON ${g.target.type}`).sort()).toEqual([
      'CREATE SCHEMA ON DATABASE',
      'CREATE SEMANTIC VIEW ON SCHEMA',
      'CREATE VIEW ON SCHEMA',
      'SELECT ON ALL TABLES IN SCHEMA',
      'USAGE ON DATABASE',
      'USAGE ON SCHEMA',
      'USAGE ON WAREHOUSE',
    ]);
    expect(emulator.isDdlEnabled()).toBe(true);
    expect(emulator.quotedIdentifiersIgnoreCase()).toBe(false);
  });

  it('seeds the sample project’s ecommerce tables, readable but not writable by the seeded role', () => {
    expect(emulator.describeTable('ANALYTICS', 'ECOMMERCE', 'ORDERS')?.map((c) => c.name)).toContain('AMOUNT');
    const onSample = emulator.listGrants(ROLE).filter((g) => 'schema' in g.target && g.target.schema === 'ECOMMERCE');
    expect(onSample.map((g) => `${g.privilege} ON ${g.target.type}`).sort()).toEqual(['SELECT ON ALL TABLES IN SCHEMA', 'USAGE ON SCHEMA']);
  });

  it('uses the configured seed names', () => {
    const custom = memoryEmulator({ seed: { role: 'ANALYST', database: 'ANALYTICS', warehouse: 'XS' } });
    expect(custom.defaultContext()).toEqual({ role: 'ANALYST', warehouse: 'XS', database: 'ANALYTICS', schema: 'PUBLIC' });
    custom.openSession().execute(CREATE);
    custom.close();
  });
});

describe('DDL enabled setting', () => {
  it('rejects CREATE SEMANTIC VIEW, CREATE VIEW and DROP when DDL is disabled, and still answers reads', () => {
    run(CREATE);
    emulator.setDdlEnabled(false);
    for (const sql of [ordersView('W'), 'CREATE VIEW h AS SELECT * FROM orders', 'DROP SEMANTIC VIEW V', 'DROP VIEW IF EXISTS h']) {
      const error = fails(sql);
      expect(error.code, sql).toBe(WarehouseErrorCodes.DDL_DISABLED);
      expect(error.message).toContain('DDL statements are disabled');
    }
    expect(run('SHOW SEMANTIC VIEWS')).toHaveLength(1);
    expect(run('DESCRIBE SEMANTIC VIEW V').length).toBeGreaterThan(0);
    emulator.setDdlEnabled(true);
    run('DROP SEMANTIC VIEW V');
  });
});

describe('every missing privilege is named', () => {
  it('USAGE on the database', () => {
    emulator.revoke(ROLE, 'USAGE', { type: 'DATABASE', database: 'ANALYTICS' });
    const error = fails(CREATE);
    expect(error.code).toBe(WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES);
    expect(error.message).toBe(
      "SQL access control error:\nInsufficient privileges to operate on database 'ANALYTICS'. Role DRYDOCK lacks USAGE on database ANALYTICS.",
    );
    expect(error.missingPrivilege).toEqual({ role: ROLE, privilege: 'USAGE', objectType: 'DATABASE', objectName: 'ANALYTICS' });
    expect(error.vendorCode).toBe('003001');
    expect(error.sqlState).toBe('42501');
  });

  it('USAGE on the schema', () => {
    emulator.revoke(ROLE, 'USAGE', PUBLIC_SCHEMA);
    expect(fails(CREATE).missingPrivilege).toEqual({ role: ROLE, privilege: 'USAGE', objectType: 'SCHEMA', objectName: 'ANALYTICS.PUBLIC' });
  });

  it('CREATE SEMANTIC VIEW on the schema, worded like Snowflake', () => {
    emulator.revoke(ROLE, 'CREATE SEMANTIC VIEW', PUBLIC_SCHEMA);
    const error = fails(CREATE);
    expect(error.message).toContain("Insufficient privileges to operate on schema 'PUBLIC'.");
    expect(error.missingPrivilege).toMatchObject({ privilege: 'CREATE SEMANTIC VIEW', objectType: 'SCHEMA', objectName: 'ANALYTICS.PUBLIC' });
  });

  it('USAGE on the warehouse', () => {
    emulator.revoke(ROLE, 'USAGE', { type: 'WAREHOUSE', warehouse: 'COMPUTE_WH' });
    expect(fails(CREATE).missingPrivilege).toMatchObject({ privilege: 'USAGE', objectType: 'WAREHOUSE', objectName: 'COMPUTE_WH' });
  });

  it('an active warehouse at all', () => {
    const error = warehouseError(() => emulator.openSession({ warehouse: null }).execute(CREATE));
    expect(error.code).toBe(WarehouseErrorCodes.NO_ACTIVE_WAREHOUSE);
    expect(error.vendorCode).toBe('000606');
  });

  it('SELECT on an underlying table', () => {
    emulator.revoke(ROLE, 'SELECT', { type: 'ALL TABLES IN SCHEMA', database: 'ANALYTICS', schema: 'PUBLIC' });
    emulator.grant(ROLE, 'SELECT', { type: 'TABLE', database: 'ANALYTICS', schema: 'PUBLIC', name: 'CUSTOMERS' });
    const error = fails(CREATE);
    expect(error.code).toBe(WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES);
    expect(error.missingPrivilege).toEqual({ role: ROLE, privilege: 'SELECT', objectType: 'TABLE', objectName: 'ANALYTICS.PUBLIC.ORDERS' });
    emulator.grant(ROLE, 'SELECT', { type: 'TABLE', database: 'ANALYTICS', schema: 'PUBLIC', name: 'ORDERS' });
    run(CREATE);
  });

  it('USAGE on the schema of an underlying table in another schema', () => {
    emulator.createSchema('ANALYTICS', 'RAW');
    emulator.createTable('ANALYTICS', 'RAW', 'EVENTS', [{ name: 'ID', type: 'INT' }]);
    const error = fails('CREATE SEMANTIC VIEW V TABLES (e AS ANALYTICS.RAW.EVENTS) DIMENSIONS (e.id AS id)');
    expect(error.missingPrivilege).toMatchObject({ privilege: 'USAGE', objectType: 'SCHEMA', objectName: 'ANALYTICS.RAW' });
  });

  it('CREATE VIEW on the schema, for a helper view', () => {
    emulator.revoke(ROLE, 'CREATE VIEW', PUBLIC_SCHEMA);
    expect(fails('CREATE VIEW MODEL_SV_SRC_ORDERS AS SELECT * FROM orders').missingPrivilege).toMatchObject({
      privilege: 'CREATE VIEW',
      objectType: 'SCHEMA',
    });
    // Creating a semantic view does not need it.
    run(CREATE);
  });

  it('SELECT on what a helper view reads', () => {
    emulator.revoke(ROLE, 'SELECT', { type: 'ALL TABLES IN SCHEMA', database: 'ANALYTICS', schema: 'PUBLIC' });
    expect(fails('CREATE VIEW h AS SELECT * FROM nations').missingPrivilege).toMatchObject({ privilege: 'SELECT', objectName: 'ANALYTICS.PUBLIC.NATIONS' });
  });

  it('OWNERSHIP to replace or drop a view another role created', () => {
    run(CREATE);
    emulator.createRole('OTHER');
    emulator.grantFullAccess('OTHER', { database: 'ANALYTICS', schema: 'PUBLIC', warehouse: 'COMPUTE_WH' });
    const other = emulator.openSession({ role: 'OTHER' });
    const replace = warehouseError(() => other.execute(CREATE.replace('CREATE', 'CREATE OR REPLACE')));
    expect(replace.missingPrivilege).toEqual({ role: 'OTHER', privilege: 'OWNERSHIP', objectType: 'SEMANTIC VIEW', objectName: 'ANALYTICS.PUBLIC.V' });
    expect(warehouseError(() => other.execute('DROP SEMANTIC VIEW V')).missingPrivilege?.privilege).toBe('OWNERSHIP');
  });

  it('USAGE to describe, list or read the DDL of a view', () => {
    run(CREATE);
    emulator.revoke(ROLE, 'USAGE', PUBLIC_SCHEMA);
    for (const sql of ['DESCRIBE SEMANTIC VIEW V', 'SHOW SEMANTIC VIEWS IN SCHEMA PUBLIC', "SELECT GET_DDL('SEMANTIC_VIEW', 'V')"]) {
      expect(fails(sql).code, sql).toBe(WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES);
    }
    // A listing over the database silently leaves out what the role cannot see.
    expect(run('SHOW SEMANTIC VIEWS IN DATABASE ANALYTICS')).toEqual([]);
  });
});

describe('ownership and administration', () => {
  it('gives an owner every privilege on its object without grants', () => {
    emulator.createRole('OWNER');
    emulator.createDatabase('OWNED', { owner: 'OWNER' });
    emulator.createSchema('OWNED', 'S', { owner: 'OWNER' });
    emulator.createTable('OWNED', 'S', 'T', [{ name: 'ID', type: 'NUMBER' }], { owner: 'OWNER' });
    emulator.grant('OWNER', 'USAGE', { type: 'WAREHOUSE', warehouse: 'COMPUTE_WH' });
    emulator.openSession({ role: 'OWNER' }).execute('CREATE SEMANTIC VIEW OWNED.S.V TABLES (t AS OWNED.S.T) DIMENSIONS (t.id AS id)');
    expect(emulator.listGrants('OWNER')).toHaveLength(1);
  });

  it('refuses a login with a role that does not exist', () => {
    const error = warehouseError(() => emulator.openSession({ role: 'NOBODY' }));
    expect(error.code).toBe(WarehouseErrorCodes.AUTHENTICATION_FAILED);
    expect(error.message).toContain("Role 'NOBODY' specified in the connect string does not exist or not authorized.");
  });

  it('refuses grants that make no sense or name missing objects', () => {
    expect(warehouseError(() => emulator.grant(ROLE, 'SELECT', PUBLIC_SCHEMA)).message).toContain('Privilege SELECT cannot be granted on SCHEMA.');
    expect(warehouseError(() => emulator.grant(ROLE, 'USAGE', { type: 'DATABASE', database: 'NOPE' })).code).toBe(WarehouseErrorCodes.OBJECT_NOT_FOUND);
    expect(warehouseError(() => emulator.grant('NOBODY', 'USAGE', { type: 'DATABASE', database: 'ANALYTICS' })).code).toBe(WarehouseErrorCodes.OBJECT_NOT_FOUND);
  });

  it('reports whether a revoke removed anything', () => {
    expect(emulator.revoke(ROLE, 'CREATE VIEW', PUBLIC_SCHEMA)).toBe(true);
    expect(emulator.revoke(ROLE, 'CREATE VIEW', PUBLIC_SCHEMA)).toBe(false);
  });

  it('seeds tables only in existing schemas, with known types and unique columns', () => {
    expect(warehouseError(() => emulator.createTable('ANALYTICS', 'NOPE', 'T', [{ name: 'A', type: 'INT' }])).code).toBe(WarehouseErrorCodes.OBJECT_NOT_FOUND);
    expect(warehouseError(() => emulator.createTable('ANALYTICS', 'PUBLIC', 'T', [{ name: 'A', type: 'WIDGET' }])).message).toContain("Unsupported data type 'WIDGET'");
    expect(warehouseError(() => emulator.createTable('ANALYTICS', 'PUBLIC', 'T', [{ name: 'A', type: 'INT' }, { name: 'A', type: 'INT' }])).message).toContain(
      "Duplicate column name 'A'",
    );
    expect(warehouseError(() => emulator.createTable('ANALYTICS', 'PUBLIC', 'ORDERS', [{ name: 'A', type: 'INT' }])).code).toBe(WarehouseErrorCodes.OBJECT_EXISTS);
    emulator.createTable('ANALYTICS', 'PUBLIC', 'ORDERS', [{ name: 'A', type: 'timestamp' }], { orReplace: true });
    expect(emulator.describeTable('ANALYTICS', 'PUBLIC', 'ORDERS')).toEqual([{ name: 'A', type: 'TIMESTAMP_NTZ(9)' }]);
  });

  it('lets a session switch role, warehouse and schema with USE, checking privileges', () => {
    const session = emulator.openSession();
    emulator.createRole('READER');
    expect(warehouseError(() => session.execute('USE ROLE NOBODY')).code).toBe(WarehouseErrorCodes.OBJECT_NOT_FOUND);
    session.execute('USE ROLE READER');
    expect(session.context.role).toBe('READER');
    expect(warehouseError(() => session.execute('USE WAREHOUSE COMPUTE_WH')).missingPrivilege).toMatchObject({ privilege: 'USAGE', objectType: 'WAREHOUSE' });
    expect(warehouseError(() => session.execute('USE SCHEMA ANALYTICS.PUBLIC')).missingPrivilege).toMatchObject({ objectType: 'DATABASE' });
    expect(SYSTEM_ROLE).toBe('SYSADMIN');
  });
});

describe('CREATE SCHEMA (dev-mode per-user schemas)', () => {
  it('creates the schema owned by the creating role, which may then create semantic views in it', () => {
    expect(run('CREATE SCHEMA IF NOT EXISTS ANALYTICS.PUBLIC_DEV_ALICE')[0]).toMatchObject({ status: 'Schema PUBLIC_DEV_ALICE successfully created.' });
    const session = emulator.openSession();
    session.execute('USE SCHEMA ANALYTICS.PUBLIC_DEV_ALICE');
    session.execute(ordersView('V'));
    expect(run('SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS.PUBLIC_DEV_ALICE').map((r) => r.name)).toEqual(['V']);
  });

  it('IF NOT EXISTS leaves an existing schema alone; without it an existing schema is an error', () => {
    run('CREATE SCHEMA ANALYTICS.S1');
    expect(run('CREATE SCHEMA IF NOT EXISTS ANALYTICS.S1')[0]).toMatchObject({ status: 'S1 already exists, statement succeeded.' });
    expect(run('CREATE SCHEMA IF NOT EXISTS PUBLIC')[0]).toMatchObject({ status: 'PUBLIC already exists, statement succeeded.' });
    expect(fails('CREATE SCHEMA ANALYTICS.S1').code).toBe(WarehouseErrorCodes.OBJECT_EXISTS);
  });

  it('needs CREATE SCHEMA on the database and DDL enabled; OR REPLACE (which would drop objects) is not executed', () => {
    expect(emulator.revoke(ROLE, 'CREATE SCHEMA', { type: 'DATABASE', database: 'ANALYTICS' })).toBe(true);
    expect(fails('CREATE SCHEMA ANALYTICS.S2').missingPrivilege).toMatchObject({ role: ROLE, privilege: 'CREATE SCHEMA', objectType: 'DATABASE' });
    emulator.grant(ROLE, 'CREATE SCHEMA', { type: 'DATABASE', database: 'ANALYTICS' });
    emulator.setDdlEnabled(false);
    expect(fails('CREATE SCHEMA ANALYTICS.S2').code).toBe(WarehouseErrorCodes.DDL_DISABLED);
    emulator.setDdlEnabled(true);
    expect(fails('CREATE OR REPLACE SCHEMA ANALYTICS.S2').code).toBe(WarehouseErrorCodes.UNSUPPORTED);
    expect(fails('CREATE SCHEMA ANALYTICS.S2 CLONE ANALYTICS.PUBLIC').code).toBe(WarehouseErrorCodes.UNSUPPORTED);
  });
});
