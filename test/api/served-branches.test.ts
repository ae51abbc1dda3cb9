/**
 * Issue 13 item 4: the always-on staging environment is real. Enabling it on a branch creates an
 * environment for the branch and builds it (build status true, rebuilt on every commit); disabling
 * it removes the environment and resets the branch to not deployed. Dev-mode branches are built too.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commitFiles } from '../../src-main/features/data-model';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';

// Builds run as jobs on a shared, loaded machine: give them room.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc.stop());

const B = (id: number) => `/build/api/v1/deployments/${id}`;
const D = (id: number) => `/api/v1/deployments/${id}`;
const AUTHOR = { name: 'Test', email: 'test@example.com' };

async function buildStatus(id: number, branch: string) {
  const res = await svc.call('GET', `${D(id)}/build-status?branch=${encodeURIComponent(branch)}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { buildStatus: string; deployStatus: string; commit: string | null };
}

/** Polls the build status until `done` holds (builds run as jobs); generous for a loaded machine. */
async function eventually(id: number, branch: string, done: (s: { buildStatus: string; deployStatus: string; commit: string | null }) => boolean) {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const state = await buildStatus(id, branch);
    if (done(state)) return state;
    if (Date.now() > deadline) throw new Error(`build status of ${branch} stayed ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const stagingEnvironments = async (id: number) =>
  ((await svc.call('GET', `${D(id)}/environments?first=100`)).body.items as { kind: string; branchName: string; name: string }[]).filter(
    (env) => env.kind === 'staging',
  );

describe('always-on staging environment', () => {
  it('enabling it creates a staging environment for the branch and builds the branch head: build-status says succeeded and deployed', async () => {
    const id = await createDeployment(svc);
    expect((await svc.call('POST', `${B(id)}/branches`, { body: { branchName: 'release' } })).status).toBe(201);
    expect(await buildStatus(id, 'release')).toMatchObject({ buildStatus: 'idle', deployStatus: 'not_deployed' });
    const on = await svc.call('PUT', `${B(id)}/branches/staging-environment`, { body: { branchName: 'release', isStagingEnvironmentEnabled: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.body.isStagingEnvironmentEnabled).toBe(true);
    expect(await stagingEnvironments(id)).toEqual([expect.objectContaining({ branchName: 'release' })]);
    const built = await eventually(id, 'release', (s) => s.buildStatus === 'succeeded');
    expect(built).toMatchObject({ deployStatus: 'deployed' });
    expect(built.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('a commit on a staging branch is built; disabling staging removes the environment and resets the branch to idle, not deployed', async () => {
    const id = await createDeployment(svc);
    await svc.call('POST', `${B(id)}/branches`, { body: { branchName: 'release' } });
    await svc.call('PUT', `${B(id)}/branches/staging-environment`, { body: { branchName: 'release', isStagingEnvironmentEnabled: true } });
    const first = await eventually(id, 'release', (s) => s.buildStatus === 'succeeded');
    const commit = await commitFiles(svc.ctx, id, 'release', [{ path: 'model/extra.yml', content: 'cubes: []\n' }], 'a staged change', AUTHOR);
    expect(commit.commit).not.toBe(first.commit);
    await eventually(id, 'release', (s) => s.buildStatus === 'succeeded' && s.commit === commit.commit);
    const off = await svc.call('PUT', `${B(id)}/branches/staging-environment`, { body: { branchName: 'release', isStagingEnvironmentEnabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.isStagingEnvironmentEnabled).toBe(false);
    expect(await stagingEnvironments(id)).toEqual([]);
    await eventually(id, 'release', (s) => s.buildStatus === 'idle' && s.deployStatus === 'not_deployed');
  });

  it('a branch without staging (and not in dev mode) is not built on commit', async () => {
    const id = await createDeployment(svc);
    await svc.call('POST', `${B(id)}/branches`, { body: { branchName: 'quiet' } });
    await commitFiles(svc.ctx, id, 'quiet', [{ path: 'model/extra.yml', content: 'cubes: []\n' }], 'unserved change', AUTHOR);
    // A later commit on the deploy branch is built; by then the quiet branch's commit would have been queued too.
    const onMain = await commitFiles(svc.ctx, id, 'main', [{ path: 'model/extra.yml', content: 'cubes: []\n' }], 'served change', AUTHOR);
    await eventually(id, 'main', (s) => s.buildStatus === 'succeeded' && s.commit === onMain.commit);
    expect(await buildStatus(id, 'quiet')).toMatchObject({ buildStatus: 'idle', deployStatus: 'not_deployed' });
  });
});

describe('dev-mode branches', () => {
  it('entering dev mode builds the dev branch, so its build status is true', async () => {
    const id = await createDeployment(svc);
    const entered = await svc.call('POST', `${B(id)}/dev-mode`);
    expect(entered.status, entered.text).toBe(200);
    const branch = entered.body.branch.branchName as string;
    const built = await eventually(id, branch, (s) => s.buildStatus === 'succeeded');
    expect(built).toMatchObject({ deployStatus: 'deployed' });
  });
});
