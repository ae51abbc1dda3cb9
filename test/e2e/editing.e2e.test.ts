// Editing comfort in Models (issue 14 item 9): quick open (Ctrl+P) of files and members, go back /
// forward (Alt+Left/Right) across files, find all references (Shift+F12), and broken member
// references (`{customers.}`) flagged by the compiler in the editor and the Problems panel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createDeployment, screenshot, startE2E, type E2E } from './support';

const ORDERS = 'model/cubes/orders.yml';
/** Waits with room for a loaded machine. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000 });

let e2e: E2E;
let deploymentId: number;

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'editing-e2e');
});
afterAll(async () => {
  await e2e?.teardown();
});

const fileText = async (path: string) =>
  ((await e2e.server.api('GET', `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=main&path=${encodeURIComponent(path)}`)).body as { content: string }).content;
/** 1-based line of the first line of `path` (on main) that contains `text`. */
const lineOf = async (path: string, text: string) => (await fileText(path)).split('\n').findIndex((l) => l.includes(text)) + 1;

const editor = (page: Page) => page.getByTestId('model-editor');
const problems = (page: Page) => page.getByRole('region', { name: 'Problems' });
/** The editor's compile status in the status bar (`11 files · 12 ms` once compiled). */
const compiled = (page: Page) => page.getByRole('status', { name: 'Editor compile status' }).textContent();
const openFileName = (page: Page) => page.locator('.editor-head .editor-file').textContent();
const cursorLine = (page: Page) => editor(page).locator('.line-numbers.active-line-number').textContent();
const quickOpen = (page: Page) => page.getByRole('dialog', { name: 'Go to file or member' });

async function both(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  for (const [width, height] of [
    [1024, 768],
    [1600, 1000],
  ] as const) {
    await page.setViewportSize({ width, height });
    await screenshot(page, `${name}-${width}`);
  }
  if (size) await page.setViewportSize(size);
}

/** Puts the cursor on the first match of `text` after the start of the open file, at `offset` characters into it. */
async function cursorAt(page: Page, text: string, offset = 0): Promise<void> {
  await editor(page).locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Control+F');
  await page.locator('.find-widget textarea, .find-widget input').first().fill(text);
  await poll(() => page.locator('.find-widget .matchesCount').textContent()).toMatch(/^1 of \d+/);
  await page.keyboard.press('Escape');
  await poll(() => page.locator('.find-widget.visible').count()).toBe(0);
  await page.keyboard.press('ArrowLeft');
  for (let i = 0; i < offset; i++) await page.keyboard.press('ArrowRight');
}

/**
 * Picks `label` in the editor's open context menu. Monaco's menu takes no click in its first 100 ms
 * (so the release of the right button that opened it cannot pick an item: `runOnceToEnableMouseUp`
 * in monaco-editor's menu.js). Playwright on a quiet machine clicks sooner than that — about 75 ms
 * after the right click — and the menu then ignores the click and stays open. The menu closing is
 * the sign that it took the click, so a click it did not take is made again.
 */
async function pickInContextMenu(page: Page, label: string): Promise<void> {
  const item = page.locator('.context-view .action-label', { hasText: label });
  await item.waitFor();
  await poll(async () => {
    if (await item.isVisible()) await item.click({ timeout: 5_000 }).catch(() => undefined);
    return item.isVisible();
  }).toBe(false);
}

/**
 * After a switch of branch: its files are listed and compiled. Until then quick open lists only what
 * is known (files once read, members once compiled), and Enter on an empty list picks nothing.
 */
async function branchCompiled(page: Page): Promise<void> {
  await page.getByRole('tree', { name: 'Model files' }).getByRole('treeitem', { name: /^orders\.yml/ }).waitFor({ timeout: 60_000 });
  await poll(() => page.getByRole('status', { name: 'Editor compile status' }).locator('.spinner').count()).toBe(0);
}

