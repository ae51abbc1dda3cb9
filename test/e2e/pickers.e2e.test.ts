import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment, screenshot, startE2E, type E2E } from './support';

/**
 * Issue 14 item 6 in a real browser against `drydock serve`: schema fields list the schemas that
 * exist in the data source (asked of the local warehouse and lakehouse emulators), the one picked
 * is what the push uses, and a failed job says why in plain words with its code behind "details".
 */

interface SyncJobBody {
  syncJobId: string;
  status: string;
  request: { schema?: string };
  error?: { code: string; message: string };
}

let e2e: E2E;
let deploymentId: number;
const JOB_TIMEOUT = 60_000;

/** The list and the toggle button of a combobox field (found from the field, so two pickers in one form do not mix). */
async function listOf(field: Locator): Promise<{ list: Locator; show: Locator; options: Locator }> {
  const id = await field.getAttribute('aria-controls');
  const list = field.page().locator(`[id="${id}"]`);
  return { list, show: field.locator('xpath=..').getByRole('button', { name: 'Show choices' }), options: list.getByRole('option') };
}
/** A schema the warehouse role owns that is not PUBLIC: made by a dev-mode push (which creates its per-user schema). */
let SCHEMA = '';

const base = () => `/api/v1/deployments/${deploymentId}`;

async function job(id: string): Promise<SyncJobBody> {
  const res = await e2e.server.api('GET', `${base()}/warehouse-semantic-view-syncs/${encodeURIComponent(id)}`);
  expect(res.status).toBe(200);
  return res.body as SyncJobBody;
}

async function newestJob(): Promise<SyncJobBody> {
  const res = await e2e.server.api('GET', `${base()}/warehouse-semantic-view-syncs?first=1`);
  expect(res.status).toBe(200);
  return (res.body as { items: SyncJobBody[] }).items[0]!;
}

async function schemasOf(dataSource: string): Promise<{ catalog: string; catalogs: string[]; schemas: string[] }> {
  const res = await e2e.server.api('GET', `${base()}/data-sources/${dataSource}/schemas`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { catalog: string; catalogs: string[]; schemas: string[] };
}

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'pickers-e2e', 'git');
  const { server } = e2e;
  const dev = await server.api('POST', `/build/api/v1/deployments/${deploymentId}/dev-mode`);
  expect(dev.status).toBe(200);
  const devBranch = (dev.body as { branch: { branchName: string } }).branch.branchName;
  const push = await server.api('POST', `${base()}/warehouse-semantic-view-syncs`, { schema: 'MARTS', prefix: '', viewNames: ['product_sales'], branchName: devBranch });
  expect(push.status, JSON.stringify(push.body)).toBe(202);
  const id = (push.body as { syncJobId: string }).syncJobId;
  // expect.poll runs inside tests only: wait for the job by hand.
  const until = Date.now() + JOB_TIMEOUT;
  while ((await job(id)).status !== 'COMPLETED' && Date.now() < until) await new Promise((r) => setTimeout(r, 500));
  expect((await job(id)).status).toBe('COMPLETED');
  SCHEMA = ((await server.api('GET', `${base()}/warehouse-semantic-view-syncs/${encodeURIComponent(id)}/result`)).body as { schema: string }).schema;
  expect(SCHEMA).toMatch(/^MARTS_DEV_/);
  expect((await server.api('DELETE', `/build/api/v1/deployments/${deploymentId}/dev-mode`)).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await e2e?.teardown();
});

