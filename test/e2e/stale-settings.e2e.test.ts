// Never overwrite a setting silently (issue 14 item 1): settings screens and the workbook Rename
// dialog save with the version they were opened on. A save after a change made elsewhere (a second
// window, a script) shows "changed elsewhere" with the values, keeps what the user typed, and does
// what the chosen button says; a change elsewhere to something the form does not edit (another env
// var, a workbook's dashboard) does not bother the user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createDeployment, screenshot, signInWithApiKey, startE2E, type E2E } from './support';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000 });
const conflictDialog = (page: Page) => page.getByRole('dialog', { name: /changed elsewhere$/ });

let e2e: E2E;
let other: Page;
let deploymentId: number;

const body = async (path: string) => (await e2e.server.api('GET', path)).body as Record<string, unknown>;
const envValue = async (name: string) => ((await body(`/api/v1/deployments/${deploymentId}/env-vars?first=500`)).items as { name: string; value?: string }[]).find((v) => v.name === name)?.value;

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'stale-settings-e2e');
  other = await e2e.context.newPage();
  await signInWithApiKey(other, e2e.server);
  for (const page of [e2e.page, other]) await page.setViewportSize({ width: 1600, height: 1000 });
});
afterAll(async () => {
  await e2e?.teardown();
});

describe('deployment settings in two windows', () => {
  it('the second save shows both values and keeps the typed one; "Keep editing" keeps it unsaved, "Save mine" saves it', async () => {
    const mine = e2e.page;
    for (const page of [mine, other]) {
      await page.goto(`${e2e.server.url}/deployments/${deploymentId}`, { timeout: 60_000 });
      await page.getByRole('form', { name: 'Deployment settings' }).getByLabel('Name').waitFor({ timeout: 60_000 });
    }
    const nameIn = (page: Page) => page.getByRole('form', { name: 'Deployment settings' }).getByLabel('Name');
    await nameIn(mine).fill('named-in-this-window');
    await nameIn(other).fill('named-in-the-other-window');
    await other.getByRole('button', { name: 'Save changes' }).click();
    await poll(async () => (await body(`/api/v1/deployments/${deploymentId}`)).name).toBe('named-in-the-other-window');

    await mine.getByRole('button', { name: 'Save changes' }).click();
    const dialog = conflictDialog(mine);
    await dialog.waitFor({ timeout: 60_000 });
    const row = dialog.getByRole('row', { name: /^Name/ });
    await row.getByText('named-in-the-other-window').waitFor();
    await row.getByText('named-in-this-window').waitFor();
    await row.getByText('both changed').waitFor();
    expect((await body(`/api/v1/deployments/${deploymentId}`)).name).toBe('named-in-the-other-window');
    await mine.setViewportSize({ width: 1024, height: 768 });
    await screenshot(mine, 'stale-settings-deployment-1024');
    await mine.setViewportSize({ width: 1600, height: 1000 });

    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await nameIn(mine).inputValue()).toBe('named-in-this-window');

    // Saving again asks again (the form is still based on the old version), then "Save mine" writes it.
    await mine.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByRole('button', { name: 'Save mine' }).click();
    await poll(async () => (await body(`/api/v1/deployments/${deploymentId}`)).name).toBe('named-in-this-window');
    await mine.getByText(/^Saved: name/).waitFor();
  });
});

