import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onBranchCommit } from '../../src-main/features/data-model';
import { buildPath, createDeployment, SALES_VIEW_YML, startWithSampleProject } from '../support/data-model';
import { type TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';
import { gitText } from '../support/git-cli';

let svc: TestService;
let ada: TestUser;
let bob: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  svc = await startWithSampleProject();
  ada = createUser(svc, 'developer', { name: 'Ada Lovelace', email: 'ada@example.com' });
  bob = createUser(svc, 'developer', { name: 'Bob', email: 'bob@example.com' });
  viewer = createUser(svc, 'viewer');
});
afterAll(async () => {
  await svc.stop();
});

const git = (id: number, ...args: string[]) => gitText(join(svc.dataDir, 'repos', String(id)), ...args);
const branchesOf = async (id: number) => (await svc.call('GET', `${buildPath(id)}/branches`)).body.items as Record<string, unknown>[];
const branchOf = async (id: number, name: string) => (await branchesOf(id)).find((b) => b.branchName === name);
const enterDevMode = (id: number, user: TestUser, parent?: string) =>
  svc.call('POST', `${buildPath(id)}/dev-mode${parent ? `?branchName=${parent}` : ''}`, { auth: user.auth });
const write = (id: number, user: TestUser, files: Record<string, string>) =>
  svc.call('PUT', `${buildPath(id)}/data-model/files`, { auth: user.auth, body: { files: Object.entries(files).map(([path, content]) => ({ path, content })) } });
const commit = (id: number, user: TestUser, body: Record<string, unknown>) => svc.call('POST', `${buildPath(id)}/commit`, { auth: user.auth, body });
const read = async (id: number, branch: string, path: string) =>
  (await svc.call('GET', `${buildPath(id)}/data-model/files?branchName=${branch}&path=${path}`)).body.content as string | undefined;

