// Desktop-grade behaviour of the Models screen (issue 14): no edit is lost to a save made meanwhile in
// another window; merging shows the validation first and the build's result where the user merged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createDeployment, screenshot, signInWithApiKey, startE2E, type E2E } from './support';
import { clippingProblems } from './layout-checks';

const ORDERS = 'model/cubes/orders.yml';
/** Waits for a value with room for a loaded machine (loading a branch can take tens of seconds there). */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000 });

let e2e: E2E;
let deploymentId: number;
let second: Page;

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'desktop-e2e');
});
afterAll(async () => {
  await e2e?.teardown();
});

interface BranchBody {
  branchName: string;
  kind: string;
  isDevMode: boolean;
}
const devBranch = async () =>
  ((await e2e.server.api('GET', `/build/api/v1/deployments/${deploymentId}/branches?first=100`)).body as { items: BranchBody[] }).items.find((b) => b.kind === 'personal' && b.isDevMode)!;
const fileOn = async (branch: string, path: string) =>
  ((await e2e.server.api('GET', `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=${encodeURIComponent(branch)}&path=${encodeURIComponent(path)}`)).body as { content: string })
    .content;

const editor = (page: Page) => page.getByTestId('model-editor');
const tree = (page: Page) => page.getByRole('tree', { name: 'Model files' });

async function openFile(page: Page, name: string): Promise<void> {
  await tree(page).getByRole('treeitem', { name: new RegExp(`^${name.replace('.', '\\.')}`) }).getByRole('button').first().click();
  await poll(() => page.locator('.editor-head .editor-file').textContent()).toBe(name);
  await editor(page).locator('.view-lines').waitFor();
}

/** Types `text` at the end of the line holding `anchor` (found with Monaco's find widget). */
async function appendToLine(page: Page, anchor: string, text: string): Promise<void> {
  await editor(page).locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Control+F');
  const find = page.locator('.find-widget textarea, .find-widget input').first();
  await find.fill(anchor);
  await poll(() => page.locator('.find-widget .matchesCount').textContent()).toMatch(/^1 of \d+/);
  await page.keyboard.press('Escape');
  await page.keyboard.press('End');
  await page.keyboard.type(text);
}

