// Editing workbooks and dashboards in the UI (issue 14 item 7): create a workbook, add its
// dashboard, add widgets with queries picked from the model, lay them out with the mouse and the
// keyboard, save the draft, publish, and find the same layout and real numbers after a reload —
// against a real `drydock serve` in chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createDeployment, loadFromModel, screenshot, startE2E, type E2E } from './support';

let e2e: E2E;
let deploymentId: number;
let workbookId: number;

/** Waits with room for a loaded machine (saving and publishing go through the service). */
const poll = <T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(read, { timeout: 60_000, ...options });

/** The model's own answer through the data API. */
const load = (query: unknown) => loadFromModel(e2e.server, deploymentId, query);

interface Widget {
  id: string;
  type: string;
  position: { x: number; y: number; w: number; h: number };
  config: Record<string, unknown>;
}
async function dashboards(): Promise<{ name: string; draft: Widget[] | null; published: Widget[] | null; draftTitle: string | null }> {
  const res = await e2e.server.api('GET', `/api/v1/deployments/${deploymentId}/workbooks/${workbookId}`);
  expect(res.status).toBe(200);
  const body = res.body as { name: string; dashboardDraft: { title: string; widgets: Widget[] } | null; dashboardPublished: { widgets: Widget[] } | null };
  return { name: body.name, draft: body.dashboardDraft?.widgets ?? null, published: body.dashboardPublished?.widgets ?? null, draftTitle: body.dashboardDraft?.title ?? null };
}

/** Charts redraw (animated) after the window changes size: let them finish before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(1500);

const positionOf = async (widget: Locator) => (await widget.getAttribute('data-position'))!.split(',').map(Number);

/** Presses the pointer on `from`, moves it by whole grid cells, releases: a drag as a user makes it. */
async function dragBy(page: Page, grid: Locator, from: Locator, cols: number, rows: number) {
  const box = (await from.boundingBox())!;
  const gridBox = (await grid.boundingBox())!;
  const colPitch = (gridBox.width + 10) / 12; // 12 columns, 10 px gaps
  const rowPitch = 40 + 10; // 40 px rows, 10 px gaps
  const x = box.x + Math.min(box.width / 2, 30);
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + (cols * colPitch) / 2, y + (rows * rowPitch) / 2, { steps: 4 });
  await page.mouse.move(x + cols * colPitch, y + rows * rowPitch, { steps: 4 });
  await page.mouse.up();
}

beforeAll(async () => {
  e2e = await startE2E({ env: { DRYDOCK_SAMPLE_ORDERS: '2000' } });
  deploymentId = await createDeployment(e2e.server, 'workbook-editing-e2e');
});
afterAll(async () => {
  await e2e?.teardown();
});

