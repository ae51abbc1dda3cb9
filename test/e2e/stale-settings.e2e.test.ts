// Never overwrite a setting silently (issue 14 item 1): settings screens (deployment, env vars,
// tenant, app theme, dev-target rule) and the workbook Rename
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

  it('a template variable row added before the form’s versioned read came back stays when it comes', async () => {
    const mine = e2e.page;
    // Hold the screen's versioned read of the deployment (the reads after the first, which shows the
    // page) until the row is added, as on a slow machine.
    let reads = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const url = `**/api/v1/deployments/${deploymentId}`;
    await mine.route(url, async (route) => {
      if (route.request().method() === 'GET' && ++reads > 1) await held;
      await route.continue();
    });
    try {
      await mine.goto(`${e2e.server.url}/deployments/${deploymentId}`, { timeout: 60_000 });
      const form = mine.getByRole('form', { name: 'Deployment settings' });
      await form.getByRole('button', { name: '+ Add variable' }).click();
      await form.getByLabel('Name 1').waitFor();
      expect(reads).toBeGreaterThan(1);
      const answered = mine.waitForResponse((res) => res.request().method() === 'GET' && new URL(res.url()).pathname === `/api/v1/deployments/${deploymentId}`);
      release();
      await answered;
      await mine.waitForTimeout(500);
      expect(await form.getByLabel('Name 1').count()).toBe(1);
    } finally {
      release();
      await mine.unroute(url);
    }
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

describe('the app theme changed by a script meanwhile', () => {
  it('the save shows the other colour as theirs and mine as yours; "Save mine" saves my colour and keeps theirs', async () => {
    const page = e2e.page;
    await page.goto(`${e2e.server.url}/deployments`, { timeout: 60_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab', { name: 'App theme' }).click();
    const form = page.getByRole('form', { name: 'App theme' });
    const primary = form.getByLabel('Primary', { exact: true });
    await primary.waitFor({ timeout: 60_000 });
    const before = (await body('/api/v1/app-theme')) as { palette: Record<string, string> };
    const mine = before.palette.primary.toUpperCase() === '#0F5C8C' ? '#1B6E3A' : '#0F5C8C';
    const theirs = before.palette.accent.toUpperCase() === '#E0702B' ? '#B0306A' : '#E0702B';
    await primary.fill(mine);
    const put = await e2e.server.api('PUT', '/api/v1/app-theme', { palette: { accent: theirs } });
    expect(put.status).toBe(200);

    await form.getByRole('button', { name: 'Save theme' }).click();
    const dialog = conflictDialog(page);
    await dialog.waitFor({ timeout: 60_000 });
    await dialog.getByRole('row', { name: /^Accent/ }).getByText('theirs', { exact: true }).waitFor();
    await dialog.getByRole('row', { name: /^Accent/ }).getByText(new RegExp(theirs, 'i')).waitFor();
    await dialog.getByRole('row', { name: /^Primary/ }).getByText('yours', { exact: true }).waitFor();
    await dialog.getByRole('row', { name: /^Primary/ }).getByText(new RegExp(mine, 'i')).waitFor();
    // Nothing of mine was written over theirs.
    expect(((await body('/api/v1/app-theme')) as { palette: Record<string, string> }).palette.primary.toUpperCase()).toBe(before.palette.primary.toUpperCase());
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'stale-settings-theme-1024');
    await page.setViewportSize({ width: 1600, height: 1000 });

    await dialog.getByRole('button', { name: 'Save mine' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 60_000 });
    await poll(async () => ((await body('/api/v1/app-theme')) as { palette: Record<string, string> }).palette.primary.toUpperCase()).toBe(mine);
    expect(((await body('/api/v1/app-theme')) as { palette: Record<string, string> }).palette.accent.toUpperCase()).toBe(theirs);
    await form.getByRole('status').getByText(/Theme saved/).waitFor();
    await poll(async () => (await form.getByLabel('Accent', { exact: true }).inputValue()).toUpperCase()).toBe(theirs);
  });
});

describe('the dev-target rule changed by a script meanwhile', () => {
  it('both changed the template: the save shows both and writes nothing; "Take theirs" shows the script’s rule', async () => {
    const page = e2e.page;
    const rulePath = `/build/api/v1/deployments/${deploymentId}/dev-mode/target-rule`;
    await page.goto(`${e2e.server.url}/deployments/${deploymentId}/dev-targets`, { timeout: 60_000 });
    const form = page.getByRole('form', { name: 'Dev targets' });
    const template = form.getByLabel('Template', { exact: true });
    await template.waitFor({ timeout: 60_000 });
    await poll(() => template.inputValue()).toBe((await body(rulePath)).template);
    await template.fill('MINE_{user}');
    const put = await e2e.server.api('PUT', rulePath, { mode: 'name-prefix', template: 'SCRIPT_{user}_' });
    expect(put.status).toBe(200);

    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = conflictDialog(page);
    await dialog.waitFor({ timeout: 60_000 });
    const row = dialog.getByRole('row', { name: /^Template/ });
    await row.getByText('both changed').waitFor();
    await row.getByText('SCRIPT_{user}_').waitFor();
    await row.getByText('MINE_{user}').waitFor();
    await dialog.getByRole('row', { name: /^Where dev objects go/ }).getByText('Per-user name prefix').waitFor();
    expect(await body(rulePath)).toMatchObject({ mode: 'name-prefix', template: 'SCRIPT_{user}_' });
    await screenshot(page, 'stale-settings-dev-targets');

    await dialog.getByRole('button', { name: 'Take theirs (reload)' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await template.inputValue()).toBe('SCRIPT_{user}_');
    expect(await form.getByRole('radio', { name: /Per-user name prefix/ }).isChecked()).toBe(true);
    // Based on their version now: the next save goes through.
    await template.fill('NEXT_{user}_');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await form.getByText(/^Saved\./).waitFor({ timeout: 60_000 });
    expect(await body(rulePath)).toMatchObject({ mode: 'name-prefix', template: 'NEXT_{user}_' });
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