describe('branches', () => {
  let id: number;
  beforeAll(async () => {
    id = await createDeployment(svc);
  });

  it('lists the deploy branch first with its metadata', async () => {
    const res = await svc.call('GET', `${buildPath(id)}/branches`, { auth: viewer.auth });
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({
      branchName: 'main',
      parentBranch: null,
      kind: 'deploy',
      isDeployBranch: true,
      isDevMode: false,
      isStagingEnvironmentEnabled: false,
      hasUncommittedChanges: false,
    });
    expect(res.body.pageInfo.hasNextPage).toBe(false);
  });

  it('creates a branch from the deploy branch by default, and from a named parent', async () => {
    const main = await branchOf(id, 'main');
    const a = await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: 'feature-a' } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ branchName: 'feature-a', parentBranch: 'main', kind: 'shared', headCommit: main!.headCommit, isDevMode: false });
    const b = await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: 'feature-a-sub', parentBranch: 'feature-a' } });
    expect(b.body).toMatchObject({ branchName: 'feature-a-sub', parentBranch: 'feature-a' });
    expect(git(id, 'branch', '--format=%(refname:short)').split('\n').sort()).toEqual(['feature-a', 'feature-a-sub', 'main']);
  });

  it('refuses a branch beside which git cannot keep it ("a" and "a/b") with 409 BRANCH_NAME_CONFLICT', async () => {
    const res = await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: 'feature-a/nested' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('BRANCH_NAME_CONFLICT');
  });

  it('refuses a duplicate name (409), an invalid or reserved name (400) and an unknown parent (404)', async () => {
    expect((await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: 'feature-a' } })).body.code).toBe('BRANCH_EXISTS');
    for (const bad of ['a..b', '-x', 'has space', 'x.lock']) {
      const res = await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: bad } });
      expect(res.status, bad).toBe(400);
      expect(res.body.code, bad).toBe('INVALID_BRANCH_NAME');
    }
    for (const reserved of ['dev-42', 'dev-42-x', 'dev-42/x']) {
      expect((await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: reserved } })).body.code, reserved).toBe('INVALID_BRANCH_NAME');
    }
    const orphan = await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: 'x', parentBranch: 'nope' } });
    expect(orphan.status).toBe(404);
    expect(orphan.body.code).toBe('BRANCH_NOT_FOUND');
  });

  it('refuses branch changes to a viewer with 403', async () => {
    expect((await svc.call('POST', `${buildPath(id)}/branches`, { auth: viewer.auth, body: { branchName: 'v' } })).status).toBe(403);
    expect((await svc.call('DELETE', `${buildPath(id)}/branches?branchName=feature-a`, { auth: viewer.auth })).status).toBe(403);
  });

  it('stores isStagingEnvironmentEnabled and reads it back in the listing', async () => {
    const on = await svc.call('PUT', `${buildPath(id)}/branches/staging-environment`, { body: { branchName: 'feature-a', isStagingEnvironmentEnabled: true } });
    expect(on.status).toBe(200);
    expect(on.body.isStagingEnvironmentEnabled).toBe(true);
    expect((await branchOf(id, 'feature-a'))!.isStagingEnvironmentEnabled).toBe(true);
    await svc.call('PUT', `${buildPath(id)}/branches/staging-environment`, { body: { branchName: 'feature-a', isStagingEnvironmentEnabled: false } });
    expect((await branchOf(id, 'feature-a'))!.isStagingEnvironmentEnabled).toBe(false);
    expect((await svc.call('PUT', `${buildPath(id)}/branches/staging-environment`, { body: { branchName: 'nope', isStagingEnvironmentEnabled: true } })).status).toBe(404);
  });

  it('removeOnUpstream without a connected repository answers 409 UPSTREAM_NOT_CONNECTED and deletes nothing', async () => {
    const res = await svc.call('DELETE', `${buildPath(id)}/branches?branchName=feature-a&removeOnUpstream=true`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('UPSTREAM_NOT_CONNECTED');
    expect(await branchOf(id, 'feature-a')).toBeDefined();
  });

  it('deletes a branch and re-parents its children to its parent', async () => {
    const res = await svc.call('DELETE', `${buildPath(id)}/branches?branchName=feature-a`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ branchName: 'feature-a', deleted: true, reparentedBranches: ['feature-a-sub'], newParentBranch: 'main', removedOnUpstream: false });
    expect((await branchOf(id, 'feature-a-sub'))!.parentBranch).toBe('main');
    expect(await branchOf(id, 'feature-a')).toBeUndefined();
    expect(git(id, 'branch', '--format=%(refname:short)').split('\n').sort()).toEqual(['feature-a-sub', 'main']);
  });

  it('refuses to delete the deploy branch (409 DEPLOY_BRANCH_PROTECTED) and answers 404 for an unknown branch', async () => {
    const res = await svc.call('DELETE', `${buildPath(id)}/branches?branchName=main`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('DEPLOY_BRANCH_PROTECTED');
    expect((await svc.call('DELETE', `${buildPath(id)}/branches?branchName=gone`)).status).toBe(404);
    expect((await svc.call('DELETE', `${buildPath(id)}/branches`)).status).toBe(400);
  });

  it('lets only the owner (or an admin) delete a personal dev branch', async () => {
    await enterDevMode(id, ada);
    const res = await svc.call('DELETE', `${buildPath(id)}/branches?branchName=dev-${ada.id}`, { auth: bob.auth });
    expect(res.status).toBe(403);
    expect((await svc.call('DELETE', `${buildPath(id)}/branches?branchName=dev-${ada.id}`)).status).toBe(200);
  });
});

