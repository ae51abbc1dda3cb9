// Seeing the data: the Models data preview (pick members, run, table, chart, SQL) and a dashboard
// whose charts draw their queries' real results — against a real `drydock serve` in chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createDeployment, loadFromModel, screenshot, startE2E, type E2E } from './support';

let e2e: E2E;
let deploymentId: number;

const pos = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });

/** The model's own answer through the data API, to compare what the UI shows with. */
const load = (query: unknown) => loadFromModel(e2e.server, deploymentId, query);

beforeAll(async () => {
  e2e = await startE2E({ env: { DRYDOCK_SAMPLE_ORDERS: '2000' } });
  deploymentId = await createDeployment(e2e.server, 'data-e2e');
});
afterAll(async () => {
  await e2e?.teardown();
});

const grow = async (page: Page) => page.setViewportSize({ width: 1360, height: 900 });

describe('Models > Data', () => {
  it('runs a picked query and shows its rows, a chart and the generated SQL', async () => {
    const page = e2e.page;
    await grow(page);
    await page.goto(`${e2e.server.url}/models/${deploymentId}/data`);
    const picker = page.getByRole('complementary', { name: 'Members' });
    await picker.locator('summary', { hasText: 'Orders overview' }).waitFor();
    await picker.getByLabel('Find a member').fill('orders.');
    await picker.getByRole('checkbox', { name: 'orders.count', exact: true }).check();
    await picker.getByRole('checkbox', { name: 'orders.total_amount', exact: true }).check();
    await picker.getByRole('checkbox', { name: 'orders.status', exact: true }).check();
    await page.getByRole('button', { name: 'Run query' }).click();

    const table = page.getByRole('table', { name: 'Query result' });
    await table.getByRole('row').nth(4).waitFor();
    const expected = await load({ measures: ['orders.count', 'orders.total_amount'], dimensions: ['orders.status'], limit: 1000 });
    const shown = await table.getByRole('row').allInnerTexts();
    expect(shown).toHaveLength(1 + expected.length);
    for (const row of expected) {
      const line = shown.find((text) => text.startsWith(row['orders.status']!));
      expect(line, `row of ${row['orders.status']}`).toBeTruthy();
      expect(line!.replace(/[\s,]/g, '')).toContain(String(row['orders.count']));
    }
    await expect.poll(() => page.getByRole('status').filter({ hasText: /4 rows in \d+ ms/ }).count()).toBe(1);
    await screenshot(page, 'data-preview-table');

    await page.getByRole('tab', { name: 'Chart' }).click();
    const chart = page.getByRole('img', { name: /Query result: bar chart of Count, Total Amount/ });
    await chart.locator('svg').waitFor();
    expect(await chart.getAttribute('data-points')).toBe('4');
    await screenshot(page, 'data-preview-chart');

    await page.getByRole('tab', { name: 'SQL' }).click();
    await expect.poll(() => page.getByLabel('Generated SQL').innerText()).toMatch(/SELECT "orders"\.status AS "orders__status", COUNT\("orders"\.id\)/);
  });

  it('a query the model cannot answer shows the reason; the JSON editor runs typed queries', async () => {
    const page = e2e.page;
    await page.getByRole('button', { name: 'Edit as JSON' }).click();
    await page.getByLabel('Query JSON').fill(JSON.stringify({ measures: ['orders.count'], dimensions: ['orders.nope'] }));
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => page.getByRole('alert').first().innerText()).toMatch(/cube 'orders' has no measure, dimension or segment named 'nope'/);

    await page.getByLabel('Query JSON').fill(JSON.stringify({ measures: ['line_items.revenue'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'quarter' }] }));
    await page.getByRole('button', { name: 'Run query' }).click();
    const table = page.getByRole('table', { name: 'Query result' });
    await page.getByRole('tab', { name: 'Table' }).click();
    await table.getByRole('row').nth(8).waitFor();
    const expected = await load({ measures: ['line_items.revenue'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'quarter' }] });
    expect(await table.getByRole('row').count()).toBe(1 + expected.length);
  });
});

describe('dashboards with real numbers', () => {
  it('draws each chart from its query, the KPI with the real total, and says why a failing query has no numbers', async () => {
    const dashboard = {
      title: 'Shop overview',
      kind: 'CLASSIC',
      layout: { cols: { lg: 12 }, rowHeight: 40, margin: [10, 10] },
      widgets: [
        { id: 'kpi', type: 'CHART', position: pos(0, 0, 4, 3), config: { title: 'Revenue', chartType: 'number', query: { measures: ['orders.total_amount'] } } },
        { id: 'status', type: 'CHART', position: pos(4, 0, 8, 6), config: { title: 'Orders by status', chartType: 'bar', query: { measures: ['orders.count'], dimensions: ['orders.status'] } } },
        {
          id: 'trend',
          type: 'CHART',
          position: pos(0, 6, 8, 6),
          config: { title: 'Orders per month', chartType: 'line', query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }] } },
        },
        { id: 'top', type: 'CHART', position: pos(8, 6, 4, 6), config: { title: 'By category', chartType: 'table', query: { measures: ['product_sales.revenue'], dimensions: ['product_sales.category_department'] } } },
        { id: 'broken', type: 'CHART', position: pos(0, 3, 4, 3), config: { title: 'Broken', chartType: 'bar', query: { measures: ['orders.margin'] } } },
      ],
    };
    const created = await e2e.server.api('POST', `/api/v1/deployments/${deploymentId}/workbooks`, { name: 'Shop overview', slug: 'shop-overview', dashboardDraft: dashboard });
    expect(created.status).toBe(201);
    const workbookId = (created.body as { id: number }).id;
    expect((await e2e.server.api('POST', `/api/v1/deployments/${deploymentId}/workbooks/${workbookId}/publish`)).status).toBe(200);

    const page = e2e.page;
    await page.goto(`${e2e.server.url}/workbooks/${deploymentId}/${workbookId}/published`);
    const grid = page.getByRole('list', { name: 'Published dashboard widgets' });
    const [total] = await load({ measures: ['orders.total_amount'] });
    const kpi = grid.getByLabel(/^Revenue: /);
    await kpi.waitFor();
    expect(await kpi.getAttribute('aria-label')).toBe(`Revenue: ${Number(total!['orders.total_amount'])}`);
    await grid.getByRole('img', { name: /Orders by status: bar chart of Count/ }).locator('svg').waitFor();
    const trend = grid.getByRole('img', { name: /Orders per month: line chart of Count/ });
    await trend.locator('svg').waitFor();
    const months = await load({ measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }] });
    expect(await trend.getAttribute('data-points')).toBe(String(months.length));
    await expect.poll(() => grid.getByRole('table', { name: 'By category' }).getByRole('row').count()).toBeGreaterThan(3);
    await expect.poll(() => grid.getByRole('alert').innerText()).toMatch(/query failed: .*orders\.margin.*no measure/);
    await screenshot(page, 'dashboard-real-data');
  });
});
