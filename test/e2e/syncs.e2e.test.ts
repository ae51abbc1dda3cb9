import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment, screenshot, startE2E, tallScreenshot, type E2E } from './support';

/**
 * The Syncs screen's warehouse tab against a real `drydock serve`: a new deployment holds the
 * sample project and a warehouse data source `default` on the local Snowflake emulator.
 */

interface SyncJobBody {
  syncJobId: string;
  direction: 'push' | 'pull';
  status: string;
  error?: { code: string; message: string };
}
interface PushResultBody {
  viewCount: number;
  views: { viewName: string; semanticViewName: string; ddl: string }[];
}

let e2e: E2E;
let deploymentId: number;

const JOB_TIMEOUT = 30_000;

async function jobs(): Promise<SyncJobBody[]> {
  const res = await e2e.server.api('GET', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs?first=100`);
  expect(res.status).toBe(200);
  return (res.body as { items: SyncJobBody[] }).items;
}

/** The app scrolls inside its main pane: a taller window shows more of it in one screenshot. */
const tallShot = (name: string, height = 1200) => tallScreenshot(e2e.page, name, height);

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'syncs-e2e', 'git');
});
afterAll(async () => {
  await e2e?.teardown();
});

describe('Syncs screen: warehouse semantic view push and pull in a real browser', () => {
  it('starts a push of a model view from the dialog and watches it reach COMPLETED in the live list', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/syncs/${deploymentId}/warehouse`);
    await page.getByText('No sync jobs yet').waitFor();

    await page.getByRole('button', { name: 'Push to warehouse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Push views to the warehouse' });
    // The view picker lists the model's views, compiled from the deploy branch; unpushable ones are marked.
    const productSales = dialog.getByRole('checkbox', { name: 'product_sales', exact: true });
    await productSales.waitFor();
    await expect(dialog.getByText('not pushable').count()).resolves.toBeGreaterThan(0);
    await productSales.check();
    await dialog.getByLabel('Schema').fill('PUBLIC');
    await dialog.getByLabel('Prefix').fill('SV_');
    await expect(dialog.getByText('SV_product_sales', { exact: true }).count()).resolves.toBe(1);
    // Before it starts, the dialog names what the push will create, in the schema asked for.
    await expect(dialog.getByRole('region', { name: 'Push target' }).innerText()).resolves.toMatch(/Will create \S+\.PUBLIC\.\S*SV_product_sales/i);
    await screenshot(page, 'syncs-push-dialog');
    await dialog.getByRole('button', { name: 'Start push' }).click();
    await dialog.waitFor({ state: 'detached' });

    const table = page.getByRole('table', { name: 'Sync jobs' });
    const row = table.getByRole('row').filter({ hasText: 'product_sales' });
    await row.waitFor();
    await row.getByText(/^(COMPLETED|FAILED|CANCELLED)$/).waitFor({ timeout: JOB_TIMEOUT });
    const [job] = await jobs();
    expect(job.direction).toBe('push');
    expect(job.status, `the push ended ${job.status}: ${job.error?.code} ${job.error?.message}`).toBe('COMPLETED');
    await expect(row.getByRole('progressbar').getAttribute('aria-valuenow')).resolves.toBe('100');
    // The browser has no desktop bridge: the end of the job is announced with an in-app toast.
    await page.getByRole('status', { name: 'Notifications' }).getByText('Push completed').waitFor();
    await screenshot(page, 'syncs-jobs-completed');
  });

  it('opens the job detail and shows the result with the generated DDL per view', async () => {
    const { page, server } = e2e;
    const [job] = await jobs();
    const result = await server.api('GET', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs/${job.syncJobId}/result`);
    expect(result.status).toBe(200);
    const body = result.body as PushResultBody;

    await page.getByRole('table', { name: 'Sync jobs' }).getByRole('row').filter({ hasText: 'product_sales' }).click();
    await page.waitForURL(new RegExp(`/syncs/${deploymentId}/warehouse/push/${job.syncJobId}$`));
    const resultPanel = page.getByRole('region', { name: 'Result' });
    await resultPanel.waitFor();
    await resultPanel.getByRole('table', { name: 'Pushed views' }).getByRole('row').filter({ hasText: body.views[0].semanticViewName }).waitFor();

    // The DDL is in a read-only code view (Monaco renders it as text lines).
    const ddl = page.getByRole('region', { name: 'DDL of product_sales' });
    await ddl.locator('.view-lines').waitFor();
    await expect.poll(async () => (await ddl.locator('.view-lines').innerText()).replace(/\s+/g, ' ')).toContain('CREATE OR REPLACE SEMANTIC VIEW');
    const firstLine = body.views[0].ddl.split('\n')[0].trim();
    await expect.poll(async () => (await ddl.locator('.view-lines').innerText()).replace(/\s+/g, ' ')).toContain(firstLine.replace(/\s+/g, ' '));
    await tallShot('syncs-job-detail-ddl', 1300);
  });

  it('pulls the pushed semantic view back into model files on the deploy branch', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/syncs/${deploymentId}/warehouse`);
    await page.getByRole('button', { name: 'Pull from warehouse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pull semantic views into model files' });
    await dialog.getByLabel('Semantic views').fill('SV_*');
    await dialog.getByLabel('Output folder').fill('model/pulled');
    await dialog.getByRole('button', { name: 'Start pull' }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByRole('table', { name: 'Sync jobs' }).getByRole('row').filter({ hasText: 'Pull' });
    await row.getByText('COMPLETED').waitFor({ timeout: JOB_TIMEOUT });
    await row.click();
    const files = page.getByRole('table', { name: 'Generated files' });
    await files.waitFor();
    await expect(files.textContent()).resolves.toMatch(/model\/pulled\/.+\.ya?ml/);
    const pull = (await jobs()).find((j) => j.direction === 'pull')!;
    const res = await server.api('GET', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-pulls/${pull.syncJobId}/result`);
    expect((res.body as { generatedFiles: unknown[] }).generatedFiles.length).toBeGreaterThan(0);
    await tallShot('syncs-pull-detail');
  });

  it('shows the problem code and detail of a push that failed because DDL is disabled', async () => {
    const { page, server } = e2e;
    const off = await server.api('PUT', `/api/v1/deployments/${deploymentId}`, { sqlRunnerDdlEnabled: false });
    expect(off.status).toBe(200);
    await page.goto(`${server.url}/syncs/${deploymentId}/warehouse`);
    await page.getByText(/DDL operations are disabled for this deployment/).waitFor();

    await page.getByRole('button', { name: 'Push to warehouse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Push views to the warehouse' });
    await dialog.getByRole('checkbox', { name: 'product_sales', exact: true }).check();
    await dialog.getByRole('button', { name: 'Start push' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Newest first: the failed push is the first row.
    const row = page.getByRole('table', { name: 'Sync jobs' }).getByRole('row').nth(1);
    await row.getByText('FAILED').waitFor({ timeout: JOB_TIMEOUT });
    await page.getByRole('status', { name: 'Notifications' }).getByText('Push failed').first().waitFor();
    // The status filter asks the service for failed jobs only.
    const failedCount = (await jobs()).filter((j) => j.status === 'FAILED').length;
    await page.getByRole('button', { name: 'Failed', exact: true }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Sync jobs' }).getByRole('row').count()).toBe(failedCount + 1);
    await row.click();
    const error = page.getByRole('region', { name: 'Error' });
    // Plain words first; the code behind Details.
    await error.getByText(/It failed: the warehouse does not allow creating views from here/).waitFor();
    await error.getByText('Details', { exact: true }).click();
    await error.getByText('SQL_RUNNER_DDL_DISABLED').waitFor();
    const [failed] = await jobs();
    expect(failed.error?.code).toBe('SQL_RUNNER_DDL_DISABLED');
    await expect(error.textContent()).resolves.toContain(failed.error!.message.split('\n')[0]);
    await screenshot(page, 'syncs-job-failed');
    expect(e2e.problems).toEqual([]);
  });

  it('Retry on the failed push sends the same request as a new job and shows it; a job whose branch is gone cannot be retried', async () => {
    const { page, server } = e2e;
    const [failed] = await jobs();
    const on = await server.api('PUT', `/api/v1/deployments/${deploymentId}`, { sqlRunnerDdlEnabled: true });
    expect(on.status).toBe(200);
    await page.getByRole('button', { name: 'Retry push' }).click();
    await page.waitForURL((url) => /\/warehouse\/push\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(encodeURIComponent(failed!.syncJobId)));
    const newId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByRole('heading', { name: /Push to PUBLIC/ }).waitFor();
    await page.getByText('COMPLETED', { exact: true }).first().waitFor({ timeout: JOB_TIMEOUT });
    // The new job asked for what the failed one did.
    const detail = async (id: string) => (await server.api('GET', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs/${id}`)).body as { request: Record<string, unknown>; status: string };
    const [before, after] = [await detail(failed!.syncJobId), await detail(newId)];
    expect(after.status).toBe('COMPLETED');
    const { idempotencyKey: _a, ...asked } = before.request;
    const { idempotencyKey: _b, ...retried } = after.request;
    expect(retried).toEqual(asked);
    expect((await jobs()).map((j) => j.syncJobId)).toContain(failed!.syncJobId);

    // A failed push from a branch that no longer exists: Retry is disabled and says why.
    const branch = await server.api('POST', `/build/api/v1/deployments/${deploymentId}/branches`, { branchName: 'retry-gone' });
    expect(branch.status, JSON.stringify(branch.body)).toBeLessThan(300);
    const off = await server.api('PUT', `/api/v1/deployments/${deploymentId}`, { sqlRunnerDdlEnabled: false });
    expect(off.status).toBe(200);
    const push = await server.api('POST', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs`, { schema: 'PUBLIC', prefix: 'GONE_', viewNames: ['product_sales'], branchName: 'retry-gone' });
    expect(push.status).toBe(202);
    const goneId = (push.body as { syncJobId: string }).syncJobId;
    await expect.poll(async () => (await detail(goneId)).status, { timeout: JOB_TIMEOUT }).toBe('FAILED');
    const removed = await server.api('DELETE', `/build/api/v1/deployments/${deploymentId}/branches?branchName=retry-gone`);
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    await server.api('PUT', `/api/v1/deployments/${deploymentId}`, { sqlRunnerDdlEnabled: true });
    await page.goto(`${server.url}/syncs/${deploymentId}/warehouse/push/${encodeURIComponent(goneId)}`);
    const retry = page.getByRole('button', { name: 'Retry push' });
    await expect.poll(() => retry.isDisabled(), { timeout: JOB_TIMEOUT }).toBe(true);
    await page.getByText('Branch “retry-gone” no longer exists, so the same request cannot run again.').waitFor();
    // The list offers the same, per row.
    await page.goto(`${server.url}/syncs/${deploymentId}/warehouse`);
    const row = page.locator(`tr[data-job-id="${goneId}"]`);
    await expect.poll(() => row.getByRole('button', { name: /^Retry push / }).isDisabled(), { timeout: JOB_TIMEOUT }).toBe(true);
    await screenshot(page, 'syncs-job-retry-list');
    expect(e2e.problems).toEqual([]);
  });
});
