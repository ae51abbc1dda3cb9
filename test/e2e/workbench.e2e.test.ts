// Models as a workbench (issue 24): a context bar and a status bar around resizable panes (file tree |
// editor | panel) whose sizes are remembered per user, keyboard toggles as VS Code's, notices that never
// push the editor down, a Problems panel that gives the message the width, a service check that says
// when it is stale, and charts people can read — at 1024×768, 1366×768 and 1920×1080 in chromium
// against a real `drydock serve`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { clippingProblems } from './layout-checks';
import { createDeployment, screenshot, startE2E, type E2E } from './support';

/** Waits with room for a loaded machine. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000 });

const SIZES = [
  [1024, 768],
  [1366, 768],
  [1920, 1080],
] as const;
/** Where the layout of this user on the local service is kept (the bootstrap admin is user 1). */
const LAYOUT_KEY = 'drydock.models.layout.local.1';

let e2e: E2E;
let deploymentId: number;

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'workbench-e2e');
});
afterAll(async () => {
  await e2e?.teardown();
});

const editor = (page: Page) => page.getByTestId('model-editor');
const tree = (page: Page) => page.getByRole('tree', { name: 'Model files' });
const fileItem = (page: Page, name: string) => tree(page).getByRole('treeitem', { name: new RegExp(`^${name.replace('.', '\\.')}`) });
const problems = (page: Page) => page.getByRole('region', { name: 'Problems' });
const statusBar = (page: Page) => page.getByRole('group', { name: 'Status bar' });
const compiled = (page: Page) => page.getByRole('status', { name: 'Editor compile status' }).textContent();
const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

async function openModels(page: Page): Promise<void> {
  await page.goto(`${e2e.server.url}/models/${deploymentId}`);
  await fileItem(page, 'orders.yml').waitFor({ timeout: 60_000 });
  await poll(() => compiled(page)).toMatch(/^\s*11 files · [\d.]+ ms$/);
}

async function openFile(page: Page, name: string): Promise<void> {
  await fileItem(page, name).getByRole('button').first().click();
  await poll(() => page.locator('.editor-head .editor-file').textContent()).toBe(name);
  await editor(page).locator('.view-lines').waitFor();
}

/** Nothing in the work area scrolls sideways, sticks out past the window, or is cut without an ellipsis. */
async function laidOut(page: Page, what: string): Promise<void> {
  await poll(() => page.locator('.wb-main .spinner:visible, [role="dialog"] .spinner:visible').count()).toBe(0);
  const sideways = await page.evaluate(() => {
    const main = document.querySelector('.main')!;
    return { main: main.scrollWidth - main.clientWidth, page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
  });
  expect(sideways, `${what}: sideways scroll`).toEqual({ main: 0, page: 0 });
  expect(await page.evaluate(clippingProblems, { scope: 'main.content, [role="dialog"]', limit: 10 }), what).toEqual([]);
}

/** Every chip of the Problems head lies whole inside the head (none clipped or pushed out). */
async function chipsWhole(page: Page): Promise<void> {
  const head = (await problems(page).locator('.problems-head').boundingBox())!;
  for (const chip of await problems(page).getByRole('group', { name: 'Show' }).getByRole('button').all()) {
    const b = (await chip.boundingBox())!;
    expect(b.x >= head.x - 1 && b.x + b.width <= head.x + head.width + 1 && b.y >= head.y - 1 && b.y + b.height <= head.y + head.height + 1, `chip ${await chip.textContent()}`).toBe(true);
  }
}

const measured: string[] = [];

describe('the Files view at a laptop’s size and on a large screen', () => {
  it('keeps the editor at least 360 px tall and a problem’s message 320 px wide; nothing scrolls sideways or is cut', async () => {
    const { page } = e2e;
    await openModels(page);
    await openFile(page, 'orders.yml');
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await poll(async () => (await box(page, '[data-testid="model-editor"]')).height).toBeGreaterThan(0);
      const editorBox = await box(page, '[data-testid="model-editor"]');
      const message = await box(page, '.problem-message');
      const tab = problems(page).getByRole('tab', { name: /^Service check/ });
      measured.push(`${width}×${height}: editor ${Math.round(editorBox.width)}×${Math.round(editorBox.height)} px, problem message ${Math.round(message.width)} px wide`);
      expect(editorBox.height, `editor height at ${width}×${height}`).toBeGreaterThanOrEqual(360);
      expect(message.width, `problem message width at ${width}×${height}`).toBeGreaterThanOrEqual(320);
      // The "Service check" tab stays on one line.
      expect((await tab.boundingBox())!.height).toBeLessThanOrEqual(32);
      await chipsWhole(page);
      await laidOut(page, `Files at ${width}×${height}`);
      await screenshot(page, `workbench-files-${width}x${height}`);
    }
    console.log(measured.join('\n'));
  });

  it('the work area gets the room on a large screen: the editor takes what the tree and the panel leave', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1920, height: 1080 });
    const main = await box(page, '.wb-main');
    const editorBox = await box(page, '[data-testid="model-editor"]');
    const treeBox = await box(page, '[data-testid="models-tree"]');
    // Editor, separator and tree fill the work area's width (no max-width leaves a margin).
    expect(treeBox.width + 1 + editorBox.width).toBeGreaterThanOrEqual(main.width - 2);
    expect(editorBox.height).toBeGreaterThan(600);
  });

  it('the sample’s warning about order_funnel badges the view’s file as well as orders.yml', async () => {
    const { page } = e2e;
    await poll(() => fileItem(page, 'order_funnel.yml').getAttribute('aria-label')).toBe('order_funnel.yml (1 warning)');
    await poll(() => fileItem(page, 'orders.yml').getAttribute('aria-label')).toBe('orders.yml (1 warning)');
    // The row offers the view's file too.
    await problems(page).getByRole('button', { name: 'Open the view (order_funnel.yml)' }).click();
    await poll(() => page.locator('.editor-head .editor-file').textContent()).toBe('order_funnel.yml');
  });
});

