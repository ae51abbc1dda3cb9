import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  DatabricksLakehouseConnector,
  defaultDatabricksClientFactory,
  mapDatabricksError,
  metricViewYamlEquals,
  ownershipProperties,
  type DatabricksClient,
  type DatabricksConnectOptions,
  type DatabricksOperation,
  type DatabricksSession,
} from '../../../../src-main/connectors/lakehouse';
import { failure, ORDERS_YAML } from './fixtures';

// The driver's real error classes, so mapping is tested against what it actually throws.
const require = createRequire(import.meta.url);
const { default: OperationStateError, OperationStateErrorCode } = require(
  '@databricks/sql/dist/errors/OperationStateError',
) as typeof import('@databricks/sql/dist/errors/OperationStateError');
const { default: StatusError } = require('@databricks/sql/dist/errors/StatusError') as typeof import('@databricks/sql/dist/errors/StatusError');
const { default: AuthenticationError } = require(
  '@databricks/sql/dist/errors/AuthenticationError',
) as typeof import('@databricks/sql/dist/errors/AuthenticationError');

const TOKEN = 'dapi-secret-token-0123456789';

/** What the warehouse reports for a failed statement (Thrift backend): state error with the server's message. */
function serverError(message: string, sqlState?: string): Error {
  return new OperationStateError(OperationStateErrorCode.Error, {
    status: { statusCode: 3 },
    sqlState,
    errorMessage: message,
    displayMessage: message,
  } as never);
}

type Reply = object[] | Error | ((statement: string) => object[] | Error);

/** Fake client/session/operation of @databricks/sql's shape that records everything it is asked. */
class FakeDriver {
  readonly statements: string[] = [];
  readonly connects: DatabricksConnectOptions[] = [];
  readonly events: string[] = [];
  clients = 0;
  connectError: unknown = null;
  readonly replies: Array<{ match: RegExp; reply: Reply }> = [];

  on(match: RegExp, reply: Reply): this {
    this.replies.unshift({ match, reply });
    return this;
  }

  factory = (): DatabricksClient => {
    this.clients += 1;
    return fakeClient(this, this.clients);
  };
}

function fakeClient(driver: FakeDriver, id: number): DatabricksClient {
  const session: DatabricksSession = {
    async executeStatement(statement: string): Promise<DatabricksOperation> {
      driver.statements.push(statement);
      const found = driver.replies.find((r) => r.match.test(statement));
      const reply = typeof found?.reply === 'function' ? found.reply(statement) : (found?.reply ?? []);
      if (reply instanceof StatusError) throw reply;
      return {
        async fetchAll() {
          if (reply instanceof Error) throw reply;
          return reply;
        },
        async close() {
          driver.events.push('operation.close');
        },
      };
    },
    async close() {
      driver.events.push(`session.close#${id}`);
    },
  };
  return {
    async connect(options: DatabricksConnectOptions) {
      driver.connects.push(options);
      if (driver.connectError !== null) throw driver.connectError;
      return this;
    },
    async openSession() {
      driver.events.push(`openSession#${id}`);
      return session;
    },
    async close() {
      driver.events.push(`client.close#${id}`);
    },
  };
}

function connectorWith(driver: FakeDriver, token: string | null = TOKEN) {
  return new DatabricksLakehouseConnector({
    host: 'https://dbc-1234.cloud.databricks.com/',
    httpPath: '/sql/1.0/warehouses/abc123',
    getSecret: async () => token,
    clientFactory: driver.factory,
  });
}

const describeRow = (meta: Record<string, unknown>) => [{ json_metadata: JSON.stringify(meta) }];

const METRIC_VIEW_DESCRIBE = {
  table_name: 'orders_metrics',
  catalog_name: 'main',
  schema_name: 'semantic',
  namespace: ['semantic'],
  type: 'METRIC_VIEW',
  columns: [
    { name: 'status', type: { name: 'string' }, nullable: true },
    { name: 'revenue', type: { name: 'decimal', precision: 28, scale: 2 }, nullable: true },
  ],
  owner: 'drydock-sp@example.com',
  comment: 'Orders KPIs',
  view_text: ORDERS_YAML,
  language: 'YAML',
  table_properties: { 'drydock.managed': 'true', 'drydock.deployment': '7', 'drydock.view': 'orders' },
  created_time: '2026-01-02T03:04:05Z',
  created_by: 'Drydock',
  last_access: 'UNKNOWN',
  partition_provider: 'Catalog',
};

