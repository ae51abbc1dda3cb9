// Lakehouse round trip over HTTP: the sample model's lakehouse view (order_trends, on `lake`) published as a metric view by a real
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

async function modelRevenueByStatus(filters: unknown[] = []): Promise<Map<string, { revenue: number; count: number }>> {
  const load = await svc.call('POST', `/deployments/${deploymentId}/cubejs-api/v1/load`, {
    body: { query: { measures: ['order_trends.revenue', 'order_trends.count'], dimensions: ['order_trends.status'], filters } },
  });
  expect(load.status, load.text).toBe(200);
  const rows = load.body.data as Record<string, string>[];
  return new Map(rows.map((r) => [r['order_trends.status']!, { revenue: Number(r['order_trends.revenue']), count: Number(r['order_trends.count']) }]));
}

describe('a metric view published by a lakehouse run answers MEASURE() queries with the model’s numbers', () => {
  it('publishes order_trends, then MEASURE(revenue), MEASURE(count) by status equal the data API’s load', async () => {
    await saveSettings(svc, deploymentId, { selectionMode: 'all', targetNamePrefix: 'mv_' });
    const run = await publish(svc, deploymentId);
    expect(run.status, JSON.stringify(run)).toBe('COMPLETED');
    // `all` holds the sample's one view on `lake`; its warehouse views are not published here.
    expect(run.viewNames).toEqual(['order_trends']);
    expect(viewOf(run.views, 'order_trends')).toMatchObject({ outcome: 'created', target: 'main.default.mv_order_trends' });

    const res = await svc.call('POST', sqlUrl(), {
      body: { sql: 'SELECT status, MEASURE(revenue), MEASURE(count) FROM main.default.mv_order_trends GROUP BY ALL ORDER BY status' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ dataSource: 'lake', engine: 'local lakehouse', columns: ['status', 'measure(revenue)', 'measure(count)'], truncated: false });
    const model = await modelRevenueByStatus();
    expect(model.size).toBeGreaterThan(1);
    expect(res.body.rowCount).toBe(model.size);
    for (const row of res.body.rows as Record<string, string | number>[]) {
      const expected = model.get(String(row.status));
      expect(expected, `model row for ${row.status}`).toBeDefined();
      expect(Number(row['measure(revenue)'])).toBeCloseTo(expected!.revenue, 2);
      expect(Number(row['measure(count)'])).toBe(expected!.count);
    }
  });

  it('a WHERE on a dimension gives the model query’s filtered numbers', async () => {
    const res = await svc.call('POST', sqlUrl(), {
      body: { sql: "SELECT status, MEASURE(revenue) FROM main.default.mv_order_trends WHERE status <> ? GROUP BY ALL", params: ['returned'] },
    });
    expect(res.status, res.text).toBe(200);
    const model = await modelRevenueByStatus([{ member: 'order_trends.status', operator: 'notEquals', values: ['returned'] }]);
    expect(res.body.rowCount).toBe(model.size);
    expect((res.body.rows as { status: string }[]).map((r) => r.status).sort()).toEqual([...model.keys()].sort());
    for (const row of res.body.rows as Record<string, string>[]) expect(Number(row['measure(revenue)'])).toBeCloseTo(model.get(row.status!)!.revenue, 2);
  });

  it('a measure without MEASURE() is refused with Databricks’ error class, as a 400', async () => {
    const res = await svc.call('POST', sqlUrl(), { body: { sql: 'SELECT status, revenue FROM main.default.mv_order_trends GROUP BY ALL' } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('SQL_INVALID');
    expect(res.body.detail).toMatch(/MEASURE/);
  });
});