/** What the screen showed when quick open found nothing: the field, the first matches, the compile and any banner. */
async function quickOpenState(page: Page): Promise<string> {
  const read = (what: () => Promise<string | null>) => what().catch((error: Error) => `(${error.message.split('\n')[0]})`);
  const field = await read(() => quickOpen(page).getByRole('combobox').inputValue({ timeout: 1_000 }));
  const options = await read(async () => (await quickOpen(page).getByRole('option').allTextContents()).slice(0, 5).join(' | '));
  const banners = await read(async () => (await page.getByRole('alert').allTextContents()).join(' | '));
  return [`quick open field: "${field}"`, `first matches: ${options || '(none)'}`, `compile status: ${await read(() => page.getByRole('status', { name: 'Editor compile status' }).textContent({ timeout: 1_000 }))}`, `alerts: ${banners || '(none)'}`, `focus: ${await read(() => page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120) ?? null))}`].join('\n');
}

async function quickOpenTo(page: Page, query: string, expected: RegExp): Promise<void> {
  await page.keyboard.press('Control+P');
  await quickOpen(page).waitFor();
  // The list starts in its text field: typing filters at once.
  await poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('File, cube, view or member');
  await page.keyboard.type(query);
  try {
    await poll(() => quickOpen(page).getByRole('option', { selected: true }).textContent({ timeout: 5_000 })).toMatch(expected);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${await quickOpenState(page)}`, { cause: error });
  }
  await page.keyboard.press('Enter');
  await poll(() => quickOpen(page).isVisible()).toBe(false);
}

describe('editing comfort in Models', () => {
  it('quick open (Ctrl+P) goes to a member’s definition line, and to a file, by keyboard alone', async () => {
    const { page } = e2e;
    await page.goto(`${e2e.server.url}/models/${deploymentId}`);
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    // The first load of the branch and its first compile: room for a loaded machine.
    await page.getByRole('tree', { name: 'Model files' }).getByRole('treeitem', { name: /^orders\.yml/ }).waitFor({ timeout: 60_000 });
    await poll(() => compiled(page)).toMatch(/^\s*\d+ files · [\d.]+ ms$/);

    await page.keyboard.press('Control+P');
    await quickOpen(page).waitFor();
    await page.keyboard.type('total_amou');
    await poll(() => quickOpen(page).getByRole('option', { selected: true }).textContent()).toMatch(/measureorders\.total_amount/);
    await both(page, 'editing-quick-open');
    await page.keyboard.press('Enter');
    await poll(() => openFileName(page)).toBe('orders.yml');
    await poll(() => cursorLine(page)).toBe(String(await lineOf(ORDERS, 'name: total_amount')));

    // Down arrow picks the next match; a file by part of its path.
    await quickOpenTo(page, 'directory.yml', /filemodel\/views\/customer_directory\.yml/);
    await poll(() => openFileName(page)).toBe('customer_directory.yml');
    await quickOpenTo(page, 'customers.full_name', /dimensioncustomers\.full_name/);
    await poll(() => openFileName(page)).toBe('customers.yml');
    await poll(() => cursorLine(page)).toBe(String(await lineOf('model/cubes/customers.yml', 'name: full_name')));
  });

  it('go back and forward (Alt+Left / Alt+Right) retrace the jumps across files', async () => {
    const { page } = e2e;
    await page.keyboard.press('Alt+ArrowLeft');
    await poll(() => openFileName(page)).toBe('customer_directory.yml');
    await page.keyboard.press('Alt+ArrowLeft');
    await poll(() => openFileName(page)).toBe('orders.yml');
    await poll(() => cursorLine(page)).toBe(String(await lineOf(ORDERS, 'name: total_amount')));
    await page.keyboard.press('Alt+ArrowRight');
    await poll(() => openFileName(page)).toBe('customer_directory.yml');
    // The buttons do the same and say their keys.
    await page.getByRole('button', { name: 'Go forward (Alt+→)' }).click();
    await poll(() => openFileName(page)).toBe('customers.yml');
    await poll(() => page.getByRole('button', { name: 'Go forward (Alt+→)' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Go back (Alt+←)' }).click();
    await poll(() => openFileName(page)).toBe('customer_directory.yml');
  });

  it('quick open opens with an empty field every time, so keys typed at once are the whole query', async () => {
    const { page } = e2e;
    // What the field holds at the moment the dialog opens, whenever it opens.
    await page.evaluate(() => {
      const dialog = document.querySelector<HTMLDialogElement>('dialog.quick-open')!;
      const seen: string[] = [];
      (window as unknown as { quickOpenFields: string[] }).quickOpenFields = seen;
      new MutationObserver(() => dialog.open && seen.push(dialog.querySelector('input')!.value)).observe(dialog, { attributes: true, attributeFilter: ['open'] });
    });
    const fieldsSeen = () => page.evaluate(() => (window as unknown as { quickOpenFields: string[] }).quickOpenFields);
    // Closed by picking a match…
    await quickOpenTo(page, 'orders.yml', /filemodel\/cubes\/orders\.yml/);
    // …and by Escape, with a query that matches nothing.
    await page.keyboard.press('Control+P');
    await quickOpen(page).waitFor();
    await page.keyboard.type('no such thing');
    await poll(() => quickOpen(page).getByRole('option').count()).toBe(0);
    await page.keyboard.press('Escape');
    await poll(() => quickOpen(page).isVisible()).toBe(false);
    await page.keyboard.press('Control+P');
    await quickOpen(page).waitFor();
    expect(await fieldsSeen()).toEqual(['', '', '']);
    await page.keyboard.press('Escape');
    await poll(() => quickOpen(page).isVisible()).toBe(false);
  });

  it('quick open closed by Escape and opened again at once stays open (the late close event does not close it)', async () => {
    const { page } = e2e;
    await page.keyboard.press('Control+P');
    await quickOpen(page).waitFor();
    const stillOpen = await page.evaluate(async () => {
      const dialog = document.querySelector<HTMLDialogElement>('dialog.quick-open')!;
      const closed = new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
      // Escape's own path (cancel, then close), and Ctrl+P in the same moment.
      dialog.requestClose();
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'p', ctrlKey: true, bubbles: true, cancelable: true }));
      // Whether or not a close event comes, the page settles within this time.
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1_000))]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return dialog.open;
    });
    expect(stillOpen).toBe(true);
    await page.keyboard.press('Escape');
    await poll(() => quickOpen(page).isVisible()).toBe(false);
  });

  it('find all references (Shift+F12) lists every use of a member across the branch', async () => {
    const { page } = e2e;
    await quickOpenTo(page, 'orders.yml', /filemodel\/cubes\/orders\.yml/);
    await cursorAt(page, '{total_amount}', 2);
    await page.keyboard.press('Shift+F12');
    const peek = page.locator('.peekview-widget');
    await peek.waitFor();
    // Its definition, `{total_amount}`, the pre-aggregation and the view that includes it.
    const tree = peek.locator('.ref-tree');
    await tree.getByText('orders_overview.yml').waitFor();
    await poll(() => peek.locator('.peekview-title').textContent()).toMatch(/References \(4\)/);
    await both(page, 'editing-references');
    // The list has the focus, for arrows; Escape closes it and returns to the editor.
    await poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.ref-tree')))).toBe(true);
    await page.keyboard.press('Escape');
    await poll(() => peek.count()).toBe(0);

    // Enter on a reference opens its place (not only a preview inside the list): the last one listed.
    await page.keyboard.press('Shift+F12');
    await tree.getByText('orders_overview.yml').waitFor();
    await poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.ref-tree')))).toBe(true);
    await page.keyboard.press('End');
    await poll(() => tree.locator('.monaco-list-row.focused').textContent()).toMatch(/total_amount/);
    await page.keyboard.press('Enter');
    await poll(() => peek.count()).toBe(0);
    const paths: Record<string, string> = { 'orders.yml': ORDERS, 'orders_overview.yml': 'model/views/orders_overview.yml' };
    const opened = paths[(await openFileName(page)) ?? ''];
    expect(opened, 'a file with a reference is open').toBeTruthy();
    const line = Number(await cursorLine(page));
    expect((await fileText(opened!)).split('\n')[line - 1]).toContain('total_amount');
    await quickOpenTo(page, 'orders.yml', /filemodel\/cubes\/orders\.yml/);
  });

  it('a broken member reference ({customers.}) is an error in the editor and in Problems', async () => {
    const { page } = e2e;
    await page.getByRole('switch', { name: 'Dev mode' }).click();
    await poll(() => page.getByRole('switch', { name: 'Dev mode' }).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('group', { name: 'Status bar' }).getByText('editing', { exact: true }).waitFor();
    await branchCompiled(page);
    await quickOpenTo(page, 'orders.statuses', /measureorders\.statuses/);
    await cursorAt(page, '{CUBE}.status, ', '{CUBE}.status'.length);
    await page.keyboard.type(' || {customers.}');
    const row = problems(page).getByRole('button', { name: /Incomplete reference \{customers\.\}/ });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/orders\.statuses/);
    await editor(page).locator('.squiggly-error').first().waitFor();
    await both(page, 'editing-broken-reference');
    await page.getByRole('button', { name: 'Discard' }).click();
    await poll(() => problems(page).getByRole('button', { name: /Incomplete reference/ }).count()).toBe(0);
  });

  it('lineage of a view: built from its cubes and tables, used by its pushed semantic view and a dashboard; nodes open the item', async () => {
    const { page, server } = e2e;
    const D = `/api/v1/deployments/${deploymentId}`;
    const push = await server.api('POST', `${D}/warehouse-semantic-view-syncs`, { schema: 'PUBLIC', prefix: 'LINEAGE_', viewNames: ['product_sales'] });
    expect(push.status).toBe(202);
    const syncJobId = (push.body as { syncJobId: string }).syncJobId;
    await poll(async () => ((await server.api('GET', `${D}/warehouse-semantic-view-syncs/${syncJobId}`)).body as { status: string }).status).toBe('COMPLETED');
    const dashboard = {
      title: 'Order lineage',
      kind: 'CLASSIC',
      layout: { cols: { lg: 12 }, rowHeight: 40, margin: [10, 10] },
      widgets: [{ id: 'kpi', type: 'CHART', position: { x: 0, y: 0, w: 4, h: 3 }, config: { title: 'Revenue', chartType: 'number', query: { measures: ['product_sales.revenue'] } } }],
    };
    // Create-or-update by slug: a retry of this test finds the workbook of its first attempt.
    const workbook = await server.api('PUT', `${D}/workbooks/by-slug/order-lineage`, { name: 'Order lineage', dashboardDraft: dashboard });
    expect([200, 201]).toContain(workbook.status);
    const workbookId = (workbook.body as { id: number }).id;

    // "Show lineage" from the editor's context menu, on the view's file (a retry starts where the
    // first attempt left the page: back to Models first).
    if (new URL(page.url()).pathname !== `/models/${deploymentId}`) {
      await page.goto(`${server.url}/models/${deploymentId}`);
      await poll(() => compiled(page)).toMatch(/^\s*\d+ files · [\d.]+ ms$/);
    }
    await quickOpenTo(page, 'product_sales.yml', /filemodel\/views\/product_sales\.yml/);
    await poll(() => openFileName(page)).toBe('product_sales.yml');
    await editor(page).getByText('product_sales').first().waitFor();
    await editor(page).locator('.view-lines').click({ button: 'right' });
    await pickInContextMenu(page, 'Show lineage of this cube or view');
    // The address itself (a failure names where the page went instead).
    await poll(() => new URL(page.url()).pathname).toBe(`/models/${deploymentId}/lineage/product_sales`);
    const graph = page.getByRole('group', { name: 'Lineage graph' });
    // The graph waits for the compile and for the pushes, publications and dashboards: room for a loaded machine.
    await graph.getByRole('button', { name: /^semantic view .*LINEAGE_PRODUCT_SALES/i }).waitFor({ timeout: 60_000 });
    for (const name of [/^view product_sales/, /^cube line_items /, /^cube products /, /^cube orders /, /^dashboard Order lineage/]) await graph.getByRole('button', { name }).waitFor();
    await graph.getByText('ecommerce.line_items').waitFor();
    await both(page, 'editing-lineage');

    // A cube node opens its definition in the editor; the dashboard node its workbook.
    await graph.getByRole('button', { name: /^cube products / }).click();
    await poll(() => openFileName(page)).toBe('products.yml');
    await poll(() => cursorLine(page)).toBe(String(await lineOf('model/cubes/products.yml', 'name: products')));
    await page.goto(`${server.url}/models/${deploymentId}/lineage/line_items`);
    await graph.getByRole('button', { name: /^view product_sales/ }).waitFor({ timeout: 60_000 });
    await both(page, 'editing-lineage-cube');
    await graph.getByRole('button', { name: /^dashboard Order lineage/ }).click();
    await poll(() => new URL(page.url()).pathname).toBe(`/workbooks/${deploymentId}/${workbookId}`);
  });

  it('no console errors or CSP violations', () => {
    expect(e2e.problems).toEqual([]);
  });
});
