import { describe, expect, it } from 'vitest';
import { LocalWarehouseConnector } from '../../../../src-main/connectors/warehouse';
import {
  generateSemanticViewDdl,
  renderSemanticView,
  SemanticViewDdlError,
  type SemanticViewDdlOptions,
} from '../../../../src-shared/model/generate/semantic-view-ddl';
import { compile, emulatorWithTables, ORDERS_MODEL } from './fixtures';

const TARGET: SemanticViewDdlOptions = { name: 'SV_ORDERS', database: 'ANALYTICS', schema: 'PUBLIC' };

function notPushable(fn: () => unknown): SemanticViewDdlError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SemanticViewDdlError);
    return error as SemanticViewDdlError;
  }
  throw new Error('expected the generator to refuse the view');
}

/** A model of one cube `t` over table `t` (its members as YAML, under `- name: t`) and views of `t` alone, each including the members listed. */
function cubeT(members: string, views: Record<string, string[]>) {
  const viewsYaml = Object.entries(views).map(([name, includes]) => `  - name: ${name}\n    cubes:\n      - join_path: t\n        includes: [${includes.join(', ')}]\n`);
  return compile(`cubes:\n  - name: t\n    sql_table: t\n${members.replace(/^\n/, '')}views:\n${viewsYaml.join('')}`);
}

describe('semantic view DDL grammar', () => {
  it('writes CREATE OR REPLACE SEMANTIC VIEW with the fixed clause order TABLES, RELATIONSHIPS, FACTS, DIMENSIONS, METRICS, COMMENT', () => {
    const id = (text: string) => ({ text, quoted: false });
    const ddl = renderSemanticView({
      name: 'DB.S.V',
      tables: [
        { alias: id('a'), table: 'DB.S.A', primaryKey: [id('id')] },
        { alias: id('b'), table: 'DB.S.B', primaryKey: [id('id')] },
      ],
      relationships: [{ name: id('a_to_b'), table: id('a'), columns: [id('b_id')], refTable: id('b'), refColumns: [id('id')] }],
      facts: [{ table: id('a'), name: id('f'), expression: 'a.x * 2', private: true }],
      dimensions: [{ table: id('b'), name: id('d'), expression: 'b.name' }],
      metrics: [{ table: id('a'), name: id('m'), expression: 'SUM(a.f)' }],
      comment: 'c',
    });
    expect(ddl.startsWith('CREATE OR REPLACE SEMANTIC VIEW DB.S.V\n')).toBe(true);
    const positions = ['TABLES (', 'RELATIONSHIPS (', 'FACTS (', 'DIMENSIONS (', 'METRICS (', "COMMENT = 'c'"].map((k) => ddl.indexOf(k));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    expect(ddl).toContain('PRIVATE a.f AS a.x * 2');
  });

  it('leaves out empty optional clauses and refuses a view without tables or members', () => {
    const id = (text: string) => ({ text, quoted: false });
    const ddl = renderSemanticView({
      name: 'V',
      tables: [{ alias: id('a'), table: 'A', primaryKey: [] }],
      relationships: [],
      facts: [],
      dimensions: [{ table: id('a'), name: id('d'), expression: 'a.d' }],
      metrics: [],
    });
    expect(ddl).not.toMatch(/RELATIONSHIPS|FACTS|METRICS|COMMENT/);
    expect(() => renderSemanticView({ name: 'V', tables: [], relationships: [], facts: [], dimensions: [], metrics: [] })).toThrow(/logical table/);
  });
});