describe('two windows edit the same file', () => {
  it('the second save is refused and opens a compare-and-merge view instead of overwriting', { timeout: 300_000 }, async () => {
    const { page } = e2e;
    await page.goto(`${e2e.server.url}/models/${deploymentId}`);
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    await poll(() => page.getByLabel('Branch', { exact: true }).inputValue()).toBe('main');
    await tree(page).getByRole('treeitem', { name: /^orders\.yml/ }).waitFor();
    await page.getByRole('switch', { name: 'Dev mode' }).click();
    await poll(() => page.getByRole('switch', { name: 'Dev mode' }).getAttribute('aria-checked')).toBe('true');
    const dev = await devBranch();
    await openFile(page, 'orders.yml');

    // A second window of the same user opens the same file on the same dev branch.
    second = await e2e.context.newPage();
    await signInWithApiKey(second, e2e.server);
    await second.goto(`${e2e.server.url}/models/${deploymentId}`);
    await poll(() => second.getByLabel('Branch', { exact: true }).inputValue()).toBe(dev.branchName);
    await openFile(second, 'orders.yml');

    // Window 2 starts changing the description (unsaved, based on the version it opened).
    await appendToLine(second, 'description:', ' Edited in window two.');

    // Window 1 changes the title and saves.
    await appendToLine(page, 'title: Orders', ' (window one)');
    await page.keyboard.press('Control+S');
    await poll(() => page.getByText('● Unsaved').count()).toBe(0);
    expect(await fileOn(dev.branchName, ORDERS)).toContain('title: Orders (window one)');

    // Window 2 hears of the save (live events) but keeps its edit on the version it was made from; its save is refused.
    await second.waitForTimeout(1000);
    await second.keyboard.press('Control+S');
    const dialog = second.getByRole('dialog', { name: `${ORDERS} changed since you opened it` });
    await dialog.waitFor();
    // Nothing was overwritten.
    expect(await fileOn(dev.branchName, ORDERS)).toContain('title: Orders (window one)');
    expect(await fileOn(dev.branchName, ORDERS)).not.toContain('Edited in window two.');
    // Monaco's diff editor shows the service's version against this window's.
    const merge = dialog.getByTestId('merge-editor');
    await merge.locator('.monaco-diff-editor').waitFor();
    await merge.locator('.editor.original').getByText('(window one)').first().waitFor();
    await merge.locator('.editor.modified').getByText('Edited in window two.').first().waitFor();
    await second.setViewportSize({ width: 1024, height: 768 });
    await screenshot(second, 'desktop-stale-save-merge-1024');
    await second.setViewportSize({ width: 1600, height: 1000 });
    await screenshot(second, 'desktop-stale-save-merge-1600');

    // Take window one's title into this window's version, then save the merge.
    const modified = merge.locator('.editor.modified');
    await modified.locator('.view-line').filter({ hasText: 'title: Orders' }).first().click();
    await second.keyboard.press('End');
    await second.keyboard.type(' (window one)');
    // Meanwhile window 1 edits again (unsaved): it will be the stale one.
    await appendToLine(page, 'title: Orders (window one)', '!');
    await dialog.getByRole('button', { name: 'Save merged version' }).click();
    await poll(() => dialog.count()).toBe(0);
    await poll(() => second.getByText('● Unsaved').count()).toBe(0);
    const merged = await fileOn(dev.branchName, ORDERS);
    expect(merged).toContain('title: Orders (window one)');
    expect(merged).toContain('Edited in window two.');

    // Window 1 is now the stale one: its next save asks too, and "Use their version" takes the merge.
    await page.waitForTimeout(1000);
    await page.keyboard.press('Control+S');
    const back = page.getByRole('dialog', { name: `${ORDERS} changed since you opened it` });
    await back.waitFor();
    await back.getByRole('button', { name: 'Use their version' }).click();
    await poll(() => back.count()).toBe(0);
    await poll(() => page.getByText('● Unsaved').count()).toBe(0);
    await editor(page).getByText('Edited in window two.').first().waitFor();
    expect(await fileOn(dev.branchName, ORDERS)).toBe(merged);
    await second.close();
  });
});

describe('merging a model with errors', () => {
  it('shows the validation first, asks before merging, and shows the failed build where the user merged', async () => {
    const { page, server } = e2e;
    const dev = await devBranch();
    // The dev branch gets a commit with an unknown measure type (behind the UI, as a script would).
    const broken = (await fileOn(dev.branchName, ORDERS)).replace('type: sum', 'type: running_total');
    const base = `/build/api/v1/deployments/${deploymentId}`;
    expect((await server.api('PUT', `${base}/data-model/files?branchName=${dev.branchName}`, { files: [{ path: ORDERS, content: broken }] })).status).toBe(200);
    expect((await server.api('POST', `${base}/commit`, { branchName: dev.branchName, message: 'An unknown measure type' })).status).toBe(200);
    await page.reload();
    await poll(() => page.getByLabel('Branch', { exact: true }).inputValue()).toBe(dev.branchName);
    const mainHead = async () =>
      ((await server.api('GET', `${base}/branches?first=100`)).body as { items: { branchName: string; headCommit: string }[] }).items.find((b) => b.branchName === 'main')!.headCommit;
    const before = await mainHead();

    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByRole('menuitem', { name: /Merge into main/ }).click();
    const dialog = page.getByRole('dialog', { name: `Merge ${dev.branchName} into main` });
    const check = dialog.getByRole('alert', { name: 'Validation' });
    // The service compiles the branch first: room for a loaded machine.
    await check.getByText(`${dev.branchName} has 1 error.`).waitFor({ timeout: 60_000 });
    await check.getByText(/running_total/).first().waitFor();
    const merge = dialog.getByRole('button', { name: 'Merge with errors' });
    await poll(() => merge.isDisabled()).toBe(true);
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'desktop-merge-with-errors-1024');
    await page.setViewportSize({ width: 1600, height: 1000 });
    await screenshot(page, 'desktop-merge-with-errors-1600');
    expect(await mainHead()).toBe(before);

    await check.getByLabel(/Merge anyway/).check();
    await poll(() => merge.isDisabled()).toBe(false);
    await merge.click();
    const result = page.getByRole('alert', { name: 'Merge result' });
    await result.getByText(`Merged ${dev.branchName} into main`).waitFor();
    await result.getByText(/The build failed/).waitFor();
    expect(await mainHead()).not.toBe(before);
    await screenshot(page, 'desktop-merge-build-failed-1600');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'desktop-merge-build-failed-1024');

    // The link leads to the error in the editor.
    await page.getByRole('button', { name: 'Show the error' }).click();
    await poll(() => page.locator('.editor-head .editor-file').textContent()).toBe('orders.yml');
    await editor(page).locator('.squiggly-error').first().waitFor();
    await page.setViewportSize({ width: 1360, height: 860 });
  });
});

