import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel, type CompiledModel, type ModelFile } from '../../../../src-shared/model';
import { analyzeWarehousePush } from '../../../../src-shared/model/analyze';
import { generateMetricViewYaml } from '../../../../src-shared/model/generate/metric-view-yaml';
import { generateSemanticViewDdl } from '../../../../src-shared/model/generate/semantic-view-ddl';
import { validateMetricViewYaml } from '../../../../src-main/connectors/lakehouse';
import { WarehouseEmulator, type EmulatorSession } from '../../../../src-main/connectors/warehouse';

// What the generators write from a model must not be something the vendors refuse: either the
// analyzers block it before the push or publish, or the vendor (here its emulator) accepts it
// (issue 27).

function compiled(files: ModelFile[]): CompiledModel {
  const result = compileModel(files);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.model;
}

const CASE_TWINS: ModelFile[] = [
  {
    path: 'model/cubes/orders.yml',
    content: `cubes:
  - name: orders
    sql_table: sales.orders
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: string
    measures:
      - name: Status
        type: count
`,
  },
  { path: 'model/views/v.yml', content: 'views:\n  - name: v\n    cubes:\n      - join_path: orders\n        includes: "*"\n' },
];

describe('members whose names differ only in case', () => {
  let warehouse: WarehouseEmulator;
  let session: EmulatorSession;
  beforeAll(() => {
    warehouse = new WarehouseEmulator({ file: ':memory:' });
    warehouse.createSchema('ANALYTICS', 'SALES');
    warehouse.grantFullAccess('DRYDOCK', { database: 'ANALYTICS', schema: 'SALES' });
    warehouse.createTable('ANALYTICS', 'SALES', 'ORDERS', [
      { name: 'ID', type: 'NUMBER' },
      { name: 'STATUS', type: 'VARCHAR' },
    ]);
    session = warehouse.openSession();
  });
  afterAll(() => warehouse.close());

  it('are blocked before publishing: the lakehouse treats metric view column names case-insensitively', () => {
    const model = compiled(CASE_TWINS);
    const generated = generateMetricViewYaml(model, 'v', { catalog: 'main' });
    expect(generated.status).toBe('blocked');
    expect(generated.blockedReasons).toContainEqual(
      expect.objectContaining({ code: 'MODEL_PUBLISH_UNSUPPORTED', message: expect.stringContaining("members 'Status' and 'status' differ only in case") }),
    );
  });

  it('would be refused by the lakehouse as a column defined twice, were the block lifted', () => {
    const yaml = 'version: 1.1\nsource: main.sales.orders\nfields:\n  - name: status\n    expr: source.status\nmeasures:\n  - name: Status\n    expr: COUNT(1)\n';
    expect(validateMetricViewYaml(yaml).errors[0]).toMatchObject({ errorClass: 'COLUMN_ALREADY_EXISTS' });
  });

  it('are pushed to the warehouse, where a quoted and an unquoted name are two identifiers', () => {
    const ddl = generateSemanticViewDdl(compiled(CASE_TWINS), 'v', { name: 'V', database: 'ANALYTICS', schema: 'SALES' });
    for (const statement of ddl.statements) session.execute(statement);
    const names = session.execute('DESCRIBE SEMANTIC VIEW ANALYTICS.SALES.V').rows.filter((row) => row.property === 'TABLE').map((row) => row.object_name);
    expect(names).toEqual(expect.arrayContaining(['STATUS', 'Status']));
  });
});

const UPPER_TWIN: ModelFile[] = [
  { path: CASE_TWINS[0]!.path, content: CASE_TWINS[0]!.content.replace('- name: Status', '- name: STATUS') },
  CASE_TWINS[1]!,
];

