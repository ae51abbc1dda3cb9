// The platform's REST data API over real HTTP, driven by the official client @cubejs-client/core.
import cube from '@cubejs-client/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser } from '../support/users';

let svc: TestService;
let deploymentId: number;
let token: string;
let apiUrl: string;

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.sampleData = { orders: 2000 };
  deploymentId = await createDeployment(svc);
  const minted = await svc.call('POST', `/api/v1/deployments/${deploymentId}/token`, { body: {} });
  expect(minted.status).toBe(200);
  token = minted.body.token;
  apiUrl = `${svc.url}/deployments/${deploymentId}/cubejs-api/v1`;
});
afterAll(async () => svc?.stop());

/** Rows of hand-written SQL over the local warehouse's tables. */
async function warehouseSql(sql: string): Promise<unknown[][]> {
  const { emulatorData } = await import('../../src-main/features/queries/engines');
  const engine = await emulatorData(svc.ctx, 'warehouse').engine();
  return (await engine.query(sql)).rows;
}

describe('the official client against a deployment', () => {
  it('load with a deployment token returns the model\'s numbers (same as SQL over the sample tables)', async () => {
    const api = cube(token, { apiUrl });
    const resultSet = await api.load({ measures: ['orders.count', 'orders.total_amount'], dimensions: ['orders.status'] });
    const rows = resultSet.tablePivot();
    const hand = await warehouseSql('SELECT status, COUNT(*), SUM(amount) FROM ecommerce.orders GROUP BY status');
    expect(rows).toHaveLength(4);
    for (const [status, n, sum] of hand) {
      const row = rows.find((r) => r['orders.status'] === status)!;
      expect(Number(row['orders.count'])).toBe(Number(n));
      expect(Number(row['orders.total_amount'])).toBeCloseTo(Number(sum), 2);
    }
    expect(resultSet.annotation().measures['orders.total_amount']).toMatchObject({ shortTitle: 'Total Amount', type: 'number', format: 'currency' });
  });

  it('a time dimension with a granularity pivots into a chart series, months in order', async () => {
    const api = cube(token, { apiUrl });
    const resultSet = await api.load({
      measures: ['orders_overview.count'],
      timeDimensions: [{ dimension: 'orders_overview.created_at', granularity: 'month', dateRange: ['2025-01-01', '2025-03-31'] }],
    });
    const series = resultSet.chartPivot();
    expect(series.map((p) => p.x)).toEqual(['2025-01-01T00:00:00.000', '2025-02-01T00:00:00.000', '2025-03-01T00:00:00.000']);
    const [[jan]] = await warehouseSql("SELECT COUNT(*) FROM ecommerce.orders WHERE created_at >= '2025-01-01' AND created_at < '2025-02-01'");
    expect(series[0]!['orders_overview.count']).toBe(Number(jan));
  });

  it('sql returns the generated SQL and meta lists the cubes and views with their members', async () => {
    const api = cube(token, { apiUrl });
    const sql = await api.sql({ measures: ['orders.count'], dimensions: ['products.name'] });
    expect(sql.sql()).toMatch(/LEFT JOIN ecommerce\.line_items AS "line_items" ON "orders"\.id = "line_items"\.order_id LEFT JOIN ecommerce\.products/);
    const meta = await api.meta();
    const names = meta.cubes.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['orders', 'line_items', 'orders_overview', 'product_sales']));
    // The admin is in no group the customers cube's access policies name: it is hidden from them.
    expect(names).not.toContain('customers');
    const orders = meta.cubes.find((c) => c.name === 'orders')!;
    expect(orders.measures.map((m) => m.name)).toContain('orders.revenue_last_7_days');
    expect(orders.dimensions.find((d) => d.name === 'orders.created_at')).toMatchObject({ type: 'time' });
  });

  it('a Drydock API key works as the client token too (sent as "Api-Key …")', async () => {
    const api = cube('Api-Key dd_test_admin_key_0123456789abcdefghijklmnop', { apiUrl });
    const rs = await api.load({ measures: ['line_items.count'] });
    const [[n]] = await warehouseSql('SELECT COUNT(*) FROM ecommerce.line_items');
    expect(Number(rs.tablePivot()[0]!['line_items.count'])).toBe(Number(n));
  });

  it('answers Continue wait while the query runs, and the client\'s polling completes it', async () => {
    svc.ctx.services.queryWaitMs = 0;
    try {
      const query = { measures: ['orders.average_order_value'], dimensions: ['orders.status'], filters: [{ member: 'orders.amount', operator: 'gt' as const, values: ['17'] }] };
      const raw = await fetch(`${apiUrl}/load?query=${encodeURIComponent(JSON.stringify(query))}`, { headers: { Authorization: token } });
      expect(raw.status).toBe(200);
      expect(await raw.json()).toMatchObject({ error: 'Continue wait' });
      const resultSet = await cube(token, { apiUrl }).load(query);
      expect(resultSet.tablePivot()).toHaveLength(4);
    } finally {
      delete svc.ctx.services.queryWaitMs;
    }
  });

  it('a query the model cannot answer is a 400 with the reason in `error`, which the client raises', async () => {
    const api = cube(token, { apiUrl });
    await expect(api.load({ measures: ['orders.nope'] })).rejects.toThrow(/cube 'orders' has no measure, dimension or segment named 'nope'/);
    const res = await svc.call('GET', `/deployments/${deploymentId}/cubejs-api/v1/load?query=${encodeURIComponent('{"measures":["orders.count"],"limit":60000}')}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_QUERY', reason: 'LIMIT_EXCEEDED' });
  });

  it('access policies apply per user: a marketing user sees only US and CA customers, and not their emails', async () => {
    const user = createUser(svc, 'viewer');
    const group = await svc.call('POST', '/api/v1/groups', { body: { name: 'marketing', userIds: [user.id] } });
    expect(group.status).toBe(201);
    const bearer = await bearerFor(svc, user.id, 'deployment', { deploymentId });
    const api = cube(bearer, { apiUrl });
    const rows = (await api.load({ measures: ['customers.count'], dimensions: ['customers.country'] })).tablePivot();
    expect(rows.map((r) => r['customers.country']).sort()).toEqual(['CA', 'US']);
    await expect(api.load({ dimensions: ['customers.email'] })).rejects.toThrow(/denied/);
    const res = await svc.call('GET', `/deployments/${deploymentId}/cubejs-api/v1/load?query=${encodeURIComponent('{"dimensions":["customers.email"]}')}`, { auth: user.auth });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ACCESS_DENIED');
  });

  it('an environment token works, its security context deciding the groups (marketing: US and CA rows only)', async () => {
    const envs = await svc.call('GET', `/api/v1/deployments/${deploymentId}/environments`);
    expect(envs.status).toBe(200);
    const production = (envs.body.items ?? envs.body.data).find((e: { kind?: string }) => e.kind === 'production') ?? (envs.body.items ?? envs.body.data)[0];
    const minted = await svc.call('POST', `/api/v1/deployments/${deploymentId}/environments/${production.id}/tokens`, { body: { security_context: { groups: ['marketing'] } } });
    expect(minted.status).toBe(200);
    const envToken: string = minted.body.data?.token ?? minted.body.token;
    const rows = (await cube(envToken, { apiUrl }).load({ measures: ['customers.count'], dimensions: ['customers.country'] })).tablePivot();
    expect(rows.map((r) => r['customers.country']).sort()).toEqual(['CA', 'US']);
    // It opens the data API only, not the management API.
    const management = await fetch(`${svc.url}/api/v1/deployments/${deploymentId}`, { headers: { Authorization: `Bearer ${envToken}` } });
    expect(management.status).toBe(401);
  });

  it('needs a credential, and a deployment token opens only its own deployment', async () => {
    const none = await fetch(`${apiUrl}/meta`);
    expect(none.status).toBe(401);
    const other = await createDeployment(svc);
    const res = await fetch(`${svc.url}/deployments/${other}/cubejs-api/v1/meta`, { headers: { Authorization: token } });
    expect(res.status).toBe(403);
  });
});

describe('meta names what access policies hide (Drydock extension, issue 24)', () => {
  const HIDDEN = 'x-drydock-hiddenByAccessPolicy';

  it('a signed-in user in no group the policies name learns that the customers cube and the customer directory are hidden, and from whom they are visible', async () => {
    const res = await svc.call('GET', `/deployments/${deploymentId}/cubejs-api/v1/meta`);
    expect(res.status).toBe(200);
    expect(res.body.cubes.map((c: { name: string }) => c.name)).not.toContain('customers');
    expect(res.body[HIDDEN]).toEqual(
      expect.arrayContaining([
        { name: 'customers', title: 'Customers', type: 'cube', visibleTo: ['support', 'marketing'] },
        { name: 'customer_directory', title: 'Customer directory', type: 'view', visibleTo: ['support'] },
      ]),
    );
    expect(res.body[HIDDEN]).toHaveLength(2);
    const views = await svc.call('GET', `/deployments/${deploymentId}/cubejs-api/v1/meta?onlyViews=true`);
    expect(views.body[HIDDEN].map((h: { name: string }) => h.name)).toEqual(['customer_directory']);
  });

  it('a group a policy names shows the item again, and it leaves the hidden list', async () => {
    const user = createUser(svc, 'viewer');
    expect((await svc.call('POST', '/api/v1/groups', { body: { name: 'marketing-meta', userIds: [user.id] } })).status).toBe(201);
    expect((await svc.call('POST', '/api/v1/groups', { body: { name: 'support', userIds: [user.id] } })).status).toBe(201);
    const res = await svc.call('GET', `/deployments/${deploymentId}/cubejs-api/v1/meta`, { auth: user.auth });
    expect(res.status).toBe(200);
    expect(res.body.cubes.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['customers', 'customer_directory']));
    expect(res.body[HIDDEN]).toEqual([]);
  });

  it('tokens made for data access get the platform’s shape alone (no extension)', async () => {
    const res = await fetch(`${apiUrl}/meta`, { headers: { Authorization: token } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['cubes']);
  });
});

describe('dev-mode branches', () => {
  it('serve the branch with its uncommitted edits, while the deploy branch keeps its own model', async () => {
    const dev = await svc.call('POST', `/build/api/v1/deployments/${deploymentId}/dev-mode`);
    expect(dev.status).toBe(200);
    const branch: string = dev.body.branch.branchName;
    const file = await svc.call('GET', `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=${encodeURIComponent(branch)}&path=model/cubes/orders.yml`);
    expect(file.status, file.text).toBe(200);
    const content: string = file.body.content;
    const edited = content.replace('      - name: completed_count', '      - name: returned_count\n        type: count\n        filters:\n          - sql: "{CUBE}.status = \'returned\'"\n\n      - name: completed_count');
    expect(edited).not.toBe(content);
    const put = await svc.call('PUT', `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=${encodeURIComponent(branch)}`, { body: { files: [{ path: 'model/cubes/orders.yml', content: edited }] } });
    expect(put.status).toBe(200);
    const devApi = cube(token, { apiUrl: `${svc.url}/deployments/${deploymentId}/dev-mode/${encodeURIComponent(branch)}/cubejs-api/v1` });
    const rows = (await devApi.load({ measures: ['orders.returned_count'] })).tablePivot();
    const [[n]] = await warehouseSql("SELECT COUNT(*) FROM ecommerce.orders WHERE status = 'returned'");
    expect(Number(rows[0]!['orders.returned_count'])).toBe(Number(n));
    await expect(cube(token, { apiUrl }).load({ measures: ['orders.returned_count'] })).rejects.toThrow(/returned_count/);
  });

  it('a branch whose model has errors answers 422 MODEL_INVALID naming the first error, and answers again once fixed', async () => {
    const dev = await svc.call('POST', `/build/api/v1/deployments/${deploymentId}/dev-mode`);
    expect(dev.status).toBe(200);
    const branch = encodeURIComponent(dev.body.branch.branchName as string);
    const path = `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=${branch}`;
    const broken = { path: 'model/cubes/broken.yml', content: 'cubes:\n  - name: broken\n    sql_table: ecommerce.orders\n    joins:\n      - name: nowhere\n        sql: "{CUBE}.id = {nowhere.id}"\n        relationship: many_to_one\n' };
    const put = await svc.call('PUT', path, { body: { files: [broken] } });
    expect(put.status, put.text).toBe(200);
    const load = (query: object) =>
      svc.call('POST', `/deployments/${deploymentId}/dev-mode/${branch}/cubejs-api/v1/load`, { body: { query }, headers: { authorization: token } });
    const refused = await load({ measures: ['orders.count'] });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/model\/cubes\/broken\.yml:\d+/);
    expect((await svc.call('DELETE', `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=${branch}&path=model/cubes/broken.yml`)).status).toBeLessThan(300);
    let answered = await load({ measures: ['orders.count'] });
    for (let i = 0; answered.status !== 200 && i < 100 && answered.body?.error === 'Continue wait'; i++) answered = await load({ measures: ['orders.count'] });
    expect(answered.status, answered.text).toBe(200);
  });
});
