import { describe, expect, it } from 'vitest';
import {
  createSnowflakeSdkConnection,
  mapSnowflakeError,
  SnowflakeWarehouseConnector,
  WarehouseErrorCodes,
  type SnowflakeConnectionOptions,
  type SnowflakeConnectorConfig,
  type SnowflakeDriverConnection,
  type SnowflakeDriverError,
} from '../../../../src-main/connectors/warehouse';
import { rejection } from './fixtures';

type Answer = { rows: Record<string, unknown>[] } | { error: SnowflakeDriverError };

/** A stand-in for snowflake-sdk's Connection: connect(cb), execute({sqlText, complete}), destroy(cb). */
class FakeConnection implements SnowflakeDriverConnection {
  readonly statements: string[] = [];
  connects = 0;
  destroyed = false;
  loginError: SnowflakeDriverError | undefined;

  constructor(private readonly answer: (sql: string) => Answer = () => ({ rows: [] })) {}

  connect(callback: (error: SnowflakeDriverError | undefined, connection: unknown) => void): unknown {
    this.connects += 1;
    const error = this.loginError;
    setImmediate(() => callback(error, this));
    return this;
  }

  execute(options: { sqlText: string; complete: (error: SnowflakeDriverError | undefined, statement: unknown, rows?: unknown[]) => void }): unknown {
    this.statements.push(options.sqlText);
    const answer = this.answer(options.sqlText);
    setImmediate(() => ('error' in answer ? options.complete(answer.error, {}) : options.complete(undefined, {}, answer.rows)));
    return {};
  }

  destroy(callback: (error: SnowflakeDriverError | undefined, connection: unknown) => void): void {
    this.destroyed = true;
    setImmediate(() => callback(undefined, this));
  }
}

const CONFIG: SnowflakeConnectorConfig = {
  account: 'myorg-myaccount',
  username: 'DRYDOCK_SVC',
  warehouse: 'COMPUTE_WH',
  role: 'DRYDOCK',
  database: 'ANALYTICS',
  authenticator: 'SNOWFLAKE',
};
const PASSWORD = 'hunter2-very-secret';

function connectorWith(fake: FakeConnection, config: Partial<SnowflakeConnectorConfig> = {}, extra: { passphrase?: string } = {}) {
  const created: SnowflakeConnectionOptions[] = [];
  let secretReads = 0;
  const connector = new SnowflakeWarehouseConnector(
    { ...CONFIG, ...config },
    {
      getSecret: async () => {
        secretReads += 1;
        return config.authenticator === 'SNOWFLAKE_JWT' ? '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----' : PASSWORD;
      },
      ...(extra.passphrase ? { getPrivateKeyPassphrase: async () => extra.passphrase ?? null } : {}),
      createConnection: (options) => {
        created.push(options);
        return fake;
      },
    },
  );
  return { connector, created, secretReads: () => secretReads };
}

// SHOW SEMANTIC VIEWS as snowflake-sdk hands it over: lower-case column names, TIMESTAMP_LTZ as Date.
const SHOW_ROWS = [
  {
    created_on: new Date('2025-06-03T17:41:07.123Z'),
    name: 'SALES_SV',
    database_name: 'ANALYTICS',
    schema_name: 'PUBLIC',
    comment: 'Sales analysis',
    owner: 'DRYDOCK',
    owner_role_type: 'ROLE',
    extension: null,
  },
  {
    created_on: new Date('2025-06-04T08:00:00.000Z'),
    name: 'quiet view',
    database_name: 'ANALYTICS',
    schema_name: 'PUBLIC',
    comment: '',
    owner: 'SYSADMIN',
    owner_role_type: 'ROLE',
    extension: null,
  },
];