describe('commit', () => {
  let id: number;
  beforeAll(async () => {
    id = await createDeployment(svc);
    await enterDevMode(id, ada);
  });

  it('needs a message', async () => {
    const res = await commit(id, ada, {});
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/body/message');
  });

  it('answers nothing-to-commit when there are no edits', async () => {
    const res = await commit(id, ada, { message: 'nothing' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ operation: 'commit', outcome: 'nothing-to-commit', changes: [] });
  });

  it('previews a commit with content before and after, changing nothing', async () => {
    await write(id, ada, { 'model/views/sales.yml': 'views: []\n', 'model/cubes/users.yml': 'cubes: []\n' });
    const res = await commit(id, ada, { dryRun: true });
    expect(res.body).toMatchObject({ dryRun: true, outcome: 'committed', commit: null });
    expect(res.body.changes).toEqual([
      { path: 'model/cubes/users.yml', status: 'added', before: null, after: 'cubes: []\n' },
      { path: 'model/views/sales.yml', status: 'modified', before: SALES_VIEW_YML, after: 'views: []\n' },
    ]);
    expect((await branchOf(id, `dev-${ada.id}`))!.hasUncommittedChanges).toBe(true);
  });

  it('commits the edits as one git commit authored by the caller and clears them', async () => {
    const before = (await branchOf(id, `dev-${ada.id}`))!.headCommit as string;
    const res = await commit(id, ada, { message: 'Add users, empty sales' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ operation: 'commit', branchName: `dev-${ada.id}`, targetBranch: `dev-${ada.id}`, outcome: 'committed', dryRun: false });
    expect(res.body.changes).toEqual([
      { path: 'model/cubes/users.yml', status: 'added' },
      { path: 'model/views/sales.yml', status: 'modified' },
    ]);
    expect(git(id, 'log', '-1', '--format=%H|%P|%an <%ae>|%s', `dev-${ada.id}`)).toBe(`${res.body.commit}|${before}|Ada Lovelace <ada@example.com>|Add users, empty sales`);
    const branch = await branchOf(id, `dev-${ada.id}`);
    expect(branch).toMatchObject({ headCommit: res.body.commit, hasUncommittedChanges: false });
    expect(await read(id, 'main', 'model/views/sales.yml')).toBe(SALES_VIEW_YML);
  });

  it('commits only the edits of `paths` when given', async () => {
    await write(id, ada, { 'model/a.yml': 'a: 1\n', 'model/b.yml': 'b: 1\n' });
    const res = await commit(id, ada, { message: 'only a', paths: ['model/a.yml'] });
    expect(res.body.changes).toEqual([{ path: 'model/a.yml', status: 'added' }]);
    const left = await svc.call('GET', `${buildPath(id)}/data-model/files?path=model/b.yml`, { auth: ada.auth });
    expect(left.body.uncommitted).toBe(true);
    const unknown = await commit(id, ada, { message: 'x', paths: ['model/zzz.yml'] });
    expect(unknown.status).toBe(400);
  });

  it('answers 409 NOT_IN_DEV_MODE without a dev branch, and refuses branches not in dev mode', async () => {
    const res = await commit(id, bob, { message: 'x' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('NOT_IN_DEV_MODE');
    expect((await commit(id, bob, { message: 'x', branchName: 'main' })).body.code).toBe('BRANCH_NOT_IN_DEV_MODE');
    expect((await commit(id, bob, { message: 'x', branchName: `dev-${ada.id}` })).body.code).toBe('DEV_BRANCH_OF_ANOTHER_USER');
  });
});

describe('merge, merge-to-default and pull', () => {
  let id: number;
  const events: [number, string, string][] = [];
  let unsubscribe: () => void;
  beforeAll(async () => {
    id = await createDeployment(svc);
    unsubscribe = onBranchCommit(svc.ctx, (deploymentId, branch, commit) => events.push([deploymentId, branch, commit]));
  });
  afterAll(() => unsubscribe());

  it('merges a dev branch into its parent (fast-forward), notifies commit listeners and logs it', async () => {
    await enterDevMode(id, ada);
    await write(id, ada, { 'model/cubes/users.yml': 'cubes: []\n' });
    const committed = await commit(id, ada, { message: 'users' });
    expect(events).toContainEqual([id, `dev-${ada.id}`, committed.body.commit]);
    const res = await svc.call('POST', `${buildPath(id)}/merge`, { auth: ada.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ operation: 'merge', branchName: `dev-${ada.id}`, targetBranch: 'main', outcome: 'fast-forward', commit: committed.body.commit });
    expect(res.body.changes).toEqual([{ path: 'model/cubes/users.yml', status: 'added' }]);
    expect(await read(id, 'main', 'model/cubes/users.yml')).toBe('cubes: []\n');
    expect(events).toContainEqual([id, 'main', committed.body.commit]);
    const logs = await svc.call('GET', `/api/v1/deployments/${id}/logs`);
    const messages = (logs.body.items as { message: string; source: string }[]).map((l) => `${l.source}: ${l.message}`);
    expect(messages.some((m) => m.startsWith('production: Merged') && m.includes(`dev-${ada.id}`))).toBe(true);
    expect(messages.some((m) => m.startsWith('dev: Commit') && m.includes('users'))).toBe(true);
  });

  it('answers up-to-date when there is nothing to merge', async () => {
    const res = await svc.call('POST', `${buildPath(id)}/merge`, { auth: ada.auth });
    expect(res.body.outcome).toBe('up-to-date');
  });

  it('refuses to merge uncommitted edits with 409 UNCOMMITTED_CHANGES', async () => {
    await write(id, ada, { 'model/pending.yml': 'x: 1\n' });
    const res = await svc.call('POST', `${buildPath(id)}/merge`, { auth: ada.auth });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('UNCOMMITTED_CHANGES');
    await svc.call('DELETE', `${buildPath(id)}/data-model/files?path=model/pending.yml`, { auth: ada.auth });
  });

  it('answers 409 MERGE_CONFLICT with the conflicting paths and changes nothing when both sides changed a file differently', async () => {
    await enterDevMode(id, bob);
    await svc.call('POST', `${buildPath(id)}/pull`, { auth: bob.auth });
    await write(id, ada, { 'model/views/sales.yml': 'views: [ada]\n', 'model/ada-only.yml': 'a: 1\n' });
    await commit(id, ada, { message: 'ada sales' });
    await write(id, bob, { 'model/views/sales.yml': 'views: [bob]\n' });
    await commit(id, bob, { message: 'bob sales' });
    expect((await svc.call('POST', `${buildPath(id)}/merge`, { auth: ada.auth })).body.outcome).toBe('fast-forward');
    const mainBefore = (await branchOf(id, 'main'))!.headCommit;
    const eventsBefore = events.length;
    const res = await svc.call('POST', `${buildPath(id)}/merge`, { auth: bob.auth });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'MERGE_CONFLICT', conflicts: ['model/views/sales.yml'] });
    expect((await branchOf(id, 'main'))!.headCommit).toBe(mainBefore);
    expect(await read(id, 'main', 'model/views/sales.yml')).toBe('views: [ada]\n');
    expect(events.length).toBe(eventsBefore);
  });

  it('answers a pull that conflicts with 409 and leaves the dev branch as it was', async () => {
    const before = (await branchOf(id, `dev-${bob.id}`))!.headCommit;
    const res = await svc.call('POST', `${buildPath(id)}/pull`, { auth: bob.auth });
    expect(res.status).toBe(409);
    expect(res.body.conflicts).toEqual(['model/views/sales.yml']);
    expect((await branchOf(id, `dev-${bob.id}`))!.headCommit).toBe(before);
  });

  it('pulls the parent’s new commits into a dev branch with a merge commit', async () => {
    // Bob resolves by taking Ada's version, then pulls.
    await write(id, bob, { 'model/views/sales.yml': 'views: [ada]\n' });
    await commit(id, bob, { message: 'take ada' });
    const res = await svc.call('POST', `${buildPath(id)}/pull`, { auth: bob.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ operation: 'pull', branchName: `dev-${bob.id}`, targetBranch: `dev-${bob.id}`, outcome: 'merged' });
    expect(res.body.changes).toContainEqual({ path: 'model/ada-only.yml', status: 'added' });
    const parents = git(id, 'log', '-1', '--format=%P', `dev-${bob.id}`).split(' ');
    expect(parents).toHaveLength(2);
    expect(await read(id, `dev-${bob.id}`, 'model/ada-only.yml')).toBe('a: 1\n');
    expect((await svc.call('POST', `${buildPath(id)}/pull`, { auth: bob.auth })).body.outcome).toBe('up-to-date');
  });

  it('pulls under uncommitted edits that touch other files, keeping the edits', async () => {
    await write(id, ada, { 'model/from-ada.yml': 'x: 1\n' });
    await commit(id, ada, { message: 'from ada' });
    await svc.call('POST', `${buildPath(id)}/merge`, { auth: ada.auth });
    await write(id, bob, { 'model/bob-draft.yml': 'draft: 1\n' });
    const res = await svc.call('POST', `${buildPath(id)}/pull`, { auth: bob.auth });
    expect(res.status).toBe(200);
    expect(await read(id, `dev-${bob.id}`, 'model/from-ada.yml')).toBe('x: 1\n');
    const draft = await svc.call('GET', `${buildPath(id)}/data-model/files?path=model/bob-draft.yml`, { auth: bob.auth });
    expect(draft.body.uncommitted).toBe(true);
  });

  it('refuses a pull whose incoming change touches a file with a different uncommitted edit', async () => {
    await write(id, ada, { 'model/from-ada.yml': 'x: 2\n' });
    await commit(id, ada, { message: 'from ada 2' });
    await svc.call('POST', `${buildPath(id)}/merge`, { auth: ada.auth });
    await write(id, bob, { 'model/from-ada.yml': 'x: bob\n' });
    const before = (await branchOf(id, `dev-${bob.id}`))!.headCommit;
    const res = await svc.call('POST', `${buildPath(id)}/pull`, { auth: bob.auth });
    expect(res.status).toBe(409);
    expect(res.body.conflicts).toEqual(['model/from-ada.yml']);
    expect((await branchOf(id, `dev-${bob.id}`))!.headCommit).toBe(before);
  });

  it('previews a merge with file contents without changing the target', async () => {
    await write(id, ada, { 'model/preview.yml': 'p: 1\n' });
    await commit(id, ada, { message: 'preview me' });
    const main = (await branchOf(id, 'main'))!.headCommit;
    const res = await svc.call('POST', `${buildPath(id)}/merge`, { auth: ada.auth, body: { dryRun: true } });
    expect(res.body).toMatchObject({ dryRun: true, outcome: 'fast-forward' });
    expect(res.body.changes).toEqual([{ path: 'model/preview.yml', status: 'added', before: null, after: 'p: 1\n' }]);
    expect((await branchOf(id, 'main'))!.headCommit).toBe(main);
  });

  it('merge-to-default merges a branch into the deploy branch, not its parent', async () => {
    await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: 'release' } });
    await svc.call('POST', `${buildPath(id)}/dev-mode?branchName=release`, { auth: ada.auth });
    await write(id, ada, { 'model/release.yml': 'r: 1\n' });
    await commit(id, ada, { message: 'release work' });
    const res = await svc.call('POST', `${buildPath(id)}/merge-to-default`, { auth: ada.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ operation: 'merge-to-default', branchName: `dev-${ada.id}-release`, targetBranch: 'main' });
    expect(await read(id, 'main', 'model/release.yml')).toBe('r: 1\n');
    expect(await read(id, 'release', 'model/release.yml')).toBeUndefined();
  });

  it('merges a shared branch into its parent when named', async () => {
    const res = await svc.call('POST', `${buildPath(id)}/merge`, { auth: ada.auth, body: { branchName: `dev-${ada.id}-release` } });
    expect(res.body.targetBranch).toBe('release');
    expect(await read(id, 'release', 'model/release.yml')).toBe('r: 1\n');
  });

  it('refuses to merge or pull the deploy branch (409 BRANCH_HAS_NO_PARENT) and merge-to-default of it (409 MERGE_INTO_ITSELF)', async () => {
    expect((await svc.call('POST', `${buildPath(id)}/merge`, { body: { branchName: 'main' } })).body.code).toBe('BRANCH_HAS_NO_PARENT');
    expect((await svc.call('POST', `${buildPath(id)}/pull`, { body: { branchName: 'main' } })).body.code).toBe('BRANCH_HAS_NO_PARENT');
    expect((await svc.call('POST', `${buildPath(id)}/merge-to-default`, { body: { branchName: 'main' } })).body.code).toBe('MERGE_INTO_ITSELF');
  });

  it('refuses branch operations to a viewer with 403', async () => {
    for (const op of ['commit', 'pull', 'merge', 'merge-to-default']) {
      expect((await svc.call('POST', `${buildPath(id)}/${op}`, { auth: viewer.auth, body: { branchName: 'release' } })).status, op).toBe(403);
    }
  });
});
