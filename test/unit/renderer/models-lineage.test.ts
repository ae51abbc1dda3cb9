import { describe, expect, it } from 'vitest';
import { compileModel } from '../../../src-shared/model';
import { lineageOf, queryUses, type LineageFacts, type LineageNode } from '../../../src-renderer/src/features/models/lineage/graph';
import { columnX, fitZoom, layoutOf, NODE_W, openingView } from '../../../src-renderer/src/features/models/lineage/layout';
import { symbolsOf } from '../../../src-renderer/src/features/models/protocol';

const MODEL = `cubes:
  - name: customers
    sql_table: shop.customers
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: city
        sql: city
        type: string
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
    measures:
      - name: count
        type: count
  - name: big_orders
    extends: orders
  - name: payments
    sql_table: shop.payments
    joins:
      - name: orders
        sql: "{CUBE}.order_id = {orders.id}"
        relationship: many_to_one
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
views:
  - name: sales
    cubes:
      - join_path: orders
        includes: [count]
      - join_path: orders.customers
        prefix: true
        includes: [city]
  - name: people
    cubes:
      - join_path: customers
        includes: "*"
`;

const symbols = symbolsOf(compileModel([{ path: 'model/m.yml', content: MODEL }]).model);
const facts: LineageFacts = {
  pushes: [{ viewName: 'sales', semanticView: 'DB.S.SALES', syncJobId: 'job-1', branchName: 'main' }],
  publications: [{ viewName: 'sales', target: 'main.s.sales', dataSourceName: 'lake', runId: 'run-1' }],
  dashboards: [
    { workbookId: 7, name: 'Revenue', uses: ['sales'] },
    { workbookId: 8, name: 'Ops', uses: ['orders', 'nowhere'] },
    { workbookId: 9, name: 'Unrelated', uses: ['people'] },
  ],
};
const columns = (l: ReturnType<typeof lineageOf>) => Object.fromEntries([...new Set(l.nodes.map((n) => n.depth))].map((d) => [d, l.nodes.filter((n) => n.depth === d).map((n) => `${n.kind}:${n.label}`)]));
const edgeList = (l: ReturnType<typeof lineageOf>) => l.edges.map((e) => `${e.from} -${e.kind}-> ${e.to}`).sort();

describe('lineage of a cube or view', () => {
  it('a view: built from its join paths’ cubes and their tables; used by its semantic view, metric view and dashboards', () => {
    const l = lineageOf('sales', symbols, facts);
    expect(columns(l)).toEqual({
      '-2': ['table:shop.customers', 'table:shop.orders'],
      '-1': ['cube:customers', 'cube:orders'],
      '0': ['view:sales'],
      '1': ['semantic-view:DB.S.SALES', 'metric-view:main.s.sales', 'dashboard:Revenue'],
    });
    expect(l.nodes.find((n) => n.kind === 'semantic-view')?.target).toEqual({ kind: 'push', syncJobId: 'job-1' });
    expect(l.nodes.find((n) => n.kind === 'dashboard')?.target).toEqual({ kind: 'workbook', workbookId: 7 });
    // Joins between upstream cubes are not drawn: only what leads to the view.
    expect(edgeList(l)).not.toContain('model:customers -joins-> model:orders');
  });

  it('a cube: its table and the cubes it joins upstream; what extends, joins, views and queries it downstream, transitively', () => {
    const l = lineageOf('orders', symbols, facts);
    expect(columns(l)).toEqual({
      '-2': ['table:shop.customers'],
      '-1': ['table:shop.orders', 'cube:customers'],
      '0': ['cube:orders'],
      '1': ['cube:big_orders', 'cube:payments', 'view:sales', 'dashboard:Ops'],
      '2': ['semantic-view:DB.S.SALES', 'metric-view:main.s.sales', 'dashboard:Revenue'],
    });
    expect(edgeList(l)).toEqual(
      expect.arrayContaining(['model:customers -joins-> model:orders', 'model:orders -extends-> model:big_orders', 'model:orders -joins-> model:payments', 'model:sales -pushes-> push:DB.S.SALES']),
    );
    // A view over customers only, and its dashboard, are not part of orders' lineage.
    expect(l.nodes.map((n) => n.label)).not.toContain('people');
    expect(l.nodes.map((n) => n.label)).not.toContain('Unrelated');
  });

  it('an unknown name has no lineage; an item used by nothing has only its sources', () => {
    expect(lineageOf('nowhere', symbols, facts)).toEqual({ nodes: [], edges: [] });
    expect(columns(lineageOf('people', symbols))).toEqual({ '-2': ['table:shop.customers'], '-1': ['cube:customers'], '0': ['view:people'] });
  });

  it('a widget query names cubes and views through measures, dimensions, time dimensions, segments, filters and order', () => {
    expect(
      queryUses({
        measures: ['sales.count'],
        dimensions: ['people.city'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day' }],
        segments: ['payments.big'],
        filters: [{ or: [{ member: 'customers.city', operator: 'set' }, { and: [{ dimension: 'big_orders.id', operator: 'set' }] }] }],
        order: { 'line_items.count': 'desc' },
      }).sort(),
    ).toEqual(['big_orders', 'customers', 'line_items', 'orders', 'payments', 'people', 'sales']);
  });
});

describe('the lineage graph opens centred on its item (issue 24)', () => {
  const node = (id: string, depth: number): LineageNode => ({ id, kind: 'cube', label: id, depth });
  // Five columns, as a view with cubes, tables, a semantic view and a dashboard: 1,354 px wide.
  const wide = layoutOf([node('t', -2), node('c1', -1), node('c2', -1), node('v', 0), node('sv', 1), node('d', 2)]);

  it('a graph wider than its box opens zoomed so the item, what it is built from and what uses it fill the width, centred on the item', () => {
    expect(wide.width).toBe(1354);
    const box = { width: 766, height: 420 };
    const view = openingView(wide, 'v', box);
    const item = wide.at.get('v')!;
    // The item's middle is the box's middle.
    expect(item.x * view.zoom + (NODE_W * view.zoom) / 2 - view.scrollLeft).toBeCloseTo(box.width / 2, 0);
    // "Built from" (depth −1) and "Used by" (depth 1) columns are wholly in sight.
    const left = columnX(-1, wide.min) * view.zoom - view.scrollLeft;
    const right = (columnX(1, wide.min) + NODE_W) * view.zoom - view.scrollLeft;
    expect(left).toBeGreaterThanOrEqual(0);
    expect(right).toBeLessThanOrEqual(box.width);
    expect(view.zoom).toBeGreaterThanOrEqual(0.8);
  });

  it('a graph that fits readably opens whole, at most at 100 %', () => {
    const small = layoutOf([node('c', -1), node('v', 0), node('sv', 1)]);
    const view = openingView(small, 'v', { width: 1400, height: 600 });
    expect(view.zoom).toBe(1);
    expect(view.scrollLeft).toBe(0);
    expect(fitZoom(wide, { width: 766, height: 420 })).toBeLessThan(0.6);
  });
});