describe('schema fields list what exists in the data source', () => {
  it('the push dialog lists the warehouse’s schemas, flags one that is not there, and the push goes to the one picked', async () => {
    const { page, server } = e2e;
    const listed = await schemasOf('default');
    expect(listed.schemas).toContain(SCHEMA);
    expect(listed.schemas).toContain('PUBLIC');

    await page.goto(`${server.url}/syncs/${deploymentId}/warehouse`);
    await page.getByRole('button', { name: 'Push to warehouse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Push views to the warehouse' });
    const field = dialog.getByRole('combobox', { name: 'Schema' });
    // Filled in from the warehouse: PUBLIC, which exists there.
    await expect.poll(() => field.inputValue(), { timeout: JOB_TIMEOUT }).toBe('PUBLIC');

    const { list, show, options } = await listOf(field);
    await show.click();
    await list.waitFor();
    await expect(options.allInnerTexts()).resolves.toEqual(listed.schemas);
    await screenshot(page, 'pickers-push-schema-list');

    // A name that is not in the warehouse is said to be so (typing stays possible).
    await field.fill('NO_SUCH_SCHEMA');
    await dialog.getByText(/NO_SUCH_SCHEMA\s*is not a schema in ANALYTICS of data source default; the push would fail/).waitFor();
    // Typing filters the list; a click picks.
    await field.fill('marts_dev');
    await expect(options.allInnerTexts()).resolves.toEqual([SCHEMA]);
    await list.getByRole('option', { name: SCHEMA }).click();
    await expect(field.inputValue()).resolves.toBe(SCHEMA);
    await expect(dialog.getByText(/is not a schema in/).count()).resolves.toBe(0);

    await dialog.getByRole('checkbox', { name: 'product_sales', exact: true }).check();
    await dialog.getByRole('region', { name: 'Push target' }).getByText(new RegExp(`ANALYTICS\\.${SCHEMA}\\.PRODUCT_SALES`, 'i')).waitFor();
    await dialog.getByRole('button', { name: 'Start push' }).click();
    await dialog.waitFor({ state: 'detached' });

    const started = await newestJob();
    expect(started.request.schema).toBe(SCHEMA);
    await expect.poll(async () => (await job(started.syncJobId)).status, { timeout: JOB_TIMEOUT }).toBe('COMPLETED');
    const result = await server.api('GET', `${base()}/warehouse-semantic-view-syncs/${encodeURIComponent(started.syncJobId)}/result`);
    expect(result.status).toBe(200);
    const body = result.body as { schema: string; views: { qualifiedName: string }[] };
    expect(body.schema).toBe(SCHEMA);
    expect(body.views[0]!.qualifiedName.toUpperCase()).toBe(`ANALYTICS.${SCHEMA}.PRODUCT_SALES`);
    expect(e2e.problems).toEqual([]);
  });

  it('the pull dialog picks from the same schemas with the keyboard', async () => {
    const { page, server } = e2e;
    const listed = await schemasOf('default');
    await page.goto(`${server.url}/syncs/${deploymentId}/warehouse`);
    await page.getByRole('button', { name: 'Pull from warehouse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pull semantic views into model files' });
    const field = dialog.getByRole('combobox', { name: 'Schema' });
    await expect.poll(() => field.inputValue(), { timeout: JOB_TIMEOUT }).toBe('PUBLIC');
    await field.fill('');
    await field.press('ArrowDown');
    await expect((await listOf(field)).options.allInnerTexts()).resolves.toEqual(listed.schemas);
    await field.fill('MARTS');
    await field.press('ArrowDown');
    await field.press('ArrowUp');
    await field.press('Enter');
    await expect(field.inputValue()).resolves.toBe(SCHEMA);
    // Enter picked, it did not submit: the dialog is still open, and Escape closes the list first.
    await field.press('ArrowDown');
    await field.press('Escape');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(e2e.problems).toEqual([]);
  });

  it('the publication settings list the lakehouse’s catalogs and the schemas of the chosen catalog', async () => {
    const { page, server } = e2e;
    const lake = await schemasOf('lake');
    await page.goto(`${server.url}/syncs/${deploymentId}/lakehouse/lake/settings`);
    const form = page.getByRole('form', { name: 'Publication settings' });
    const catalog = form.getByRole('combobox', { name: 'Catalog' });
    await catalog.waitFor({ timeout: JOB_TIMEOUT });
    await catalog.fill(lake.catalog);
    const catalogs = await listOf(catalog);
    await catalogs.show.click();
    await expect(catalogs.options.allInnerTexts()).resolves.toEqual(lake.catalogs);
    await catalog.press('Escape');
    const schema = form.getByRole('combobox', { name: 'Schema' });
    await schema.fill('');
    const { show, options } = await listOf(schema);
    await show.click();
    await expect.poll(() => options.allInnerTexts(), { timeout: JOB_TIMEOUT }).toEqual(lake.schemas);
    await options.filter({ hasText: lake.schemas[0]! }).first().click();
    await expect(schema.inputValue()).resolves.toBe(lake.schemas[0]);
    await form.getByText(`${lake.catalog}.${lake.schemas[0]}.`, { exact: false }).first().waitFor();
    // A catalog that does not exist: flagged under the field, and the schema list says why it is empty.
    await catalog.fill('no_such_catalog');
    await form.getByText(/no_such_catalog\s*is not a catalog in data source lake/).waitFor();
    await form.getByText(/Listing the schemas of no_such_catalog failed: the lakehouse has no such catalog/).waitFor({ timeout: JOB_TIMEOUT });
    await screenshot(page, 'pickers-lakehouse-settings');
    expect(e2e.problems.filter((p) => !/404/.test(p))).toEqual([]);
  });
});