describe('panes: resizable, remembered per user, toggled by the keys VS Code uses', () => {
  it('remembers the file tree’s width and the panel’s height across a reload', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1366, height: 768 });
    await openModels(page);
    await openFile(page, 'orders.yml');
    const before = await box(page, '[data-testid="models-tree"]');
    const separator = await box(page, '[aria-label="Resize the file tree"]');
    await page.mouse.move(separator.x + separator.width / 2, separator.y + 200);
    await page.mouse.down();
    await page.mouse.move(separator.x + 90, separator.y + 200, { steps: 6 });
    await page.mouse.up();
    await poll(async () => Math.abs((await box(page, '[data-testid="models-tree"]')).width - (before.width + 90))).toBeLessThanOrEqual(2);

    const panel = await box(page, '[data-testid="models-panel"]');
    const handle = await box(page, '[aria-label="Resize the bottom panel"]');
    await page.mouse.move(handle.x + 300, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + 300, handle.y - 60, { steps: 6 });
    await page.mouse.up();
    await poll(async () => Math.abs((await box(page, '[data-testid="models-panel"]')).height - (panel.height + 60))).toBeLessThanOrEqual(2);

    // What is kept is what the panes are.
    const stored = JSON.parse((await page.evaluate((key) => localStorage.getItem(key), LAYOUT_KEY))!) as { treeWidth: number; panelHeight: number };
    expect(Math.abs(stored.treeWidth - (await box(page, '[data-testid="models-tree"]')).width)).toBeLessThanOrEqual(1);
    expect(Math.abs(stored.panelHeight - (await box(page, '[data-testid="models-panel"]')).height)).toBeLessThanOrEqual(1);

    await page.reload();
    await fileItem(page, 'orders.yml').waitFor({ timeout: 60_000 });
    await poll(async () => Math.abs((await box(page, '[data-testid="models-tree"]')).width - stored.treeWidth)).toBeLessThanOrEqual(1);
    await poll(async () => Math.abs((await box(page, '[data-testid="models-panel"]')).height - stored.panelHeight)).toBeLessThanOrEqual(1);
    // Another user (or another service) has an arrangement of its own.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('drydock.models.layout.')))).toEqual([LAYOUT_KEY]);
  });

  it('Ctrl+B hides and shows the file tree and Ctrl+J the panel, from the editor too; the state survives a reload', async () => {
    const { page } = e2e;
    const width = Math.round((await box(page, '[data-testid="models-tree"]')).width);
    const height = Math.round((await box(page, '[data-testid="models-panel"]')).height);
    await openFile(page, 'orders.yml');
    await editor(page).locator('.view-lines').click();
    await page.keyboard.press('Control+B');
    await poll(async () => (await box(page, '[data-testid="models-tree"]')).width).toBe(0);
    await page.keyboard.press('Control+J');
    await poll(async () => (await box(page, '[data-testid="models-panel"]')).height).toBe(0);
    const editorHeight = (await box(page, '[data-testid="model-editor"]')).height;
    expect(editorHeight).toBeGreaterThan(600);
    await screenshot(page, 'workbench-panes-hidden-1366x768');

    await page.reload();
    await poll(() => compiled(page)).toMatch(/^\s*11 files · [\d.]+ ms$/);
    await poll(async () => (await box(page, '[data-testid="models-tree"]')).width).toBe(0);
    await poll(async () => (await box(page, '[data-testid="models-panel"]')).height).toBe(0);

    // Outside the editor too, and they come back at the size they had.
    await page.locator('.wb-status').click({ position: { x: 600, y: 5 } });
    await page.keyboard.press('Control+B');
    await poll(async () => Math.abs((await box(page, '[data-testid="models-tree"]')).width - width)).toBeLessThanOrEqual(1);
    await page.keyboard.press('Control+J');
    await poll(async () => Math.abs((await box(page, '[data-testid="models-panel"]')).height - height)).toBeLessThanOrEqual(1);
  });

  it('the toggles and quick open’s commands name their keys, and the commands run', async () => {
    const { page } = e2e;
    const treeToggle = statusBar(page).getByRole('button', { name: 'File tree' });
    await poll(() => treeToggle.getAttribute('title')).toBe('Hide the file tree (Ctrl+B)');
    expect(await statusBar(page).getByRole('button', { name: 'Bottom panel' }).getAttribute('title')).toBe('Hide the bottom panel (Ctrl+J)');

    await page.keyboard.press('Control+P');
    const quickOpen = page.getByRole('dialog', { name: 'Go to file or member' });
    await quickOpen.waitFor();
    await page.keyboard.type('>tree');
    const option = quickOpen.getByRole('option', { name: /View: Show or hide the file tree/ });
    await poll(() => option.textContent()).toMatch(/Ctrl\+B$/);
    await screenshot(page, 'workbench-commands');
    await page.keyboard.press('Enter');
    await poll(async () => (await box(page, '[data-testid="models-tree"]')).width).toBe(0);
    await treeToggle.click();
    await poll(async () => (await box(page, '[data-testid="models-tree"]')).width).toBeGreaterThan(100);
  });
});

