import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { LocalWarehouseConnector } from '../../../../src-main/connectors/warehouse';
import { compileModel } from '../../../../src-shared/model/compiler';
import {
  modelFilesFromSemanticViews,
  modelNameOf,
  normalizeOutputPath,
  readDescribeRows,
  type DescribeRowLike,
  type PulledSemanticView,
} from '../../../../src-shared/model/generate/model-from-semantic-view';
import { emulatorWithTables } from './fixtures';

/** Creates `ddl` in a local warehouse and returns what DESCRIBE says about it. */
async function describeOf(ddl: string, name: string): Promise<PulledSemanticView> {
  const emulator = emulatorWithTables();
  const connector = new LocalWarehouseConnector(emulator);
  await connector.execute(ddl);
  const rows = await connector.describeSemanticView('ANALYTICS', 'PUBLIC', name);
  emulator.close();
  return { database: 'ANALYTICS', schema: 'PUBLIC', name, rows };
}

const STAR = `CREATE OR REPLACE SEMANTIC VIEW ANALYTICS.PUBLIC.SALES
  TABLES (
    o AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (ID) COMMENT = 'Orders',
    c AS ANALYTICS.PUBLIC.CUSTOMERS PRIMARY KEY (ID),
    li AS ANALYTICS.PUBLIC.LINE_ITEMS PRIMARY KEY (ID)
  )
  RELATIONSHIPS (
    o_c AS o (CUSTOMER_ID) REFERENCES c (ID),
    li_o AS li (ORDER_ID) REFERENCES o (ID)
  )
  FACTS (
    o.net AS o.amount * 0.9
  )
  DIMENSIONS (
    o.status AS o.status COMMENT = 'Status',
    o.placed_at AS o.created_at,
    c."Region" AS c.region,
    c.id AS c.id
  )
  METRICS (
    o.order_count AS COUNT(*),
    o.net_total AS SUM(o.net),
    o.buyers AS COUNT(DISTINCT o.customer_id),
    li.units AS SUM(li.quantity),
    o.avg_ticket AS o.net_total / o.order_count,
    PRIVATE o.hidden_max AS MAX(o.amount)
  )
  COMMENT = 'Sales'`;

const cubeOf = (doc: { cubes: { name: string }[] }, name: string) => doc.cubes.find((c) => c.name === name) as Record<string, unknown> & {
  dimensions?: Record<string, unknown>[];
  measures?: Record<string, unknown>[];
  joins?: Record<string, unknown>[];
};