describe('Databricks connector: connection', () => {
  it('builds the real @databricks/sql client by default, without connecting', async () => {
    const client = await defaultDatabricksClientFactory();
    expect(client.constructor.name).toBe('DBSQLClient');
    expect(typeof client.connect).toBe('function');
    expect(typeof client.openSession).toBe('function');
    await client.close();
  });

  it('connects with the host, HTTP path and the stored token, telemetry off, and reuses one session', async () => {
    const driver = new FakeDriver();
    const connector = connectorWith(driver);
    await connector.checkWarehouseAccess();
    await connector.checkSchemaAccess('main', 'semantic');
    expect(driver.connects).toEqual([
      { host: 'dbc-1234.cloud.databricks.com', path: '/sql/1.0/warehouses/abc123', token: TOKEN, telemetryEnabled: false, userAgentEntry: 'Drydock' },
    ]);
    expect(driver.clients).toBe(1);
    expect(driver.statements).toEqual(['SELECT 1', 'DESCRIBE SCHEMA `main`.`semantic`']);
    await connector.close();
    expect(driver.events.slice(-2)).toEqual(['session.close#1', 'client.close#1']);
  });

  it('fails with LAKEHOUSE_AUTH_FAILED without touching the driver when no token is stored', async () => {
    const driver = new FakeDriver();
    const error = await failure(connectorWith(driver, null).checkWarehouseAccess());
    expect(error.code).toBe('LAKEHOUSE_AUTH_FAILED');
    expect(driver.clients).toBe(0);
  });

  it('maps a rejected credential to LAKEHOUSE_AUTH_FAILED and never repeats the token in the message', async () => {
    const driver = new FakeDriver();
    driver.connectError = new AuthenticationError(`Invalid access token ${TOKEN}`);
    const error = await failure(connectorWith(driver).checkWarehouseAccess());
    expect(error.code).toBe('LAKEHOUSE_AUTH_FAILED');
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).toContain('[redacted]');
    expect(error.cause).toBeUndefined();
    expect(driver.events).toContain('client.close#1');
  });

  it('reports a network failure as LAKEHOUSE_UNAVAILABLE and reconnects on the next call', async () => {
    const driver = new FakeDriver();
    let down = true;
    driver.on(/^SELECT 1$/, () => (down ? Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }) : []));
    const connector = connectorWith(driver);
    expect((await failure(connector.checkWarehouseAccess())).code).toBe('LAKEHOUSE_UNAVAILABLE');
    down = false;
    await connector.checkWarehouseAccess();
    expect(driver.clients).toBe(2);
  });

  it('closes every operation, including failed ones', async () => {
    const driver = new FakeDriver().on(/^DROP/, serverError('[INSUFFICIENT_PERMISSIONS] Insufficient privileges: User does not own View', '42501'));
    const connector = connectorWith(driver);
    await connector.checkWarehouseAccess();
    await failure(connector.dropView('main', 'semantic', 'x'));
    expect(driver.events.filter((e) => e === 'operation.close')).toHaveLength(2);
  });
});

