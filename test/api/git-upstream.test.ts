import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { B, commitFile, connect, ORDERS, PASSWORD, server, svc, teamRepo, useGitUpstream } from '../support/git-upstream';
import { D, eventually } from '../support/lakehouse';
import { upload } from '../support/upstream';

useGitUpstream();

const bareGit = async (bare: string, ...args: string[]) => (await server.git(bare, ...args)).trim();

async function branches(id: number) {
  const res = await svc.call('GET', `${B(id)}/branches`);
  return res.body.items as { branchName: string; headCommit: string; upstream: string | null; ahead: number | null; behind: number | null }[];
}
const branch = async (id: number, name: string) => (await branches(id)).find((b) => b.branchName === name);

describe('two-way git with a repository over smart HTTP', () => {
  it('connect fetches the repository: the deploy branch holds its history (same commit ids) and every remote branch becomes a branch', async () => {
    const { work } = await teamRepo('connect');
    await server.git(work, 'checkout', '-q', '-b', 'feature/x');
    const feature = await commitFile(work, 'model/cubes/x.yml', ORDERS.replace('team_orders', 'x'), 'feature');
    await server.git(work, 'push', '-q', 'origin', 'feature/x');
    const main = (await server.git(work, 'rev-parse', 'main')).trim();

    const id = await createDeployment(svc);
    const res = await connect(id, 'connect');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: 'url', url: server.url('connect.git'), authentication: 'basic', branch: 'main', headCommit: main, owner: '127.0.0.1', repo: 'connect' });
    // A fresh deployment's sample commit is replaced, not kept: it holds nothing of the user's.
    expect(res.body.branches).toEqual([
      { branchName: 'main', upstream: 'main', outcome: 'replaced', head: main },
      { branchName: 'feature/x', upstream: 'feature/x', outcome: 'created', head: feature },
    ]);
    expect(await branch(id, 'main')).toMatchObject({ headCommit: main, upstream: 'main', ahead: 0, behind: 0 });
    expect(await branch(id, 'feature/x')).toMatchObject({ headCommit: feature, upstream: 'feature/x', ahead: 0, behind: 0 });
    const files = await svc.call('GET', `${B(id)}/data-model/files?branchName=main`);
    expect(files.body.items.map((f: { path: string }) => f.path)).toEqual(['model/cubes/team_orders.yml']);
  });

  it('keeps the password in the keychain only: not in responses, SQLite or the repository config', async () => {
    await teamRepo('secret');
    const id = await createDeployment(svc);
    const res = await connect(id, 'secret');
    expect(res.text).not.toContain(PASSWORD);
    expect((await svc.call('GET', `${B(id)}/git-host/connection`)).text).not.toContain(PASSWORD);
    expect(JSON.parse((await svc.ctx.secrets.get(`git-remote:${id}`))!)).toEqual({ username: 'alice', password: PASSWORD });
    for (const file of ['drydock.sqlite', 'drydock.sqlite-wal']) {
      try {
        expect(readFileSync(join(svc.dataDir, file)).includes(PASSWORD)).toBe(false);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    expect(readFileSync(join(svc.dataDir, 'repos', String(id), 'config'), 'utf8')).not.toContain(PASSWORD);
  });

  it('wrong credentials answer 422 UPSTREAM_AUTH_FAILED without echoing the secret, and nothing is stored', async () => {
    await teamRepo('refused');
    const id = await createDeployment(svc);
    const res = await connect(id, 'refused', { password: 'not-the-password-42' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('UPSTREAM_AUTH_FAILED');
    expect(res.body.detail).toMatch(/refused the credentials/);
    expect(res.text).not.toContain('not-the-password-42');
    expect((await svc.call('GET', `${B(id)}/git-host/connection`)).body).toEqual({ connected: false, connection: null });
    expect(await svc.ctx.secrets.get(`git-remote:${id}`)).toBeNull();
    // Credentials in the URL itself are taken out of it and not echoed either.
    const inUrl = await svc.call('POST', `${B(id)}/git-host/connect`, { body: { url: server.url('refused.git').replace('http://', 'http://alice:url-secret-99@') } });
    expect(inUrl.status).toBe(422);
    expect(inUrl.text).not.toContain('url-secret-99');
    const insecure = await svc.call('POST', `${B(id)}/git-host/connect`, { body: { url: 'http://git.example.com/team/repo.git', token: 'abc123' } });
    expect(insecure.body).toMatchObject({ status: 400, code: 'INVALID_REPOSITORY_URL' });
  });

  it('connect loses nothing: local commits the repository lacks stay on before-connect/<branch>', async () => {
    const { work } = await teamRepo('kept');
    const id = await createDeployment(svc);
    const mine = (await upload(svc, id, { 'model/cubes/mine.yml': ORDERS.replace('team_orders', 'mine') })).commit;
    const res = await connect(id, 'kept');
    const main = (await server.git(work, 'rev-parse', 'main')).trim();
    expect(res.body.branches[0]).toEqual({ branchName: 'main', upstream: 'main', outcome: 'replaced', head: main, keptAs: 'before-connect/main' });
    expect(await branch(id, 'before-connect/main')).toMatchObject({ headCommit: mine, upstream: null, ahead: null });
  });

  it('a commit made in Drydock is pushed within the request and appears in the bare repository with the same id', async () => {
    const { bare } = await teamRepo('push');
    const id = await createDeployment(svc);
    await connect(id, 'push');
    const finish = await upload(svc, id, { 'model/cubes/new.yml': ORDERS.replace('team_orders', 'new_cube') });
    expect(finish.push).toEqual({ upstream: 'main', status: 'pushed', commit: finish.commit, code: null, detail: null });
    expect(await bareGit(bare, 'rev-parse', 'main')).toBe(finish.commit);
    expect(await bareGit(bare, 'show', 'main:model/cubes/new.yml')).toContain('new_cube');
    expect(await branch(id, 'main')).toMatchObject({ ahead: 0, behind: 0 });
  });

  it('a commit pushed with plain git appears after fetch with the same id, and builds the deployment (deploy on push)', async () => {
    const { work } = await teamRepo('fetch');
    const id = await createDeployment(svc);
    await connect(id, 'fetch');
    const theirs = await commitFile(work, 'model/cubes/pushed.yml', ORDERS.replace('team_orders', 'pushed'), 'pushed by a teammate');
    await server.git(work, 'push', '-q', 'origin', 'HEAD:main');
    await server.git(work, 'push', '-q', 'origin', 'HEAD:hotfix');
    const res = await svc.call('POST', `${B(id)}/git-host/fetch`);
    expect(res.status).toBe(200);
    expect(res.body.branches).toEqual([
      { branchName: 'main', upstream: 'main', outcome: 'fast-forward', head: theirs },
      { branchName: 'hotfix', upstream: 'hotfix', outcome: 'created', head: theirs },
    ]);
    expect((await branch(id, 'main'))!.headCommit).toBe(theirs);
    const built = await eventually(async () => {
      const state = (await svc.call('GET', `${D(id)}/build-status`)).body;
      return state.commit === theirs && state.buildStatus === 'succeeded' ? state : undefined;
    }, 'the build of the fetched commit', 30_000);
    expect(built).toMatchObject({ isDeployBranch: true, deployStatus: 'deployed' });
    expect((await svc.call('GET', `${B(id)}/git-host/connection`)).body.connection).toMatchObject({ lastFetchError: null });
  });

  it('a push the remote rejects keeps the local commit and says why; pull then merges with a real merge commit and pushes it', async () => {
    const { work, bare } = await teamRepo('diverge');
    const id = await createDeployment(svc);
    await connect(id, 'diverge');
    const theirs = await commitFile(work, 'model/cubes/theirs.yml', ORDERS.replace('team_orders', 'theirs'), 'theirs');
    await server.git(work, 'push', '-q', 'origin', 'HEAD:main');
    const finish = await upload(svc, id, { 'model/cubes/ours.yml': ORDERS.replace('team_orders', 'ours') });
    expect(finish.push).toMatchObject({ upstream: 'main', status: 'rejected', code: 'PUSH_REJECTED', commit: finish.commit });
    expect(finish.push.detail).toMatch(/pull first/);
    expect(await branch(id, 'main')).toMatchObject({ headCommit: finish.commit, ahead: 1, behind: 1 });
    expect(await bareGit(bare, 'rev-parse', 'main')).toBe(theirs);

    const explicit = await svc.call('POST', `${B(id)}/git-host/push`, { body: { branchName: 'main' } });
    expect(explicit.status).toBe(409);
    expect(explicit.body.code).toBe('PUSH_REJECTED');
    expect((await branch(id, 'main'))!.headCommit).toBe(finish.commit);

    const pull = await svc.call('POST', `${B(id)}/git-host/pull`, { body: { branchName: 'main' } });
    expect(pull.status).toBe(200);
    expect(pull.body).toMatchObject({ branchName: 'main', upstream: 'main', outcome: 'merged', changes: [{ path: 'model/cubes/theirs.yml', status: 'added' }] });
    expect(pull.body.push).toMatchObject({ status: 'pushed', commit: pull.body.commit });
    expect(await bareGit(bare, 'rev-parse', 'main')).toBe(pull.body.commit);
    expect((await bareGit(bare, 'log', '-1', '--format=%P', 'main')).split(' ')).toEqual([finish.commit, theirs]);
    expect(await branch(id, 'main')).toMatchObject({ ahead: 0, behind: 0 });
  });

  it('a pull conflict answers 409 with the paths and leaves the branch untouched; pulling with resolutions commits the merge of both', async () => {
    const { work, bare } = await teamRepo('conflict');
    const id = await createDeployment(svc);
    await connect(id, 'conflict');
    const theirs = await commitFile(work, 'model/cubes/team_orders.yml', ORDERS.replace('count', 'theirs_count'), 'theirs');
    await server.git(work, 'push', '-q', 'origin', 'HEAD:main');
    const ours = (await upload(svc, id, { 'model/cubes/team_orders.yml': ORDERS.replace('count', 'our_count') })).commit;

    const conflict = await svc.call('POST', `${B(id)}/git-host/pull`, { body: {} });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'MERGE_CONFLICT', conflicts: ['model/cubes/team_orders.yml'], ours, theirs, branchName: 'main', upstream: 'main' });
    expect(conflict.body.files).toEqual([
      { path: 'model/cubes/team_orders.yml', base: ORDERS, ours: ORDERS.replace('count', 'our_count'), theirs: ORDERS.replace('count', 'theirs_count') },
    ]);
    expect((await branch(id, 'main'))!.headCommit).toBe(ours);

    const resolved = ORDERS.replace('count', 'our_count').replace('type: count', 'type: count\n      - name: theirs_count\n        type: count');
    const stale = await svc.call('POST', `${B(id)}/git-host/pull`, {
      body: { upstreamCommit: ours, resolutions: [{ path: 'model/cubes/team_orders.yml', content: resolved }] },
    });
    expect(stale.body.code).toBe('UPSTREAM_MOVED');
    const pull = await svc.call('POST', `${B(id)}/git-host/pull`, {
      body: { upstreamCommit: theirs, message: 'Resolve the orders conflict', resolutions: [{ path: 'model/cubes/team_orders.yml', content: resolved }] },
    });
    expect(pull.status).toBe(200);
    expect(pull.body).toMatchObject({ outcome: 'merged', push: { status: 'pushed' } });
    expect((await bareGit(bare, 'log', '-1', '--format=%P%n%s', 'main')).split('\n')).toEqual([`${ours} ${theirs}`, 'Resolve the orders conflict']);
    expect(await bareGit(bare, 'show', 'main:model/cubes/team_orders.yml')).toBe(resolved.trimEnd());
  });

  it('push publishes a branch without upstream under its name; a new shared branch of a connected deployment is created upstream', async () => {
    const { bare } = await teamRepo('publish');
    const id = await createDeployment(svc);
    const local = await svc.call('POST', `${B(id)}/branches`, { body: { branchName: 'local-only' } });
    await connect(id, 'publish');
    expect(await branch(id, 'local-only')).toMatchObject({ upstream: null, ahead: null, behind: null });
    const pushed = await svc.call('POST', `${B(id)}/git-host/push`, { body: { branchName: 'local-only' } });
    expect(pushed.body).toEqual({ branchName: 'local-only', upstream: 'local-only', pushed: true, before: null, commit: local.body.headCommit });
    expect(await bareGit(bare, 'rev-parse', 'local-only')).toBe(local.body.headCommit);
    expect(await branch(id, 'local-only')).toMatchObject({ upstream: 'local-only', ahead: 0, behind: 0 });

    const created = await svc.call('POST', `${B(id)}/branches`, { body: { branchName: 'team-branch' } });
    expect(created.body).toMatchObject({ upstream: 'team-branch', ahead: 0, behind: 0 });
    expect(await bareGit(bare, 'rev-parse', 'team-branch')).toBe(created.body.headCommit);
  });
});
