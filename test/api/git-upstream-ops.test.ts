import { describe, expect, it } from 'vitest';
import { getLocalGitHost, getFetchScheduler } from '../../src-main/features/git-host';
import { createDeployment } from '../support/deployments';
import { B, commitFile, connect, PASSWORD, server, svc, teamRepo, useGitUpstream } from '../support/git-upstream';
import { upload } from '../support/upstream';

useGitUpstream();

const remoteBranches = async (bare: string) => (await server.git(bare, 'branch', '--format=%(refname:short)')).split('\n').filter(Boolean).sort();
const listed = async (id: number) => (await svc.call('GET', `${B(id)}/branches`)).body.items as { branchName: string; upstream: string | null }[];

describe('branch delete with removeOnUpstream', () => {
  it('deletes the remote branch too, and only then the local one', async () => {
    const { bare } = await teamRepo('remove', ['feature']);
    const id = await createDeployment(svc);
    await connect(id, 'remove');
    const res = await svc.call('DELETE', `${B(id)}/branches?branchName=feature&removeOnUpstream=true`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ branchName: 'feature', deleted: true, removedOnUpstream: true });
    expect(await remoteBranches(bare)).toEqual(['main']);
    expect((await listed(id)).map((b) => b.branchName)).toEqual(['main']);
  });

  it('refuses (409, nothing deleted) when the remote branch has commits the local branch lacks, or the branch tracks nothing', async () => {
    const { work, bare } = await teamRepo('remove-moved', ['feature']);
    const id = await createDeployment(svc);
    await svc.call('POST', `${B(id)}/branches`, { body: { branchName: 'local-only' } });
    await connect(id, 'remove-moved');
    await server.git(work, 'checkout', '-q', '-b', 'feature', 'origin/feature');
    await commitFile(work, 'model/cubes/b.yml', 'cubes: []\n', 'more on feature');
    await server.git(work, 'push', '-q', 'origin', 'feature');
    const moved = await svc.call('DELETE', `${B(id)}/branches?branchName=feature&removeOnUpstream=true`);
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe('PUSH_REJECTED');
    expect(await remoteBranches(bare)).toEqual(['feature', 'main']);
    expect((await listed(id)).map((b) => b.branchName)).toContain('feature');
    const untracked = await svc.call('DELETE', `${B(id)}/branches?branchName=local-only&removeOnUpstream=true`);
    expect(untracked.status).toBe(409);
    expect(untracked.body.code).toBe('BRANCH_HAS_NO_UPSTREAM');
  });

  it('a tracking branch deleted without removeOnUpstream stays on the remote and a fetch does not bring it back', async () => {
    const { bare } = await teamRepo('remove-local', ['feature']);
    const id = await createDeployment(svc);
    await connect(id, 'remove-local');
    const res = await svc.call('DELETE', `${B(id)}/branches?branchName=feature`);
    expect(res.body.removedOnUpstream).toBe(false);
    expect(await remoteBranches(bare)).toEqual(['feature', 'main']);
    await svc.call('POST', `${B(id)}/git-host/fetch`);
    expect((await listed(id)).map((b) => b.branchName)).toEqual(['main']);
  });
});

