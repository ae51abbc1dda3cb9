// The data diff computes the sides of many queries in one statement (issue 26, batch.ts): each
// side's rows picked out of it must be the rows its own statement gives, on real DuckDB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runnableSides } from '../../../src-main/features/reviews/review-tasks';
import { compileModel } from '../../../src-shared/model';
import { batchStatements, DEFAULT_DATA_DIFF_LIMITS, NO_REVIEW_FACTS, pickRows, prepareReview } from '../../../src-shared/model/review';
import { openQueryFixture, sampleModelFiles, type QueryFixture } from '../../support/query-fixture';

let fixture: QueryFixture;
beforeAll(async () => {
  fixture = await openQueryFixture({ orders: 4000 });
}, 60_000);
afterAll(() => fixture?.close());

const changed = (files: { path: string; content: string }[], edit: (orders: string) => string) =>
  files.map((f) => (f.path === 'model/cubes/orders.yml' ? { ...f, content: edit(f.content) } : f));

/** Three measures and a dimension of orders change; the widgets read them through the view and the cube. */
const edit = (orders: string) =>
  orders
    .replace('      - name: total_amount\n        sql: amount\n', "      - name: total_amount\n        sql: \"CASE WHEN {CUBE}.status = 'returned' THEN 0 ELSE {CUBE}.amount END\"\n")
    .replace('      - name: average_order_value\n        sql: amount\n', '      - name: average_order_value\n        sql: "ROUND({CUBE}.amount, 0)"\n')
    .replace('      - name: buying_customers\n        sql: customer_id\n', "      - name: buying_customers\n        sql: \"CASE WHEN {CUBE}.status <> 'placed' THEN {CUBE}.customer_id END\"\n")
    .replace('      - name: status\n        sql: status\n', "      - name: status\n        sql: \"CASE WHEN {CUBE}.status = 'shipped' THEN 'completed' ELSE {CUBE}.status END\"\n");

const widget = (widgetId: string, query: unknown) => ({ workbookId: 1, workbookName: 'Sales', dashboard: 'published' as const, widgetId, title: widgetId, query });

const WIDGETS = [
  widget('a', { measures: ['orders_overview.total_amount'], dimensions: ['orders_overview.status'] }),
  widget('b', { measures: ['orders_overview.average_order_value', 'orders_overview.count'], dimensions: ['orders_overview.status'] }),
  // Ordered and cut by its own order, limit and offset inside the shared statement.
  widget('c', { measures: ['orders_overview.buying_customers'], dimensions: ['orders_overview.status'], order: [['orders_overview.status', 'desc']], limit: 2, offset: 1 }),
  widget('d', { measures: ['orders_overview.total_amount'], timeDimensions: [{ dimension: 'orders_overview.created_at', granularity: 'month' }] }),
  widget('e', { measures: ['orders_overview.buying_customers'], timeDimensions: [{ dimension: 'orders_overview.created_at', granularity: 'month' }], order: [['orders_overview.created_at', 'asc']], limit: 3 }),
  // A filter's parameters in the WHERE the group shares.
  widget('f', { measures: ['orders.total_amount'], dimensions: ['orders.status'], filters: [{ member: 'orders.amount', operator: 'gt', values: ['100'] }] }),
  widget('g', { measures: ['orders.buying_customers'], dimensions: ['orders.status'], filters: [{ member: 'orders.amount', operator: 'gt', values: ['100'] }] }),
  widget('h', { measures: ['orders.total_amount', 'orders.average_order_value'] }),
];

const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).sort();

describe('one statement for many sides of a data diff', () => {
  it('gives every side the rows its own statement gives, in fewer statements', async () => {
    const files = sampleModelFiles();
    const review = prepareReview(compileModel(files), compileModel(changed(files, edit)), { ...NO_REVIEW_FACTS, widgets: WIDGETS }, {
      security: { groups: ['support'], roles: [], securityContext: {}, userAttributes: {} },
      now: new Date('2025-07-15T12:00:00Z'),
      dialects: {},
      limits: DEFAULT_DATA_DIFF_LIMITS,
      dataDiff: true,
    });
    const sides = runnableSides(review);
    const distinct = new Set(sides.map((s) => s.runKey));
    const batch = batchStatements(sides);
    expect(batch.runs.filter((r) => r.combined).length).toBeGreaterThan(0);
    expect(batch.runs.length).toBeLessThan(distinct.size / 2);

    const results = [];
    for (const run of batch.runs) results.push((await fixture.engine.query(run.sql, { params: run.params })).rows);
    for (const side of sides) {
      const alone = (await fixture.engine.query(side.sql, { params: side.params })).rows;
      const pick = batch.picks[side.runKey]!;
      const picked = pickRows(results[pick.run]!, pick);
      expect(alone.length, side.sql).toBeGreaterThan(0);
      expect(sorted(picked), side.sql).toEqual(sorted(alone));
    }
  });

  it('keeps the order and the window of a side cut by its limit and offset', async () => {
    const files = sampleModelFiles();
    const review = prepareReview(compileModel(files), compileModel(changed(files, edit)), { ...NO_REVIEW_FACTS, widgets: WIDGETS }, {
      security: null,
      now: new Date('2025-07-15T12:00:00Z'),
      dialects: {},
      limits: DEFAULT_DATA_DIFF_LIMITS,
      dataDiff: true,
    });
    const cut = review.queries.find((q) => q.source.kind === 'widget' && q.source.widgets.some((w) => w.widgetId === 'c'))!;
    expect(cut.head.ok).toBe(true);
    const sides = runnableSides(review);
    const batch = batchStatements(sides);
    const head = cut.head as Extract<typeof cut.head, { ok: true }>;
    const pick = batch.picks[head.runKey]!;
    const run = batch.runs[pick.run]!;
    expect(run.combined).toBe(true);
    const picked = pickRows((await fixture.engine.query(run.sql, { params: run.params })).rows, pick);
    const alone = (await fixture.engine.query(head.sql, { params: head.params })).rows;
    expect(picked).toHaveLength(2);
    expect(picked).toEqual(alone);
  });
});
