// Every main screen of the app and its main dialogs, for the checks that run over all of them
// (accessibility.e2e.test.ts: axe-core in both themes; layout.e2e.test.ts: three window sizes).
// `seedScreens` gives each screen something to show: the first run's sample (as the Welcome
// button makes it: the sample deployment, its Sales overview workbook and Staging), a finished
// push, a lakehouse publication run, a second user, an API key and a group.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { E2E } from './support';

export interface Seeded {
  deploymentId: number;
  stagingId: number;
  workbookId: number;
  pushJobId: string;
  runId: string;
}

const TERMINAL = ['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'];

/** Waits (in a hook, where expect.poll is not allowed) until `read` gives a value `done` accepts. */
async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function ok<T>(call: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`Expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** The first run through the Welcome page's button, then jobs, users and keys through the API. */
export async function seedScreens(e2e: E2E): Promise<Seeded> {
  const { page, server } = e2e;
  await page.getByRole('button', { name: 'Open the sample project' }).click();
  await page.waitForURL(/\/models\/\d+$/, { timeout: 60_000 });
  const deploymentId = Number(new URL(page.url()).pathname.split('/').pop());
  const deployments = await ok<{ items: { id: number; name: string }[] }>(server.api('GET', '/api/v1/deployments'), 200);
  const staging = deployments.items.find((d) => d.name === 'Staging');
  if (!staging) throw new Error(`The first run made no Staging deployment: ${JSON.stringify(deployments.items)}`);
  const D = `/api/v1/deployments/${deploymentId}`;
  const workbooks = await ok<{ items: { id: number; slug: string; publishedAt: string | null }[] }>(server.api('GET', `${D}/workbooks`), 200);
  const workbook = workbooks.items.find((w) => w.slug === 'sales-overview');
  if (!workbook?.publishedAt) throw new Error(`The first run made no published Sales overview workbook: ${JSON.stringify(workbooks.items)}`);

  const push = await ok<{ syncJobId: string }>(server.api('POST', `${D}/warehouse-semantic-view-syncs`, { schema: 'PUBLIC', prefix: 'SV_', viewNames: ['orders_overview', 'product_sales', 'customer_directory'] }), 202);
  await waitFor('the push', async () => (await ok<{ status: string }>(server.api('GET', `${D}/warehouse-semantic-view-syncs/${push.syncJobId}`), 200)).status, (s) => s === 'COMPLETED');

  const integration = `${D}/lakehouse-metric-view-integrations/lake`;
  const saved = await ok<{ configurationVersion: number }>(
    server.api('PUT', integration, { expectedConfigurationVersion: 0, configuration: { enabled: true, selectionMode: 'all', targetCatalog: 'main', targetSchema: 'default' } }),
    200,
  );
  const run = await ok<{ runId: string }>(server.api('POST', `${integration}/syncs`, { configurationVersion: saved.configurationVersion }), 202);
  await waitFor('the publication run', async () => (await ok<{ status: string }>(server.api('GET', `${integration}/syncs/${run.runId}`), 200)).status, (s) => TERMINAL.includes(s));

  await ok(server.api('POST', '/api/v1/users/', { email: 'ana.lyst@example.com', name: 'Ana Lyst', role: 'developer' }), 201);
  await ok(server.api('POST', '/api/v1/groups', { name: 'marketing' }), 201);
  return { deploymentId, stagingId: staging.id, workbookId: workbook.id, pushJobId: push.syncJobId, runId: run.runId };
}

export interface Screen {
  name: string;
  path: (s: Seeded) => string;
  /** Resolves once the screen shows its content (not a spinner). */
  ready: (page: Page) => Promise<unknown>;
  /** Screens another piece of work owns the fixes of (named in the report when they fail). */
  owner?: string;
}

const main = (page: Page) => page.getByRole('main');
const heading = (page: Page, name: string | RegExp) => main(page).getByRole('heading', { name, level: 1 }).waitFor();
const table = (page: Page, name: string) => main(page).getByRole('table', { name }).waitFor({ timeout: 60_000 });

export const SCREENS: Screen[] = [
  { name: 'Models · files', path: (s) => `/models/${s.deploymentId}`, ready: (p) => p.getByRole('tree', { name: 'Model files' }).getByRole('treeitem').first().waitFor({ timeout: 60_000 }), owner: 'Models workbench (issue 24 item 1)' },
  { name: 'Models · data', path: (s) => `/models/${s.deploymentId}/data`, ready: (p) => p.getByRole('complementary', { name: 'Members' }).waitFor({ timeout: 60_000 }), owner: 'Models workbench (issue 24 item 1)' },
  {
    name: 'Models · lineage',
    path: (s) => `/models/${s.deploymentId}/lineage/orders_overview`,
    ready: (p) => p.getByRole('group', { name: 'Lineage graph' }).getByRole('button', { name: /^view orders_overview/ }).waitFor({ timeout: 60_000 }),
    owner: 'Models workbench (issue 24 item 1)',
  },
  { name: 'Syncs · warehouse jobs', path: (s) => `/syncs/${s.deploymentId}/warehouse`, ready: (p) => table(p, 'Sync jobs') },
  { name: 'Syncs · push job', path: (s) => `/syncs/${s.deploymentId}/warehouse/push/${s.pushJobId}`, ready: (p) => table(p, 'Pushed views') },
  { name: 'Syncs · lakehouse settings', path: (s) => `/syncs/${s.deploymentId}/lakehouse/lake/settings`, ready: (p) => main(p).getByRole('form', { name: 'Publication settings' }).waitFor() },
  { name: 'Syncs · lakehouse preview', path: (s) => `/syncs/${s.deploymentId}/lakehouse/lake/preview`, ready: (p) => main(p).getByRole('tablist', { name: 'Publication' }).waitFor() },
  { name: 'Syncs · lakehouse runs', path: (s) => `/syncs/${s.deploymentId}/lakehouse/lake/runs`, ready: (p) => table(p, 'Publication runs') },
  { name: 'Syncs · lakehouse run', path: (s) => `/syncs/${s.deploymentId}/lakehouse/lake/runs/${s.runId}`, ready: (p) => table(p, 'Per-view outcomes') },
  { name: 'Syncs · transform', path: (s) => `/syncs/${s.deploymentId}/transform`, ready: (p) => main(p).getByRole('tablist', { name: 'Sync kinds' }).waitFor() },
  { name: 'Workbooks', path: (s) => `/workbooks/${s.deploymentId}`, ready: (p) => table(p, 'Workbooks') },
  { name: 'Workbook · dashboard', path: (s) => `/workbooks/${s.deploymentId}/${s.workbookId}`, ready: (p) => main(p).getByText('Revenue by order status').first().waitFor({ timeout: 60_000 }) },
  { name: 'Workbook · editor', path: (s) => `/workbooks/${s.deploymentId}/${s.workbookId}/edit`, ready: (p) => main(p).getByText('Orders per month').first().waitFor({ timeout: 60_000 }) },
  { name: 'Promotions', path: (s) => `/promotions/${s.deploymentId}/${s.workbookId}`, ready: (p) => main(p).getByRole('region', { name: 'Promotion', exact: true }).waitFor() },
  { name: 'To other profiles', path: () => '/promotions/profiles', ready: (p) => heading(p, 'To other profiles') },
  { name: 'Deployments', path: () => '/deployments', ready: (p) => table(p, 'Deployments') },
  ...(['', '/env', '/environments', '/logs', '/pods', '/build', '/release', '/tasks', '/setup', '/token', '/dev-targets', '/settings'] as const).map(
    (tab): Screen => ({
      name: `Deployment · ${tab.slice(1) || 'general'}`,
      path: (s) => `/deployments/${s.deploymentId}${tab}`,
      ready: (p) => main(p).getByRole('tablist', { name: 'Deployment sections' }).waitFor(),
    }),
  ),
  ...(['', '/api-keys', '/groups', '/tenant', '/theme', '/embed', '/oauth'] as const).map(
    (tab): Screen => ({ name: `Admin · ${tab.slice(1) || 'users'}`, path: () => `/admin${tab}`, ready: (p) => main(p).getByRole('tablist', { name: 'Admin sections' }).waitFor() }),
  ),
  { name: 'Profiles', path: () => '/profiles', ready: (p) => heading(p, 'Profiles') },
];

export interface DialogCase {
  name: string;
  path: (s: Seeded) => string;
  /** Opens the dialog; resolves with it shown. */
  open: (page: Page) => Promise<unknown>;
}

const click = (page: Page, name: string | RegExp) => main(page).getByRole('button', { name, exact: typeof name === 'string' }).click();
const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name }).waitFor();

export const DIALOGS: DialogCase[] = [
  { name: 'New deployment', path: () => '/deployments', open: async (p) => (await table(p, 'Deployments'), await click(p, 'New deployment'), dialog(p, 'New deployment')) },
  { name: 'New user', path: () => '/admin', open: async (p) => (await click(p, 'New user'), dialog(p, 'New user')) },
  {
    name: 'Deactivate a user',
    path: () => '/admin',
    open: async (p) => (await main(p).getByRole('button', { name: 'Deactivate ana.lyst@example.com' }).click(), dialog(p, 'Deactivate ana.lyst@example.com?')),
  },
  { name: 'New API key', path: () => '/admin/api-keys', open: async (p) => (await click(p, 'New API key'), dialog(p, 'New API key')) },
  { name: 'New group', path: () => '/admin/groups', open: async (p) => (await click(p, 'New group'), dialog(p, 'New group')) },
  { name: 'New policy', path: () => '/admin/groups', open: async (p) => (await click(p, 'New policy'), dialog(p, 'New policy')) },
  {
    name: 'Push views to the warehouse',
    path: (s) => `/syncs/${s.deploymentId}/warehouse`,
    open: async (p) => {
      await click(p, 'Push to warehouse…');
      const d = p.getByRole('dialog', { name: 'Push views to the warehouse' });
      // The view with an access policy: the dialog warns before the push.
      await d.getByRole('checkbox', { name: 'customer_directory', exact: true }).check({ timeout: 60_000 });
      return d.getByRole('note', { name: 'Access policies not pushed' }).waitFor();
    },
  },
  { name: 'Pull semantic views', path: (s) => `/syncs/${s.deploymentId}/warehouse`, open: async (p) => (await click(p, 'Pull from warehouse…'), dialog(p, 'Pull semantic views into model files')) },
  { name: 'Publish metric views', path: (s) => `/syncs/${s.deploymentId}/lakehouse/lake/settings`, open: async (p) => (await click(p, 'Publish now'), dialog(p, 'Publish metric views')) },
  { name: 'New workbook', path: (s) => `/workbooks/${s.deploymentId}`, open: async (p) => (await table(p, 'Workbooks'), await click(p, 'New workbook…'), dialog(p, 'New workbook')) },
  { name: 'Add a profile', path: () => '/profiles', open: async (p) => (await click(p, 'Add profile'), dialog(p, 'Add a profile')) },
];

/** Waits until no spinner is left in the main area (lists and panels have loaded). */
export async function settled(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.main .loading:visible').count(), { timeout: 60_000 }).toBe(0);
  await page.evaluate(() => document.fonts.ready);
}