describe('layout and keyboard', () => {
  it('at 1024×768 no screen clips: nothing sticks out past the window or is cut without an ellipsis', async () => {
    const { page } = e2e;
    const nav = page.getByRole('navigation', { name: 'Main' });
    const screens = ['Models', 'Syncs', 'Workbooks', 'Promotions', 'To other profiles', 'Deployments', 'Admin', 'Profiles'];
    for (const [width, height] of [
      [1024, 768],
      [1600, 1000],
    ]) {
      await page.setViewportSize({ width, height });
      for (const name of screens) {
        await nav.getByRole('link', { name, exact: true }).click();
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await poll(() => page.locator('main.content .spinner').count()).toBe(0);
        expect(await page.evaluate(clippingProblems, { scope: 'main.content', limit: 10 }), `${name} at ${width}×${height}`).toEqual([]);
        await screenshot(page, `layout-${name.toLowerCase().replace(/ /g, '-')}-${width}`);
      }
    }
  });

  it('each screen has its own icon in the navigation', async () => {
    const icons = await e2e.page.getByRole('navigation', { name: 'Main' }).locator('a svg path').evaluateAll((paths) => paths.map((p) => p.getAttribute('d')));
    expect(icons.length).toBeGreaterThanOrEqual(8);
    expect(new Set(icons).size).toBe(icons.length);
  });

  it('a dialog starts in its first field, not on its close button', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1360, height: 860 });
    await page.goto(`${e2e.server.url}/models/${deploymentId}`);
    await poll(() => page.getByLabel('Branch', { exact: true }).inputValue()).not.toBe('');
    await page.getByRole('button', { name: 'New file' }).click();
    const dialog = page.getByRole('dialog', { name: 'New file' });
    await dialog.waitFor();
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { tag: el?.tagName.toLowerCase(), label: el?.getAttribute('aria-label'), inBody: Boolean(el?.closest('.dialog-body')) };
    });
    expect(focused.label).not.toBe('Close');
    expect(focused.inBody).toBe(true);
    expect(['input', 'select', 'textarea']).toContain(focused.tag);
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
  });
});

// ---- long names and real content at 1024×768 ---------------------------------------------------

/** A view name of 63 characters, as teams write them. */
const LONG_VIEW = 'customer_lifetime_value_by_acquisition_channel_region_and_month';
const LONG_DEPLOYMENT = 'retail-analytics-north-america-finance-and-operations-production';
const LONG_TITLE = 'Customer lifetime value by acquisition channel, region and month for the finance leadership review';
const longViewFile = `views:
  - name: ${LONG_VIEW}
    title: ${LONG_TITLE}
    description: Orders with their status and amounts, for the quarterly finance review of acquisition channels across every region
    cubes:
      - join_path: orders
        includes:
          - status
          - count
          - total_amount
`;

let longId: number;
let pullJobId: string;
let longWorkbookId: number;

/** Asks until `done(value)` (outside a test, where expect.poll cannot run), for up to 5 minutes. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Still not there after 5 minutes: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
/** Asks the API until a job answers a final status. */
const settle = (read: () => Promise<string>) => until(read, (status) => /^(COMPLETED|FAILED|CANCELLED|PARTIAL)$/.test(status));

/** Drawn whole inside the window, on top at its centre (not scrolled away or covered), its text not cut. */
function wholeInSight(el: Element): boolean {
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  const inWindow = r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
  return inWindow && top !== null && el.contains(top) && el.scrollWidth <= el.clientWidth + 1;
}

