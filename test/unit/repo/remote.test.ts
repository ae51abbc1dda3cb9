import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GitRepository,
  deleteRemoteBranch,
  divergence,
  fetchRemote,
  pushBranch,
  remoteTrackingHead,
  remoteTrackingHeads,
  type RemoteEndpoint,
} from '../../../src-main/platform/repo';
import { startGitServer, type GitServer } from '../../support/git-server';

const author = { name: 'Drydock user', email: 'user@example.com' };
let server: GitServer;
beforeAll(async () => {
  server = await startGitServer({ alice: 'correct-horse' });
});
afterAll(async () => server.close());

const endpoint = (repo: string, password = 'correct-horse'): RemoteEndpoint => ({ kind: 'http', url: server.url(repo), username: 'alice', password });

async function localRepo(): Promise<GitRepository> {
  const repo = GitRepository.at(join(mkdtempSync(join(tmpdir(), 'dd-remote-')), 'repo.git'));
  await repo.initialize({ branch: 'main', files: [{ path: 'model/a.yml', content: 'a: 1\n' }], author, message: 'first' });
  return repo;
}

/** A bare repository on the server with one commit pushed by plain git; returns a working clone. */
async function seededRepo(name: string): Promise<string> {
  await server.createRepo(`${name}.git`);
  const work = await server.clone(`${name}.git`);
  writeFileSync(join(work, 'README.md'), '# team\n');
  await server.git(work, 'add', '.');
  await server.git(work, 'commit', '-q', '-m', 'team start');
  await server.git(work, 'push', '-q', 'origin', 'HEAD:main');
  return work;
}

