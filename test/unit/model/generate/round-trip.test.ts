import { describe, expect, it } from 'vitest';
import { LocalWarehouseConnector } from '../../../../src-main/connectors/warehouse';
import { compileModel } from '../../../../src-shared/model/compiler';
import { modelFilesFromSemanticViews } from '../../../../src-shared/model/generate/model-from-semantic-view';
import { generateSemanticViewDdl } from '../../../../src-shared/model/generate/semantic-view-ddl';
import type { CompiledModel } from '../../../../src-shared/model/types';
import { compile, emulatorWithTables, ORDERS_MODEL } from './fixtures';

const TARGET = { database: 'ANALYTICS', schema: 'PUBLIC' };

/** DESCRIBE rows in a canonical order: the order of tables and members carries no meaning. */
const canonical = (rows: object[]) => rows.map((row) => JSON.stringify(row)).sort();

async function push(connector: LocalWarehouseConnector, model: CompiledModel, view: string, name: string) {
  const generated = generateSemanticViewDdl(model, view, { ...TARGET, name });
  for (const statement of generated.statements) await connector.execute(statement);
  return generated;
}

/** Push `view`, pull it back, push the pulled view under the same name: the warehouse must hold the same definition. */
async function roundTrip(modelText: string, view: string) {
  const emulator = emulatorWithTables();
  const connector = new LocalWarehouseConnector(emulator);
  try {
    const original = compile(modelText);
    await push(connector, original, view, 'SV_ROUND_TRIP');
    const before = await connector.describeSemanticView('ANALYTICS', 'PUBLIC', 'SV_ROUND_TRIP');
    const files = modelFilesFromSemanticViews([{ ...TARGET, name: 'SV_ROUND_TRIP', rows: before }], { outputPath: 'pulled' });
    const pulled = compileModel(files);
    expect(pulled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    await push(connector, pulled.model, files[0]!.view, 'SV_ROUND_TRIP');
    const after = await connector.describeSemanticView('ANALYTICS', 'PUBLIC', 'SV_ROUND_TRIP');
    return { original, pulled: pulled.model, pulledView: files[0]!.view, before, after };
  } finally {
    emulator.close();
  }
}

describe('push then pull round trip', () => {
  it('a derived metric and the Cortex Analyst instructions survive pull and push', async () => {
    const emulator = emulatorWithTables();
    const connector = new LocalWarehouseConnector(emulator);
    try {
      await connector.execute(`CREATE OR REPLACE SEMANTIC VIEW ANALYTICS.PUBLIC.SV_DERIVED
  TABLES (o AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (ID), li AS ANALYTICS.PUBLIC.LINE_ITEMS PRIMARY KEY (ID))
  RELATIONSHIPS (li (ORDER_ID) REFERENCES o (ID))
  DIMENSIONS (o.placed_at AS o.created_at)
  METRICS (o.order_count AS COUNT(*), li.units AS SUM(li.quantity), units_per_order AS li.units / o.order_count)
  AI_SQL_GENERATION 'Round ratios.'`);
      const rows = await connector.describeSemanticView('ANALYTICS', 'PUBLIC', 'SV_DERIVED');
      const files = modelFilesFromSemanticViews([{ ...TARGET, name: 'SV_DERIVED', rows }], { outputPath: 'pulled' });
      const model = compileModel(files).model;
      const generated = await push(connector, model, files[0]!.view, 'SV_DERIVED_AGAIN');
      expect(generated.ddl).toContain('units_per_order AS li.units / o.order_count');
      expect(generated.ddl).toContain("AI_SQL_GENERATION 'Round ratios.'");
      const again = await connector.describeSemanticView('ANALYTICS', 'PUBLIC', 'SV_DERIVED_AGAIN');
      expect(again).toContainEqual({ object_kind: 'METRIC', object_name: 'UNITS_PER_ORDER', parent_entity: null, property: 'EXPRESSION', property_value: 'li.units / o.order_count' });
      expect(again).toContainEqual({ object_kind: null, object_name: null, parent_entity: null, property: 'AI_SQL_GENERATION', property_value: 'Round ratios.' });
    } finally {
      emulator.close();
    }
  });

  it('pulling a pushed view and pushing it again gives the warehouse the same semantic view', async () => {
    const { before, after } = await roundTrip(ORDERS_MODEL, 'orders_view');
    expect(after).toEqual(before);
  });

  it('the pulled view exposes the same members with the same kinds and types', async () => {
    const { original, pulled, pulledView } = await roundTrip(ORDERS_MODEL, 'orders_view');
    const shape = (model: CompiledModel, view: string) =>
      Object.values(model.views[view]!.members)
        .map((m) => `${m.kind}:${m.name}:${m.kind === 'measure' ? m.type : ''}`)
        .sort();
    expect(shape(pulled, pulledView)).toEqual(shape(original, 'orders_view'));
  });

  it('keeps a one_to_many join (as the many side referencing the one side)', async () => {
    const { before, after } = await roundTrip(
      `
cubes:
  - name: orders
    sql_table: public.orders
    joins:
      - name: line_items
        relationship: one_to_many
        sql: "{CUBE}.id = {line_items}.order_id"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
  - name: line_items
    sql_table: public.line_items
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
    measures:
      - { name: units, sql: "{CUBE}.quantity", type: sum }
views:
  - name: v
    cubes:
      - join_path: orders
        includes: [status]
      - join_path: orders.line_items
        includes: [units]
`,
      'v',
    );
    // The pulled view is rooted at the many side, so its tables are listed in another order.
    expect(canonical(after)).toEqual(canonical(before));
    expect(before.filter((r) => r.object_kind === 'RELATIONSHIP' && r.property === 'REF_TABLE').map((r) => r.property_value)).toEqual(['ORDERS']);
  });
});