describe('model view → semantic view', () => {
  const model = compile(ORDERS_MODEL);
  const result = generateSemanticViewDdl(model, 'orders_view', TARGET);

  it('aliases every cube on the view join paths as a logical table with its single-column PRIMARY KEY', () => {
    expect(result.ddl).toContain('orders AS ANALYTICS.public.orders PRIMARY KEY (id)');
    expect(result.ddl).toContain('customers AS ANALYTICS.PUBLIC.MODEL_SV_SRC_CUSTOMERS PRIMARY KEY (id)');
  });

  it('qualifies one- and two-part sql_table names with the target database (and schema)', () => {
    const m = compile(`
cubes:
  - name: a
    sql_table: a_table
    dimensions: [{ name: id, sql: id, type: number, primary_key: true }]
  - name: b
    sql_table: OTHER_DB.RAW.B_TABLE
    dimensions: [{ name: id, sql: id, type: number, primary_key: true }]
views:
  - name: v
    cubes:
      - join_path: a
        includes: [id]
      - join_path: b
        includes: [id]
        prefix: true
`);
    const ddl = generateSemanticViewDdl(m, 'v', { ...TARGET, defaultSchema: 'STAGING' }).ddl;
    expect(ddl).toContain('a AS ANALYTICS.STAGING.a_table');
    expect(ddl).toContain('b AS OTHER_DB.RAW.B_TABLE');
  });

  it('creates a helper view MODEL_SV_SRC_<ENTITY> for a cube defined by plain SQL, in PUBLIC by default, before the semantic view', () => {
    expect(result.helperViews).toEqual([
      { cube: 'customers', name: 'MODEL_SV_SRC_CUSTOMERS', ddl: 'CREATE OR REPLACE VIEW ANALYTICS.PUBLIC.MODEL_SV_SRC_CUSTOMERS AS\nSELECT * FROM ANALYTICS.PUBLIC.CUSTOMERS' },
    ]);
    expect(result.statements).toEqual([result.helperViews[0]!.ddl, result.ddl]);
  });

  it('puts helper views in the configured schema', () => {
    const r = generateSemanticViewDdl(model, 'orders_view', { ...TARGET, helperSchema: 'HELPERS' });
    expect(r.helperViews[0]!.ddl).toContain('VIEW ANALYTICS.HELPERS.MODEL_SV_SRC_CUSTOMERS AS');
    expect(r.ddl).toContain('customers AS ANALYTICS.HELPERS.MODEL_SV_SRC_CUSTOMERS');
  });

  it('writes each join as a relationship from the referencing column to the referenced primary key', () => {
    expect(result.ddl).toContain('orders_to_customers AS orders (customer_id) REFERENCES customers (id)');
  });

  it('turns a one_to_many join around: the many side references the one side', () => {
    const m = compile(`
cubes:
  - name: orders
    sql_table: orders
    joins:
      - name: line_items
        relationship: one_to_many
        sql: "{CUBE}.id = {line_items}.order_id"
    dimensions: [{ name: id, sql: id, type: number, primary_key: true }]
  - name: line_items
    sql_table: line_items
    dimensions: [{ name: id, sql: id, type: number, primary_key: true }]
    measures: [{ name: quantity, sql: quantity, type: sum }]
views:
  - name: v
    cubes:
      - join_path: orders
        includes: [id]
      - join_path: orders.line_items
        includes: [quantity]
`);
    expect(generateSemanticViewDdl(m, 'v', TARGET).ddl).toContain('line_items_to_orders AS line_items (order_id) REFERENCES orders (id)');
  });

  it('exposes dimensions under their view names with their cube alias, and carries descriptions as COMMENT', () => {
    expect(result.ddl).toContain("orders.status AS orders.status COMMENT = 'Order''s status'");
    expect(result.ddl).toContain('orders.created_at AS created_at');
    expect(result.ddl).toContain('customers.customers_name AS name');
    expect(result.ddl).toContain("COMMENT = 'Orders with customers'");
  });

  it('makes every metric an aggregate of its measure type', () => {
    for (const expected of [
      'orders.count AS COUNT(*)',
      'orders.total AS SUM(amount)',
      'orders.buyers AS COUNT(DISTINCT orders.customer_id)',
      'orders.average AS AVG(amount)',
      'orders.smallest AS MIN(amount)',
      'orders.largest AS MAX(amount)',
    ]) {
      expect(result.ddl).toContain(expected);
    }
  });

  it('inlines member references with their own SQL', () => {
    const m = compile(`
cubes:
  - name: people
    sql_table: people
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: first, sql: "{CUBE}.first_name", type: string }
      - { name: full_name, sql: "{first} || ' ' || UPPER({CUBE}.last_name)", type: string }
views:
  - name: v
    cubes:
      - join_path: people
        includes: [full_name]
`);
    expect(generateSemanticViewDdl(m, 'v', TARGET).ddl).toContain("people.full_name AS people.first_name || ' ' || UPPER(people.last_name)");
  });

  it('writes a column unqualified when another member of its table has the same name (a qualified name means the member)', () => {
    const m = cubeT(`
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: code, sql: "UPPER({CUBE}.raw_code)", type: string }
      - { name: raw_code, sql: "{CUBE}.code", type: string }
`, { v: ['code', 'raw_code'] });
    const ddl = generateSemanticViewDdl(m, 'v', TARGET).ddl;
    expect(ddl).toContain('t.code AS UPPER(raw_code)');
    expect(ddl).toContain('t.raw_code AS code');
  });

  it('quotes mixed-case and reserved names so the warehouse keeps them exactly', () => {
    const m = cubeT(`
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: orderStatus, sql: status, type: string }
      - { name: order, sql: ord, type: string }
`, { v: ['orderStatus', 'order'] });
    const ddl = generateSemanticViewDdl(m, 'v', TARGET).ddl;
    expect(ddl).toContain('t."orderStatus" AS status');
    expect(ddl).toContain('t."order" AS ord');
  });

  it('reports the stored name of the semantic view (unquoted names are upper-cased)', () => {
    expect(generateSemanticViewDdl(model, 'orders_view', { ...TARGET, name: 'sv_orders' }).name).toBe('SV_ORDERS');
    expect(generateSemanticViewDdl(model, 'orders_view', { ...TARGET, name: 'sv orders' }).name).toBe('sv orders');
  });
});

