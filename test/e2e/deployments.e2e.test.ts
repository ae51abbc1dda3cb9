import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, signInWithApiKey, startE2E, type E2E } from './support';

interface DeploymentBody {
  id: number;
  name: string;
  cloudProvider: string;
  creationMethod: string;
  deployMode: string;
  templateVariables: Record<string, unknown>;
}
interface EnvVarBody {
  name: string;
  value?: string;
  isSecret: boolean;
}

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.teardown();
});

describe('Deployments screen in a real browser', () => {
  it('signs in through the one-time login link, lands on Models (a first run) and finds an empty deployments list', async () => {
    const { page } = e2e;
    await page.getByRole('heading', { name: 'Welcome to Drydock' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deployments' }).click();
    await page.getByRole('heading', { name: /Deployments/ }).waitFor();
    await page.getByText('No deployments yet').waitFor();
    // The link worked once; opening it again is refused with the service's own words.
    const second = await openBrowser();
    try {
      await second.page.goto(e2e.server.loginUrl);
      // It says why, and names the command that prints a new link for this very service (issue 24).
      const alert = second.page.getByRole('alert').filter({ hasText: 'This login link was already used.' });
      await alert.waitFor();
      const port = new URL(e2e.server.url).port;
      await expect(alert.getByLabel('Command for a new login link').textContent()).resolves.toBe(`drydock login-link --port ${port} --data-dir ${e2e.server.dataDir}`);
      await screenshot(second.page, 'sign-in-used-link');
    } finally {
      await second.close();
    }
  });

  it('shows the service’s validation error when a deployment is created without a name', async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'New deployment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New deployment' });
    await dialog.getByRole('button', { name: 'Create deployment' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/VALIDATION_FAILED/);
    await expect(dialog.locator('.field-invalid').first().textContent()).resolves.toMatch(/Name/);
    await screenshot(page, 'deployment-create-error');
  });

  it('creates a deployment through the UI and sees it in the list', async () => {
    const { page, server } = e2e;
    const dialog = page.getByRole('dialog', { name: 'New deployment' });
    await dialog.getByLabel('Name').fill('analytics-e2e');
    await dialog.getByLabel('Cloud provider').selectOption('gcp');
    await dialog.getByLabel('Creation method').selectOption('ssh');
    await dialog.getByLabel('Deploy mode').selectOption('cli');
    await dialog.getByLabel('Region').locator('option').first().waitFor({ state: 'attached' });
    await screenshot(page, 'deployment-create-dialog');
    await dialog.getByRole('button', { name: 'Create deployment' }).click();

    await page.waitForURL(/\/deployments\/\d+$/);
    await page.getByRole('heading', { name: /analytics-e2e/ }).waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());

    const stored = (await server.api('GET', `/api/v1/deployments/${id}`)).body as DeploymentBody;
    expect(stored).toMatchObject({ name: 'analytics-e2e', cloudProvider: 'gcp', creationMethod: 'ssh', deployMode: 'cli' });

    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Deployments' }).click();
    const row = page.getByRole('table', { name: 'Deployments' }).getByRole('row', { name: /analytics-e2e/ });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('Google Cloud');
    await screenshot(page, 'deployments-list');
  });

  it('edits template variables with a partial update', async () => {
    const { page, server } = e2e;
    await page.getByRole('link', { name: 'analytics-e2e' }).click();
    await page.getByRole('form', { name: 'Deployment settings' }).waitFor();
    const form = page.getByRole('form', { name: 'Deployment settings' });
    await form.getByRole('button', { name: '+ Add variable' }).click();
    await form.getByLabel('Name 1').fill('warehouse');
    await form.getByLabel('Value of warehouse').fill('ANALYTICS_WH');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText('Saved: template variables.').waitFor();

    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = (await server.api('GET', `/api/v1/deployments/${id}`)).body as DeploymentBody;
    expect(stored.templateVariables).toEqual({ warehouse: 'ANALYTICS_WH' });
    await screenshot(page, 'deployment-general');
  });

  it('sets, edits and hides env variables', async () => {
    const { page, server } = e2e;
    const id = Number(new URL(page.url()).pathname.split('/')[2]);
    await page.getByRole('tab', { name: 'Environment variables' }).click();
    await page.waitForURL(/\/env$/);
    const form = page.getByRole('form', { name: 'Set env variable' });
    const table = page.getByRole('table', { name: 'Env variables' });

    await form.getByLabel('Name', { exact: true }).fill('WAREHOUSE_ROLE');
    await form.getByLabel('Value', { exact: true }).fill('analyst');
    await form.getByRole('button', { name: 'Add variable' }).click();
    await table.getByRole('row', { name: /WAREHOUSE_ROLE.*analyst/ }).waitFor();

    // Edit it: the form takes the variable, and saving replaces its value.
    await table.getByRole('button', { name: 'Edit WAREHOUSE_ROLE' }).click();
    await expect(form.getByLabel('Value', { exact: true }).inputValue()).resolves.toBe('analyst');
    await form.getByLabel('Value', { exact: true }).fill('reporting');
    await form.getByRole('button', { name: 'Save variable' }).click();
    await table.getByRole('row', { name: /WAREHOUSE_ROLE.*reporting/ }).waitFor();

    // A secret: stored, listed, its value never shown.
    await form.getByLabel('Name', { exact: true }).fill('DB_PASSWORD');
    await form.getByLabel(/^Secret/).check();
    await form.getByLabel('Value', { exact: true }).fill('s3cr3t-e2e-value');
    await form.getByRole('button', { name: 'Add variable' }).click();
    await table.getByRole('row', { name: /DB_PASSWORD.*secret/ }).waitFor();
    expect(await page.content()).not.toContain('s3cr3t-e2e-value');

    const listed = (await server.api('GET', `/api/v1/deployments/${id}/env-vars?first=500`)).body as { items: EnvVarBody[] };
    expect(listed.items.find((v) => v.name === 'WAREHOUSE_ROLE')).toMatchObject({ value: 'reporting', isSecret: false });
    const secret = listed.items.find((v) => v.name === 'DB_PASSWORD');
    expect(secret).toMatchObject({ isSecret: true });
    expect(secret?.value).toBeUndefined();

    await screenshot(page, 'deployment-env-vars');
    // The same screen in the dark scheme (the UI follows prefers-color-scheme).
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'deployment-env-vars-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the settings document in the bundled Monaco editor', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Settings document' }).click();
    const editor = page.locator('.monaco-editor .view-lines');
    await editor.waitFor();
    // Monaco renders only the visible lines: the document starts with the deployment's id and name.
    await editor.getByText('analytics-e2e').first().waitFor();
    expect(await page.content()).not.toContain('s3cr3t-e2e-value');
    await screenshot(page, 'deployment-settings');
  });

  it('reached every screen without console errors or CSP violations', async () => {
    const { page, problems } = e2e;
    for (const name of ['Models', 'Syncs', 'Promotions', 'Admin']) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      if (name === 'Models') await screenshot(page, 'models-placeholder');
    }
    await expect.poll(() => page.locator('.loading').count(), { timeout: 15_000 }).toBe(0);
    await screenshot(page, 'admin');
    expect(problems).toEqual([]);
  });
});

describe('Sign-in with an API key', () => {
  it('refuses a wrong key with the reason and accepts the right one', async () => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await page.goto(e2e.server.url);
      await page.getByLabel('API key').fill('dd_not_a_real_key_000000000000000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').getByText('That API key was not accepted.').waitFor();
      await screenshot(page, 'sign-in');
      await signInWithApiKey(page, e2e.server);
      await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    } finally {
      await browser.close();
    }
  });
});