describe('semantic view → model files', () => {
  it('reads DESCRIBE rows into tables, relationships and members', async () => {
    const described = readDescribeRows((await describeOf(STAR, 'SALES')).rows);
    expect(described.comment).toBe('Sales');
    expect(described.tables.map((t) => [t.name, t.table, t.primaryKey])).toEqual([
      ['O', 'ORDERS', ['ID']],
      ['C', 'CUSTOMERS', ['ID']],
      ['LI', 'LINE_ITEMS', ['ID']],
    ]);
    expect(described.relationships.map((r) => [r.table, r.columns, r.refTable, r.refColumns])).toEqual([
      ['O', ['CUSTOMER_ID'], 'C', ['ID']],
      ['LI', ['ORDER_ID'], 'O', ['ID']],
    ]);
    expect(described.members.find((m) => m.name === 'HIDDEN_MAX')?.private).toBe(true);
  });

  it('writes one file per semantic view under outputPath, defining a cube per logical table and one view, that compiles cleanly', async () => {
    const files = modelFilesFromSemanticViews([await describeOf(STAR, 'SALES')], { outputPath: 'pulled/warehouse' });
    expect(files.map((f) => f.path)).toEqual(['pulled/warehouse/sales.yml']);
    expect(files[0]!.cubes).toEqual(['o', 'c', 'li']);
    const result = compileModel(files);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.keys(result.model.views)).toEqual(['sales']);
  });

  it('maps tables to cubes with their base table, description and primary key dimension', async () => {
    const doc = parse((modelFilesFromSemanticViews([await describeOf(STAR, 'SALES')], { outputPath: '' }))[0]!.content);
    const o = cubeOf(doc, 'o');
    expect(o.sql_table).toBe('ANALYTICS.PUBLIC.ORDERS');
    expect(o.description).toBe('Orders');
    // No dimension is the key column: a hidden key dimension is added.
    expect(o.dimensions![0]).toEqual({ name: 'id', sql: '{CUBE}.id', type: 'string', primary_key: true, public: false });
    // A dimension that is exactly the key column becomes the key.
    expect(cubeOf(doc, 'c').dimensions!.find((d) => d.name === 'id')).toMatchObject({ primary_key: true, sql: '{CUBE}.id' });
  });

  it('maps each relationship to a many_to_one join of the referencing cube on the referenced key', async () => {
    const doc = parse(modelFilesFromSemanticViews([await describeOf(STAR, 'SALES')], { outputPath: '' })[0]!.content);
    expect(cubeOf(doc, 'o').joins).toEqual([{ name: 'c', relationship: 'many_to_one', sql: '{CUBE}.customer_id = {c}.id' }]);
    expect(cubeOf(doc, 'li').joins).toEqual([{ name: 'o', relationship: 'many_to_one', sql: '{CUBE}.order_id = {o}.id' }]);
  });

  it('maps aggregate metrics to measures of that type, and other metrics to number measures', async () => {
    const doc = parse(modelFilesFromSemanticViews([await describeOf(STAR, 'SALES')], { outputPath: '' })[0]!.content);
    const measures = Object.fromEntries(cubeOf(doc, 'o').measures!.map((m) => [m.name, m]));
    expect(measures.order_count).toEqual({ name: 'order_count', type: 'count' });
    expect(measures.net_total).toEqual({ name: 'net_total', type: 'sum', sql: '{CUBE.net}' });
    expect(measures.buyers).toEqual({ name: 'buyers', type: 'count_distinct', sql: '{CUBE}.customer_id' });
    expect(measures.avg_ticket).toEqual({ name: 'avg_ticket', type: 'number', sql: '{CUBE.net_total} / {CUBE.order_count}' });
    expect(cubeOf(doc, 'li').measures).toEqual([{ name: 'units', type: 'sum', sql: '{CUBE}.quantity' }]);
  });

  it('keeps facts and private metrics as hidden members, out of the view', async () => {
    const doc = parse(modelFilesFromSemanticViews([await describeOf(STAR, 'SALES')], { outputPath: '' })[0]!.content);
    const o = cubeOf(doc, 'o');
    expect(o.dimensions!.find((d) => d.name === 'net')).toMatchObject({ sql: '{CUBE}.amount * 0.9', public: false });
    expect(o.measures!.find((m) => m.name === 'hidden_max')).toMatchObject({ type: 'max', public: false });
    const includes = (doc.views[0].cubes as { includes: string[] }[]).flatMap((c) => c.includes);
    expect(includes).not.toContain('net');
    expect(includes).not.toContain('hidden_max');
  });

  it('reads upper-case names back lower-case and keeps quoted mixed-case names', async () => {
    const doc = parse(modelFilesFromSemanticViews([await describeOf(STAR, 'SALES')], { outputPath: '' })[0]!.content);
    expect(cubeOf(doc, 'c').dimensions!.map((d) => d.name)).toContain('Region');
    expect(modelNameOf('ORDER_COUNT')).toBe('order_count');
    expect(modelNameOf('orderCount')).toBe('orderCount');
    expect(modelNameOf('Net Sales $')).toBe('Net_Sales_');
  });

  it('types dimensions from their data type', async () => {
    const doc = parse(modelFilesFromSemanticViews([await describeOf(STAR, 'SALES')], { outputPath: '' })[0]!.content);
    const dims = Object.fromEntries(cubeOf(doc, 'o').dimensions!.map((d) => [d.name, d.type]));
    expect(dims).toMatchObject({ status: 'string', placed_at: 'time' });
  });

  it('roots the view at the table nothing references and joins the others along the relationships', async () => {
    const doc = parse(modelFilesFromSemanticViews([await describeOf(STAR, 'SALES')], { outputPath: '' })[0]!.content);
    expect(doc.views[0]).toEqual({
      name: 'sales',
      description: 'Sales',
      cubes: [
        { join_path: 'li.o', includes: ['status', 'placed_at', 'order_count', 'net_total', 'buyers', 'avg_ticket'] },
        { join_path: 'li.o.c', includes: ['Region', 'id'] },
        { join_path: 'li', includes: ['units'] },
      ],
    });
  });

  it('translates table-qualified references without touching string literals', () => {
    const rows: DescribeRowLike[] = [
      { object_kind: 'TABLE', object_name: 'T', parent_entity: null, property: 'BASE_TABLE_DATABASE_NAME', property_value: 'D' },
      { object_kind: 'TABLE', object_name: 'T', parent_entity: null, property: 'BASE_TABLE_SCHEMA_NAME', property_value: 'S' },
      { object_kind: 'TABLE', object_name: 'T', parent_entity: null, property: 'BASE_TABLE_NAME', property_value: 'T' },
      { object_kind: 'TABLE', object_name: 'T', parent_entity: null, property: 'PRIMARY_KEY', property_value: '["ID"]' },
      { object_kind: 'DIMENSION', object_name: 'LABEL', parent_entity: 'T', property: 'TABLE', property_value: 'T' },
      { object_kind: 'DIMENSION', object_name: 'LABEL', parent_entity: 'T', property: 'EXPRESSION', property_value: "CASE WHEN t.kind = 't.kind' THEN \"T\".\"Name\" END" },
    ];
    const doc = parse(modelFilesFromSemanticViews([{ database: 'D', schema: 'S', name: 'V', rows }], { outputPath: '' })[0]!.content);
    expect(cubeOf(doc, 't').dimensions!.find((d) => d.name === 'label')!.sql).toBe(`CASE WHEN {CUBE}.kind = 't.kind' THEN {CUBE}."Name" END`);
  });

  it('names the data source on every cube unless it is the default one', async () => {
    const pulled = await describeOf(STAR, 'SALES');
    const other = parse(modelFilesFromSemanticViews([pulled], { outputPath: '', dataSource: 'warehouse2' })[0]!.content);
    expect(other.cubes.map((c: { data_source?: string }) => c.data_source)).toEqual(['warehouse2', 'warehouse2', 'warehouse2']);
    const plain = parse(modelFilesFromSemanticViews([pulled], { outputPath: '', dataSource: 'default' })[0]!.content);
    expect(plain.cubes.every((c: { data_source?: string }) => c.data_source === undefined)).toBe(true);
  });

  it('names cubes and views clear of names the repository already uses, and of each other', async () => {
    const one = await describeOf(STAR, 'SALES');
    const two = await describeOf(STAR.replace('PUBLIC.SALES', 'PUBLIC.SALES_COPY'), 'SALES_COPY');
    const files = modelFilesFromSemanticViews([two, one], { outputPath: 'x', reservedNames: ['o', 'sales'] });
    expect(files.map((f) => [f.view, f.cubes])).toEqual([
      ['sales_2', ['sales_2_o', 'c', 'li']],
      ['sales_copy', ['sales_copy_o', 'sales_copy_c', 'sales_copy_li']],
    ]);
    expect(compileModel(files).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('documented semantic view features on pull', () => {
  const FEATURES = `CREATE OR REPLACE SEMANTIC VIEW ANALYTICS.PUBLIC.KPIS
  TABLES (
    o AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (ID),
    li AS ANALYTICS.PUBLIC.LINE_ITEMS PRIMARY KEY (ID)
  )
  RELATIONSHIPS (li (ORDER_ID) REFERENCES o (ID))
  DIMENSIONS (o.placed_at AS o.created_at)
  METRICS (
    o.order_count AS COUNT(*),
    li.units AS SUM(li.quantity),
    o.running_orders AS SUM(o.order_count) OVER (PARTITION BY EXCLUDING o.placed_at ORDER BY o.placed_at),
    units_per_order AS li.units / o.order_count COMMENT = 'Units per order',
    units_per_order_pct AS units_per_order * 100
  )
  COMMENT = 'KPIs'
  AI_SQL_GENERATION 'Always round ratios to two decimals.'
  AI_QUESTION_CATEGORIZATION 'Refuse questions about payroll.'`;

  it('maps derived metrics to measures the view defines, combining the cubes\' measures', async () => {
    const [file] = modelFilesFromSemanticViews([await describeOf(FEATURES, 'KPIS')], { outputPath: '' });
    const view = parse(file!.content).views[0];
    expect(view.measures).toEqual([
      { name: 'units_per_order', type: 'number', sql: '{li.units} / {o.order_count}', description: 'Units per order' },
      { name: 'units_per_order_pct', type: 'number', sql: '({li.units} / {o.order_count}) * 100' },
    ]);
    const compiled = compileModel([file!]);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.keys(compiled.model.views.kpis!.members)).toEqual(expect.arrayContaining(['units_per_order', 'units_per_order_pct']));
  });

  it('keeps the Cortex Analyst instructions in the view meta', async () => {
    const [file] = modelFilesFromSemanticViews([await describeOf(FEATURES, 'KPIS')], { outputPath: '' });
    expect(parse(file!.content).views[0].meta).toEqual({
      ai_sql_generation: 'Always round ratios to two decimals.',
      ai_question_categorization: 'Refuse questions about payroll.',
    });
  });

  it('says per member what the model cannot express (a window function metric), in the result and in the file', async () => {
    const [file] = modelFilesFromSemanticViews([await describeOf(FEATURES, 'KPIS')], { outputPath: '' });
    expect(file!.warnings).toEqual([
      { member: 'O.RUNNING_ORDERS', message: expect.stringContaining('is a window function metric, which the model cannot express; it is not pulled') },
    ]);
    expect(file!.content).toContain('# Not pulled: metric O.RUNNING_ORDERS is a window function metric');
    expect(file!.content).toContain('SUM(o.order_count) OVER (PARTITION BY EXCLUDING o.placed_at ORDER BY o.placed_at)');
    const measures = parse(file!.content).cubes.flatMap((c: { measures?: { name: string }[] }) => (c.measures ?? []).map((m) => m.name));
    expect(measures).not.toContain('running_orders');
  });
});

describe('outputPath', () => {
  it('is normalised relative to the repository', () => {
    expect(normalizeOutputPath('./models//pulled/')).toBe('models/pulled');
    expect(normalizeOutputPath('')).toBe('');
  });

  it('refuses absolute paths and paths leaving the repository', () => {
    expect(() => normalizeOutputPath('/etc')).toThrow(/absolute/);
    expect(() => normalizeOutputPath('C:/models')).toThrow(/absolute/);
    expect(() => normalizeOutputPath('models/../../x')).toThrow(/\.\./);
  });
});