describe('background fetch and the connection', () => {
  it('fetches due connections on schedule and records the outcome; interval 0 turns it off', async () => {
    const { work } = await teamRepo('scheduled');
    const id = await createDeployment(svc);
    const connected = await connect(id, 'scheduled', { fetchIntervalSeconds: 60 });
    expect(connected.body.fetchIntervalSeconds).toBe(60);
    const theirs = await commitFile(work, 'model/cubes/c.yml', 'cubes: []\n', 'teammate');
    await server.git(work, 'push', '-q', 'origin', 'HEAD:main');
    const scheduler = getFetchScheduler(svc.ctx);
    expect(scheduler.tick(new Date(Date.now() + 30_000))).not.toContain(id);
    expect(scheduler.tick(new Date(Date.now() + 61_000))).toContain(id);
    await expect.poll(async () => (await listed(id)).find((b) => b.branchName === 'main'), { timeout: 20_000 }).toMatchObject({ headCommit: theirs });
    const connection = (await svc.call('GET', `${B(id)}/git-host/connection`)).body.connection;
    expect(connection).toMatchObject({ fetchIntervalSeconds: 60, lastFetchError: null });
    expect(Date.parse(connection.nextFetchAt)).toBeGreaterThan(Date.now() + 60_000);

    const off = await svc.call('PATCH', `${B(id)}/git-host/connection`, { body: { fetchIntervalSeconds: 0 } });
    expect(off.body).toMatchObject({ fetchIntervalSeconds: 0, nextFetchAt: null });
    expect(scheduler.tick(new Date(Date.now() + 3_600_000))).not.toContain(id);
    expect((await svc.call('PATCH', `${B(id)}/git-host/connection`, { body: { fetchIntervalSeconds: 5 } })).status).toBe(400);
  });

  it('a running fetch can be cancelled: it answers 409 UPSTREAM_CANCELLED and the failure is recorded', async () => {
    await teamRepo('cancel');
    const id = await createDeployment(svc);
    await connect(id, 'cancel');
    server.setDelay(3_000);
    try {
      const running = svc.call('POST', `${B(id)}/git-host/fetch`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await svc.call('DELETE', `${B(id)}/git-host/fetch`)).body).toEqual({ cancelled: true });
      const res = await running;
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('UPSTREAM_CANCELLED');
    } finally {
      server.setDelay(0);
    }
    expect((await svc.call('GET', `${B(id)}/git-host/connection`)).body.connection.lastFetchError).toMatchObject({ code: 'UPSTREAM_CANCELLED' });
    expect((await svc.call('DELETE', `${B(id)}/git-host/fetch`)).body).toEqual({ cancelled: false });
  });

  it('new credentials are checked before they replace the stored ones; disconnect forgets them and keeps every branch', async () => {
    await teamRepo('creds', ['feature']);
    const id = await createDeployment(svc);
    await connect(id, 'creds');
    const wrong = await svc.call('PATCH', `${B(id)}/git-host/connection`, { body: { username: 'alice', password: 'nope-nope' } });
    expect(wrong.status).toBe(422);
    expect(JSON.parse((await svc.ctx.secrets.get(`git-remote:${id}`))!).password).toBe(PASSWORD);

    const gone = await svc.call('DELETE', `${B(id)}/git-host/connection`);
    expect(gone.body).toEqual({ disconnected: true });
    expect(await svc.ctx.secrets.get(`git-remote:${id}`)).toBeNull();
    expect(await listed(id)).toEqual([expect.objectContaining({ branchName: 'main', upstream: null }), expect.objectContaining({ branchName: 'feature', upstream: null })]);
    expect((await svc.call('POST', `${B(id)}/git-host/fetch`)).body.code).toBe('UPSTREAM_NOT_CONNECTED');
    expect((await svc.call('DELETE', `${B(id)}/git-host/connection`)).status).toBe(409);
  });
});

describe('the local repository host', () => {
  it('is two-way too: connect fetches it, commits are pushed to it, its commits are fetched', async () => {
    const host = getLocalGitHost(svc.ctx);
    host.createInstallation('team');
    await host.createRepository('team', 'models', { files: [{ path: 'model/cubes/a.yml', content: 'cubes: []\n' }] });
    const id = await createDeployment(svc);
    const res = await svc.call('POST', `${B(id)}/git-host/connect`, { body: { owner: 'team', repo: 'models' } });
    expect(res.body).toMatchObject({ provider: 'local', authentication: 'local', branch: 'main', headCommit: await host.resolveRef('team', 'models', 'main') });
    const finish = await upload(svc, id, { 'model/cubes/b.yml': 'cubes: []\n' });
    expect(finish.push).toMatchObject({ status: 'pushed' });
    expect(await host.resolveRef('team', 'models', 'main')).toBe(finish.commit);
    const theirs = await host.commit('team', 'models', 'main', [{ path: 'model/cubes/c.yml', content: 'cubes: []\n' }], 'on the host');
    await svc.call('POST', `${B(id)}/git-host/fetch`);
    expect((await listed(id)).find((b) => b.branchName === 'main')).toMatchObject({ headCommit: theirs });
  });
});
