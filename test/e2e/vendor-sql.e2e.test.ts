// Models > Data in the vendors' own SQL, against a real `drydock serve` in chromium: the sample
// model's product_sales view pushed to the local warehouse and its lakehouse view order_trends published,
// then a SEMANTIC_VIEW(...) and a MEASURE() statement written in the editor, their answers in the
// table and chart, "Compare with model" saying the numbers match, a refusal in plain words with the
// vendor's message, and a long statement cancelled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createDeployment, loadFromModel, screenshot, startE2E, type E2E } from './support';

let e2e: E2E;
let deploymentId: number;

const D = () => `/api/v1/deployments/${deploymentId}`;

async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** product_sales pushed to the warehouse as ANALYTICS.PUBLIC.SV_PRODUCT_SALES; the lakehouse view order_trends published as main.default.mv_order_trends. */
async function pushAndPublish(): Promise<void> {
  const push = await e2e.server.api('POST', `${D()}/warehouse-semantic-view-syncs`, { schema: 'PUBLIC', prefix: 'SV_', viewNames: ['product_sales'] });
  expect(push.status, JSON.stringify(push.body)).toBe(202);
  const jobId = (push.body as { syncJobId: string }).syncJobId;
  await until('the push', async () => {
    const job = (await e2e.server.api('GET', `${D()}/warehouse-semantic-view-syncs/${jobId}`)).body as { status: string };
    if (['QUEUED', 'PENDING', 'RUNNING'].includes(job.status)) return undefined;
    expect(job.status).toBe('COMPLETED');
    return true;
  });
  const integration = `${D()}/lakehouse-metric-view-integrations/lake`;
  const saved = await e2e.server.api('PUT', integration, {
    expectedConfigurationVersion: 0,
    configuration: { enabled: true, selectionMode: 'selected', selectedViews: ['order_trends'], targetCatalog: 'main', targetSchema: 'default', targetNamePrefix: 'mv_' },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const run = await e2e.server.api('POST', `${integration}/syncs`, { configurationVersion: (saved.body as { configurationVersion: number }).configurationVersion });
  expect(run.status, JSON.stringify(run.body)).toBe(202);
  await until('the publication', async () => {
    const status = (await e2e.server.api('GET', (run.body as { statusUrl: string }).statusUrl)).body as { status: string };
    if (!['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'].includes(status.status)) return undefined;
    expect(status.status).toBe('COMPLETED');
    return true;
  });
}

/** The statement shown in the editor (Monaco draws spaces as no-break spaces). */
const editorText = async (page: Page) => (await page.locator('.vendor-editor .view-lines').innerText()).replace(/\u00a0/g, ' ');

/** Replaces the statement in the Monaco editor (inserted as text: no auto-closed brackets). */
async function writeSql(page: Page, sql: string): Promise<void> {
  await page.locator('.vendor-editor .monaco-editor .view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
}

beforeAll(async () => {
  e2e = await startE2E({ env: { DRYDOCK_SAMPLE_ORDERS: '800' } });
  deploymentId = await createDeployment(e2e.server, 'vendor-sql-e2e');
  await pushAndPublish();
}, 300_000);
afterAll(async () => {
  await e2e?.teardown();
});

describe('Models > Data > Vendor SQL', () => {
  it('a SEMANTIC_VIEW statement on the local warehouse answers in the table, and Compare with model says the numbers match', async () => {
    const page = e2e.page;
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.goto(`${e2e.server.url}/models/${deploymentId}/data`);
    await page.getByRole('button', { name: 'Vendor SQL' }).click();
    const targets = page.getByRole('complementary', { name: 'Targets' });
    await targets.getByRole('button', { name: /ANALYTICS\.PUBLIC\.SV_PRODUCT_SALES/i }).click();
    await expect.poll(() => editorText(page)).toMatch(/SEMANTIC_VIEW\(\s*ANALYTICS\.PUBLIC\.SV_PRODUCT_SALES\s+METRICS \w+\.\w+\s+DIMENSIONS \w+\.\w+/i);

    await writeSql(page, 'SELECT * FROM SEMANTIC_VIEW(ANALYTICS.PUBLIC.SV_PRODUCT_SALES METRICS line_items.revenue, line_items.units_sold DIMENSIONS orders.order_status) ORDER BY order_status');
    await page.getByRole('button', { name: 'Run SQL' }).click();
    const table = page.getByRole('table', { name: 'Query result' });
    await table.getByRole('row').nth(2).waitFor();
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['REVENUE', 'UNITS_SOLD', 'ORDER_STATUS']);
    const expected = await loadFromModel(e2e.server, deploymentId, { measures: ['product_sales.units_sold'], dimensions: ['product_sales.order_status'] });
    expect(await table.getByRole('row').count()).toBe(1 + expected.length);
    for (const row of expected) {
      const line = (await table.getByRole('row').allInnerTexts()).find((text) => text.includes(row['product_sales.order_status']!));
      expect(line!.replace(/[\s,]/g, '')).toContain(String(row['product_sales.units_sold']));
    }

    await page.getByRole('button', { name: 'Compare with model' }).click();
    const report = page.getByRole('status', { name: 'Comparison with the model' });
    await report.filter({ hasText: new RegExp(`The numbers match\\.\\s+All ${expected.length} rows equal the model query over view product_sales`) }).waitFor();

    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'vendor-sql-semantic-view-1024');
    await page.setViewportSize({ width: 1600, height: 1000 });
    await screenshot(page, 'vendor-sql-semantic-view-1600');
  });

  it('the warehouse’s refusal is shown in plain words with its own message', async () => {
    const page = e2e.page;
    await writeSql(page, 'SELECT * FROM SEMANTIC_VIEW(ANALYTICS.PUBLIC.SV_PRODUCT_SALES METRICS line_items.nope)');
    await page.getByRole('button', { name: 'Run SQL' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'refused the statement' });
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.innerText()).toMatch(/default \(local warehouse · Snowflake SQL\) refused the statement[\s\S]*invalid identifier 'LINE_ITEMS\.NOPE'[\s\S]*vendor error WAREHOUSE_SYNTAX_ERROR/);
  });

  it('a MEASURE() statement on the local lakehouse draws a chart and matches the model', async () => {
    const page = e2e.page;
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.getByLabel('Data source').selectOption('lake');
    await page.getByRole('complementary', { name: 'Targets' }).getByRole('button', { name: /main\.default\.mv_order_trends/ }).click();
    await expect.poll(() => editorText(page)).toMatch(/MEASURE\(\w+\)\s*FROM main\.default\.mv_order_trends\s*GROUP BY ALL/);
    await writeSql(page, "SELECT status, MEASURE(revenue) FROM main.default.mv_order_trends WHERE status <> 'returned' GROUP BY ALL ORDER BY status");
    // Ctrl+Enter right after typing runs what was typed (not the template the last render knew).
    await page.keyboard.press('Control+Enter');
    const table = page.getByRole('table', { name: 'Query result' });
    // The first statement on the lakehouse opens its data (and makes the sample rows): allow for it.
    // Waits for the answer or a refusal, whichever comes, so that a failure says what was shown.
    const answered = page.getByRole('status').filter({ hasText: /rows? in \d+ ms · local lakehouse/ });
    const refusal = page.locator('.data-main').getByRole('alert');
    await answered.or(refusal).first().waitFor({ timeout: 90_000 });
    expect(await refusal.allInnerTexts()).toEqual([]);
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['status', 'measure(revenue)']);
    await page.getByRole('button', { name: 'Compare with model' }).click();
    await page.getByRole('status', { name: 'Comparison with the model' }).filter({ hasText: /The numbers match/ }).waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'Chart' }).click();
    const chart = page.getByRole('img', { name: /Statement result: bar chart of measure\(revenue\)/ });
    await chart.locator('svg').waitFor();
    expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(1);
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'vendor-sql-measure-chart-1024');
    await page.setViewportSize({ width: 1600, height: 1000 });
    await screenshot(page, 'vendor-sql-measure-chart-1600');
  });

  it('a long statement can be cancelled: the UI says so and is ready for the next one', async () => {
    const page = e2e.page;
    await page.getByLabel('Data source').selectOption('default');
    await writeSql(page, 'SELECT count(*) AS n FROM ANALYTICS.ecommerce.orders a, ANALYTICS.ecommerce.orders b, ANALYTICS.ecommerce.orders c, ANALYTICS.ecommerce.orders d');
    await page.getByRole('button', { name: 'Run SQL' }).click();
    await page.getByRole('status', { name: 'Statement progress' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alert').filter({ hasText: 'Cancelled' }).waitFor();
    expect(await page.getByRole('status', { name: 'Statement progress' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Run SQL' }).isEnabled()).toBe(true);
  });
});
