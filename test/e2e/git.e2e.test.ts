import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startGitServer, type GitServer } from '../support/git-server';
import { createDeployment, screenshot, startE2E, type E2E } from './support';

// Models against a real team repository: `git http-backend` on loopback with Basic auth, plain git
// as the teammate, the UI in chromium against `drydock serve`.
const PASSWORD = 'e2e-correct-horse';
const FILE = 'model/cubes/team_orders.yml';
const ORDERS = 'cubes:\n  - name: team_orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n';

let e2e: E2E;
let git: GitServer;
let deploymentId: number;
let work: string;
let bare: string;

const B = () => `/build/api/v1/deployments/${deploymentId}`;
const bareGit = async (...args: string[]) => (await git.git(bare, ...args)).trim();

async function teammateCommits(path: string, content: string, message: string): Promise<string> {
  mkdirSync(join(work, path, '..'), { recursive: true });
  writeFileSync(join(work, path), content);
  await git.git(work, 'add', '.');
  await git.git(work, 'commit', '-q', '-m', message);
  await git.git(work, 'push', '-q', 'origin', 'HEAD:main');
  return (await git.git(work, 'rev-parse', 'HEAD')).trim();
}

/** Commits one file on the deploy branch through the upload API (as `drydock push` would); returns the finish answer. */
async function commitInDrydock(path: string, content: string): Promise<{ commit: string; push?: { status: string } }> {
  const bytes = Buffer.from(content, 'utf8');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const base = `${B()}/data-model/upload`;
  const start = await e2e.server.api('POST', `${base}/start`, { files: [{ path, size: bytes.byteLength, sha256 }], message: `Edit ${path}` });
  expect(start.status).toBe(200);
  const uploadId = (start.body as { uploadId: string }).uploadId;
  expect((await e2e.server.api('POST', `${base}/file`, { uploadId, path, offset: 0, data: bytes.toString('base64') })).status).toBe(200);
  const finish = await e2e.server.api('POST', `${base}/finish`, { uploadId });
  expect(finish.status).toBe(200);
  return finish.body as { commit: string; push?: { status: string } };
}

/** Remote round trips on a loaded machine take seconds: poll generously. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000, interval: 250 });

const bar = (page: Page) => page.getByRole('group', { name: 'Team repository' });
/** The repository's details and Fetch / Pull / Push, in the popover of the context bar's button. */
async function details(page: Page) {
  const popover = bar(page).getByRole('dialog', { name: 'Team repository details' });
  if ((await popover.count()) === 0) await bar(page).getByRole('button', { expanded: false }).click();
  await popover.waitFor();
  return popover;
}
/** Notices are toasts. */
const notice = (page: Page) => page.getByRole('status', { name: 'Notifications' });

beforeAll(async () => {
  git = await startGitServer({ alice: PASSWORD });
  bare = await git.createRepo('team.git');
  work = await git.clone('team.git');
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'git-e2e');
});
afterAll(async () => {
  await e2e?.teardown();
  await git?.close();
});