describe('notices and the service check', () => {
  it('a notice is a toast: entering dev mode does not move the editor down', async () => {
    const { page } = e2e;
    await openFile(page, 'orders.yml');
    const top = (await box(page, '[data-testid="model-editor"]')).y;
    await page.getByRole('switch', { name: 'Dev mode' }).click();
    const toast = page.getByRole('status', { name: 'Notifications' }).getByText(/Created your dev branch/);
    await toast.waitFor({ timeout: 60_000 });
    await openFile(page, 'orders.yml');
    expect((await box(page, '[data-testid="model-editor"]')).y).toBe(top);
  });

  it('says when its verdict is stale after a save, and never contradicts the editor’s counts', async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'Validate', exact: true }).click();
    const verdict = problems(page).locator('.server-verdict');
    await poll(() => verdict.textContent()).toMatch(/^Valid.*0 errors · 0 warnings/);
    // The editor shows one warning the service does not count: it is named as the editor's own push check.
    await poll(() => verdict.textContent()).toContain('The editor also shows 1 push or publish warning: the service checks those when you push or publish.');
    await poll(() => statusBar(page).getByRole('button', { name: /Valid on the service/ }).count()).toBe(1);

    // An edit saved since: the verdict says it is stale, in the panel and in the status bar.
    await editor(page).locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n# checked by the workbench test\n');
    await page.keyboard.press('Control+S');
    await poll(() => page.getByText('● Unsaved').count()).toBe(0);
    await poll(() => statusBar(page).getByRole('button', { name: /Validation stale/ }).count()).toBe(1);
    await poll(() => problems(page).getByRole('tab', { name: /^Service check/ }).textContent()).toBe('Service checkstale');
    await poll(() => verdict.textContent()).toMatch(/^StaleWas valid: .*Stale: orders\.yml changed since this check\. Validate again/i);
    await screenshot(page, 'workbench-service-check-stale-1366x768');

    await page.getByRole('button', { name: 'Validate', exact: true }).click();
    await poll(() => statusBar(page).getByRole('button', { name: /Valid on the service/ }).count()).toBe(1);
  });

  it('one Merge entry per target, and the review dialog counts its files in words that agree', async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'Commit…' }).click();
    const commit = page.getByRole('dialog', { name: /^Commit changes on / });
    await commit.getByText('Changes to 1 file on').waitFor();
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await laidOut(page, `commit dialog at ${width}×${height}`);
    }
    await screenshot(page, 'workbench-commit-dialog-1920x1080');
    await commit.getByLabel('Commit message').fill('A comment at the end of orders');
    await commit.getByRole('button', { name: 'Commit', exact: true }).click();
    await page.getByRole('status', { name: 'Notifications' }).getByText('Committed 1 file on').waitFor();

    await page.setViewportSize({ width: 1024, height: 768 });
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    const menu = page.getByRole('menu', { name: 'Merge' });
    // Forked from the deploy branch: one target, one entry.
    await poll(() => menu.getByRole('menuitem').count()).toBe(1);
    await menu.getByRole('menuitem', { name: /Merge into main/ }).click();
    const merge = page.getByRole('dialog', { name: /^Merge .* into main$/ });
    await merge.getByText('Changes to 1 file on').waitFor({ timeout: 60_000 });
    await laidOut(page, 'merge dialog at 1024×768');
    await screenshot(page, 'workbench-merge-dialog-1024x768');
    await merge.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('the other views and charts people can read', () => {
  it('Data: a count and an amount get two axes; the chart stays in its card and the search box keeps its height', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${e2e.server.url}/models/${deploymentId}`);
    await page.getByRole('navigation', { name: 'Models views' }).getByRole('tab', { name: 'Data' }).click();
    const picker = page.getByRole('complementary', { name: 'Members' });
    await picker.locator('summary', { hasText: 'Orders overview' }).waitFor({ timeout: 60_000 });
    const search = picker.getByLabel('Find a member');
    const searchHeight = (await search.boundingBox())!.height;
    await search.fill('orders.');
    await picker.getByRole('checkbox', { name: 'orders.count', exact: true }).check();
    await picker.getByRole('checkbox', { name: 'orders.total_amount', exact: true }).check();
    await picker.getByRole('checkbox', { name: 'orders.status', exact: true }).check();
    await page.getByRole('button', { name: 'Run query' }).click();
    await page.getByRole('table', { name: 'Query result' }).getByRole('row').nth(2).waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'Chart' }).click();
    const chart = page.getByRole('img', { name: /Query result: bar chart of Count, Total Amount \(two value axes\)/ });
    await chart.locator('svg').waitFor();
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await poll(() => chart.getAttribute('data-axes')).toBe('dual');
      const card = (await page.locator('.data-chart').boundingBox())!;
      const drawing = (await chart.locator('svg').boundingBox())!;
      expect(drawing.y + drawing.height, `chart bottom at ${width}×${height}`).toBeLessThanOrEqual(card.y + card.height + 1);
      expect(drawing.x + drawing.width).toBeLessThanOrEqual(card.x + card.width + 1);
      // Every category has its label.
      for (const status of ['completed', 'shipped', 'placed', 'returned']) await chart.locator('svg text', { hasText: status }).first().waitFor();
      expect((await search.boundingBox())!.height).toBe(searchHeight);
      await laidOut(page, `Data at ${width}×${height}`);
      await screenshot(page, `workbench-data-chart-${width}x${height}`);
    }
  });

  it('Lineage and the service check fit every size', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.getByRole('navigation', { name: 'Models views' }).getByRole('tab', { name: 'Lineage' }).click();
    await page.getByLabel('Lineage of').waitFor({ timeout: 60_000 });
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await laidOut(page, `Lineage at ${width}×${height}`);
    }
    await page.getByRole('navigation', { name: 'Models views' }).getByRole('tab', { name: 'Files' }).click();
    await problems(page).getByRole('tab', { name: /^Service check/ }).click();
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await laidOut(page, `Service check at ${width}×${height}`);
      await screenshot(page, `workbench-service-check-${width}x${height}`);
    }
  });

  it('the context bar’s dialogs (connect a team repository) lay out as dialogs, not as a line of the bar', async () => {
    const { page } = e2e;
    await page.getByRole('group', { name: 'Team repository' }).getByRole('button', { name: 'Connect repository…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect the team repository' });
    await dialog.waitFor();
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await laidOut(page, `connect dialog at ${width}×${height}`);
      // Its fields fit the dialog.
      const frame = (await dialog.boundingBox())!;
      const field = (await dialog.getByLabel('Repository URL').boundingBox())!;
      expect(field.x + field.width).toBeLessThanOrEqual(frame.x + frame.width);
    }
    await screenshot(page, 'workbench-connect-dialog-1920x1080');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('reached the workbench without console errors', () => {
    expect(e2e.problems).toEqual([]);
  });
});