describe('workbook and dashboard editing', () => {
  it('creates a workbook and adds its dashboard', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto(`${e2e.server.url}/workbooks/${deploymentId}`);
    await page.getByRole('button', { name: 'New workbook…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New workbook' });
    await dialog.getByLabel('Name').fill('Sales board');
    await dialog.getByRole('button', { name: 'Create workbook' }).click();
    await page.getByRole('heading', { name: /Sales board/, level: 1 }).waitFor();
    workbookId = Number(/\/workbooks\/\d+\/(\d+)/.exec(page.url())![1]);
    expect((await dashboards()).draft).toBeNull();

    await page.getByRole('link', { name: 'Add dashboard' }).click();
    await poll(() => page.url()).toMatch(/\/edit$/);
    await page.getByLabel('Dashboard title').fill('Sales at a glance');
  });

  it('adds charts whose query is picked from the model and draws their real numbers while editing', async () => {
    const { page } = e2e;
    const settings = page.getByRole('region', { name: 'Widget settings' });
    const grid = page.getByRole('list', { name: 'Dashboard layout' });

    await page.getByRole('button', { name: '+ Chart' }).click();
    await settings.getByLabel('Title').fill('Revenue');
    await settings.getByLabel('Chart type').selectOption('number');
    await settings.getByLabel('Find a member').fill('orders.');
    await settings.getByRole('checkbox', { name: 'orders.total_amount', exact: true }).check();
    const [total] = await load({ measures: ['orders.total_amount'] });
    const kpi = grid.getByLabel(/^Revenue: /);
    await poll(() => kpi.getAttribute('aria-label'), { timeout: 60_000 }).toBe(`Revenue: ${Number(total!['orders.total_amount'])}`);

    await page.getByRole('button', { name: '+ Chart' }).click();
    await settings.getByLabel('Title').fill('Orders by status');
    await settings.getByLabel('Find a member').fill('orders.');
    await settings.getByRole('checkbox', { name: 'orders.count', exact: true }).check();
    await settings.getByRole('checkbox', { name: 'orders.status', exact: true }).check();
    const statuses = await load({ measures: ['orders.count'], dimensions: ['orders.status'] });
    const bars = grid.getByRole('img', { name: /Orders by status: bar chart of Count/ });
    await bars.locator('svg').waitFor({ timeout: 30_000 });
    expect(await bars.getAttribute('data-points')).toBe(String(statuses.length));

    // New widgets take the first free spot: the second chart sits right of the first.
    expect(await positionOf(grid.locator('[data-widget-id="chart-1"]'))).toEqual([0, 0, 6, 6]);
    expect(await positionOf(grid.locator('[data-widget-id="chart-2"]'))).toEqual([6, 0, 6, 6]);
  });

  it('moves and resizes widgets by dragging, and with the keyboard', async () => {
    const { page } = e2e;
    const grid = page.getByRole('list', { name: 'Dashboard layout' });
    const revenue = grid.locator('[data-widget-id="chart-1"]');
    const status = grid.locator('[data-widget-id="chart-2"]');

    // Drag the status chart by its header under the revenue chart.
    await dragBy(page, grid, status.locator('.edit-handle'), -6, 6);
    await poll(() => positionOf(status)).toEqual([0, 6, 6, 6]);
    // Resize the revenue chart from its corner to 4 × 3 cells.
    await dragBy(page, grid, revenue.locator('.edit-resize'), -2, -3);
    await poll(() => positionOf(revenue)).toEqual([0, 0, 4, 3]);
    await screenshot(page, 'workbook-editor-dragged-1600');

    // Keys: arrows move one cell, Shift+arrows resize.
    await status.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await poll(() => positionOf(status)).toEqual([0, 3, 8, 6]);
    await poll(() => page.getByRole('status').filter({ hasText: 'Orders by status resized: column 1, row 4, 8 wide, 6 high' }).count()).toBe(1);
    // Moving onto another widget pushes that one down instead of overlapping it.
    await page.keyboard.press('ArrowUp');
    await poll(() => positionOf(status)).toEqual([0, 2, 8, 6]);
    await poll(() => positionOf(revenue)).toEqual([0, 8, 4, 3]);
    await page.keyboard.press('ArrowDown');
    await poll(() => positionOf(status)).toEqual([0, 3, 8, 6]);
    // The pushed widget stays where it was pushed; put it back at the top by typing its row.
    await revenue.click({ position: { x: 40, y: 30 } });
    await page.getByRole('region', { name: 'Widget settings' }).getByLabel('Widget row').fill('1');
    await poll(() => positionOf(revenue)).toEqual([0, 0, 4, 3]);
  });

  it('deletes a widget only after confirming', async () => {
    const { page } = e2e;
    const grid = page.getByRole('list', { name: 'Dashboard layout' });
    await page.getByRole('button', { name: '+ Text' }).click();
    const text = grid.locator('[data-widget-id="text-1"]');
    await text.waitFor();
    await text.focus();
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('dialog', { name: 'Delete widget' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await text.count()).toBe(1);
    await grid.getByRole('button', { name: 'Delete Text' }).click();
    await confirm.getByRole('button', { name: 'Delete widget' }).click();
    await poll(() => text.count()).toBe(0);
  });

  it('asks before leaving with unsaved changes', async () => {
    const { page } = e2e;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Models', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(page.url()).toMatch(/\/edit$/);
    await page.goBack();
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await poll(() => page.url()).toMatch(/\/edit$/);
    expect(await page.getByRole('list', { name: 'Dashboard layout' }).locator('[data-widget-id]').count()).toBe(2);
  });

  it('saves the draft, then publishes it', async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'Save draft' }).click();
    await poll(() => page.locator('.wb-save-state').innerText()).toBe('draft saved');
    const saved = await dashboards();
    expect(saved.draftTitle).toBe('Sales at a glance');
    expect(saved.published).toBeNull();
    const byId = new Map(saved.draft!.map((w) => [w.id, w]));
    expect(byId.get('chart-1')).toMatchObject({ type: 'CHART', position: { x: 0, y: 0, w: 4, h: 3 }, config: { title: 'Revenue', chartType: 'number', query: { measures: ['orders.total_amount'] } } });
    expect(byId.get('chart-2')).toMatchObject({ position: { x: 0, y: 3, w: 8, h: 6 }, config: { title: 'Orders by status', chartType: 'bar', query: { measures: ['orders.count'], dimensions: ['orders.status'] } } });

    await page.setViewportSize({ width: 1024, height: 768 });
    await settle(page);
    await screenshot(page, 'workbook-editor-saved-1024');
    await page.setViewportSize({ width: 1600, height: 1000 });

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Published.' }).waitFor();
    expect(await page.locator('.wb-save-state').innerText()).toBe('published');
    const after = await dashboards();
    expect(after.published).toEqual(after.draft);
    await screenshot(page, 'workbook-editor-published-1600');
  });

  it('after a reload the published dashboard has the same layout and real numbers', async () => {
    const { page } = e2e;
    await page.goto(`${e2e.server.url}/workbooks/${deploymentId}/${workbookId}/published`);
    const grid = page.getByRole('list', { name: 'Published dashboard widgets' });
    const [total] = await load({ measures: ['orders.total_amount'] });
    const kpi = grid.getByLabel(/^Revenue: /);
    await poll(() => kpi.getAttribute('aria-label'), { timeout: 60_000 }).toBe(`Revenue: ${Number(total!['orders.total_amount'])}`);
    const statuses = await load({ measures: ['orders.count'], dimensions: ['orders.status'] });
    const bars = grid.getByRole('img', { name: /Orders by status: bar chart of Count/ });
    await bars.locator('svg').waitFor({ timeout: 30_000 });
    expect(await bars.getAttribute('data-points')).toBe(String(statuses.length));
    const placed = await grid.getByRole('listitem').evaluateAll((items) => items.map((el) => `${(el as HTMLElement).style.gridColumn} | ${(el as HTMLElement).style.gridRow}`));
    expect(placed).toEqual(['1 / 5 | 1 / 4', '1 / 9 | 4 / 10']);
    await screenshot(page, 'workbook-published-reloaded-1600');
    await page.setViewportSize({ width: 1024, height: 768 });
    await settle(page);
    await screenshot(page, 'workbook-published-reloaded-1024');
  });

  it('renames the workbook; the editor opens on the saved draft and links to promotion', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.getByRole('button', { name: 'Rename…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename workbook' });
    await dialog.getByLabel('Name').fill('Sales board 2026');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: /Sales board 2026/, level: 1 }).waitFor();
    expect((await dashboards()).name).toBe('Sales board 2026');

    await page.getByRole('link', { name: 'Edit dashboard' }).click();
    const grid = page.getByRole('list', { name: 'Dashboard layout' });
    await poll(() => grid.locator('[data-widget-id]').count()).toBe(2);
    expect(await page.locator('.wb-save-state').innerText()).toBe('published');
    expect(await page.getByRole('button', { name: 'Publish' }).isDisabled()).toBe(true);
    // Nothing changed: leaving does not ask.
    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByRole('link', { name: 'Promote…' }).first().click();
    await poll(() => page.url()).toContain(`/promotions/${deploymentId}/${workbookId}`);
  });

  it('a saved draft that differs from the published dashboard is published from the workbook page', async () => {
    const { page } = e2e;
    await page.goto(`${e2e.server.url}/workbooks/${deploymentId}/${workbookId}/edit`);
    const grid = page.getByRole('list', { name: 'Dashboard layout' });
    await grid.locator('[data-widget-id="chart-2"] .dash-widget-title').click();
    await page.getByRole('region', { name: 'Widget settings' }).getByLabel('Chart type').selectOption('table');
    await grid.getByRole('table', { name: 'Orders by status' }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Control+s');
    await poll(() => page.locator('.wb-save-state').innerText()).toBe('draft saved');

    // At 1024×768 the editor keeps its settings beside the grid and nothing sticks out of the window.
    await page.setViewportSize({ width: 1024, height: 768 });
    const overflow = await page.evaluate(() => {
      const main = document.querySelector('.main')!;
      return { page: document.documentElement.scrollWidth - window.innerWidth, main: main.scrollWidth - main.clientWidth };
    });
    expect(overflow).toEqual({ page: 0, main: 0 });
    const side = (await page.getByRole('region', { name: 'Widget settings' }).boundingBox())!;
    const gridBox = (await grid.boundingBox())!;
    expect(side.x).toBeGreaterThan(gridBox.x + gridBox.width);
    await screenshot(page, 'workbook-editor-table-1024');
    await page.setViewportSize({ width: 1600, height: 1000 });

    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Publish draft' }).click();
    const published = page.getByRole('list', { name: 'Published dashboard widgets' });
    await published.getByRole('table', { name: 'Orders by status' }).waitFor({ timeout: 30_000 });
    const after = await dashboards();
    expect(after.published!.find((w) => w.id === 'chart-2')!.config.chartType).toBe('table');
    await poll(() => page.getByRole('button', { name: 'Publish draft' }).count()).toBe(0);
  });

  it('no console errors', () => {
    expect(e2e.problems).toEqual([]);
  });
});
