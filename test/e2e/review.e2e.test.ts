// Change review and model tests in the app (issue 26), in chromium against `drydock serve`: a branch
// that stops counting returned orders as revenue. The merge dialog says what it does to a published
// dashboard's numbers and links to the Review view; "Run tests" runs the sample project's model tests,
// four of which the change breaks, each shown at its line. Checked at 1024×768.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clippingProblems } from './layout-checks';
import { createDeployment, ROOT, screenshot, startE2E, type E2E } from './support';

const SAMPLE = join(ROOT, 'resources/sample-project');
const ORDERS = 'model/cubes/orders.yml';
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000 });

let e2e: E2E;
let deploymentId: number;
/** The admin's dev branch: the sample tests go to the deploy branch through it, then the change. */
let BRANCH: string;

/** The sample project's model tests and their fixture tables, as repository files. */
function sampleTests(): { path: string; content: string }[] {
  const dir = join(SAMPLE, 'tests');
  return [
    ...readdirSync(dir)
      .filter((name) => name.endsWith('.yml'))
      .map((name) => ({ path: `tests/${name}`, content: readFileSync(join(dir, name), 'utf8') })),
    ...readdirSync(join(dir, 'fixtures')).map((name) => ({ path: `tests/fixtures/${name}`, content: readFileSync(join(dir, 'fixtures', name), 'utf8') })),
  ];
}

async function commitOn(branch: string, files: { path: string; content: string }[], message: string): Promise<void> {
  const base = `/build/api/v1/deployments/${deploymentId}`;
  const put = await e2e.server.api('PUT', `${base}/data-model/files?branchName=${encodeURIComponent(branch)}`, { files });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const commit = await e2e.server.api('POST', `${base}/commit`, { branchName: branch, message });
  expect(commit.status, JSON.stringify(commit.body)).toBe(200);
}

beforeAll(async () => {
  e2e = await startE2E({ env: { DRYDOCK_SAMPLE_ORDERS: '2000' } });
  deploymentId = await createDeployment(e2e.server, 'review-e2e');
  const { server } = e2e;
  // The sample customers cube is open to its `support` group: the admin is in it.
  const me = (await server.api('GET', '/api/v1/users/me')).body as { id: number };
  expect((await server.api('POST', '/api/v1/groups', { name: 'support', userIds: [me.id] })).status).toBe(201);
  // A published dashboard reads revenue by status through the view.
  const wb = await server.api('POST', `/api/v1/deployments/${deploymentId}/workbooks`, {
    name: 'Sales overview',
    dashboardDraft: {
      widgets: [
        {
          id: 'by-status',
          type: 'CHART',
          position: { x: 0, y: 0, w: 6, h: 4 },
          config: { title: 'Orders by status', query: { measures: ['orders_overview.count', 'orders_overview.total_amount'], dimensions: ['orders_overview.status'] } },
        },
      ],
    },
  });
  expect(wb.status, JSON.stringify(wb.body)).toBe(201);
  expect((await server.api('POST', `/api/v1/deployments/${deploymentId}/workbooks/${(wb.body as { id: number }).id}/publish`)).status).toBe(200);
  // The deploy branch has the sample tests; the dev branch then changes what revenue counts.
  BRANCH = ((await server.api('POST', `/build/api/v1/deployments/${deploymentId}/dev-mode`)).body as { branch: { branchName: string } }).branch.branchName;
  await commitOn(BRANCH, sampleTests(), 'The sample model tests');
  expect((await server.api('POST', `/build/api/v1/deployments/${deploymentId}/merge-to-default`, { branchName: BRANCH })).status).toBe(200);
  const orders = readFileSync(join(SAMPLE, ORDERS), 'utf8');
  const changed = orders.replace('      - name: total_amount\n        sql: amount\n', "      - name: total_amount\n        sql: \"CASE WHEN {CUBE}.status = 'returned' THEN 0 ELSE {CUBE}.amount END\"\n");
  expect(changed).not.toBe(orders);
  await commitOn(BRANCH, [{ path: ORDERS, content: changed }], 'Returned orders are no revenue');
}, 180_000);
afterAll(async () => {
  await e2e?.teardown();
});

const clipped = (page: Page, scope: string) => page.evaluate(clippingProblems, { scope, limit: 10 });

