// Vendor SQL on a data source over HTTP: Snowflake's SEMANTIC_VIEW query over a pushed semantic view
// pushed through the API answers with the numbers the deployment's data API gives for the same model view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { createUser } from '../support/users';

let svc: TestService;
let deploymentId: number;
const sqlUrl = () => `/api/v1/deployments/${deploymentId}/data-sources/default/sql`;

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.sampleData = { orders: 800 };
  deploymentId = await createDeployment(svc);
  // Push the sample model's product_sales view to the local warehouse, as a user would.
  const start = await svc.call('POST', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs`, { body: { schema: 'PUBLIC', prefix: 'SV_', viewNames: ['product_sales'] } });
  expect(start.status, start.text).toBe(202);
  const job = `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs/${start.body.syncJobId}`;
  for (let i = 0; i < 3000; i++) {
    const progress = await svc.call('GET', job);
    if (progress.body.status !== 'RUNNING' && progress.body.status !== 'PENDING' && progress.body.status !== 'QUEUED') {
      expect(progress.body.status, progress.text).toBe('COMPLETED');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}, 180_000);
// Generous: closing the service (DuckDB, worker threads) is slow on a loaded machine.
afterAll(async () => svc?.stop(), 180_000);

describe('POST /api/v1/deployments/{id}/data-sources/{name}/sql', () => {
  it('a SEMANTIC_VIEW query gives the data API’s numbers for the model view that was pushed', async () => {
    const res = await svc.call('POST', sqlUrl(), {
      body: { sql: 'SELECT * FROM SEMANTIC_VIEW(ANALYTICS.PUBLIC.SV_PRODUCT_SALES METRICS line_items.revenue DIMENSIONS orders.order_status WHERE orders.order_status <> ?) ORDER BY order_status', params: ['returned'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dataSource: 'default', engine: 'local warehouse', columns: ['REVENUE', 'ORDER_STATUS'], rowCount: 3, truncated: false });
    const load = await svc.call('POST', `/deployments/${deploymentId}/cubejs-api/v1/load`, {
      body: { query: { measures: ['product_sales.revenue'], dimensions: ['product_sales.order_status'], filters: [{ member: 'product_sales.order_status', operator: 'notEquals', values: ['returned'] }] } },
    });
    expect(load.status).toBe(200);
    const model = new Map((load.body.data as Record<string, string>[]).map((r) => [r['product_sales.order_status'], Number(r['product_sales.revenue'])]));
    for (const row of res.body.rows as { ORDER_STATUS: string; REVENUE: string }[]) expect(Number(row.REVENUE)).toBeCloseTo(model.get(row.ORDER_STATUS)!, 2);
    expect(model.size).toBe(3);
  });

  it('answers the warehouse’s refusal as 400 with its words, refuses non-SELECT statements and unknown data sources', async () => {
    const bad = await svc.call('POST', sqlUrl(), { body: { sql: 'SELECT * FROM SEMANTIC_VIEW(SV_PRODUCT_SALES METRICS line_items.nope)' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'SQL_INVALID', vendorCode: 'WAREHOUSE_SYNTAX_ERROR' });
    expect(bad.body.detail).toMatch(/invalid identifier 'LINE_ITEMS.NOPE'/);
    const write = await svc.call('POST', sqlUrl(), { body: { sql: 'DELETE FROM ecommerce.orders' } });
    expect(write.status).toBe(400);
    expect(write.body.detail).toMatch(/Only SELECT statements/);
    const two = await svc.call('POST', sqlUrl(), { body: { sql: 'SELECT 1; SELECT 2' } });
    expect(two.status).toBe(400);
    const missing = await svc.call('POST', `/api/v1/deployments/${deploymentId}/data-sources/nope/sql`, { body: { sql: 'SELECT 1' } });
    expect(missing.status).toBe(404);
    const plain = await svc.call('POST', sqlUrl(), { body: { sql: 'SELECT count(*) AS n FROM ANALYTICS.ecommerce.orders' } });
    expect(plain.status).toBe(200);
    expect(Number(plain.body.rows[0].N ?? plain.body.rows[0].n)).toBe(800);
  });

  it('is for admins and developers: a viewer gets 403', async () => {
    const viewer = await createUser(svc, 'viewer');
    const res = await svc.call('POST', sqlUrl(), { body: { sql: 'SELECT 1' }, auth: viewer.auth });
    expect(res.status).toBe(403);
  });
});
