import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUserTag } from '../../src-shared/api/dev-targets';
import { createDeployment, screenshotsAtBothSizes, startE2E, type E2E } from './support';

/**
 * Dev mode in the Syncs screen against a real `drydock serve` (issue 14 item 4): the signed-in
 * user is in dev mode, so the Pull and Push dialogs default to their own dev branch, and the Push
 * dialog shows the per-user target before the push; the push then writes there, not to PUBLIC.
 */

let e2e: E2E;
let deploymentId: number;
let devBranch: string;
let tag: string;

const JOB_TIMEOUT = 60_000;

const shots = (name: string): Promise<void> => screenshotsAtBothSizes(e2e.page, name);

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'devmode-e2e', 'git');
  const started = await e2e.server.api('POST', `/build/api/v1/deployments/${deploymentId}/dev-mode`);
  expect(started.status).toBe(200);
  devBranch = (started.body as { branch: { branchName: string } }).branch.branchName;
  const me = (await e2e.server.api('GET', '/api/v1/users/me')).body as { id: number; email: string };
  tag = baseUserTag(me.email, me.id);
});
afterAll(async () => {
  await e2e?.teardown();
});

describe('dev mode in the Syncs screen, in a real browser', () => {
  it('the Pull dialog defaults to the user’s own dev branch, not the deploy branch', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/syncs/${deploymentId}/warehouse`);
    await page.getByRole('button', { name: 'Pull from warehouse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pull semantic views into model files' });
    const branch = dialog.getByLabel('Branch');
    await expect.poll(() => branch.inputValue(), { timeout: 30_000 }).toBe(devBranch);
    await shots('devmode-pull-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('the Push dialog reads the dev branch, shows the per-user schema it will create, and the push writes there', async () => {
    const { page, server } = e2e;
    await page.getByRole('button', { name: 'Push to warehouse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Push views to the warehouse' });
    await expect.poll(() => dialog.getByLabel('Branch').inputValue(), { timeout: 30_000 }).toBe(devBranch);
    const productSales = dialog.getByRole('checkbox', { name: 'product_sales', exact: true });
    await productSales.waitFor();
    await productSales.check();
    await dialog.getByLabel('Schema').fill('PUBLIC');
    const target = dialog.getByRole('region', { name: 'Push target' });
    const devSchema = `PUBLIC_DEV_${tag}`;
    await target.getByText(`ANALYTICS.${devSchema}.PRODUCT_SALES`).waitFor();
    await expect(target.innerText()).resolves.toContain('never over the production views in PUBLIC');
    await shots('devmode-push-dialog');

    await dialog.getByRole('button', { name: 'Start push' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('table', { name: 'Sync jobs' }).getByRole('row').filter({ hasText: 'product_sales' });
    await row.getByText(/^(COMPLETED|FAILED|CANCELLED)$/).waitFor({ timeout: JOB_TIMEOUT });
    const list = await server.api('GET', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs?first=10`);
    const job = (list.body as { items: { syncJobId: string; status: string; error?: unknown }[] }).items[0]!;
    expect(job.status, JSON.stringify(job.error)).toBe('COMPLETED');
    const result = await server.api('GET', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs/${job.syncJobId}/result`);
    const body = result.body as { schema: string; views: { semanticViewName: string; qualifiedName: string }[]; devTarget: { requestedSchema: string } };
    expect(body.schema).toBe(devSchema);
    expect(body.devTarget.requestedSchema).toBe('PUBLIC');
    expect(body.views[0]!.qualifiedName.toUpperCase()).toBe(`ANALYTICS.${devSchema}.PRODUCT_SALES`);

    // The job's page names the per-user target.
    await row.click();
    await page.getByRole('heading', { name: new RegExp(`^Push to ${devSchema}`) }).waitFor();
    await page.getByRole('region', { name: 'Details' }).getByText('per-user schema').waitFor();
    await shots('devmode-push-job');
  });

  it('the data screen’s Vendor SQL targets label the dev copy “dev · <user>” and the production objects “production”', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/models/${deploymentId}/data`);
    await page.getByRole('button', { name: 'Vendor SQL' }).click();
    const list = page.getByRole('list', { name: 'Pushed views' });
    const item = list.getByRole('listitem').filter({ hasText: `PUBLIC_DEV_${tag}` });
    await item.waitFor({ timeout: 30_000 });
    await item.getByLabel(`dev copy of ${tag.toLowerCase()}`).waitFor();
    await expect(item.innerText()).resolves.toContain(`dev · ${tag.toLowerCase()}`);
    await shots('devmode-vendor-sql-dev-label');
  });

  it('the Dev targets settings screen shows the rule, explains a bad template in plain words, and saves a new one through the API', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/deployments/${deploymentId}/dev-targets`);
    const form = page.getByRole('form', { name: 'Dev targets' });
    await form.getByText('default rule').waitFor({ timeout: 30_000 });
    await expect(form.getByLabel('Template', { exact: true }).inputValue()).resolves.toBe('_DEV_{user}');
    await form.getByRole('radio', { name: /Per-user name prefix/ }).check();
    await expect(form.getByLabel('Template', { exact: true }).inputValue()).resolves.toBe('DEV_{user}_');
    await form.getByLabel('Template', { exact: true }).fill('SANDBOX_');
    await form.getByText('must contain {user} exactly once, so that each user gets their own objects').waitFor();
    await expect(form.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
    await form.getByLabel('Template', { exact: true }).fill('SANDBOX-{user}_');
    await form.getByText(/may hold only letters, digits, underscores and \{user\}/).waitFor();
    await shots('devmode-dev-targets-invalid');
    await form.getByLabel('Template', { exact: true }).fill('SANDBOX_{user}_');
    await form.getByRole('region', { name: 'Dev target example' }).getByText(`ANALYTICS.SANDBOX_${tag}_SV_ORDERS`).waitFor();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/^Saved\./).waitFor();
    const saved = await server.api('GET', `/build/api/v1/deployments/${deploymentId}/dev-mode/target-rule`);
    expect(saved.body).toMatchObject({ mode: 'name-prefix', template: 'SANDBOX_{user}_', isDefault: false });
    await shots('devmode-dev-targets-saved');
  });
});
