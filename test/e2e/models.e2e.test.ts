import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createDeployment, screenshot, startE2E, type E2E } from './support';

interface BranchBody {
  branchName: string;
  kind: string;
  isDevMode: boolean;
  isDeployBranch: boolean;
  hasUncommittedChanges: boolean;
  headCommit: string;
  ownerUserId: number | null;
}
interface FileBody {
  content: string;
  uncommitted: boolean;
}

const ORDERS = 'model/cubes/orders.yml';

let e2e: E2E;
let deploymentId: number;

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'models-e2e');
});
afterAll(async () => {
  await e2e?.teardown();
});

const branches = async () => ((await e2e.server.api('GET', `/build/api/v1/deployments/${deploymentId}/branches?first=100`)).body as { items: BranchBody[] }).items;
const fileOn = async (branch: string, path: string) =>
  (await e2e.server.api('GET', `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=${encodeURIComponent(branch)}&path=${encodeURIComponent(path)}`)).body as FileBody;

const editor = (page: Page) => page.getByTestId('model-editor');
const problems = (page: Page) => page.getByRole('region', { name: 'Problems' });
const statusBar = (page: Page) => page.getByRole('group', { name: 'Status bar' });
/** The editor's compile status in the status bar (`11 files · 12 ms`). */
const compileStatus = (page: Page) => page.getByRole('status', { name: 'Editor compile status' });
const tree = (page: Page) => page.getByRole('tree', { name: 'Model files' });
const fileItem = (page: Page, name: string) => tree(page).getByRole('treeitem', { name: new RegExp(`^${name.replace('.', '\\.')}`) });

/** Puts the cursor right after the first match of `text` in the open file, through Monaco's find widget. */
async function moveCursorAfter(page: Page, text: string): Promise<void> {
  await editor(page).locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Control+F');
  const find = page.locator('.find-widget textarea, .find-widget input').first();
  await find.waitFor();
  await find.fill(text);
  // Typing in the find widget selects the first match after the cursor (Enter would move to the next one).
  await expect.poll(() => page.locator('.find-widget .matchesCount').textContent()).toMatch(/^1 of \d+/);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('.find-widget.visible').count()).toBe(0);
  // The match stays selected; collapse the selection to its end.
  await page.keyboard.press('ArrowRight');
}

async function openFile(page: Page, name: string): Promise<void> {
  await fileItem(page, name).getByRole('button').first().click();
  await expect.poll(() => page.locator('.editor-head .editor-file').textContent()).toBe(name);
  await editor(page).locator('.view-lines').waitFor();
}

/**
 * Clicks one of a file's row actions (Rename, Delete). They show while the row is hovered or has focus;
 * the row is focused (as a keyboard user would) rather than hovered, because the tree re-renders after a
 * rename or a live update and a row can move away from under a resting mouse. Retried until the click
 * lands, for as long as the row keeps being replaced.
 */
