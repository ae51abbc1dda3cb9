// Never lose an edit (issue 14 item 1): two windows edit the same dashboard; the second save is
// refused by the service (409 FILE_CHANGED) and shows the compare view (Monaco's diff editor), and
// each way out does what it says — take theirs, keep mine (overwrite), save merged. Meanwhile the
// live reload from the first window's save keeps the second window's unsaved edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createDeployment, screenshot, signInWithApiKey, startE2E, type E2E } from './support';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000 });

let e2e: E2E;
let other: Page;
let deploymentId: number;
let workbookId: number;

const draftTitle = async () =>
  ((await e2e.server.api('GET', `/api/v1/deployments/${deploymentId}/workbooks/${workbookId}`)).body as { dashboardDraft: { title: string } | null }).dashboardDraft?.title;
const titleInput = (page: Page) => page.getByLabel('Dashboard title');
const compareView = (page: Page) => page.getByRole('dialog', { name: /The dashboard of “Shared board” changed since you opened it/ });

/** Both windows edit the title; the first saves, then the second saves and meets the compare view. */
async function conflict(first: string, second: string) {
  const mine = e2e.page;
  await titleInput(mine).fill(second);
  await titleInput(other).fill(first);
  await other.getByRole('button', { name: 'Save draft' }).click();
  await poll(draftTitle).toBe(first);
  // The live reload of the other window's save keeps this window's unsaved edit, and says so.
  await mine.getByTestId('wb-remote-change').getByText('Your unsaved changes are kept').waitFor({ timeout: 60_000 });
  expect(await titleInput(mine).inputValue()).toBe(second);
  await mine.getByRole('button', { name: 'Save draft' }).click();
  await compareView(mine).waitFor({ timeout: 60_000 });
  await compareView(mine).getByTestId('merge-editor').locator('.editor.modified .lines-content > .view-lines').waitFor();
  expect(await draftTitle()).toBe(first);
}

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'stale-writes-e2e');
  const created = await e2e.server.api('POST', `/api/v1/deployments/${deploymentId}/workbooks`, {
    name: 'Shared board',
    dashboardDraft: { title: 'Start', kind: 'CLASSIC', widgets: [{ id: 'note', type: 'TEXT', position: { x: 0, y: 0, w: 4, h: 3 }, config: { title: 'Note', text: 'hello' } }] },
  });
  expect(created.status).toBe(201);
  workbookId = (created.body as { id: number }).id;
  other = await e2e.context.newPage();
  await signInWithApiKey(other, e2e.server);
  for (const page of [e2e.page, other]) {
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto(`${e2e.server.url}/workbooks/${deploymentId}/${workbookId}/edit`, { timeout: 60_000 });
    await titleInput(page).waitFor({ timeout: 60_000 });
  }
});
afterAll(async () => {
  await e2e?.teardown();
});

describe('two windows save the same dashboard', () => {
  it('the second save shows the compare view; "Take theirs" shows the other window’s version and writes nothing', async () => {
    await conflict('Saved in the other window', 'My title');
    const view = compareView(e2e.page);
    await view.getByText('On the service now (theirs)').waitFor();
    await e2e.page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(e2e.page, 'stale-write-compare-1024');
    await e2e.page.setViewportSize({ width: 1600, height: 1000 });
    await screenshot(e2e.page, 'stale-write-compare-1600');

    await view.getByRole('button', { name: 'Take theirs' }).click();
    await view.waitFor({ state: 'hidden' });
    expect(await titleInput(e2e.page).inputValue()).toBe('Saved in the other window');
    expect(await draftTitle()).toBe('Saved in the other window');
    await e2e.page.getByRole('status').getByText('draft saved').waitFor();
  });

  it('"Keep mine (overwrite)" saves this window’s version over the other', async () => {
    await conflict('Other window again', 'Mine wins');
    await compareView(e2e.page).getByRole('button', { name: 'Keep mine (overwrite)' }).click();
    await poll(draftTitle).toBe('Mine wins');
    expect(await titleInput(e2e.page).inputValue()).toBe('Mine wins');
    await e2e.page.getByRole('status').getByText('draft saved').waitFor();
    // The other window has no unsaved edit: it shows this save at once.
    await poll(() => titleInput(other).inputValue()).toBe('Mine wins');
    await other.getByTestId('wb-remote-change').getByText('Updated with the version saved in another window').waitFor();
  });

  it('"Save merged" saves the right-hand side as edited in the compare view', async () => {
    await conflict('Theirs part', 'Mine part');
    const view = compareView(e2e.page);
    const lines = view.getByTestId('merge-editor').locator('.editor.modified .view-line');
    // Monaco renders spaces as no-break spaces; find the title's line on the right (mine).
    // Monaco fills its lines after the view appears (later on a loaded machine): wait for the title's.
    let texts: string[] = [];
    const titleLine = async () => {
      texts = (await lines.allTextContents()).map((t) => t.replace(/\u00a0/g, ' '));
      return texts.findIndex((t) => t.includes('"title": "Mine part"'));
    };
    await poll(titleLine).toBeGreaterThanOrEqual(0);
    const index = await titleLine();
    await lines.nth(index).click();
    // Typed without brackets or quotes (Monaco would auto-close them): replace the words inside the quotes.
    await e2e.page.keyboard.press('End');
    for (let i = 0; i < (texts[index].trimEnd().endsWith(',') ? 2 : 1); i++) await e2e.page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 'Mine part'.length; i++) await e2e.page.keyboard.press('Backspace');
    await e2e.page.keyboard.type('Mine part and Theirs part');
    await view.getByRole('button', { name: 'Save merged' }).click();
    await view.waitFor({ state: 'hidden' });
    await poll(draftTitle).toBe('Mine part and Theirs part');
    expect(await titleInput(e2e.page).inputValue()).toBe('Mine part and Theirs part');
    await e2e.page.getByRole('status').getByText('draft saved').waitFor();
    await poll(() => titleInput(other).inputValue()).toBe('Mine part and Theirs part');
  });
});
