// Live screens (issue 14 item 3): a change made through the API — another window, a script, the CLI —
// shows up on the screen without a reload, carried by the live-events stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createDeployment, screenshot, startE2E, type E2E } from './support';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000 });

let e2e: E2E;
let deploymentId: number;

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'live-e2e');
});
afterAll(async () => {
  await e2e?.teardown();
});

const tree = (page: Page) => page.getByRole('tree', { name: 'Model files' });
const editor = (page: Page) => page.getByTestId('model-editor');
const files = (branch: string) => `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=${encodeURIComponent(branch)}`;

describe('screens follow changes made elsewhere', () => {
  it('Models shows a file another window saved, and new content of the open file, without a reload', async () => {
    const { page } = e2e;
    await page.goto(`${e2e.server.url}/models/${deploymentId}`);
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    await tree(page).getByRole('treeitem', { name: /^orders\.yml/ }).waitFor();
    await page.getByRole('switch', { name: 'Dev mode' }).click();
    await poll(() => page.getByRole('switch', { name: 'Dev mode' }).getAttribute('aria-checked')).toBe('true');
    const branch = await page.getByLabel('Branch', { exact: true }).inputValue();
    expect(branch).not.toBe('main');
    await tree(page).getByRole('treeitem', { name: /^orders\.yml/ }).getByRole('button').first().click();
    await editor(page).locator('.view-lines').waitFor();
    // Mark the page: a reload would lose this.
    await page.evaluate(() => ((window as unknown as { liveMarker: number }).liveMarker = 42));

    // Another window (the same user, through the API) adds a file and changes the open one.
    const orders = (await e2e.server.api('GET', `${files(branch)}&path=model/cubes/orders.yml`)).body as { content: string };
    const added = await e2e.server.api('PUT', files(branch), {
      files: [
        { path: 'model/cubes/live_added.yml', content: 'cubes:\n  - name: live_added\n    sql_table: public.live\n' },
        { path: 'model/cubes/orders.yml', content: orders.content.replace(/title: Orders/, 'title: Orders (saved elsewhere)') },
      ],
    });
    expect(added.status).toBe(200);

    await tree(page).getByRole('treeitem', { name: /^live_added\.yml/ }).waitFor({ timeout: 60_000 });
    await editor(page).getByText('(saved elsewhere)').first().waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker)).toBe(42);
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'live-models-1024');
    await page.setViewportSize({ width: 1600, height: 1000 });
    await screenshot(page, 'live-models-1600');

    // A commit made elsewhere: the branch's uncommitted marks go away here too.
    const committed = await e2e.server.api('POST', `/build/api/v1/deployments/${deploymentId}/commit`, { branchName: branch, message: 'from another window' });
    expect(committed.status).toBe(200);
    await poll(() => tree(page).getByRole('treeitem', { name: /^live_added\.yml/ }).getAttribute('aria-label')).toBe('live_added.yml');
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker)).toBe(42);
  });

  it('Build status follows a build started elsewhere', async () => {
    const { page } = e2e;
    await page.goto(`${e2e.server.url}/deployments/${deploymentId}/build`);
    await page.evaluate(() => ((window as unknown as { liveMarker: number }).liveMarker = 7));
    const before = await page.locator('main').textContent();
    const merged = await e2e.server.api('POST', `/build/api/v1/deployments/${deploymentId}/merge-to-default`, {});
    expect([200, 409]).toContain(merged.status);
    const commit = (merged.body as { commit?: string | null }).commit;
    if (commit) await poll(() => page.locator('main').textContent()).toContain(commit.slice(0, 12));
    else await poll(() => page.locator('main').textContent()).not.toBe(before);
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker)).toBe(7);
  });
});