describe('reviewing a change in the app', () => {
  it('shows in the merge dialog what the branch does to a dashboard’s numbers, and the model tests it breaks', async () => {
    const { page, server } = e2e;
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${server.url}/models/${deploymentId}`);
    await page.getByLabel('Branch').selectOption(BRANCH);
    await poll(() => page.getByLabel('Branch').inputValue()).toBe(BRANCH);
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByRole('menuitem', { name: /Merge into main/ }).click();
    const dialog = page.getByRole('dialog', { name: `Merge ${BRANCH} into main` });

    // One line: the widget whose numbers move, and the first number that moves.
    const review = dialog.getByRole('status', { name: 'Review' });
    await review.waitFor({ timeout: 60_000 });
    await expect(review.textContent()).resolves.toMatch(/Review: 1 dashboard widget changes: Sales overview › Orders by status, returned: total_amount [\d,.]+ → 0/);

    // The tests run on their fixtures: the four that count returned orders' revenue fail, each at its line.
    const tests = dialog.getByRole('status', { name: 'Model tests' });
    await tests.getByRole('button', { name: 'Run tests' }).click();
    await tests.getByText(/^4 of \d+ tests fail\.$/).waitFor({ timeout: 60_000 });
    const failing = tests.getByRole('listitem');
    await expect(failing.count()).resolves.toBe(4);
    await expect(failing.first().textContent()).resolves.toMatch(/^tests\/lakehouse\.yml:\d+ the lakehouse and the warehouse agree on revenue by status: /);
    expect(await clipped(page, '[role="dialog"]')).toEqual([]);
    await screenshot(page, 'review-merge-dialog-1024x768');

    // A failing test opens at its line in the editor.
    const place = (await failing.first().getByRole('button').textContent())!;
    await failing.first().getByRole('button').click();
    await expect(dialog.count()).resolves.toBe(0);
    expect(place).toMatch(/^tests\/lakehouse\.yml:\d+$/);
    await poll(() => page.locator('.editor-head .editor-file').textContent()).toBe('lakehouse.yml');
  });

  it('checks a test file against the test file schema as it is typed', async () => {
    const { page } = e2e;
    const editor = page.getByTestId('model-editor');
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('expectations');
    await page.keyboard.press('Escape');
    await page.keyboard.type(': 1');
    const problems = page.getByRole('region', { name: 'Problems' }).getByRole('list', { name: 'Diagnostics' });
    await problems.getByText(/Unknown key `expectations`/).waitFor();
    await screenshot(page, 'review-test-file-check-1024x768');
    await page.getByRole('button', { name: 'Discard' }).click();
    await poll(() => problems.getByText(/Unknown key `expectations`/).count()).toBe(0);
  });

  it('lists in the Review view what changed, the numbers that move and the model tests’ outcome', async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByRole('menuitem', { name: /Merge into main/ }).click();
    const dialog = page.getByRole('dialog', { name: `Merge ${BRANCH} into main` });
    await dialog.getByRole('button', { name: 'Open the review' }).click({ timeout: 60_000 });
    await page.waitForURL(new RegExp(`/models/${deploymentId}/review$`));
    const view = page.getByRole('region', { name: 'Review' });
    await view.getByRole('heading', { name: `Review of ${BRANCH}` }).waitFor();
    await poll(() => view.getByRole('status', { name: 'Review verdict' }).textContent()).toMatch(/^1 dashboard widget changes/);
    // The change, at its file and line.
    await view.getByText('measure orders.total_amount: sql changed').waitFor();
    await view.getByRole('button', { name: /^model\/cubes\/orders\.yml:\d+$/ }).waitFor();
    await screenshot(page, 'review-view-top-1024x768');
    // What uses it: the view and the dashboard widget.
    const reaches = view.getByRole('list', { name: 'What the change reaches' });
    await reaches.getByText('Dashboard widgets (1):').waitFor();
    await expect(reaches.textContent()).resolves.toContain('Sales overview › Orders by status');
    // The queries whose numbers move, with totals before → after.
    const moved = view.getByRole('list', { name: 'Queries whose numbers change' });
    await moved.getByText('Sales overview › Orders by status').waitFor();
    await moved.getByText(/^total_amount total [\d,.]+ → [\d,.]+ \(−[\d.]+ %\)$/).first().waitFor();
    await view.getByRole('status', { name: 'Model tests' }).getByRole('button', { name: 'Run tests' }).click();
    await view.getByText(/^4 of \d+ tests fail\.$/).waitFor({ timeout: 60_000 });
    expect(await clipped(page, 'main.content')).toEqual([]);
    await screenshot(page, 'review-view-1024x768');
    expect(e2e.problems).toEqual([]);
  });
});
