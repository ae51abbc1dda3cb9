import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  parseSemanticViewDdl,
  type CreateSemanticViewStatement,
  type Identifier,
  type SemanticExpressionNode,
  type WarehouseEmulator,
} from '../../../../src-main/connectors/warehouse';
import { memoryEmulator, SALES_DDL } from './fixtures';

let emulator: WarehouseEmulator;
beforeEach(() => {
  emulator = memoryEmulator();
});
afterEach(() => emulator.close());

const run = (sql: string) => emulator.openSession().execute(sql).rows;
const getDdl = (name: string, fullyQualified = false): string =>
  Object.values(run(`SELECT GET_DDL('SEMANTIC_VIEW', '${name.replace(/'/g, "''")}'${fullyQualified ? ', TRUE' : ''})`)[0])[0] as string;

/** The parse tree with positions dropped and identifiers resolved as the warehouse resolves them. */
function comparable(ast: CreateSemanticViewStatement) {
  const id = (identifier: Identifier): string => (identifier.quoted ? identifier.text : identifier.text.toUpperCase());
  const member = (m: SemanticExpressionNode) => ({
    access: m.accessModifier ?? 'PUBLIC',
    table: m.table ? id(m.table) : null,
    name: id(m.name),
    expression: m.expressionText,
    synonyms: m.synonyms,
    comment: m.comment,
  });
  return {
    name: ast.name.parts.map(id),
    tables: ast.tables.map((t) => ({
      alias: t.alias ? id(t.alias) : null,
      table: t.table.parts.map(id),
      primaryKey: t.primaryKey?.map(id) ?? null,
      uniqueKeys: t.uniqueKeys.map((key) => key.map(id)),
      synonyms: t.synonyms,
      comment: t.comment,
    })),
    relationships: ast.relationships.map((r) => ({
      name: r.name ? id(r.name) : null,
      table: id(r.table),
      columns: r.columns.map(id),
      refTable: id(r.refTable),
      refColumns: r.refColumns?.map(id) ?? null,
    })),
    facts: ast.facts.map(member),
    dimensions: ast.dimensions.map(member),
    metrics: ast.metrics.map(member),
    comment: ast.comment,
  };
}

/** Everything explicit, so GET_DDL has nothing to fill in. */
const EXPLICIT_DDL = `create or replace semantic view ANALYTICS.PUBLIC."Sales ""Q1"" view"
  tables (
    ORDERS as ANALYTICS.PUBLIC.ORDERS primary key (O_ORDERKEY) with synonyms=('sales orders', 'it''s \\\\ odd') comment='line one
line two',
    "customers" as ANALYTICS.PUBLIC.CUSTOMERS primary key (C_CUSTKEY) unique (C_EMAIL) unique (C_NAME, C_NATIONKEY)
  )
  relationships (
    PLACED_BY as ORDERS(O_CUSTKEY) references "customers"(C_CUSTKEY)
  )
  facts (
    private ORDERS.PRICE as o_totalprice * 1.5 comment='scaled',
    ORDERS."Row Count" as 1
  )
  dimensions (
    ORDERS.ORDER_MONTH as DATE_TRUNC(month, o_orderdate) with synonyms=('month'),
    "customers".NAME as "customers".c_name
  )
  metrics (
    ORDERS.TOTAL as SUM(ORDERS.PRICE),
    private ORDERS.N as COUNT(DISTINCT o_orderkey) comment='distinct orders'
  )
  comment='Quarterly sales — café';`;

describe('parse -> GET_DDL -> parse', () => {
  it('yields an equal syntax tree when the DDL spells everything out', () => {
    run(EXPLICIT_DDL);
    const printed = getDdl('ANALYTICS.PUBLIC."Sales ""Q1"" view"', true);
    expect(comparable(parseSemanticViewDdl(printed))).toEqual(comparable(parseSemanticViewDdl(EXPLICIT_DDL)));
  });

  it('yields the same stored definition, and GET_DDL is a fixpoint, when the DDL leaves names and keys implicit', () => {
    run(SALES_DDL);
    const describeOf = (name: string) => run(`DESCRIBE SEMANTIC VIEW ${name}`);
    const first = getDdl('SALES_SV');
    run(first.replace('semantic view SALES_SV', 'semantic view SALES_SV_COPY'));
    expect(describeOf('SALES_SV_COPY')).toEqual(describeOf('SALES_SV'));
    expect(getDdl('SALES_SV_COPY')).toBe(first.replace('semantic view SALES_SV', 'semantic view SALES_SV_COPY'));
    expect(comparable(parseSemanticViewDdl(getDdl('SALES_SV_COPY'))).relationships).toEqual([
      { name: 'ORDERS_TO_CUSTOMERS', table: 'ORDERS', columns: ['O_CUSTKEY'], refTable: 'CUSTOMERS', refColumns: ['C_CUSTKEY'] },
      { name: 'CUSTOMERS_TO_NATIONS', table: 'CUSTOMERS', columns: ['C_NATIONKEY'], refTable: 'NATIONS', refColumns: ['N_NATIONKEY'] },
      { name: 'LINE_ITEMS_TO_ORDERS', table: 'LINE_ITEMS', columns: ['L_ORDERKEY'], refTable: 'ORDERS', refColumns: ['O_ORDERKEY'] },
    ]);
  });

  it('prints the view name unqualified by default and fully qualified on request', () => {
    run(SALES_DDL);
    expect(getDdl('SALES_SV').split('\n')[0]).toBe('create or replace semantic view SALES_SV');
    expect(getDdl('SALES_SV', true).split('\n')[0]).toBe('create or replace semantic view ANALYTICS.PUBLIC.SALES_SV');
  });

  it('round-trips any comment, synonym and quoted name text', () => {
    const text = fc.string({ unit: 'binary', maxLength: 24 });
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }), text, text, (name, comment, synonym) => {
        const quotedName = `"${name.replace(/"/g, '""')}"`;
        const literal = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
        const ddl =
          `CREATE OR REPLACE SEMANTIC VIEW ${quotedName} TABLES (orders AS ANALYTICS.PUBLIC.ORDERS WITH SYNONYMS (${literal(synonym)}) COMMENT = ${literal(comment)}) ` +
          `DIMENSIONS (orders.${quotedName} AS o_status COMMENT = ${literal(comment)}) COMMENT = ${literal(comment)}`;
        run(ddl);
        const printed = getDdl(quotedName);
        const reparsed = comparable(parseSemanticViewDdl(printed));
        const original = comparable(parseSemanticViewDdl(ddl));
        expect({ ...reparsed, name: reparsed.name.slice(-1) }).toEqual({ ...original, name: original.name.slice(-1) });
      }),
      { numRuns: 150 },
    );
  });
});