describe('Databricks connector: statements', () => {
  it('reads an object with DESCRIBE TABLE EXTENDED … AS JSON and backtick-quoted names', async () => {
    const driver = new FakeDriver().on(/^DESCRIBE TABLE/, describeRow(METRIC_VIEW_DESCRIBE));
    const object = await connectorWith(driver).getObject('main', 'semantic', 'orders`metrics');
    expect(driver.statements).toEqual(['DESCRIBE TABLE EXTENDED `main`.`semantic`.`orders``metrics` AS JSON']);
    expect(object).toEqual({
      catalog: 'main',
      schema: 'semantic',
      name: 'orders_metrics',
      kind: 'METRIC_VIEW',
      owner: 'drydock-sp@example.com',
      comment: 'Orders KPIs',
      properties: METRIC_VIEW_DESCRIBE.table_properties,
      definition: {
        yaml: ORDERS_YAML,
        properties: METRIC_VIEW_DESCRIBE.table_properties,
        owner: 'drydock-sp@example.com',
        comment: 'Orders KPIs',
      },
    });
  });

  it('reads tables and plain views as unmanaged kinds without a definition', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ table_name: 't', catalog_name: 'main', schema_name: 'default', type: 'MANAGED', provider: 'delta', owner: 'alice' }, 'TABLE'],
      [{ table_name: 'v', catalog_name: 'main', schema_name: 'default', type: 'VIEW', view_text: 'SELECT 1', owner: 'alice' }, 'VIEW'],
      [{ table_name: 'mv', catalog_name: 'main', schema_name: 'default', type: 'MATERIALIZED_VIEW' }, 'VIEW'],
      [{ table_name: 'y', catalog_name: 'main', schema_name: 'default', type: 'VIEW', language: 'YAML', view_text: ORDERS_YAML }, 'METRIC_VIEW'],
    ];
    for (const [meta, kind] of cases) {
      const driver = new FakeDriver().on(/^DESCRIBE TABLE/, describeRow(meta));
      const object = await connectorWith(driver).getObject('main', 'default', String(meta.table_name));
      expect(object?.kind).toBe(kind);
      expect(object?.definition === undefined).toBe(kind !== 'METRIC_VIEW');
    }
  });

  it('returns null for TABLE_OR_VIEW_NOT_FOUND but fails for a missing schema', async () => {
    const driver = new FakeDriver()
      .on(/`absent`/, serverError('[TABLE_OR_VIEW_NOT_FOUND] The table or view `main`.`semantic`.`absent` cannot be found. SQLSTATE: 42P01', '42P01'))
      .on(/`nope`/, serverError("[SCHEMA_NOT_FOUND] The schema `main`.`nope` cannot be found. SQLSTATE: 42704", '42704'));
    const connector = connectorWith(driver);
    expect(await connector.getObject('main', 'semantic', 'absent')).toBeNull();
    const error = await failure(connector.getObject('main', 'nope', 'x'));
    expect(error).toMatchObject({ code: 'LAKEHOUSE_NOT_FOUND', errorClass: 'SCHEMA_NOT_FOUND', sqlState: '42704' });
  });

  it('creates a new view with CREATE OR REPLACE VIEW … WITH METRICS LANGUAGE YAML, properties as TBLPROPERTIES', async () => {
    const driver = new FakeDriver();
    const properties: Record<string, string> = { ...ownershipProperties({ deployment: 7, view: 'orders', yaml: ORDERS_YAML }), note: "it's \\ fine" };
    await connectorWith(driver).createOrReplaceMetricView('main', 'semantic', 'orders_metrics', ORDERS_YAML, properties, {
      replaceWithAlter: false,
    });
    expect(driver.statements).toEqual([
      [
        'CREATE OR REPLACE VIEW `main`.`semantic`.`orders_metrics`',
        'WITH METRICS',
        'LANGUAGE YAML',
        `TBLPROPERTIES ('drydock.managed' = 'true', 'drydock.deployment' = '7', 'drydock.view' = 'orders', 'drydock.definition_hash' = '${properties['drydock.definition_hash']}', 'note' = 'it\\'s \\\\ fine')`,
        `AS $$\n${ORDERS_YAML}$$`,
      ].join('\n'),
    ]);
  });

  it('updates an existing view with ALTER VIEW … AS then SET TBLPROPERTIES, never CREATE OR REPLACE', async () => {
    const driver = new FakeDriver();
    await connectorWith(driver).createOrReplaceMetricView('main', 'semantic', 'm', 'version: 1.1\nsource: main.default.orders\n', { 'drydock.view': 'm' }, {
      replaceWithAlter: true,
    });
    expect(driver.statements).toEqual([
      'ALTER VIEW `main`.`semantic`.`m` AS $$\nversion: 1.1\nsource: main.default.orders\n$$',
      "ALTER VIEW `main`.`semantic`.`m` SET TBLPROPERTIES ('drydock.view' = 'm')",
    ]);
  });

  it('says the definition was written when only the property update after ALTER failed', async () => {
    const driver = new FakeDriver().on(/SET TBLPROPERTIES/, serverError('[INSUFFICIENT_PERMISSIONS] Insufficient privileges: User is not an owner of View', '42501'));
    const error = await failure(
      connectorWith(driver).createOrReplaceMetricView('main', 'semantic', 'm', ORDERS_YAML, { 'drydock.view': 'm' }, { replaceWithAlter: true }),
    );
    expect(error).toMatchObject({ code: 'LAKEHOUSE_PERMISSION_DENIED', definitionWritten: true });
    expect(error.message).toContain('was changed, but setting its properties failed');
  });

  it('a failed ALTER is not reported as written and sets no properties', async () => {
    const driver = new FakeDriver().on(/AS \$\$/, serverError('[INVALID_METRIC_VIEW_YAML] Failed to parse metric view YAML. SQLSTATE: 42K0L', '42K0L'));
    const error = await failure(
      connectorWith(driver).createOrReplaceMetricView('main', 'semantic', 'm', ORDERS_YAML, { a: 'b' }, { replaceWithAlter: true }),
    );
    expect(error).toMatchObject({ code: 'LAKEHOUSE_INVALID_DEFINITION', definitionWritten: false, errorClass: 'INVALID_METRIC_VIEW_YAML' });
    expect(driver.statements).toHaveLength(1);
  });

  it('guards $$ inside the YAML so the dollar-quoted body cannot end early, keeping its parsed meaning', async () => {
    const driver = new FakeDriver();
    const yaml = "version: 1.1\n# price in $$\nsource: main.default.orders\nmeasures:\n  - name: dollars\n    expr: SUM(CASE WHEN code = '$$' THEN amount END)\n";
    await connectorWith(driver).createOrReplaceMetricView('main', 'semantic', 'm', yaml, {}, { replaceWithAlter: false });
    const statement = driver.statements[0];
    expect(statement.split('$$')).toHaveLength(3);
    const body = statement.slice(statement.indexOf('$$') + 3, statement.lastIndexOf('$$'));
    expect(body).toContain('\\x24');
    expect(metricViewYamlEquals(body, yaml)).toBe(true);
  });

  it('drops with DROP VIEW IF EXISTS and probes sources with SELECT 1 … LIMIT 0', async () => {
    const driver = new FakeDriver();
    const connector = connectorWith(driver);
    await connector.dropView('main', 'semantic', 'drydock_access_test_1');
    await connector.checkSourceReadable('main.`raw data`.orders');
    expect(driver.statements).toEqual([
      'DROP VIEW IF EXISTS `main`.`semantic`.`drydock_access_test_1`',
      'SELECT 1 FROM `main`.`raw data`.`orders` LIMIT 0',
    ]);
  });

  it('refuses a source that is not catalog.schema.table before sending anything', async () => {
    const driver = new FakeDriver();
    const error = await failure(connectorWith(driver).checkSourceReadable('orders; DROP TABLE x'));
    expect(error.code).toBe('LAKEHOUSE_INVALID_DEFINITION');
    expect(driver.statements).toEqual([]);
  });
});

