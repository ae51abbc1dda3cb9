import { describe, expect, it } from 'vitest';
import { compileModel } from '../../../src-shared/model';
import { compareRows, DEFAULT_DATA_DIFF_LIMITS, NO_REVIEW_FACTS, prepareReview, type PrepareOptions, type SideRows } from '../../../src-shared/model/review';
import { base, files, ORDERS, VIEW } from './helpers';

const OPTIONS: PrepareOptions = { security: null, dialects: {}, limits: DEFAULT_DATA_DIFF_LIMITS, dataDiff: true };

function prepare(edit: (f: Record<string, string>) => Record<string, string>, facts = NO_REVIEW_FACTS, options = OPTIONS) {
  return prepareReview(compileModel(files(base())), compileModel(files(edit(base()))), facts, options);
}

const widget = (widgetId: string, query: unknown) => ({ workbookId: 1, workbookName: 'Sales', dashboard: 'published' as const, widgetId, title: widgetId, query });

describe('data diff queries', () => {
  it('queries an affected view: totals of the changed measure, and the changed measure by each dimension', () => {
    const prepared = prepare((f) => ({ ...f, 'model/cubes/orders.yml': ORDERS.replace('sql: amount', 'sql: amount * 2') }));
    expect(prepared.queries.map((q) => [q.id, q.query.head])).toEqual([
      ['view:overview:*', { measures: ['overview.total'], limit: 1000 }],
      ['view:overview:status', { measures: ['overview.total'], dimensions: ['overview.status'], order: [['overview.status', 'asc']], limit: 1000 }],
      ['view:overview:customers_city', { measures: ['overview.total'], dimensions: ['overview.customers_city'], order: [['overview.customers_city', 'asc']], limit: 1000 }],
    ]);
    expect(prepared.queries.every((q) => q.base.ok && q.head.ok && !q.sameSql)).toBe(true);
  });

  it('queries a renamed member under each side’s name and compares it under the base name', () => {
    const prepared = prepare((f) => ({
      ...f,
      'model/cubes/orders.yml': ORDERS.replace('- name: total\n        sql: amount', '- name: revenue\n        sql: amount * 2'),
      'model/views/overview.yml': VIEW.replace('- total', '- revenue'),
    }));
    // total → revenue changed SQL too: a removal and an addition, not a rename; nothing to compare.
    expect(prepared.queries).toEqual([]);
    const renamed = prepare((f) => ({ ...f, 'model/views/overview.yml': VIEW.replace('        prefix: true\n', '') }));
    const byCity = renamed.queries.find((q) => q.id === 'view:overview:city');
    expect(byCity?.query.base.dimensions).toEqual(['overview.customers_city']);
    expect(byCity?.query.head.dimensions).toEqual(['overview.city']);
    expect(byCity?.head.ok && byCity.head.columns.map((c) => c.key)).toEqual(expect.arrayContaining(['overview.customers_city']));
  });

  it('runs an affected widget’s query as it is, held to the row bound, once for equal queries', () => {
    const query = { measures: ['orders.total'], dimensions: ['orders.status'], limit: 50_000 };
    const prepared = prepare((f) => ({ ...f, 'model/cubes/orders.yml': ORDERS.replace('sql: amount', 'sql: amount * 2') }), {
      ...NO_REVIEW_FACTS,
      widgets: [widget('a', query), widget('b', query), widget('c', { measures: ['orders.count'] })],
    });
    const widgets = prepared.queries.filter((q) => q.source.kind === 'widget');
    expect(widgets).toHaveLength(1);
    expect(widgets[0]!.source).toEqual({ kind: 'widget', widgets: [expect.objectContaining({ widgetId: 'a' }), expect.objectContaining({ widgetId: 'b' })] });
    expect(widgets[0]!.query.base.limit).toBe(1000);
  });

  it('holds the number of queries to the bound', () => {
    const prepared = prepare((f) => ({ ...f, 'model/cubes/orders.yml': ORDERS.replace('sql: amount', 'sql: amount * 2') }), NO_REVIEW_FACTS, { ...OPTIONS, limits: { ...DEFAULT_DATA_DIFF_LIMITS, maxQueries: 2 } });
    expect(prepared.queries).toHaveLength(2);
  });

  it('reviews what compiles on a side with errors and lists what does not', () => {
    const broken = 'cubes:\n  - name: customers\n    sql_table: [unclosed\n';
    const prepared = prepare((f) => ({ ...f, 'model/cubes/orders.yml': ORDERS.replace('type: sum', 'type: max'), 'model/cubes/customers.yml': broken }));
    expect(prepared.problems.base).toBeNull();
    expect(prepared.problems.head).toMatchObject({ entities: expect.arrayContaining(['customers']) });
    expect(prepared.problems.head!.errors[0]).toMatchObject({ file: 'model/cubes/customers.yml' });
    expect(prepared.changes.map((c) => c.name)).toContain('orders.total');
    expect(prepared.changes.some((c) => c.entity === 'customers')).toBe(false);
  });
});

describe('comparing rows', () => {
  const columns: SideRows['columns'] = [
    { key: 'v.status', kind: 'dimension' },
    { key: 'v.count', kind: 'measure' },
    { key: 'v.total', kind: 'measure' },
  ];

  it('matches rows on their dimensions and reports rows on one side only and numbers that moved', () => {
    const diff = compareRows(
      { columns, rows: [['completed', '8150', '100.50'], ['placed', '10', '5'], ['returned', '3', '1']] },
      { columns, rows: [['completed', '7902', '100.50'], ['placed', '10', '5.0000000000001'], ['shipped', '4', '2']] },
    );
    expect(diff.same).toBe(false);
    expect(diff.changed).toEqual({ count: 1, samples: [{ key: { 'v.status': 'completed' }, values: [{ member: 'v.count', before: '8150', after: '7902' }] }] });
    expect(diff.onlyBase).toEqual({ count: 1, samples: [{ 'v.status': 'returned', 'v.count': '3', 'v.total': '1' }] });
    expect(diff.onlyHead).toEqual({ count: 1, samples: [{ 'v.status': 'shipped', 'v.count': '4', 'v.total': '2' }] });
    expect(diff.totals).toEqual([
      { member: 'v.count', before: 8163, after: 7916, delta: -247 },
      { member: 'v.total', before: 106.5, after: expect.closeTo(107.5, 6), delta: expect.closeTo(1, 6) },
    ]);
  });

  it('treats numbers within the tolerance as equal', () => {
    const rows = (n: string) => ({ columns, rows: [['a', n, '1']] });
    expect(compareRows(rows('100'), rows('100.4'), { tolerance: { absolute: 0.5, relative: 0 } }).same).toBe(true);
    expect(compareRows(rows('100'), rows('100.6'), { tolerance: { absolute: 0.5, relative: 0 } }).same).toBe(false);
    expect(compareRows(rows('100'), rows('100.9'), { tolerance: { absolute: 0, relative: 0.01 } }).same).toBe(true);
  });

  it('skips hidden helper columns and names columns found on one side only', () => {
    const diff = compareRows({ columns: [...columns, { key: 'v.helper', kind: 'measure', hidden: true }], rows: [['a', '1', '2', '99']] }, { columns: columns.slice(0, 2), rows: [['a', '1']] });
    expect(diff.unmatchedColumns).toEqual(['v.total']);
    expect(diff.totals.map((t) => t.member)).toEqual(['v.count']);
  });
});