describe('Models with the team repository over smart HTTP', () => {
  it('connects from the Models screen: the deploy branch takes the repository’s history and shows it is up to date', async () => {
    const team = await teammateCommits(FILE, ORDERS, 'team model');
    const { page } = e2e;
    await page.goto(`${e2e.server.url}/models/${deploymentId}`);
    await bar(page).getByRole('button', { name: 'Connect repository…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect the team repository' });
    await dialog.getByLabel('Repository URL').fill(git.url('team.git'));
    await dialog.getByLabel('User', { exact: true }).fill('alice');
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Connect and fetch' }).click();
    await poll(() => notice(page).textContent()).toContain('Connected to');
    // The context bar says the branch is even with the remote; the details say so in words.
    await poll(() => bar(page).getByRole('button').first().textContent()).toMatch(/✓/);
    await (await details(page)).getByText('tracks').waitFor();
    await poll(async () => (await details(page)).getByLabel('Ahead and behind').textContent()).toBe('↑ 0 ahead↓ 0 behind');

    const branches = (await e2e.server.api('GET', `${B()}/branches?first=100`)).body as { items: { isDeployBranch: boolean; headCommit: string; upstream: string }[] };
    expect(branches.items.find((b) => b.isDeployBranch)).toMatchObject({ headCommit: team, upstream: 'main' });
    // The password went to the keychain, not to the page or the API.
    const connection = await e2e.server.api('GET', `${B()}/git-host/connection`);
    expect(JSON.stringify(connection.body)).not.toContain(PASSWORD);
    expect(await page.content()).not.toContain(PASSWORD);
  });

  it('Fetch shows the upstream moved; Pull with a conflict opens the diff view, the resolution is committed as a merge and pushed', async () => {
    const { page } = e2e;
    const theirs = await teammateCommits(FILE, ORDERS.replace('count\n        type', 'theirs_count\n        type'), 'theirs');
    // Drydock's commit cannot be pushed (the remote moved): it is kept, and the branch is ahead.
    const ours = await commitInDrydock(FILE, ORDERS.replace('count\n        type', 'our_count\n        type'));
    expect(ours.push?.status).toBe('rejected');

    await (await details(page)).getByRole('button', { name: 'Fetch' }).click();
    await poll(async () => (await details(page)).getByLabel('Ahead and behind').textContent()).toBe('↑ 1 ahead↓ 1 behind');
    await poll(() => page.getByLabel('Branch').locator('option:checked').textContent()).toBe('main · deploy branch · ↑1 ↓1');
    await poll(() => bar(page).getByRole('button').first().textContent()).toMatch(/↑1 ↓1/);

    await (await details(page)).getByRole('button', { name: 'Pull' }).click();
    const dialog = page.getByRole('dialog', { name: /^Resolve the conflicts of pulling main into main/ });
    await dialog.waitFor();
    await poll(() => dialog.getByRole('list', { name: 'Conflicting files' }).textContent()).toContain(FILE);
    const editor = dialog.getByTestId('conflict-editor');
    // Left: the team's version; right: ours, editable.
    await poll(() => editor.locator('.editor.original .view-lines').textContent()).toContain('theirs_count');
    await poll(() => editor.locator('.editor.modified .view-lines').textContent()).toContain('our_count');
    await screenshot(page, 'git-conflict');

    await dialog.getByRole('button', { name: 'Use theirs' }).click();
    await poll(() => editor.locator('.editor.modified .view-lines').textContent()).toContain('theirs_count');
    await editor.locator('.editor.modified .view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('# resolved in Drydock');
    await dialog.getByLabel('Merge message (optional)').fill('Resolve the orders conflict');
    await dialog.getByRole('button', { name: 'Commit merge' }).click();

    await poll(() => notice(page).textContent()).toContain('Pushed to main.');
    await expect(dialog.count()).resolves.toBe(0);
    await poll(async () => (await details(page)).getByLabel('Ahead and behind').textContent()).toBe('↑ 0 ahead↓ 0 behind');

    // The bare repository holds a real merge of both heads with the resolved content.
    expect((await bareGit('log', '-1', '--format=%P%n%s', 'main')).split('\n')).toEqual([`${ours.commit} ${theirs}`, 'Resolve the orders conflict']);
    expect(await bareGit('show', `main:${FILE}`)).toBe(`${ORDERS.replace('count\n        type', 'theirs_count\n        type')}# resolved in Drydock`);
    expect(e2e.problems).toEqual([]);
  });

  it('Push shows the remote’s refusal and keeps the commit; once the remote accepts, Push publishes it', async () => {
    const { page } = e2e;
    git.refusePushes('team.git', 'frozen for the release');
    try {
      const local = await commitInDrydock('model/cubes/extra.yml', ORDERS.replace('team_orders', 'extra'));
      expect(local.push?.status).toBe('rejected');
      await (await details(page)).getByRole('button', { name: 'Fetch' }).click();
      await poll(async () => (await details(page)).getByLabel('Ahead and behind').textContent()).toBe('↑ 1 ahead↓ 0 behind');
      await (await details(page)).getByRole('button', { name: 'Push' }).click();
      // The remote's own words (its hook's message) reach the user; nothing is forced.
      // In plain words with the fix, the remote's words kept; the code behind Details.
      await poll(() => page.locator('.wb-notices .problem').innerText()).toMatch(/Push failed: the team’s repository refused the push[\s\S]*frozen for the release[\s\S]*Pull first/);
      await poll(() => page.locator('.wb-notices .problem .problem-technical').textContent()).toMatch(/PUSH_REJECTED.*409/);
    } finally {
      git.refusePushes('team.git', null);
    }
    await (await details(page)).getByRole('button', { name: 'Push' }).click();
    await poll(() => notice(page).textContent()).toContain('Pushed main to main');
    await poll(async () => (await details(page)).getByLabel('Ahead and behind').textContent()).toBe('↑ 0 ahead↓ 0 behind');
    expect(await bareGit('show', 'main:model/cubes/extra.yml')).toContain('name: extra');
  });

  it('Settings turn the background fetch off and disconnect, keeping every branch and commit', async () => {
    const { page } = e2e;
    const before = (await e2e.server.api('GET', `${B()}/branches?first=100`)).body as { items: { branchName: string; headCommit: string }[] };
    await (await details(page)).getByRole('button', { name: 'Settings…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Team repository', exact: true });
    await dialog.getByLabel('Background fetch (seconds)').fill('10');
    await poll(() => dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Background fetch (seconds)').fill('0');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => notice(page).textContent()).toContain('Background fetch is off.');
    expect((await e2e.server.api('GET', `${B()}/git-host/connection`)).body).toMatchObject({ connection: { fetchIntervalSeconds: 0, nextFetchAt: null } });

    await (await details(page)).getByRole('button', { name: 'Settings…' }).click();
    await dialog.getByRole('button', { name: 'Disconnect…' }).click();
    await page.getByRole('dialog', { name: 'Disconnect the team repository?' }).getByRole('button', { name: 'Disconnect' }).click();
    await bar(page).getByRole('button', { name: 'Connect repository…' }).waitFor();
    const after = (await e2e.server.api('GET', `${B()}/branches?first=100`)).body as { items: { branchName: string; headCommit: string; upstream: string | null }[] };
    expect(after.items.map((b) => [b.branchName, b.headCommit])).toEqual(before.items.map((b) => [b.branchName, b.headCommit]));
    expect(after.items.every((b) => b.upstream === null)).toBe(true);
    expect(e2e.problems).toEqual([]);
  });
});
