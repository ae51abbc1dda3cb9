// A toast never covers the control that fired it (issue 14 item 10; the rule: lib/toast-placement.ts,
// unit-tested). In the browser: a window where the Push dialog's "Start push" button sits in the
// bottom-right corner, where toasts go by default; the toast announcing the end of that push goes to
// another corner. The test first checks that the default corner would have covered the button, so
// it fails if toasts were always put bottom right.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlap, stackRect, type Rect } from '../../src-renderer/src/lib/toast-placement';
import { createDeployment, screenshot, startE2E, type E2E } from './support';

const JOB_TIMEOUT = 120_000;

let e2e: E2E;
let deploymentId: number;

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'toasts-e2e');
});
afterAll(async () => {
  await e2e?.teardown();
});

describe('toast placement', () => {
  it('the toast announcing a push keeps clear of the "Start push" button used in the bottom-right corner', async () => {
    const { page, server } = e2e;
    // Short enough that the dialog reaches down into the corner the toasts use by default.
    const viewport = { width: 1024, height: 560 };
    await page.setViewportSize(viewport);
    await page.goto(`${server.url}/syncs/${deploymentId}/warehouse`);
    await page.getByRole('button', { name: 'Push to warehouse…' }).click({ timeout: 60_000 });
    const dialog = page.getByRole('dialog', { name: 'Push views to the warehouse' });
    await dialog.getByRole('checkbox', { name: 'product_sales', exact: true }).check({ timeout: 60_000 });
    await dialog.getByLabel('Schema').fill('PUBLIC');
    await dialog.getByLabel('Prefix').fill('TOAST_');
    const start = dialog.getByRole('button', { name: 'Start push' });
    await start.scrollIntoViewIfNeeded();
    const button = (await start.boundingBox()) as Rect | null;
    expect(button, 'the Start push button is drawn').not.toBeNull();
    await start.click();
    await dialog.waitFor({ state: 'detached' });

    const stack = page.getByRole('status', { name: 'Notifications' });
    await stack.getByText(/^Push (completed|failed|partly)/).first().waitFor({ timeout: JOB_TIMEOUT });
    const box = (await stack.boundingBox()) as Rect | null;
    expect(box, 'the toast stack is drawn').not.toBeNull();
    await screenshot(page, 'toast-clear-of-control');
    // Where the stack would be by default: over the button (else this test could not fail)…
    expect(overlap(stackRect('bottom-right', box!, viewport), button!), `default corner covers the button ${JSON.stringify(button)}`).toBe(true);
    // …and where it is: another corner, clear of the button.
    expect(await stack.getAttribute('data-corner')).not.toBe('bottom-right');
    expect(overlap(box!, button!), `toast ${JSON.stringify(box)} clear of the button ${JSON.stringify(button)}`).toBe(false);
  });

  it('no console errors or CSP violations', () => {
    expect(e2e.problems).toEqual([]);
  });
});