describe('members whose names differ only as all-lower and all-upper', () => {
  it('are flagged by the push analyzer before the push: both would be stored as one warehouse name', () => {
    const model = compiled(UPPER_TWIN);
    const analysis = analyzeWarehousePush(model, 'v');
    expect(analysis.pushable).toBe(false);
    expect(analysis.issues).toEqual([
      expect.objectContaining({ code: 'MODEL_PUSH_NAME_COLLISION', message: "View 'v': members 'STATUS' and 'status' would both be stored as STATUS in the warehouse" }),
    ]);
    const withAnalyzers = compileModel(UPPER_TWIN, { analyzers: true });
    expect(withAnalyzers.diagnostics).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'MODEL_NOT_PUSHABLE', reason: 'MODEL_PUSH_NAME_COLLISION' }));
  });

  it('would be refused by the warehouse as a name defined twice, were the statement sent', () => {
    const warehouse = new WarehouseEmulator({ file: ':memory:' });
    try {
      warehouse.createSchema('ANALYTICS', 'SALES');
      warehouse.grantFullAccess('DRYDOCK', { database: 'ANALYTICS', schema: 'SALES' });
      warehouse.createTable('ANALYTICS', 'SALES', 'ORDERS', [{ name: 'ID', type: 'NUMBER' }, { name: 'STATUS', type: 'VARCHAR' }]);
      const session = warehouse.openSession();
      expect(() =>
        session.execute('CREATE SEMANTIC VIEW ANALYTICS.SALES.V TABLES (orders AS ANALYTICS.SALES.ORDERS PRIMARY KEY (id)) DIMENSIONS (orders.status AS status) METRICS (orders.STATUS AS COUNT(*))'),
      ).toThrow("Duplicate name 'ORDERS.STATUS': already defined as a dimension.");
    } finally {
      warehouse.close();
    }
  });

  it('mixed-case twins stay pushable (a quoted name keeps its case)', () => {
    expect(analyzeWarehousePush(compiled(CASE_TWINS), 'v').pushable).toBe(true);
  });
});

const ROUND_TRIP: ModelFile[] = [
  {
    path: 'model/cubes/c.yml',
    content: `cubes:
  - name: orders
    sql_table: sales.orders
    joins:
      - name: customers
        sql: "{CUBE}.customer_id = {customers.id}"
        relationship: many_to_one
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
    measures:
      - { name: count, type: count }
  - name: customers
    sql_table: sales.customers
    joins:
      - name: orders
        sql: "{CUBE}.favourite_order_id = {orders.id}"
        relationship: many_to_one
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: region, sql: region, type: string }
`,
  },
  {
    path: 'model/views/v.yml',
    content: `views:
  - name: v
    cubes:
      - join_path: orders
        includes: [status, count]
      - join_path: orders.customers
        prefix: true
        includes: [region]
      - join_path: orders.customers.orders
        prefix: true
        alias: fav
        includes: [status]
`,
  },
];

describe('a view whose join route comes back to a cube', () => {
  it('is flagged by the push analyzer: its relationships would form a circle', () => {
    const analysis = analyzeWarehousePush(compiled(ROUND_TRIP), 'v');
    expect(analysis.pushable).toBe(false);
    expect(analysis.issues).toEqual([
      expect.objectContaining({
        code: 'MODEL_VIEW_JOIN_NOT_REPRESENTABLE',
        message: expect.stringContaining('its joins would make circular relationships (orders → customers → orders)'),
      }),
    ]);
  });

  it('would be refused by the warehouse, whose relationships may not form a cycle', () => {
    const warehouse = new WarehouseEmulator({ file: ':memory:' });
    try {
      warehouse.createSchema('ANALYTICS', 'SALES');
      warehouse.grantFullAccess('DRYDOCK', { database: 'ANALYTICS', schema: 'SALES' });
      warehouse.createTable('ANALYTICS', 'SALES', 'ORDERS', [{ name: 'ID', type: 'NUMBER' }, { name: 'CUSTOMER_ID', type: 'NUMBER' }, { name: 'STATUS', type: 'VARCHAR' }]);
      warehouse.createTable('ANALYTICS', 'SALES', 'CUSTOMERS', [{ name: 'ID', type: 'NUMBER' }, { name: 'FAVOURITE_ORDER_ID', type: 'NUMBER' }, { name: 'REGION', type: 'VARCHAR' }]);
      const session = warehouse.openSession();
      expect(() =>
        session.execute(
          'CREATE SEMANTIC VIEW ANALYTICS.SALES.V TABLES (orders AS ANALYTICS.SALES.ORDERS PRIMARY KEY (id), customers AS ANALYTICS.SALES.CUSTOMERS PRIMARY KEY (id)) ' +
            'RELATIONSHIPS (orders_to_customers AS orders (customer_id) REFERENCES customers (id), customers_to_orders AS customers (favourite_order_id) REFERENCES orders (id)) ' +
            'DIMENSIONS (orders.status AS status) METRICS (orders.count AS COUNT(*))',
        ),
      ).toThrow('Relationships form a cycle: ORDERS -> CUSTOMERS -> ORDERS.');
    } finally {
      warehouse.close();
    }
  });
});
