// Layout (issue 24 item 2): at 1024×768, 1366×768 and 1920×1080 no main screen scrolls sideways, no
// text runs past the window or is cut without an ellipsis and a tooltip, and the deployment's tabs
// stay in one row (the ones that do not fit go into a More menu). Screenshots of each screen at each
// size go to test-output/e2e/layout-*.png for a person to look at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clippingProblems } from './layout-checks';
import { SCREENS, seedScreens, settled, type Seeded } from './screens';
import { screenshot, startE2E, type E2E } from './support';

let e2e: E2E;
let seeded: Seeded;

beforeAll(async () => {
  e2e = await startE2E();
  seeded = await seedScreens(e2e);
}, 300_000);
afterAll(async () => {
  await e2e?.teardown();
});

/**
 * Window sizes, grouped by page load: the navigation decides on load whether it starts as an icon rail
 * (narrower than 1200 px), so sizes within a group share one load (resized in place, as a user does)
 * and a new group loads the screen again.
 */
const SIZE_GROUPS = [
  [
    { width: 1024, height: 768 },
    { width: 1366, height: 768 },
  ],
  [{ width: 1920, height: 1080 }],
] as const;
const SIZES = SIZE_GROUPS.flat();

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

describe(`at ${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')}`, () => {
  it.each(SCREENS.map((s) => [s.name, s] as const))('%s: nothing scrolls sideways or is cut', async (name, screen) => {
    const { page, server } = e2e;
    const found: Record<string, string[]> = {};
    for (const group of SIZE_GROUPS) {
      await page.setViewportSize(group[0]);
      await page.goto(`${server.url}${screen.path(seeded)}`);
      await screen.ready(page);
      for (const size of group) {
        await page.setViewportSize(size);
        await settled(page);
        await screenshot(page, `layout-${slug(name)}-${size.width}x${size.height}`);
        const problems = await page.evaluate(clippingProblems, { scope: '.main', limit: 8 });
        if (problems.length > 0) found[`${size.width}×${size.height}`] = problems;
      }
    }
    expect(found, screen.owner ? `(fixed with ${screen.owner})` : undefined).toEqual({});
  });
});

describe.each(SIZES)('at $width×$height', (size) => {
  beforeAll(async () => {
    await e2e.page.setViewportSize(size);
  });

  it('the deployment’s tabs stay in one row; what does not fit is in the More menu, and the menu opens the tab', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/deployments/${seeded.deploymentId}`);
    const tabs = page.getByRole('tablist', { name: 'Deployment sections' });
    await tabs.waitFor();
    const tops = await tabs.getByRole('tab').evaluateAll((els) => [...new Set(els.map((el) => Math.round(el.getBoundingClientRect().top)))]);
    expect(tops, 'one row of tabs').toHaveLength(1);
    const shown = await tabs.getByRole('tab').count();
    const more = page.getByRole('button', { name: 'More deployment sections' });
    if (shown === 12) {
      expect(await more.count()).toBe(0);
      return;
    }
    // The last tab is in the menu: choosing it opens it and keeps it in the bar.
    await more.click();
    const menu = page.getByRole('menu', { name: 'More deployment sections' });
    await expect(menu.getByRole('menuitem').count()).resolves.toBe(12 - shown);
    await menu.getByRole('menuitem', { name: 'Settings document' }).click();
    await page.waitForURL(/\/settings$/);
    await tabs.getByRole('tab', { name: 'Settings document', selected: true }).waitFor();
    const after = await tabs.getByRole('tab').evaluateAll((els) => [...new Set(els.map((el) => Math.round(el.getBoundingClientRect().top)))]);
    expect(after).toHaveLength(1);
  });
});

describe('tables choose their columns by priority', () => {
  it('at 1024 px the deployments list folds its secondary columns into the row and keeps Updated and the names', async () => {
    const { page, server } = e2e;
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${server.url}/deployments`);
    const table = page.getByRole('table', { name: 'Deployments' });
    await table.waitFor();
    // With the navigation as an icon rail every column fits at 1024 px; with its labels shown
    // (a user's choice) the table has less room than its columns need.
    const rail = page.getByRole('button', { name: 'Collapse the navigation' });
    if ((await rail.getAttribute('aria-pressed')) !== 'true') await rail.click();
    await expect.poll(() => table.getByRole('columnheader').allTextContents()).toContain('Created via');
    await rail.click();
    await expect.poll(() => rail.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => table.getByRole('columnheader').allTextContents()).not.toContain('Created via');
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Name', 'Setup', 'Updated']));
    expect(headers).not.toContain('Created via');
    // The folded values are still there, under the name, labelled.
    await table.getByRole('row').filter({ hasText: 'Sample project' }).getByText('Created via').waitFor();
    // With room, every column is back.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(() => table.getByRole('columnheader').allTextContents()).toEqual(expect.arrayContaining(['Created via', 'Deploy mode', 'Region', 'Cloud', 'Version']));
    await rail.click();
  });

  it('at 1024 px Admin › Users keeps its row actions (Delete) in sight, and your own row explains why they are unavailable', async () => {
    const { page, server } = e2e;
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${server.url}/admin`);
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('button', { name: 'Delete ana.lyst@example.com' }).waitFor();
    const box = await table.getByRole('button', { name: 'Delete ana.lyst@example.com' }).boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(1024);
    const own = table.getByRole('button', { name: 'Delete admin@localhost' });
    await expect(own.getAttribute('aria-disabled')).resolves.toBe('true');
    await expect(own.getAttribute('title')).resolves.toMatch(/cannot delete your own account/);
    await expect(table.getByRole('button', { name: 'Deactivate admin@localhost' }).getAttribute('aria-disabled')).resolves.toBe('true');
  });
});

it('no console errors or CSP violations', () => {
  expect(e2e.problems).toEqual([]);
});