describe('a failed job says why in plain words, its code behind details', () => {
  it('the notification and the job history show the plain words; the problem code only behind details', async () => {
    const { page, server } = e2e;
    const off = await server.api('PUT', base(), { sqlRunnerDdlEnabled: false });
    expect(off.status).toBe(200);
    try {
      await page.goto(`${server.url}/syncs/${deploymentId}/warehouse`);
      await page.getByRole('button', { name: 'Push to warehouse…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Push views to the warehouse' });
      await expect.poll(() => dialog.getByRole('combobox', { name: 'Schema' }).inputValue(), { timeout: JOB_TIMEOUT }).toBe('PUBLIC');
      await dialog.getByRole('checkbox', { name: 'product_sales', exact: true }).check();
      await dialog.getByRole('button', { name: 'Start push' }).click();
      await dialog.waitFor({ state: 'detached' });
      const failed = await newestJob();
      await expect.poll(async () => (await job(failed.syncJobId)).status, { timeout: JOB_TIMEOUT }).toBe('FAILED');
      expect((await job(failed.syncJobId)).error?.code).toBe('SQL_RUNNER_DDL_DISABLED');

      // The notification: plain words and the fix; the code only once Details is opened.
      const toast = page.getByRole('status', { name: 'Notifications' }).locator('.toast').filter({ hasText: 'Push failed' }).first();
      await toast.getByText(/The warehouse does not allow creating views from here\. Ask the warehouse admin/).waitFor({ timeout: JOB_TIMEOUT });
      const code = toast.getByText('SQL_RUNNER_DDL_DISABLED');
      await expect(code.isVisible()).resolves.toBe(false);
      await toast.getByText('Details', { exact: true }).click();
      await code.waitFor();
      await screenshot(page, 'pickers-failed-notification');

      // The history row: plain words; the code behind "details", which opens without leaving the list.
      const row = page.locator(`tr[data-job-id="${failed.syncJobId}"]`);
      await row.getByText('The warehouse does not allow creating views from here.').waitFor({ timeout: JOB_TIMEOUT });
      const rowCode = row.getByText('SQL_RUNNER_DDL_DISABLED');
      await expect(rowCode.isVisible()).resolves.toBe(false);
      await row.getByText('details', { exact: true }).click();
      await rowCode.waitFor();
      expect(new URL(page.url()).pathname).toBe(`/syncs/${deploymentId}/warehouse`);
      await screenshot(page, 'pickers-failed-history');
    } finally {
      await server.api('PUT', base(), { sqlRunnerDdlEnabled: true });
    }
    expect(e2e.problems).toEqual([]);
  });
});