// DESCRIBE SEMANTIC VIEW as Snowflake returns it: the view comment with NULL kind/name/parent.
const DESCRIBE_ROWS = [
  { object_kind: null, object_name: null, parent_entity: null, property: 'COMMENT', property_value: 'Sales analysis' },
  { object_kind: 'TABLE', object_name: 'ORDERS', parent_entity: null, property: 'BASE_TABLE_DATABASE_NAME', property_value: 'ANALYTICS' },
  { object_kind: 'TABLE', object_name: 'ORDERS', parent_entity: null, property: 'PRIMARY_KEY', property_value: '["O_ORDERKEY"]' },
  { object_kind: 'RELATIONSHIP', object_name: 'ORDERS_TO_CUSTOMERS', parent_entity: 'ORDERS', property: 'REF_TABLE', property_value: 'CUSTOMERS' },
  { object_kind: 'METRIC', object_name: 'ORDER_COUNT', parent_entity: 'ORDERS', property: 'EXPRESSION', property_value: 'COUNT(orders.o_orderkey)' },
  { object_kind: 'METRIC', object_name: 'ORDER_COUNT', parent_entity: 'ORDERS', property: 'DATA_TYPE', property_value: 'NUMBER(18,0)' },
];

describe('SnowflakeWarehouseConnector at the driver boundary', () => {
  it('connects once with password authentication, reading the secret only at connect time', async () => {
    const fake = new FakeConnection();
    const { connector, created, secretReads } = connectorWith(fake);
    expect(secretReads()).toBe(0);
    await connector.execute('SELECT 1');
    await connector.execute('SELECT 2');
    expect(created).toEqual([
      { account: 'myorg-myaccount', username: 'DRYDOCK_SVC', warehouse: 'COMPUTE_WH', role: 'DRYDOCK', database: 'ANALYTICS', authenticator: 'SNOWFLAKE', password: PASSWORD, application: 'Drydock' },
    ]);
    expect(fake.connects).toBe(1);
    expect(secretReads()).toBe(1);
    expect(fake.statements).toEqual(['SELECT 1', 'SELECT 2']);
  });

  it('connects with a key pair: the secret is the private key, plus its passphrase', async () => {
    const fake = new FakeConnection();
    const { connector, created } = connectorWith(fake, { authenticator: 'SNOWFLAKE_JWT' }, { passphrase: 'pp' });
    await connector.execute('SELECT 1');
    expect(created[0]).toMatchObject({ authenticator: 'SNOWFLAKE_JWT', privateKey: expect.stringContaining('BEGIN PRIVATE KEY'), privateKeyPass: 'pp' });
    expect(created[0]).not.toHaveProperty('password');
  });

  it('maps a failed login without leaking the secret, and tries again on the next call', async () => {
    const fake = new FakeConnection();
    fake.loginError = { message: 'Incorrect username or password was specified.', code: '390100', sqlState: '08004' };
    const { connector } = connectorWith(fake);
    const error = await rejection(connector.execute('SELECT 1'));
    expect(error.code).toBe(WarehouseErrorCodes.AUTHENTICATION_FAILED);
    expect(error.vendorCode).toBe('390100');
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain(PASSWORD);
    fake.loginError = undefined;
    await connector.execute('SELECT 1');
    expect(fake.connects).toBe(2);
  });

  it('sends SHOW SEMANTIC VIEWS IN SCHEMA and parses its rows', async () => {
    const fake = new FakeConnection(() => ({ rows: SHOW_ROWS }));
    const { connector } = connectorWith(fake);
    expect(await connector.listSemanticViews('ANALYTICS', 'PUBLIC')).toEqual([
      { created_on: '2025-06-03T17:41:07.123Z', name: 'SALES_SV', database_name: 'ANALYTICS', schema_name: 'PUBLIC', comment: 'Sales analysis', owner: 'DRYDOCK' },
      { created_on: '2025-06-04T08:00:00.000Z', name: 'quiet view', database_name: 'ANALYTICS', schema_name: 'PUBLIC', comment: null, owner: 'SYSADMIN' },
    ]);
    expect(fake.statements).toEqual(['SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS.PUBLIC']);
  });

  it('reads SHOW columns whatever their case', async () => {
    const upper = SHOW_ROWS.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k.toUpperCase(), v])));
    const { connector } = connectorWith(new FakeConnection(() => ({ rows: upper })));
    expect((await connector.listSemanticViews('ANALYTICS', 'PUBLIC')).map((v) => v.name)).toEqual(['SALES_SV', 'quiet view']);
  });

  it('quotes identifiers that are not plain upper-case names, doubling embedded quotes', async () => {
    const fake = new FakeConnection(() => ({ rows: [] }));
    const { connector } = connectorWith(fake);
    await connector.listSemanticViews('my db', 'Sales');
    await connector.describeSemanticView('ANALYTICS', 'PUBLIC', 'say "hi"');
    await connector.listSemanticViews('ANALYTICS', 'TABLE');
    expect(fake.statements).toEqual([
      'SHOW SEMANTIC VIEWS IN SCHEMA "my db"."Sales"',
      'DESCRIBE SEMANTIC VIEW ANALYTICS.PUBLIC."say ""hi"""',
      'SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS."TABLE"',
    ]);
  });

  it('sends DESCRIBE SEMANTIC VIEW and keeps the five columns, NULLs included', async () => {
    const fake = new FakeConnection(() => ({ rows: DESCRIBE_ROWS }));
    const { connector } = connectorWith(fake);
    expect(await connector.describeSemanticView('ANALYTICS', 'PUBLIC', 'SALES_SV')).toEqual(DESCRIBE_ROWS);
    expect(fake.statements).toEqual(['DESCRIBE SEMANTIC VIEW ANALYTICS.PUBLIC.SALES_SV']);
  });

  it("sends SELECT GET_DDL('SEMANTIC_VIEW', ...) with the name as an escaped string and reads the one column", async () => {
    const ddl = 'create or replace semantic view SALES_SV\n\ttables (\n\t\tORDERS as ANALYTICS.PUBLIC.ORDERS\n\t)\n\tdimensions (\n\t\tORDERS.D as o_orderdate\n\t);';
    const fake = new FakeConnection((sql) => ({ rows: [{ [sql.slice('SELECT '.length).toUpperCase()]: ddl }] }));
    const { connector } = connectorWith(fake);
    expect(await connector.getDdl('ANALYTICS', 'PUBLIC', 'SALES_SV')).toBe(ddl);
    await connector.getDdl('ANALYTICS', 'PUBLIC', "it's");
    expect(fake.statements).toEqual([`SELECT GET_DDL('SEMANTIC_VIEW', 'ANALYTICS.PUBLIC.SALES_SV')`, `SELECT GET_DDL('SEMANTIC_VIEW', 'ANALYTICS.PUBLIC."it''s"')`]);
  });

  it('fails clearly when GET_DDL returns no text', async () => {
    const { connector } = connectorWith(new FakeConnection(() => ({ rows: [] })));
    expect((await rejection(connector.getDdl('ANALYTICS', 'PUBLIC', 'X'))).code).toBe(WarehouseErrorCodes.ERROR);
  });

  it('maps statement errors to WarehouseError, keeping message, SQL state and vendor code', async () => {
    const errors: Record<string, SnowflakeDriverError> = {
      'CREATE SEMANTIC VIEW a': { message: "SQL access control error:\nInsufficient privileges to operate on schema 'PUBLIC'", code: '003001', sqlState: '42501' },
      'CREATE SEMANTIC VIEW b': { message: "SQL compilation error:\nsyntax error line 1 at position 7 unexpected 'FOO'.", code: '001003', sqlState: '42000' },
      'DESCRIBE SEMANTIC VIEW c': { message: "SQL compilation error:\nObject 'C' does not exist or not authorized.", code: '002003', sqlState: '02000' },
    };
    const { connector } = connectorWith(new FakeConnection((sql) => ({ error: errors[sql] })));
    const expected = {
      'CREATE SEMANTIC VIEW a': WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES,
      'CREATE SEMANTIC VIEW b': WarehouseErrorCodes.SYNTAX_ERROR,
      'DESCRIBE SEMANTIC VIEW c': WarehouseErrorCodes.OBJECT_NOT_FOUND,
    };
    for (const [sql, code] of Object.entries(expected)) {
      const error = await rejection(connector.execute(sql));
      expect(error.code, sql).toBe(code);
      expect(error.message).toBe(errors[sql].message);
      expect(error.sqlState).toBe(errors[sql].sqlState);
      expect(error.vendorCode).toBe(errors[sql].code);
    }
  });

  it('refuses DDL before it reaches Snowflake when DDL is disabled', async () => {
    const fake = new FakeConnection();
    const { connector } = connectorWith(fake, { ddlEnabled: false });
    for (const sql of ['CREATE OR REPLACE SEMANTIC VIEW v TABLES (t) DIMENSIONS (t.d AS x)', '  -- generated\n/* push */ drop view MODEL_SV_SRC_X']) {
      expect((await rejection(connector.execute(sql))).code).toBe(WarehouseErrorCodes.DDL_DISABLED);
    }
    await connector.execute('SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS.PUBLIC');
    expect(fake.statements).toEqual(['SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS.PUBLIC']);
  });

  it('destroys the connection on close and refuses work afterwards', async () => {
    const fake = new FakeConnection();
    const { connector } = connectorWith(fake);
    await connector.execute('SELECT 1');
    await connector.close();
    expect(fake.destroyed).toBe(true);
    expect((await rejection(connector.execute('SELECT 1'))).code).toBe(WarehouseErrorCodes.CONNECTION_CLOSED);
  });

  it('closes without connecting when it never connected', async () => {
    const fake = new FakeConnection();
    const { connector, created } = connectorWith(fake);
    await connector.close();
    expect(created).toEqual([]);
    expect(fake.destroyed).toBe(false);
  });
});