async function noClipping(page: Page, what: string, scope = 'main.content, [role="dialog"]'): Promise<void> {
  await poll(() => page.locator('main.content .spinner').count()).toBe(0);
  expect(await page.evaluate(clippingProblems, { scope, limit: 10 }), `${what} at 1024×768`).toEqual([]);
}

describe('at 1024×768 long names and real content do not clip', () => {
  beforeAll(async () => {
    const { server } = e2e;
    longId = await createDeployment(server, LONG_DEPLOYMENT);
    const B = `/build/api/v1/deployments/${longId}`;
    const A = `/api/v1/deployments/${longId}`;
    // The long-named view reaches the deploy branch (dev mode, commit, merge) and builds.
    const dev = (await server.api('POST', `${B}/dev-mode`)).body as { branch: { branchName: string } };
    const branch = dev.branch.branchName;
    expect((await server.api('PUT', `${B}/data-model/files?branchName=${encodeURIComponent(branch)}`, { files: [{ path: `model/views/${LONG_VIEW}.yml`, content: longViewFile }] })).status).toBe(200);
    expect((await server.api('POST', `${B}/commit`, { branchName: branch, message: 'A view with a long name' })).status).toBe(200);
    const merged = (await server.api('POST', `${B}/merge-to-default`, { branchName: branch })).body as { commit: string };
    const build = await until(
      async () => (await server.api('GET', `${A}/build-status`)).body as { commit: string | null; buildStatus: string },
      (b) => b.commit === merged.commit && (b.buildStatus === 'succeeded' || b.buildStatus === 'failed'),
    );
    expect(build.buildStatus).toBe('succeeded');
    expect((await server.api('DELETE', `${B}/dev-mode`)).status).toBeLessThan(300);
    // Pushed to the warehouse, then pulled back into model files.
    const push = (await server.api('POST', `${A}/warehouse-semantic-view-syncs`, { schema: 'PUBLIC', prefix: 'FINANCE_REVIEW_', viewNames: [LONG_VIEW] })).body as { syncJobId: string };
    expect(await settle(async () => ((await server.api('GET', `${A}/warehouse-semantic-view-syncs/${push.syncJobId}`)).body as { status: string }).status)).toBe('COMPLETED');
    const pull = await server.api('POST', `${A}/warehouse-semantic-view-pulls`, { schema: 'PUBLIC', viewNames: ['FINANCE_REVIEW_*'], outputPath: 'model/pulled_from_the_warehouse_for_the_quarterly_finance_reconciliation' });
    expect(pull.status, JSON.stringify(pull.body)).toBe(202);
    pullJobId = (pull.body as { syncJobId: string }).syncJobId;
    expect(await settle(async () => ((await server.api('GET', `${A}/warehouse-semantic-view-pulls/${pullJobId}`)).body as { status: string }).status)).toBe('COMPLETED');
    // A workbook with a chart of large numbers, and an older copy on the other deployment to promote over.
    const chart = (title: string, chartType: string) => ({
      id: 'value',
      type: 'CHART',
      position: { x: 0, y: 0, w: 6, h: 6 },
      config: { title, chartType, query: { measures: [`${LONG_VIEW}.total_amount`], dimensions: [`${LONG_VIEW}.status`] } },
    });
    const dashboard = (title: string, chartType: string, extra: object) => ({
      title,
      kind: 'CLASSIC',
      layout: { cols: { lg: 12 }, rowHeight: 40, margin: [10, 10] },
      theme: { primaryColor: '#2563c9' },
      ...extra,
      widgets: [chart(title, chartType)],
    });
    const created = await server.api('POST', `${A}/workbooks`, {
      name: LONG_TITLE,
      slug: 'customer-lifetime-value-review',
      dashboardDraft: dashboard(LONG_TITLE, 'bar', { description: `${LONG_TITLE}; amounts in US dollars, refreshed every hour from ${LONG_VIEW}` }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    longWorkbookId = (created.body as { id: number }).id;
    expect((await server.api('POST', `${A}/workbooks/${longWorkbookId}/publish`)).status).toBe(200);
    const older = await server.api('POST', `/api/v1/deployments/${deploymentId}/workbooks`, {
      name: LONG_TITLE,
      slug: 'customer-lifetime-value-review',
      dashboardDraft: dashboard(`${LONG_TITLE} (last quarter's version, before the channel split was introduced)`, 'line', { description: 'The previous description' }),
    });
    expect(older.status, JSON.stringify(older.body)).toBe(201);
    await e2e.page.setViewportSize({ width: 1024, height: 768 });
  }, 600_000);

  it('the pull result table and the job list with long view names and folders', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/syncs/${longId}/warehouse/pull/${pullJobId}`);
    await page.getByRole('table', { name: 'Generated files' }).waitFor({ timeout: 60_000 });
    await noClipping(page, 'pull result');
    await screenshot(page, 'layout-long-pull-result-1024');
    await page.goto(`${server.url}/syncs/${longId}/warehouse`);
    await page.getByRole('table', { name: 'Sync jobs' }).getByRole('row').filter({ hasText: 'Pull' }).waitFor({ timeout: 60_000 });
    await noClipping(page, 'sync jobs');
    await page.getByRole('button', { name: 'Push to warehouse…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Push views to the warehouse' });
    await dialog.getByRole('checkbox', { name: LONG_VIEW, exact: true }).check({ timeout: 60_000 });
    await noClipping(page, 'push dialog');
    await screenshot(page, 'layout-long-push-dialog-1024');
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
  });

  it('Models: the long view in the file tree, the editor head, Problems and lineage', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/models/${longId}`);
    await poll(() => page.getByLabel('Branch', { exact: true }).inputValue()).toBe('main');
    const item = page.getByRole('tree', { name: 'Model files' }).getByRole('treeitem', { name: new RegExp(`^${LONG_VIEW}\\.yml`) });
    await item.waitFor({ timeout: 60_000 });
    await item.getByRole('button').first().click();
    await poll(() => page.locator('.editor-head .editor-file').textContent()).toBe(`${LONG_VIEW}.yml`);
    // Warnings and infos shown: the longest messages the panel holds.
    const problems = page.getByRole('region', { name: 'Problems' });
    const info = problems.getByRole('button', { name: /info$/ });
    if ((await info.getAttribute('aria-pressed')) !== 'true') await info.click();
    await noClipping(page, 'Models with Problems');
    // The compile status stays whole in sight in the status bar, and the filter chips whole in the
    // panel's head, here and at the default window size.
    const status = page.getByRole('status', { name: 'Editor compile status' }).filter({ hasText: /\d+ files · [\d.]+ ms/ });
    for (const size of [
      { width: 1360, height: 860 },
      { width: 1024, height: 768 },
    ]) {
      await page.setViewportSize(size);
      await poll(() => status.evaluate(wholeInSight)).toBe(true);
      for (const chip of await problems.getByRole('group', { name: 'Show' }).getByRole('button').all()) await poll(() => chip.evaluate(wholeInSight)).toBe(true);
    }
    await screenshot(page, 'layout-long-models-1024');
    await page.goto(`${server.url}/models/${longId}/lineage/${LONG_VIEW}`);
    await page.getByRole('group', { name: 'Lineage graph' }).getByRole('button', { name: new RegExp(`^view ${LONG_VIEW}`) }).waitFor({ timeout: 60_000 });
    await noClipping(page, 'lineage');
    await screenshot(page, 'layout-long-lineage-1024');
  });

  it('a workbook chart’s axis labels and the promotion diff of long values', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/workbooks/${longId}/${longWorkbookId}`);
    await page.locator('.query-chart svg text').first().waitFor({ timeout: 60_000 });
    await noClipping(page, 'workbook');
    await screenshot(page, 'layout-long-workbook-1024');
    await page.goto(`${server.url}/promotions/${longId}/${longWorkbookId}`);
    await page.getByLabel('Target deployment').selectOption({ label: 'desktop-e2e' });
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Promotion preview' });
    await preview.getByText('UPDATE', { exact: true }).waitFor({ timeout: 60_000 });
    await noClipping(page, 'promotion preview');
    await screenshot(page, 'layout-long-promotion-preview-1024');
  });
});

describe('the windows stayed healthy', () => {
  it('no console errors or CSP violations', () => {
    expect(e2e.problems).toEqual([]);
  });
});
