// Compare with model: a vendor statement over a pushed view becomes the model view's query, and the
// two answers are matched row by row on their dimensions.
import { describe, expect, it } from 'vitest';
import { compareResults, planModelComparison, vendorSqlTarget, type ComparedView } from '../../../src-shared/model/query';

const view: ComparedView = {
  name: 'product_sales',
  members: [
    { name: 'revenue', kind: 'measure', type: 'number' },
    { name: 'units_sold', kind: 'measure', type: 'number' },
    { name: 'order_status', kind: 'dimension', type: 'string' },
    { name: 'order_created_at', kind: 'dimension', type: 'time' },
  ],
};

describe('planModelComparison', () => {
  it('maps Snowflake columns and the WHERE inside SEMANTIC_VIEW(...) (with ? parameters) to the model view', () => {
    const plan = planModelComparison({
      sql: "SELECT * FROM SEMANTIC_VIEW(ANALYTICS.PUBLIC.SV_PRODUCT_SALES METRICS line_items.revenue DIMENSIONS orders.order_status WHERE orders.order_status <> ? AND orders.order_created_at >= '2024-06-01') ORDER BY order_status",
      params: ['returned'],
      columns: ['REVENUE', 'ORDER_STATUS'],
      view,
    });
    expect(plan).toEqual({
      query: {
        measures: ['product_sales.revenue'],
        dimensions: ['product_sales.order_status'],
        filters: [
          { member: 'product_sales.order_status', operator: 'notEquals', values: ['returned'] },
          { member: 'product_sales.order_created_at', operator: 'afterOrOnDate', values: ['2024-06-01'] },
        ],
        limit: 10_000,
      },
      columns: [
        { column: 'REVENUE', member: 'product_sales.revenue', kind: 'measure', type: 'number' },
        { column: 'ORDER_STATUS', member: 'product_sales.order_status', kind: 'dimension', type: 'string' },
      ],
      vendorLimited: false,
    });
  });

  it('maps Databricks MEASURE() columns, IN lists and a LIMIT', () => {
    const plan = planModelComparison({
      sql: "SELECT order_status, MEASURE(units_sold) FROM main.default.mv_product_sales WHERE order_status IN ('shipped', 'completed') GROUP BY ALL LIMIT 5",
      columns: ['order_status', 'measure(units_sold)'],
      view,
    });
    expect(plan).toMatchObject({
      query: { measures: ['product_sales.units_sold'], dimensions: ['product_sales.order_status'], filters: [{ member: 'product_sales.order_status', operator: 'equals', values: ['shipped', 'completed'] }] },
      vendorLimited: true,
    });
  });

  it('refuses, with the reason, a column that is no member, an OR, and an answer without measures', () => {
    expect(planModelComparison({ sql: 'SELECT x FROM v', columns: ['TOTAL'], view })).toMatchObject({ problem: expect.stringMatching(/Column "TOTAL" is not a member of model view product_sales/) });
    expect(planModelComparison({ sql: "SELECT order_status, MEASURE(revenue) FROM v WHERE order_status = 'a' OR order_status = 'b' GROUP BY ALL", columns: ['order_status', 'measure(revenue)'], view })).toMatchObject({
      problem: expect.stringMatching(/"OR" joins conditions; only AND is compared/),
    });
    expect(planModelComparison({ sql: 'SELECT DISTINCT order_status FROM v', columns: ['order_status'], view })).toMatchObject({ problem: expect.stringMatching(/no measure column/) });
  });

  it('finds the object a statement reads', () => {
    expect(vendorSqlTarget('select * from semantic_view( analytics.public."SV_X" metrics a.b)')).toBe('analytics.public.SV_X');
    expect(vendorSqlTarget('SELECT a, MEASURE(m) FROM main.default.mv GROUP BY ALL')).toBe('main.default.mv');
  });
});

describe('compareResults', () => {
  const plan = planModelComparison({ sql: 'SELECT * FROM SEMANTIC_VIEW(v METRICS t.revenue DIMENSIONS t.order_created_at)', columns: ['REVENUE', 'ORDER_CREATED_AT'], view });
  if ('problem' in plan) throw new Error(plan.problem);

  it('matches rows on their dimensions (times in either writing) and numbers to 6 significant digits', () => {
    const outcome = compareResults(
      plan,
      [
        { REVENUE: '100.50', ORDER_CREATED_AT: '2024-05-01 00:00:00' },
        { REVENUE: 2000000.0000001, ORDER_CREATED_AT: '2024-06-01 00:00:00' },
      ],
      [
        { 'product_sales.revenue': '100.5', 'product_sales.order_created_at': '2024-05-01T00:00:00.000' },
        { 'product_sales.revenue': '2000000', 'product_sales.order_created_at': '2024-06-01T00:00:00.000' },
      ],
    );
    expect(outcome).toMatchObject({ matches: true, matchingRows: 2, differingRows: 0, onlyInVendorCount: 0, onlyInModelCount: 0 });
  });

  it('names the rows whose numbers differ and the rows only one side has', () => {
    const outcome = compareResults(
      plan,
      [
        { REVENUE: '100.50', ORDER_CREATED_AT: '2024-05-01 00:00:00' },
        { REVENUE: '7', ORDER_CREATED_AT: '2024-07-01 00:00:00' },
      ],
      [
        { 'product_sales.revenue': '101.5', 'product_sales.order_created_at': '2024-05-01T00:00:00.000' },
        { 'product_sales.revenue': '3', 'product_sales.order_created_at': '2024-08-01T00:00:00.000' },
      ],
    );
    expect(outcome.matches).toBe(false);
    expect(outcome.differences).toEqual([{ key: { 'product_sales.order_created_at': '2024-05-01T00:00:00' }, column: 'REVENUE', vendor: '100.50', model: '101.5' }]);
    expect(outcome.onlyInVendor).toEqual([{ 'product_sales.order_created_at': '2024-07-01T00:00:00' }]);
    expect(outcome.onlyInModel).toEqual([{ 'product_sales.order_created_at': '2024-08-01T00:00:00' }]);
  });
});
