// Lakehouse round trip over HTTP: the sample model's view published as a metric view by a real
// lakehouse run (the API's sync), then Databricks' own query over it — `SELECT dim, MEASURE(m) FROM
// catalog.schema.view GROUP BY ALL` on the data source's SQL endpoint — gives the numbers the model
// query gives through the data API (`cubejs-api/v1/load`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { publish, saveSettings, viewOf } from '../support/lakehouse';
import { startTestService, type TestService } from '../support/service';

let svc: TestService;
let deploymentId: number;
const sqlUrl = () => `/api/v1/deployments/${deploymentId}/data-sources/lake/sql`;

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.sampleData = { orders: 800 };
  deploymentId = await createDeployment(svc);
}, 180_000);
// Generous: closing the service (DuckDB, worker threads) is slow on a loaded machine.
afterAll(async () => svc?.stop(), 180_000);

async function modelRevenueByStatus(filters: unknown[] = []): Promise<Map<string, { revenue: number; units: number }>> {
  const load = await svc.call('POST', `/deployments/${deploymentId}/cubejs-api/v1/load`, {
    body: { query: { measures: ['product_sales.revenue', 'product_sales.units_sold'], dimensions: ['product_sales.order_status'], filters } },
  });
  expect(load.status, load.text).toBe(200);
  const rows = load.body.data as Record<string, string>[];
  return new Map(rows.map((r) => [r['product_sales.order_status']!, { revenue: Number(r['product_sales.revenue']), units: Number(r['product_sales.units_sold']) }]));
}

describe('a metric view published by a lakehouse run answers MEASURE() queries with the model’s numbers', () => {
  it('publishes product_sales, then MEASURE(revenue), MEASURE(units_sold) by order status equal the data API’s load', async () => {
    await saveSettings(svc, deploymentId, { selectionMode: 'selected', selectedViews: ['product_sales'], targetNamePrefix: 'mv_' });
    const run = await publish(svc, deploymentId);
    expect(run.status, JSON.stringify(run)).toBe('COMPLETED');
    expect(viewOf(run.views, 'product_sales')).toMatchObject({ outcome: 'created', target: 'main.default.mv_product_sales' });

    const res = await svc.call('POST', sqlUrl(), {
      body: { sql: 'SELECT order_status, MEASURE(revenue), MEASURE(units_sold) FROM main.default.mv_product_sales GROUP BY ALL ORDER BY order_status' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ dataSource: 'lake', engine: 'local lakehouse', columns: ['order_status', 'measure(revenue)', 'measure(units_sold)'], truncated: false });
    const model = await modelRevenueByStatus();
    expect(model.size).toBeGreaterThan(1);
    expect(res.body.rowCount).toBe(model.size);
    for (const row of res.body.rows as Record<string, string | number>[]) {
      const expected = model.get(String(row.order_status));
      expect(expected, `model row for ${row.order_status}`).toBeDefined();
      expect(Number(row['measure(revenue)'])).toBeCloseTo(expected!.revenue, 2);
      expect(Number(row['measure(units_sold)'])).toBe(expected!.units);
    }
  });

  it('a WHERE on a dimension gives the model query’s filtered numbers', async () => {
    const res = await svc.call('POST', sqlUrl(), {
      body: { sql: "SELECT order_status, MEASURE(revenue) FROM main.default.mv_product_sales WHERE order_status <> ? GROUP BY ALL", params: ['returned'] },
    });
    expect(res.status, res.text).toBe(200);
    const model = await modelRevenueByStatus([{ member: 'product_sales.order_status', operator: 'notEquals', values: ['returned'] }]);
    expect(res.body.rowCount).toBe(model.size);
    expect((res.body.rows as { order_status: string }[]).map((r) => r.order_status).sort()).toEqual([...model.keys()].sort());
    for (const row of res.body.rows as Record<string, string>[]) expect(Number(row['measure(revenue)'])).toBeCloseTo(model.get(row.order_status!)!.revenue, 2);
  });

  it('a measure without MEASURE() is refused with Databricks’ error class, as a 400', async () => {
    const res = await svc.call('POST', sqlUrl(), { body: { sql: 'SELECT order_status, revenue FROM main.default.mv_product_sales GROUP BY ALL' } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('SQL_INVALID');
    expect(res.body.detail).toMatch(/MEASURE/);
  });
});
