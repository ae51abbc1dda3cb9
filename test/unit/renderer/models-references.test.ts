import { describe, expect, it } from 'vitest';
import { compileModel } from '../../../src-shared/model';
import { symbolsOf } from '../../../src-renderer/src/features/models/protocol';
import { findReferences, matchScore, quickOpenItems, rankItems } from '../../../src-renderer/src/features/models/references';

const ORDERS = `cubes:
  - name: orders
    sql_table: shop.orders
    joins:
      - name: customers
        sql: "{CUBE}.customer_id = {customers.id}"
        relationship: many_to_one
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: string
      - name: is_open
        sql: "{CUBE.status} = 'open'"
        type: boolean
    measures:
      - name: count
        type: count
        drill_members:
          - status
`;

const CUSTOMERS = `cubes:
  - name: customers
    sql_table: shop.customers
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: string
      - name: label
        sql: "{orders.status} || {status}"
        type: string
`;

const VIEW = `views:
  - name: overview
    cubes:
      - join_path: orders
        includes:
          - status
          - count
      - join_path: orders.customers
        prefix: true
        includes:
          - id
`;

const JS = 'cube(`payments`, {\n  sql_table: `shop.payments`,\n  joins: { orders: { sql: `${CUBE}.order_id = ${orders.id}`, relationship: `many_to_one` } },\n  dimensions: {\n    id: { sql: `id`, type: `number`, primary_key: true },\n    order_status: { sql: `${orders.status}`, type: `string` },\n  },\n});\n';

const files = [
  { path: 'model/cubes/orders.yml', content: ORDERS },
  { path: 'model/cubes/customers.yml', content: CUSTOMERS },
  { path: 'model/views/overview.yml', content: VIEW },
  { path: 'model/cubes/payments.js', content: JS },
];
const compiled = compileModel(files);
const symbols = symbolsOf(compiled.model);
const texts = files.map((f) => ({ path: f.path, text: f.content }));
const places = (refs: ReturnType<typeof findReferences>) => refs.map((r) => `${r.file.split('/').pop()}:${r.line}:${r.startColumn}${r.isDefinition ? ' (definition)' : ''}`);

describe('find all references', () => {
  it('the fixture compiles without errors', () => {
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('lists every use of a member across files: {CUBE.x}, {cube.x}, drill members, view includes, JS ${cube.x}, definition first', () => {
    const refs = findReferences(texts, symbols, { kind: 'dimension', qualifiedName: 'orders.status' });
    expect(places(refs)).toEqual([
      'orders.yml:13:15 (definition)',
      'customers.yml:13:23',
      'orders.yml:17:21',
      'orders.yml:23:13',
      'payments.js:6:36',
      'overview.yml:6:13',
    ]);
  });

  it('does not count a same-named member of another cube, nor a column named like it', () => {
    const refs = findReferences(texts, symbols, { kind: 'dimension', qualifiedName: 'customers.status' });
    // `{status}` inside customers, and its definition; not `sql: status` (a column), not orders.status.
    expect(places(refs)).toEqual(['customers.yml:9:15 (definition)', 'customers.yml:13:35']);
  });

  it('lists the uses of a cube: joins, references, join paths', () => {
    const refs = findReferences(texts, symbols, { kind: 'cube', qualifiedName: 'customers' });
    expect(places(refs)).toEqual(['customers.yml:2:11 (definition)', 'orders.yml:5:15', 'orders.yml:6:37', 'overview.yml:8:27']);
  });

  it('a member nobody uses has only its definition; an unknown name has none', () => {
    expect(places(findReferences(texts, symbols, { kind: 'dimension', qualifiedName: 'customers.label' }))).toEqual(['customers.yml:12:15 (definition)']);
    expect(findReferences(texts, symbols, { kind: 'dimension', qualifiedName: 'nowhere.x' })).toEqual([]);
  });
});

describe('quick open', () => {
  const items = quickOpenItems(files.map((f) => f.path), symbols);

  it('offers files, cubes, views and each member with where it is defined', () => {
    expect(items.filter((i) => i.kind === 'file').map((i) => i.label)).toEqual(files.map((f) => f.path));
    expect(items.find((i) => i.label === 'overview')).toMatchObject({ kind: 'view', path: 'model/views/overview.yml', line: 2 });
    expect(items.find((i) => i.label === 'orders.count')).toMatchObject({ kind: 'measure', path: 'model/cubes/orders.yml', line: 20 });
    expect(items.find((i) => i.label === 'orders.is_open')).toMatchObject({ kind: 'dimension', line: 16, detail: 'dimension · boolean · model/cubes/orders.yml:16' });
    expect(items.find((i) => i.label === 'payments.order_status')).toMatchObject({ kind: 'dimension', path: 'model/cubes/payments.js' });
  });

  it('matches characters in order and ranks exact and name-ending matches first', () => {
    expect(matchScore('orders.status', 'ordsta')).not.toBeNull();
    expect(matchScore('orders.status', 'stord')).toBeNull();
    expect(rankItems(items, 'status').slice(0, 3).map((i) => i.label).sort()).toEqual(['customers.status', 'orders.status', 'overview.status']);
    expect(rankItems(items, 'overview')[0]).toMatchObject({ kind: 'view', label: 'overview' });
    expect(rankItems(items, 'payments.js')[0]).toMatchObject({ kind: 'file', label: 'model/cubes/payments.js' });
    expect(rankItems(items, 'zzz')).toEqual([]);
  });
});
