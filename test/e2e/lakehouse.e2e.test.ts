import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment, screenshot, startE2E, tallScreenshot, type E2E } from './support';

/**
 * Lakehouse metric view publication on the Syncs screen against a real `drydock serve`: a new
 * deployment holds the sample project and a lakehouse data source `lake` on the local
 * Databricks emulator. The sample's view on `lake` is `order_trends`; its warehouse views are
 * outside the lakehouse's scope.
 */

interface SettingsBody {
  configurationVersion: number;
  configuration: { targetNamePrefix: string | null; selectedViews: string[]; targetSchema: string };
}
interface RunBody {
  runId: string;
  status: string;
  views: { viewName: string; outcome: string; reasons: { code: string; message: string }[] }[];
}

const VIEW = 'order_trends';
const RUN_TIMEOUT = 30_000;

let e2e: E2E;
let deploymentId: number;
const D = () => `/api/v1/deployments/${deploymentId}`;
const B = () => `/build/api/v1/deployments/${deploymentId}`;

async function api<T>(method: string, path: string, body?: unknown, expected = 200): Promise<T> {
  const res = await e2e.server.api(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(expected);
  return res.body as T;
}

async function latestRun(): Promise<RunBody> {
  const list = await api<{ items: { runId: string }[] }>('GET', `${D()}/lakehouse-metric-view-integrations/lake/syncs`);
  return api<RunBody>('GET', `${D()}/lakehouse-metric-view-integrations/lake/syncs/${list.items[0].runId}`);
}

/** "Publish now" opens the publish dialog; publish `branch` from it (default: as the dialog proposes). */
async function publishFromDialog(branch?: string): Promise<void> {
  const { page } = e2e;
  await page.getByRole('button', { name: 'Publish now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish metric views' });
  await dialog.waitFor();
  if (branch) await dialog.getByLabel('Branch').selectOption(branch);
  await dialog.getByRole('region', { name: 'Publication target' }).waitFor();
  await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
}

/** The app scrolls inside its main pane: a taller window shows more of it in one screenshot. */
const tallShot = (name: string, height = 1250) => tallScreenshot(e2e.page, name, height);

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'lakehouse-e2e', 'git');
});
afterAll(async () => {
  await e2e?.teardown();
});