describe('quoted identifiers ignore case', () => {
  const model = cubeT(`
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: orderCount, sql: a, type: number }
      - { name: ordercount, sql: b, type: number }
      - { name: regionName, sql: region, type: string }
`, { both: ['orderCount', 'ordercount'], one: ['regionName'] });

  it('keeps names that differ only in case apart when the setting is off', () => {
    expect(generateSemanticViewDdl(model, 'both', TARGET).ddl).toMatch(/t\."orderCount" AS a,\n\s+t\.ordercount AS b/);
  });

  it('refuses names that the setting folds onto each other', () => {
    const error = notPushable(() => generateSemanticViewDdl(model, 'both', { ...TARGET, quotedIdentifiersIgnoreCase: true }));
    expect(error.reasons.map((r) => r.code)).toContain('IDENTIFIER_CASE_COLLISION');
    expect(error.message).toContain('ORDERCOUNT');
  });

  it('warns that a mixed-case name is stored upper-cased when the setting is on', () => {
    const r = generateSemanticViewDdl(model, 'one', { ...TARGET, quotedIdentifiersIgnoreCase: true });
    expect(r.warnings.join('\n')).toMatch(/'regionName' is stored as REGIONNAME/);
    expect(generateSemanticViewDdl(model, 'one', TARGET).warnings).toEqual([]);
  });
});

describe('what cannot be pushed', () => {
  it('refuses a view the analyzer finds not pushable, with the analyzer reasons', () => {
    const model = cubeT(`
    dimensions:
      - { name: a, sql: a, type: number, primary_key: true }
      - { name: b, sql: b, type: number, primary_key: true }
    measures:
      - { name: ratio, sql: "{CUBE}.x / {CUBE}.y", type: number }
`, { v: ['ratio'] });
    const error = notPushable(() => generateSemanticViewDdl(model, 'v', TARGET));
    expect(error.code).toBe('MODEL_NOT_PUSHABLE');
    const codes = error.reasons.map((r) => r.code);
    expect(codes).toContain('MODEL_PUSH_PRIMARY_KEY');
    expect(codes).toContain('MODEL_PUSH_MEASURE_UNSUPPORTED');
  });

  it('refuses an unknown view', () => {
    expect(notPushable(() => generateSemanticViewDdl(compile(ORDERS_MODEL), 'nope', TARGET)).code).toBe('UNKNOWN_VIEW');
  });

  it('reports the features the push skips', () => {
    const model = cubeT(`
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - name: at
        sql: at
        type: time
        granularities: [{ name: fiscal, interval: 1 year, offset: 3 months }]
    measures:
      - { name: c, type: count }
    segments:
      - { name: recent, sql: "{CUBE}.at > CURRENT_DATE - 7" }
    pre_aggregations:
      - name: main
        measures: [c]
`, { v: ['at', 'c', 'recent'] });
    const r = generateSemanticViewDdl(model, 'v', TARGET);
    expect(r.skipped).toEqual(expect.arrayContaining(['segments', 'granularities', 'pre_aggregations']));
    expect(r.ddl).not.toContain('recent');
  });
});

describe('the local warehouse accepts the generated DDL', () => {
  it('creates the helper view and the semantic view, which DESCRIBE then reports', async () => {
    const emulator = emulatorWithTables();
    const connector = new LocalWarehouseConnector(emulator);
    const r = generateSemanticViewDdl(compile(ORDERS_MODEL), 'orders_view', TARGET);
    for (const statement of r.statements) await connector.execute(statement);
    const views = await connector.listSemanticViews('ANALYTICS', 'PUBLIC');
    expect(views.map((v) => v.name)).toEqual(['SV_ORDERS']);
    const rows = await connector.describeSemanticView('ANALYTICS', 'PUBLIC', 'SV_ORDERS');
    const metrics = rows.filter((row) => row.object_kind === 'METRIC' && row.property === 'EXPRESSION').map((row) => row.property_value);
    expect(metrics).toEqual(['COUNT(*)', 'SUM(amount)', 'COUNT(DISTINCT orders.customer_id)', 'AVG(amount)', 'MIN(amount)', 'MAX(amount)']);
    emulator.close();
  });
});