describe('env vars in two windows', () => {
  const form = (page: Page) => page.getByRole('form', { name: 'Set env variable' });
  const table = (page: Page) => page.getByRole('table', { name: 'Env variables' });
  const add = async (page: Page, name: string, value: string) => {
    await form(page).getByLabel('Name', { exact: true }).fill(name);
    await form(page).getByLabel('Value', { exact: true }).fill(value);
    await form(page).getByRole('button', { name: /Add variable|Save variable/ }).click();
  };

  it('different variables: both saves go through, no dialog; the same variable: the second save shows theirs, "Take theirs" shows it', async () => {
    const mine = e2e.page;
    for (const page of [mine, other]) {
      await page.goto(`${e2e.server.url}/deployments/${deploymentId}/env`, { timeout: 60_000 });
      await form(page).waitFor({ timeout: 60_000 });
      await page.getByText('No env variables').or(table(page)).first().waitFor({ timeout: 60_000 });
    }
    await add(other, 'FROM_OTHER', 'other');
    await table(other).getByRole('row', { name: /FROM_OTHER/ }).waitFor();
    // This window's list is older than the set now; a different variable is saved anyway, and the list shows both.
    await add(mine, 'FROM_MINE', 'mine');
    await table(mine).getByRole('row', { name: /FROM_MINE.*mine/ }).waitFor({ timeout: 60_000 });
    await table(mine).getByRole('row', { name: /FROM_OTHER.*other/ }).waitFor();
    expect(await conflictDialog(mine).isVisible()).toBe(false);
    expect(await envValue('FROM_OTHER')).toBe('other');
    expect(await envValue('FROM_MINE')).toBe('mine');

    // Both edit FROM_MINE; the other window saves first.
    await other.getByRole('button', { name: 'Refresh' }).click();
    await table(other).getByRole('button', { name: 'Edit FROM_MINE' }).click();
    await table(mine).getByRole('button', { name: 'Edit FROM_MINE' }).click();
    await form(other).getByLabel('Value', { exact: true }).fill('theirs-value');
    await form(other).getByRole('button', { name: 'Save variable' }).click();
    await poll(() => envValue('FROM_MINE')).toBe('theirs-value');
    await form(mine).getByLabel('Value', { exact: true }).fill('my-value');
    await form(mine).getByRole('button', { name: 'Save variable' }).click();
    const dialog = conflictDialog(mine);
    await dialog.waitFor({ timeout: 60_000 });
    const row = dialog.getByRole('row', { name: /^FROM_MINE/ });
    await row.getByText('theirs-value').waitFor();
    await row.getByText('my-value').waitFor();
    expect(await envValue('FROM_MINE')).toBe('theirs-value');
    await screenshot(mine, 'stale-settings-env-var');

    await dialog.getByRole('button', { name: 'Take theirs (reload)' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await form(mine).getByLabel('Value', { exact: true }).inputValue()).toBe('theirs-value');
    await table(mine).getByRole('row', { name: /FROM_MINE.*theirs-value/ }).waitFor();
    expect(await envValue('FROM_MINE')).toBe('theirs-value');
  });
});

describe('tenant settings changed by a script meanwhile', () => {
  it('"Save mine" saves the changed field and keeps the script’s change to another field', async () => {
    const page = e2e.page;
    await page.goto(`${e2e.server.url}/deployments`, { timeout: 60_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab', { name: 'Tenant settings' }).click();
    const form = page.getByRole('form', { name: 'Tenant settings' });
    const zone = form.getByLabel('Default time zone');
    await zone.waitFor({ timeout: 60_000 });
    const before = await body('/api/v1/tenant/settings');
    await zone.fill('Europe/Berlin');
    const put = await e2e.server.api('PUT', '/api/v1/tenant/settings', { creatorMode: !before.creatorMode });
    expect(put.status).toBe(200);

    await form.getByRole('button', { name: 'Save settings' }).click();
    const dialog = conflictDialog(page);
    await dialog.waitFor({ timeout: 60_000 });
    await dialog.getByRole('row', { name: /^Creator mode/ }).getByText('theirs').waitFor();
    await dialog.getByRole('row', { name: /^Default time zone/ }).getByText('Europe/Berlin').waitFor();
    expect((await body('/api/v1/tenant/settings')).defaultTimezone).toBe(before.defaultTimezone);
    await dialog.getByRole('button', { name: 'Save mine' }).click();
    await poll(async () => (await body('/api/v1/tenant/settings')).defaultTimezone).toBe('Europe/Berlin');
    expect((await body('/api/v1/tenant/settings')).creatorMode).toBe(!before.creatorMode);
    await poll(() => form.getByRole('switch', { name: /Creator mode/ }).isChecked()).toBe(!before.creatorMode);
  });
});

describe('renaming a workbook', () => {
  it('a dashboard saved meanwhile does not stop the rename; a rename meanwhile shows both names', async () => {
    const page = e2e.page;
    const created = await e2e.server.api('POST', `/api/v1/deployments/${deploymentId}/workbooks`, { name: 'Board', slug: 'board' });
    expect(created.status).toBe(201);
    const workbookId = (created.body as { id: number }).id;
    const wb = `/api/v1/deployments/${deploymentId}/workbooks/${workbookId}`;
    await page.goto(`${e2e.server.url}/workbooks/${deploymentId}/${workbookId}`, { timeout: 60_000 });
    await page.getByRole('button', { name: 'Rename…' }).click({ timeout: 60_000 });
    const rename = page.getByRole('dialog', { name: 'Rename workbook' });
    await rename.getByLabel('Name').fill('Board, renamed');
    const draft = await e2e.server.api('PUT', `${wb}/dashboard`, { dashboardDraft: { title: 'Saved by a script', kind: 'CLASSIC', widgets: [] } });
    expect(draft.status).toBe(200);
    await rename.getByRole('button', { name: 'Rename' }).click();
    await rename.waitFor({ state: 'hidden', timeout: 60_000 });
    expect(await body(wb)).toMatchObject({ name: 'Board, renamed', dashboardDraft: { title: 'Saved by a script' } });

    await page.getByRole('heading', { name: /Board, renamed/ }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Rename…' }).click();
    await rename.getByLabel('Name').fill('My name');
    const renamed = await e2e.server.api('PUT', `/api/v1/deployments/${deploymentId}/workbooks/by-slug/board`, { name: 'Their name' });
    expect(renamed.status).toBe(200);
    await rename.getByRole('button', { name: 'Rename' }).click();
    const dialog = conflictDialog(page);
    await dialog.waitFor({ timeout: 60_000 });
    await dialog.getByRole('row', { name: /^Name/ }).getByText('Their name').waitFor();
    expect((await body(wb)).name).toBe('Their name');
    await dialog.getByRole('button', { name: 'Save mine' }).click();
    await poll(async () => (await body(wb)).name).toBe('My name');
  });
});