async function clickFileAction(page: Page, name: string, action: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const item = fileItem(page, name);
    try {
      await item.getByRole('button').first().focus({ timeout: 5_000 });
      await item.getByRole('button', { name: action }).click({ timeout: 2_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

const errorRows = (page: Page): Locator => problems(page).getByRole('list', { name: 'Diagnostics' }).locator('.sev-row-error');

describe('Models screen in a real browser', () => {
  it('opens the deploy branch of a deployment read-only, with the sample project and its analyzer warnings', async () => {
    const { page } = e2e;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Models' }).click();
    await page.waitForURL(new RegExp(`/models/${deploymentId}$`));
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    await fileItem(page, 'orders.yml').waitFor();
    await expect(page.getByLabel('Branch').inputValue()).resolves.toBe('main');
    await expect(page.getByRole('switch', { name: 'Dev mode' }).getAttribute('aria-checked')).resolves.toBe('false');

    await openFile(page, 'orders.yml');
    await editor(page).getByText('ecommerce.orders').first().waitFor();
    await page.locator('.editor-head .readonly-label').getByText('Read-only').waitFor();
    // The compiler worker checked the branch: the sample has no errors, and the push analyzer warns
    // about its one deliberate example (order_funnel; the lakehouse views publish cleanly).
    await expect.poll(() => compileStatus(page).textContent()).toMatch(/^\s*11 files · [\d.]+ ms$/);
    await expect(errorRows(page).count()).resolves.toBe(0);
    await problems(page).getByText('Warehouse push').first().waitFor();
    await expect(problems(page).getByText('Lakehouse publish').count()).resolves.toBe(0);
    await screenshot(page, 'models-read-only');
  });

  it('enters dev mode on a personal branch forked from the deploy branch', async () => {
    const { page } = e2e;
    await page.getByRole('switch', { name: 'Dev mode' }).click();
    await expect.poll(() => page.getByRole('switch', { name: 'Dev mode' }).getAttribute('aria-checked'), { timeout: 30_000 }).toBe('true');
    const dev = (await branches()).find((b) => b.kind === 'personal' && b.isDevMode);
    expect(dev).toBeDefined();
    await expect.poll(() => page.getByLabel('Branch').inputValue()).toBe(dev!.branchName);
    await statusBar(page).getByText(dev!.branchName, { exact: true }).waitFor();
    await statusBar(page).getByText('editing', { exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: `Created your dev branch “${dev!.branchName}” from “main”` }).waitFor();
    await fileItem(page, 'orders.yml').waitFor();
  });

  it('shows a diagnostic as soon as an edit introduces an error, jumps to it, and clears it when fixed', async () => {
    const { page } = e2e;
    await openFile(page, 'orders.yml');
    await expect(page.locator('.editor-head .readonly-label').count()).resolves.toBe(0);

    // A valid edit to commit later…
    await moveCursorAfter(page, 'title: Orders');
    await page.keyboard.type(' and returns');
    await page.getByText('● Unsaved').waitFor();
    // …and an unknown measure type, which the platform rejects.
    await moveCursorAfter(page, 'type: sum');
    for (let i = 0; i < 'sum'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('running_total');

    const row = problems(page).getByRole('button', { name: /running_total/ });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/orders\.total_amount/);
    await expect(row.textContent()).resolves.toContain('orders.yml:');
    await editor(page).locator('.squiggly-error').first().waitFor();
    await expect(fileItem(page, 'orders.yml').getAttribute('aria-label')).resolves.toMatch(/\(unsaved, 1 error\b/);
    await screenshot(page, 'models-diagnostic');

    // Clicking the problem puts the cursor on its line.
    const where = await row.getAttribute('title');
    const line = Number(/:(\d+):\d+$/.exec(where ?? '')?.[1]);
    await page.keyboard.press('Control+Home');
    await expect.poll(() => editor(page).locator('.line-numbers.active-line-number').textContent()).toBe('1');
    await row.click();
    await expect.poll(() => editor(page).locator('.line-numbers.active-line-number').textContent()).toBe(String(line));

    await page.keyboard.press('End');
    for (let i = 0; i < 'running_total'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('sum');
    await expect.poll(() => errorRows(page).count()).toBe(0);
    await expect.poll(() => editor(page).locator('.squiggly-error').count()).toBe(0);
    await problems(page).getByRole('tab', { name: /^Problems 0 errors/ }).waitFor();
  });

  it('saves with Ctrl+S and commits through the dialog, which shows the diff first', async () => {
    const { page } = e2e;
    const dev = (await branches()).find((b) => b.kind === 'personal' && b.isDevMode)!;
    await page.keyboard.press('Control+S');
    await expect.poll(() => page.getByText('● Unsaved').count()).toBe(0);
    const saved = await fileOn(dev.branchName, ORDERS);
    expect(saved.content).toContain('title: Orders and returns');
    expect(saved.uncommitted).toBe(true);

    await page.getByRole('button', { name: 'Commit…' }).click();
    const dialog = page.getByRole('dialog', { name: `Commit changes on ${dev.branchName}` });
    const diff = dialog.getByRole('table', { name: `Changes to ${ORDERS}` });
    await diff.waitFor();
    await diff.locator('.diff-added').filter({ hasText: 'title: Orders and returns' }).waitFor();
    await diff.locator('.diff-removed').filter({ hasText: 'title: Orders' }).waitFor();
    await expect(dialog.getByRole('button', { name: 'Commit', exact: true }).isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Commit message').fill('Orders cube: mention returns in the title');
    await screenshot(page, 'models-commit-dialog');
    await dialog.getByRole('button', { name: 'Commit', exact: true }).click();

    await page.getByRole('status').filter({ hasText: `Committed 1 file on ${dev.branchName}` }).waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    const after = (await branches()).find((b) => b.branchName === dev.branchName)!;
    expect(after.hasUncommittedChanges).toBe(false);
    expect(after.headCommit).not.toBe(dev.headCommit);
    expect((await fileOn(dev.branchName, ORDERS)).uncommitted).toBe(false);
    // Committed: no longer unsaved or uncommitted; the sample's push warning stays.
    await expect.poll(() => fileItem(page, 'orders.yml').getAttribute('aria-label')).toBe('orders.yml (1 warning)');
    await screenshot(page, 'models-committed');
  });

  it('goes to the definition of a reference in another file', async () => {
    const { page } = e2e;
    await moveCursorAfter(page, '{customers.id');
    await page.keyboard.press('F12');
    await expect.poll(() => page.locator('.editor-head .editor-file').textContent()).toBe('customers.yml');
    await expect.poll(() => tree(page).locator('.tree-file.selected').getAttribute('aria-label')).toBe('customers.yml');
    await editor(page).getByText('ecommerce.customers').first().waitFor();
  });

  it('completes member names inside {…} and keys of the format', async () => {
    const { page } = e2e;
    await openFile(page, 'orders.yml');
    await moveCursorAfter(page, 'STRING_AGG(DISTINCT ');
    // A pause after `{`: the file, with `{{CUBE}` in it, is compiled as a Jinja expression left open,
    // which does not parse. Its names stay known for the keys that follow.
    await page.keyboard.type('{');
    await problems(page).getByText(/orders\.yml is not valid YAML before rendering/).waitFor();
    await page.keyboard.type('CUBE.');
    const suggestions = page.locator('.suggest-widget.visible');
    // The cube's own members, filtered as you type.
    await suggestions.getByText('average_order_value', { exact: true }).waitFor();
    await page.keyboard.type('tot');
    await suggestions.getByText('total_amount', { exact: true }).waitFor();
    await screenshot(page, 'models-completion');
    await page.keyboard.press('Enter');
    await editor(page).locator('.view-line').filter({ hasText: /\{CUBE\.total_amount/ }).waitFor();
    // Keys of the format on a new line of a measure.
    await moveCursorAfter(page, 'name: largest_order');
    await page.keyboard.press('Enter');
    await page.keyboard.type('rolling');
    await suggestions.getByText('rolling_window', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    // Leave the file as it was.
    await page.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => page.getByText('● Unsaved').count()).toBe(0);
    await expect(editor(page).locator('.view-line').filter({ hasText: /\{CUBE\.total_amount/ }).count()).resolves.toBe(0);
  });

  it('validates on the service and shows its verdict next to the editor’s', async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'Validate', exact: true }).click();
    await problems(page).getByRole('tab', { name: /Service check/ }).click();
    await problems(page).getByText(/^The editor’s compiler finds the same: 0 errors, 0 warnings\./).waitFor();
    await expect(problems(page).locator('.server-verdict').textContent()).resolves.toMatch(/Valid.*0 errors/);
    await screenshot(page, 'models-service-check');
    // The screen (Monaco included) follows the dark scheme.
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'dark' });
    await problems(page).getByRole('tab', { name: /Problems/ }).click();
    await editor(page).locator('.monaco-editor.vs-dark').waitFor();
    await screenshot(page, 'models-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('merges the dev branch into the deploy branch after previewing the diff', async () => {
    const { page } = e2e;
    const dev = (await branches()).find((b) => b.kind === 'personal' && b.isDevMode)!;
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByRole('menuitem', { name: /Merge into main/ }).click();
    const dialog = page.getByRole('dialog', { name: `Merge ${dev.branchName} into main` });
    await dialog.getByRole('table', { name: `Changes to ${ORDERS}` }).locator('.diff-added').filter({ hasText: 'title: Orders and returns' }).waitFor();
    await screenshot(page, 'models-merge-dialog');
    await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `Merged ${dev.branchName} into main` }).waitFor();
    expect((await fileOn('main', ORDERS)).content).toContain('title: Orders and returns');
  });

  it('creates, renames and deletes a file on the dev branch, and guards unsaved edits', async () => {
    const { page } = e2e;
    const dev = (await branches()).find((b) => b.kind === 'personal' && b.isDevMode)!;
    await page.getByRole('button', { name: 'New file' }).click();
    const create = page.getByRole('dialog', { name: 'New file' });
    await create.getByLabel('A view').check();
    await expect(create.getByLabel('Path').inputValue()).resolves.toBe('model/views/new_view.yml');
    await create.getByLabel('Path').fill('model/views/orders.txt');
    await create.getByText(/is not a model file/).waitFor();
    await create.getByLabel('Path').fill('model/views/returns_overview.yml');
    await create.getByRole('button', { name: 'Create file' }).click();
    await expect.poll(() => page.locator('.editor-head .editor-file').textContent()).toBe('returns_overview.yml');
    await expect(fileItem(page, 'returns_overview.yml').getAttribute('aria-label')).resolves.toBe('returns_overview.yml (uncommitted)');
    await editor(page).getByText('join_path').first().waitFor();
    await expect.poll(() => errorRows(page).count()).toBe(0);
    expect((await fileOn(dev.branchName, 'model/views/returns_overview.yml')).content).toContain('name: returns_overview');

    // Switching branches with unsaved edits asks first.
    await moveCursorAfter(page, 'name: returns_overview');
    await page.keyboard.type('_v2');
    await page.getByLabel('Branch').selectOption('main');
    const unsaved = page.getByRole('dialog', { name: 'Unsaved changes' });
    await unsaved.getByText('model/views/returns_overview.yml').waitFor();
    await screenshot(page, 'models-unsaved-guard');
    await unsaved.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByLabel('Branch').inputValue()).resolves.toBe(dev.branchName);
    await page.getByRole('button', { name: 'Discard' }).click();

    await clickFileAction(page, 'returns_overview.yml', 'Rename model/views/returns_overview.yml');
    const rename = page.getByRole('dialog', { name: 'Rename file' });
    await rename.getByLabel('New path').fill('model/views/returns.yml');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await fileItem(page, 'returns.yml').waitFor();
    await expect.poll(() => page.locator('.editor-head .editor-file').textContent()).toBe('returns.yml');

    await clickFileAction(page, 'returns.yml', 'Delete model/views/returns.yml');
    await page.getByRole('dialog', { name: 'Delete file' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => fileItem(page, 'returns.yml').count()).toBe(0);
    const listed = (await e2e.server.api('GET', `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=${dev.branchName}&first=100`)).body as { items: { path: string }[] };
    expect(listed.items.map((f) => f.path).filter((p) => p.startsWith('model/views/returns'))).toEqual([]);
  });

  it('shows a merge conflict with its paths and changes nothing', async () => {
    const { page, server } = e2e;
    const dev = (await branches()).find((b) => b.kind === 'personal' && b.isDevMode)!;
    // The deploy branch and the dev branch change the same line differently.
    const original = (await fileOn('main', 'model/cubes/products.yml')).content;
    // main moves on (an upload commits to it directly, as CI would)…
    const theirs = original.replace(/title: ([^\n]+)/, 'title: Products (from main)');
    expect(theirs).not.toBe(original);
    const upload = await uploadTo(server, 'main', 'model/cubes/products.yml', theirs);
    expect(upload).toBe(200);

    // …while the dev branch changes the same line.
    await openFile(page, 'products.yml');
    await moveCursorAfter(page, 'title: ');
    await page.keyboard.press('End');
    await page.keyboard.type(' (from the dev branch)');
    await page.keyboard.press('Control+S');
    await expect.poll(() => page.getByText('● Unsaved').count()).toBe(0);
    await page.getByRole('button', { name: 'Commit…' }).click();
    const commit = page.getByRole('dialog', { name: `Commit changes on ${dev.branchName}` });
    await commit.getByLabel('Commit message').fill('Products title');
    await commit.getByRole('button', { name: 'Commit', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Committed 1 file' }).waitFor();

    const head = (await branches()).find((b) => b.branchName === 'main')!.headCommit;
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByRole('menuitem', { name: /Merge into main/ }).click();
    const dialog = page.getByRole('dialog', { name: `Merge ${dev.branchName} into main` });
    const conflict = dialog.getByRole('alert').filter({ hasText: 'Merge conflict' });
    await conflict.waitFor();
    await conflict.getByText('model/cubes/products.yml').waitFor();
    await expect(dialog.getByRole('button', { name: 'Merge', exact: true }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'models-merge-conflict');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await branches()).find((b) => b.branchName === 'main')!.headCommit).toBe(head);
  });

  it('reached the Models screen without console errors or CSP violations', () => {
    expect(e2e.problems).toEqual([]);
  });

  it('retries a 503 while reading the deployment settings and shows no lakehouse warnings on views that do not go to the lakehouse', async () => {
    const { page, server } = e2e;
    const id = await createDeployment(server, 'models-e2e-busy');
    // The service is busy for the first settings read of this deployment only.
    let reads = 0;
    const settings = new RegExp(`/deployments/${id}/settings(\\?|$)`);
    await page.route(settings, async (route) => {
      reads += 1;
      if (reads === 1) await route.fulfill({ status: 503, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Busy', status: 503, code: 'HTTP_503', detail: 'Busy.' }) });
      else await route.continue();
    });
    const before = e2e.problems.length;
    try {
      await page.goto(`${server.url}/models/${id}`);
      await fileItem(page, 'orders.yml').waitFor();
      // Checked again once the retried read answered: the status line no longer says the checks wait.
      await expect.poll(() => compileStatus(page).textContent()).toMatch(/^\s*11 files · [\d.]+ ms$/);
      await expect(problems(page).getByText('Lakehouse publish').count()).resolves.toBe(0);
      expect(reads).toBe(2);
      await problems(page).getByText('Warehouse push').first().waitFor();
    } finally {
      await page.unroute(settings);
    }
    // The one console error is the browser's log of the 503.
    expect(e2e.problems.slice(before).filter((p) => !/status of 503/.test(p))).toEqual([]);
  });
});

/** Replaces one file on a branch with the chunked upload API (it commits directly, as a CI upload would). */
async function uploadTo(server: E2E['server'], branch: string, path: string, content: string): Promise<number> {
  const bytes = Buffer.from(content, 'utf8');
  const { createHash } = await import('node:crypto');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const base = `/build/api/v1/deployments/${deploymentId}/data-model/upload`;
  const start = await server.api('POST', `${base}/start`, { branchName: branch, files: [{ path, size: bytes.byteLength, sha256 }], message: `Upload ${path}` });
  if (start.status !== 200) return start.status;
  const uploadId = (start.body as { uploadId: string }).uploadId;
  const chunk = await server.api('POST', `${base}/file`, { uploadId, path, offset: 0, data: bytes.toString('base64') });
  if (chunk.status !== 200) return chunk.status;
  return (await server.api('POST', `${base}/finish`, { uploadId })).status;
}