describe('Databricks connector: error mapping', () => {
  const cases: Array<[string, unknown, 'connect' | 'read' | 'write', string]> = [
    ['INSUFFICIENT_PERMISSIONS', serverError("[INSUFFICIENT_PERMISSIONS] Insufficient privileges: User does not have USE SCHEMA on Schema 'main.semantic'. SQLSTATE: 42501", '42501'), 'write', 'LAKEHOUSE_PERMISSION_DENIED'],
    ['PERMISSION_DENIED prefix', serverError('PERMISSION_DENIED: User does not have CAN USE on warehouse abc123'), 'read', 'LAKEHOUSE_PERMISSION_DENIED'],
    ['TABLE_OR_VIEW_NOT_FOUND while reading', serverError('[TABLE_OR_VIEW_NOT_FOUND] The table or view `a`.`b`.`c` cannot be found.', '42P01'), 'read', 'LAKEHOUSE_NOT_FOUND'],
    ['TABLE_OR_VIEW_NOT_FOUND while writing (a source)', serverError('[TABLE_OR_VIEW_NOT_FOUND] The table or view `main`.`default`.`clients` cannot be found.', '42P01'), 'write', 'LAKEHOUSE_INVALID_DEFINITION'],
    ['catalog missing', serverError("[NO_SUCH_CATALOG_EXCEPTION] Catalog 'nope' was not found."), 'write', 'LAKEHOUSE_NOT_FOUND'],
    ['metric view YAML', serverError('[INVALID_METRIC_VIEW_YAML] Failed to parse metric view YAML: Invalid YAML version: 2.0 SQLSTATE: 42K0L', '42K0L'), 'write', 'LAKEHOUSE_INVALID_DEFINITION'],
    ['unresolved column', serverError('[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column with name `amout` cannot be resolved.', '42703'), 'write', 'LAKEHOUSE_INVALID_DEFINITION'],
    ['table in the way', serverError('[EXPECT_VIEW_NOT_TABLE.NO_ALTERNATIVE] The table `main`.`semantic`.`m` does not support ALTER VIEW.'), 'write', 'LAKEHOUSE_CONFLICT'],
    ['status error from execute', new StatusError({ statusCode: 3, errorMessage: '[PARSE_SYNTAX_ERROR] Syntax error at or near $$', sqlState: '42601' } as never), 'write', 'LAKEHOUSE_INVALID_DEFINITION'],
    ['timeout', new OperationStateError(OperationStateErrorCode.Timeout), 'read', 'LAKEHOUSE_UNAVAILABLE'],
    ['warehouse down', new Error('Request failed with status code 503'), 'read', 'LAKEHOUSE_UNAVAILABLE'],
    ['anything else', new Error('boom'), 'read', 'LAKEHOUSE_FAILED'],
  ];
  for (const [label, error, phase, code] of cases) {
    it(`maps ${label} to ${code}`, () => {
      expect(mapDatabricksError(error, phase).code).toBe(code);
    });
  }

  it('keeps the Databricks error class and SQLSTATE for diagnosis', () => {
    const mapped = mapDatabricksError(serverError('[UNRESOLVED_COLUMN.WITH_SUGGESTION] nope', '42703'), 'write');
    expect(mapped).toMatchObject({ errorClass: 'UNRESOLVED_COLUMN.WITH_SUGGESTION', sqlState: '42703' });
  });
});