describe('git over smart HTTP (git http-backend on loopback)', () => {
  it('fetches every branch of the remote into refs/remotes/origin with the same commit ids', async () => {
    const work = await seededRepo('fetch');
    await server.git(work, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(work, 'f.md'), 'f\n');
    await server.git(work, 'add', '.');
    await server.git(work, 'commit', '-q', '-m', 'feature');
    await server.git(work, 'push', '-q', 'origin', 'feature');
    const repo = await localRepo();
    const result = await fetchRemote(repo.gitdir, endpoint('fetch.git'));
    expect(result.defaultBranch).toBe('main');
    expect([...result.heads.keys()].sort()).toEqual(['feature', 'main']);
    expect(result.heads.get('feature')).toBe((await server.git(work, 'rev-parse', 'feature')).trim());
    expect(await remoteTrackingHead(repo.gitdir, 'main')).toBe((await server.git(work, 'rev-parse', 'main')).trim());
    // The objects arrived: the commit and its files read locally.
    expect((await repo.readCommit(result.heads.get('feature')!)).message).toBe('feature\n');
    expect([...(await repo.treeOf(result.heads.get('feature')!)).keys()].sort()).toEqual(['README.md', 'f.md']);

    // A branch deleted on the remote disappears from the tracking refs on the next fetch.
    await server.git(work, 'push', '-q', 'origin', '--delete', 'feature');
    await fetchRemote(repo.gitdir, endpoint('fetch.git'));
    expect([...(await remoteTrackingHeads(repo.gitdir)).keys()]).toEqual(['main']);
  });

  it('pushes fast-forward only: a commit appears in the bare repository; a moved remote rejects the push and keeps local commits', async () => {
    const work = await seededRepo('push');
    const repo = await localRepo();
    const { heads } = await fetchRemote(repo.gitdir, endpoint('push.git'));
    await repo.setHead('team', heads.get('main')!, null);
    const mine = await repo.commitChanges('team', [{ path: 'model/b.yml', content: 'b: 1\n' }], { message: 'mine', author });
    const pushed = await pushBranch(repo.gitdir, endpoint('push.git'), 'team', 'main');
    expect(pushed).toEqual({ before: heads.get('main'), after: mine.commit });
    await server.git(work, 'pull', '-q', 'origin', 'main');
    expect((await server.git(work, 'rev-parse', 'HEAD')).trim()).toBe(mine.commit);
    expect(await server.git(work, 'show', 'HEAD:model/b.yml')).toBe('b: 1\n');

    // Someone else pushes; our next commit cannot be pushed over theirs.
    writeFileSync(join(work, 'theirs.md'), 'x\n');
    await server.git(work, 'add', '.');
    await server.git(work, 'commit', '-q', '-m', 'theirs');
    await server.git(work, 'push', '-q', 'origin', 'HEAD:main');
    const second = await repo.commitChanges('team', [{ path: 'model/c.yml', content: 'c: 1\n' }], { message: 'second', author });
    await expect(pushBranch(repo.gitdir, endpoint('push.git'), 'team', 'main')).rejects.toMatchObject({ code: 'PUSH_REJECTED' });
    expect(await repo.head('team')).toBe(second.commit);
    expect((await server.git(work, 'ls-remote', 'origin', 'main')).split('\t')[0]).toBe((await server.git(work, 'rev-parse', 'HEAD')).trim());
  });

  it('counts ahead and behind like git rev-list --left-right --count', async () => {
    const work = await seededRepo('counts');
    const repo = await localRepo();
    const { heads } = await fetchRemote(repo.gitdir, endpoint('counts.git'));
    await repo.setHead('x', heads.get('main')!, null);
    await repo.commitChanges('x', [{ path: 'a.md', content: '1' }], { message: '1', author });
    await repo.commitChanges('x', [{ path: 'a.md', content: '2' }], { message: '2', author });
    for (const n of [1, 2, 3]) {
      writeFileSync(join(work, `t${n}.md`), `${n}\n`);
      await server.git(work, 'add', '.');
      await server.git(work, 'commit', '-q', '-m', `t${n}`);
    }
    await server.git(work, 'push', '-q', 'origin', 'HEAD:main');
    await fetchRemote(repo.gitdir, endpoint('counts.git'));
    expect(await divergence(repo.gitdir, (await repo.head('x'))!, (await remoteTrackingHead(repo.gitdir, 'main'))!)).toEqual({ ahead: 2, behind: 3 });
    // Unrelated histories: every commit of each side counts.
    expect(await divergence(repo.gitdir, (await repo.head('main'))!, (await remoteTrackingHead(repo.gitdir, 'main'))!)).toEqual({ ahead: 1, behind: 4 });
  });

  it('wrong credentials fail with UPSTREAM_AUTH_FAILED and the message does not carry the secret', async () => {
    await seededRepo('auth');
    const repo = await localRepo();
    const error = (await fetchRemote(repo.gitdir, endpoint('auth.git', 'wrong-password-123')).then(() => null, (e: unknown) => e)) as Error & { code: string };
    expect(error).toMatchObject({ code: 'UPSTREAM_AUTH_FAILED' });
    expect(error.message).not.toContain('wrong-password-123');
    await expect(fetchRemote(repo.gitdir, { kind: 'http', url: server.url('missing.git'), username: 'alice', password: 'correct-horse' })).rejects.toMatchObject({
      code: 'UPSTREAM_NOT_FOUND',
    });
    await expect(fetchRemote(repo.gitdir, { kind: 'http', url: 'http://127.0.0.1:1/nothing.git' })).rejects.toMatchObject({ code: 'UPSTREAM_UNREACHABLE' });
  });

  it('a server-side refusal (pre-receive hook) is PUSH_REJECTED with the server reason', async () => {
    await seededRepo('hook');
    const repo = await localRepo();
    const { heads } = await fetchRemote(repo.gitdir, endpoint('hook.git'));
    await repo.setHead('team', heads.get('main')!, null);
    await repo.commitChanges('team', [{ path: 'x.md', content: 'x' }], { message: 'x', author });
    server.refusePushes('hook.git', 'main is protected');
    const error = (await pushBranch(repo.gitdir, endpoint('hook.git'), 'team', 'main').then(() => null, (e: unknown) => e)) as Error & { code: string };
    expect(error.message).toContain('main is protected');
    expect(error).toMatchObject({ code: 'PUSH_REJECTED' });
    expect(await remoteTrackingHead(repo.gitdir, 'main')).toBe(heads.get('main'));
    server.refusePushes('hook.git', null);
  });

  it('deletes a remote branch only while it is at the commit this side last saw', async () => {
    const work = await seededRepo('delete');
    await server.git(work, 'push', '-q', 'origin', 'HEAD:gone');
    await server.git(work, 'push', '-q', 'origin', 'HEAD:moved');
    const repo = await localRepo();
    const { heads } = await fetchRemote(repo.gitdir, endpoint('delete.git'));
    await deleteRemoteBranch(repo.gitdir, endpoint('delete.git'), 'gone', heads.get('gone')!);
    expect(await server.git(work, 'ls-remote', '--heads', 'origin')).not.toContain('refs/heads/gone');
    expect(await remoteTrackingHead(repo.gitdir, 'gone')).toBeNull();
    writeFileSync(join(work, 'more.md'), 'more\n');
    await server.git(work, 'add', '.');
    await server.git(work, 'commit', '-q', '-m', 'more');
    await server.git(work, 'push', '-q', 'origin', 'HEAD:moved');
    await expect(deleteRemoteBranch(repo.gitdir, endpoint('delete.git'), 'moved', heads.get('moved')!)).rejects.toMatchObject({ code: 'PUSH_REJECTED' });
    expect(await server.git(work, 'ls-remote', '--heads', 'origin')).toContain('refs/heads/moved');
  });
});

describe('git with a bare repository on this disk (local repository host)', () => {
  it('fetches, pushes fast-forward only and deletes by copying objects', async () => {
    const remote = await localRepo();
    const repo = GitRepository.at(join(mkdtempSync(join(tmpdir(), 'dd-local-')), 'repo.git'));
    await repo.initialize({ branch: 'main', files: [], author, message: 'empty' });
    const local: RemoteEndpoint = { kind: 'local', gitdir: remote.gitdir, label: 'acme/analytics' };
    const { heads, defaultBranch } = await fetchRemote(repo.gitdir, local);
    expect(defaultBranch).toBe('main');
    expect(heads.get('main')).toBe(await remote.head('main'));
    await repo.setHead('work', heads.get('main')!, null);
    const next = await repo.commitChanges('work', [{ path: 'model/b.yml', content: 'b' }], { message: 'b', author });
    await pushBranch(repo.gitdir, local, 'work', 'main');
    expect(await remote.head('main')).toBe(next.commit);
    expect(new TextDecoder().decode((await remote.readFile('main', 'model/b.yml'))!)).toBe('b');
    await remote.commitChanges('main', [{ path: 'c.md', content: 'c' }], { message: 'theirs', author });
    await repo.commitChanges('work', [{ path: 'd.md', content: 'd' }], { message: 'mine', author });
    await expect(pushBranch(repo.gitdir, local, 'work', 'main')).rejects.toMatchObject({ code: 'PUSH_REJECTED' });
  });
});