describe('mapSnowflakeError', () => {
  it.each([
    ['003001', undefined, WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES],
    ['003011', undefined, WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES],
    ['001003', undefined, WarehouseErrorCodes.SYNTAX_ERROR],
    ['002003', undefined, WarehouseErrorCodes.OBJECT_NOT_FOUND],
    ['002002', undefined, WarehouseErrorCodes.OBJECT_EXISTS],
    ['000904', undefined, WarehouseErrorCodes.INVALID_IDENTIFIER],
    ['000606', undefined, WarehouseErrorCodes.NO_ACTIVE_WAREHOUSE],
    ['390144', undefined, WarehouseErrorCodes.AUTHENTICATION_FAILED],
    [401001, undefined, WarehouseErrorCodes.CONNECTION_FAILED],
    [undefined, '42501', WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES],
    [undefined, '42S02', WarehouseErrorCodes.OBJECT_NOT_FOUND],
    ['999999', '99999', WarehouseErrorCodes.ERROR],
  ])('maps code %s / SQL state %s to %s', (code, sqlState, expected) => {
    expect(mapSnowflakeError({ message: 'x', code, sqlState }).code).toBe(expected);
  });

  it('pads numeric Snowflake codes to six digits', () => {
    expect(mapSnowflakeError({ message: 'x', code: 2003 }).vendorCode).toBe('002003');
  });
});

describe('the default driver factory', () => {
  it('builds a real snowflake-sdk connection (without contacting Snowflake)', async () => {
    const connection = await createSnowflakeSdkConnection({
      account: 'myorg-myaccount',
      username: 'u',
      warehouse: 'w',
      authenticator: 'SNOWFLAKE',
      password: 'p',
      application: 'Drydock',
    });
    expect({ connect: typeof connection.connect, execute: typeof connection.execute, destroy: typeof connection.destroy }).toEqual({
      connect: 'function',
      execute: 'function',
      destroy: 'function',
    });
  });
});