describe('Syncs screen: lakehouse metric view publication in a real browser', () => {
  it('creates the publication settings of the lakehouse data source from the form', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/syncs/${deploymentId}/lakehouse`);
    await page.waitForURL(new RegExp(`/syncs/${deploymentId}/lakehouse/lake/settings$`));
    const form = page.getByRole('form', { name: 'Publication settings' });
    await form.waitFor();
    // Nothing saved yet: the catalog comes from the data source, the rest is to fill in.
    await expect(form.getByLabel('Catalog').inputValue()).resolves.toBe('main');
    // A click anywhere on the field opens its list, not only on the arrow (issue 24).
    await form.getByLabel('Schema').click();
    await form.getByRole('listbox', { name: 'Choices' }).getByRole('option', { name: 'default' }).waitFor();
    await form.getByLabel('Schema').fill('default');
    await form.getByRole('radio', { name: /Selected views/ }).check();
    // Only the views on `lake` are offered: the sample's warehouse views are not.
    await form.getByRole('checkbox', { name: VIEW, exact: true }).check();
    await expect(form.getByRole('checkbox', { name: 'product_sales', exact: true }).count()).resolves.toBe(0);
    // Pattern mode validates inline with the service's grammar.
    await form.getByRole('radio', { name: /Views matching a pattern/ }).check();
    await form.getByLabel('Name pattern').fill('order.*trend.*');
    await form.getByText(/A second "\.\*"/).waitFor();
    // `^order` also names the warehouse view orders_overview, which is not on this data source.
    await form.getByLabel('Name pattern').fill('^order');
    await form.getByText(/Matches 1:/).waitFor();
    await form.getByRole('radio', { name: /Selected views/ }).check();
    // The deprecated deletion policy is not offered to settings that do not use it (issue 24).
    await expect(form.getByLabel('Deletion policy').locator('option').allTextContents()).resolves.toEqual(['Retain the published metric view (default)']);
    await form.getByRole('button', { name: 'Create settings' }).click();
    await form.getByText('Saved as version 1.').waitFor();

    const saved = await api<SettingsBody>('GET', `${D()}/lakehouse-metric-view-integrations/lake`);
    expect(saved.configurationVersion).toBe(1);
    expect(saved.configuration).toMatchObject({ targetSchema: 'default', selectedViews: [VIEW] });
    await tallShot('lakehouse-settings');
  });

  it('explains a version conflict, keeps the edits visible and saves them on top of the newer version', async () => {
    const { page } = e2e;
    const form = page.getByRole('form', { name: 'Publication settings' });
    // Someone else saves version 2 (a target name prefix) behind the form's back.
    const current = await api<SettingsBody & { configuration: Record<string, unknown> }>('GET', `${D()}/lakehouse-metric-view-integrations/lake`);
    await api('PUT', `${D()}/lakehouse-metric-view-integrations/lake`, {
      expectedConfigurationVersion: current.configurationVersion,
      configuration: { ...current.configuration, targetNamePrefix: 'mv_' },
    });

    await form.getByLabel('Name prefix').fill('sem_');
    await form.getByRole('button', { name: 'Save settings' }).click();
    const conflict = form.getByRole('alert', { name: 'Version conflict' });
    await conflict.waitFor();
    await conflict.getByText('Details', { exact: true }).click();
    await conflict.getByText('LAKEHOUSE_CONFIGURATION_VERSION_CONFLICT').waitFor();
    const prefixRow = conflict.getByRole('table').getByRole('row', { name: /Name prefix/ });
    await expect(prefixRow.textContent()).resolves.toMatch(/mv_.*sem_/);
    await expect(form.getByLabel('Name prefix').inputValue()).resolves.toBe('sem_');
    await tallShot('lakehouse-settings-conflict', 1100);

    await conflict.getByRole('button', { name: 'Reload version 2, keep my edits' }).click();
    await expect(form.getByLabel('Name prefix').inputValue()).resolves.toBe('sem_');
    // Back to no prefix so the targets keep the view's name, then save as version 3.
    await form.getByLabel('Name prefix').fill('');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await form.getByText('Saved as version 3.').waitFor();
    const saved = await api<SettingsBody>('GET', `${D()}/lakehouse-metric-view-integrations/lake`);
    expect(saved.configurationVersion).toBe(3);
    expect(saved.configuration.targetNamePrefix).toBeNull();
  });

  it('runs the access test and lists every check', async () => {
    const { page } = e2e;
    const card = page.getByRole('region', { name: 'Access test' });
    await card.getByRole('button', { name: 'Test access' }).click();
    const checks = card.getByRole('list', { name: 'Access checks' });
    await checks.waitFor();
    for (const label of ['SQL warehouse', 'Target schema', 'Create temporary view', 'Replace temporary view', 'Drop temporary view']) {
      await checks.getByText(label, { exact: true }).waitFor();
    }
  });

  it('previews the selected view: outcome, warnings and the metric view YAML', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Run preview' }).click();
    const table = page.getByRole('table', { name: 'Previewed views' });
    await table.waitFor({ timeout: RUN_TIMEOUT });
    const row = table.getByRole('row').filter({ hasText: VIEW }).first();
    await expect(row.textContent()).resolves.toMatch(/main\.default\.order_trends/);
    await expect(row.textContent()).resolves.toMatch(/create/);
    const yaml = page.locator(`[aria-label="Metric view YAML of ${VIEW}"] .view-lines`);
    await yaml.waitFor();
    await expect.poll(async () => (await yaml.innerText()).replace(/\s+/g, ' ')).toMatch(/version: 1\.1/);
    // The open view is the selected row, for screen readers too; a click on it closes it.
    await expect(row.getAttribute('aria-selected')).resolves.toBe('true');
    await row.locator('td').first().click();
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('false');
    await yaml.waitFor({ state: 'detached' });
    await row.locator('td').first().click();
    await yaml.waitFor();
    await tallShot('lakehouse-preview');
  });

  it('publishes from the latest deployed build and the run ends COMPLETED', async () => {
    const { page } = e2e;
    await publishFromDialog();
    await page.waitForURL(/\/lakehouse\/lake\/runs\/[^/]+$/);
    const detail = page.getByRole('region', { name: /^Run / });
    await detail.getByText(/^(COMPLETED|PARTIAL|FAILED|CANCELLED)$/).first().waitFor({ timeout: RUN_TIMEOUT });
    const run = await latestRun();
    const view = run.views.find((v) => v.viewName === VIEW);
    expect(run.status, `the run ended ${run.status}: ${VIEW} ${view?.outcome} ${JSON.stringify(view?.reasons)}`).toBe('COMPLETED');
    expect(view?.outcome).toBe('created');
    await detail.getByRole('table', { name: 'Per-view outcomes' }).getByRole('row').filter({ hasText: VIEW }).getByText('created', { exact: true }).waitFor();
    await page.getByRole('status', { name: 'Notifications' }).getByText(/Publication to lake completed/).waitFor();
    await tallShot('lakehouse-run-completed');
  });

  it('publishes again after a deploy that adds an access policy to the view, and the run ends PARTIAL', async () => {
    const { page } = e2e;
    // Through the data-model API: dev mode, edit, commit, merge to the deploy branch (a new build).
    const dev = await api<{ branch: { branchName: string } }>('POST', `${B()}/dev-mode`);
    const branch = dev.branch.branchName;
    const path = `model/views/${VIEW}.yml`;
    const file = await api<{ content: string }>('GET', `${B()}/data-model/files?branchName=${encodeURIComponent(branch)}&path=${encodeURIComponent(path)}`);
    const content = `${file.content.trimEnd()}\n\n    access_policy:\n      - group: analysts\n        member_level:\n          includes: "*"\n`;
    await api('PUT', `${B()}/data-model/files?branchName=${encodeURIComponent(branch)}`, { files: [{ path, content }] });
    await api('POST', `${B()}/commit`, { branchName: branch, message: 'Restrict order_trends to analysts' });
    const merged = await api<{ commit: string }>('POST', `${B()}/merge-to-default`, { branchName: branch });
    // Wait for the deploy branch's build of the merge commit to succeed.
    await expect
      .poll(async () => api<{ commit: string | null; buildStatus: string }>('GET', `${D()}/build-status`), { timeout: RUN_TIMEOUT, interval: 250 })
      .toMatchObject({ commit: merged.commit, buildStatus: 'succeeded' });

    // In dev mode the dialog proposes the dev branch: publish the deploy branch.
    const deployBranch = (await api<{ branch: string }>('GET', `${D()}/build-status`)).branch;
    await publishFromDialog(deployBranch);
    await page.waitForURL(/\/lakehouse\/lake\/runs\/[^/]+$/);
    const detail = page.getByRole('region', { name: /^Run / });
    await detail.getByText('PARTIAL').first().waitFor({ timeout: RUN_TIMEOUT });
    const run = await latestRun();
    expect(run.status).toBe('PARTIAL');
    const view = run.views.find((v) => v.viewName === VIEW)!;
    expect(view.outcome).toBe('blocked');
    const viewRow = detail.getByRole('table', { name: 'Per-view outcomes' }).getByRole('row').filter({ hasText: VIEW });
    await viewRow.getByText('blocked', { exact: true }).waitFor();
    await viewRow.getByText(view.reasons[0].code).first().waitFor();
    await page.getByRole('status', { name: 'Notifications' }).getByText(/Publication to lake partly published/).waitFor();

    // The runs list and the outcome plot show both runs.
    const runs = page.getByRole('table', { name: 'Publication runs' });
    await expect.poll(() => runs.getByRole('row').count()).toBe(3);
    await runs.getByText('COMPLETED').waitFor();
    // The run shown below is the one selected in the list; a click on the other selects that one.
    const shownRun = page.url().split('/').pop()!;
    await expect.poll(() => runs.locator(`tr[data-run-id="${shownRun}"]`).getAttribute('aria-selected')).toBe('true');
    const otherRun = runs.locator('tbody tr[aria-selected="false"]');
    await expect.poll(() => otherRun.count()).toBe(1);
    const otherId = (await otherRun.getAttribute('data-run-id'))!;
    await otherRun.locator('td').nth(1).click();
    await page.waitForURL((url) => url.pathname.endsWith(`/runs/${otherId}`));
    await expect.poll(() => runs.locator(`tr[data-run-id="${otherId}"]`).getAttribute('aria-selected')).toBe('true');
    await runs.locator(`tr[data-run-id="${shownRun}"] td`).nth(1).click();
    await page.waitForURL((url) => url.pathname.endsWith(`/runs/${shownRun}`));
    await page.getByRole('img', { name: /Outcomes of the last 2 runs/ }).waitFor();
    await tallShot('lakehouse-run-partial', 1400);
    expect(e2e.problems).toEqual([]);
  });

  it('in dev mode the publish dialog proposes the dev branch and shows the per-user schema before running; the run writes there and names the dev target, leaving production alone', async () => {
    const { page } = e2e;
    // The user's dev branch: the view without the access policy (publishable), not merged.
    const dev = await api<{ branch: { branchName: string } }>('POST', `${B()}/dev-mode`);
    const branch = dev.branch.branchName;
    const path = `model/views/${VIEW}.yml`;
    const file = await api<{ content: string }>('GET', `${B()}/data-model/files?branchName=${encodeURIComponent(branch)}&path=${encodeURIComponent(path)}`);
    const content = file.content.replace(/\n\s*access_policy:[\s\S]*$/, '\n');
    await api('PUT', `${B()}/data-model/files?branchName=${encodeURIComponent(branch)}`, { files: [{ path, content }] });
    await api('POST', `${B()}/commit`, { branchName: branch, message: 'Try order_trends without the policy' });
    const target = await api<{ userTag: string }>('GET', `${B()}/dev-mode/target?branchName=${encodeURIComponent(branch)}`);
    const devSchema = `default_dev_${target.userTag.toLowerCase()}`;
    const productionBefore = await latestRun();

    await page.getByRole('button', { name: 'Publish now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish metric views' });
    await expect.poll(() => dialog.getByLabel('Branch').inputValue()).toBe(branch);
    const shown = dialog.getByRole('region', { name: 'Publication target' });
    await shown.getByText(`dev · ${target.userTag}`).waitFor();
    await shown.getByText(`main.${devSchema}`).first().waitFor();
    await screenshot(page, 'lakehouse-publish-dialog-dev');
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();

    // The page was on the previous run: wait for the new one.
    await page.waitForURL((url) => /\/lakehouse\/lake\/runs\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(productionBefore.runId), { timeout: RUN_TIMEOUT });
    const runId = page.url().split('/').pop()!;
    const detail = page.getByRole('region', { name: new RegExp(`^Run ${runId.slice(0, 8)}`) });
    await expect.poll(async () => (await latestRun()).status, { timeout: RUN_TIMEOUT, interval: 250 }).toMatch(/^(COMPLETED|PARTIAL|FAILED|CANCELLED)$/);
    const run = await latestRun();
    expect(run.runId).toBe(runId);
    expect(run.status, JSON.stringify(run.views)).toBe('COMPLETED');
    expect(run.views.map((v) => [v.viewName, (v as unknown as { target: string }).target, v.outcome])).toEqual([[VIEW, `main.${devSchema}.${VIEW}`, 'created']]);
    await detail.getByRole('note', { name: 'Dev target' }).getByText(devSchema).waitFor();
    await detail.getByRole('table', { name: 'Per-view outcomes' }).getByText(`main.${devSchema}.${VIEW}`).waitFor();
    await tallShot('lakehouse-run-dev-target');
    // Production's metric view was written by the first run only: the dev run did not touch it.
    const runs = await api<{ items: { runId: string; devTarget: unknown }[] }>('GET', `${D()}/lakehouse-metric-view-integrations/lake/syncs`);
    expect(runs.items.filter((r) => r.devTarget === null)).toHaveLength(2);
    expect(e2e.problems).toEqual([]);
  });
});
