import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitRepository, RepoError, isValidBranchName, readSampleModelFiles } from '../../../src-main/platform/repo';

const author = { name: 'Ada Lovelace', email: 'ada@example.com' };
const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));
const runGit = (gitdir: string, ...args: string[]) =>
  execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

let root: string;
let repo: GitRepository;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'drydock-repo-'));
  repo = GitRepository.at(join(root, 'repos', '1'));
  await repo.initialize({
    branch: 'main',
    files: [
      { path: 'model/cubes/orders.yml', content: 'cubes:\n  - name: orders\n' },
      { path: 'model/views/sales.yml', content: 'views: []\n' },
    ],
    author,
    message: 'Initial model',
  });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function filesOf(branch: string): Promise<Record<string, string>> {
  const { tree } = await repo.branchTree(branch);
  const out: Record<string, string> = {};
  for (const [path, entry] of tree) out[path] = text(await repo.readBlob(entry.oid)) ?? '';
  return out;
}

describe('git repository per deployment', () => {
  it('creates a bare repository that plain git can read, with the initial commit on the deploy branch', async () => {
    const log = runGit(repo.gitdir, 'log', '--format=%an <%ae>|%s', 'main');
    expect(log.trim()).toBe('Ada Lovelace <ada@example.com>|Initial model');
    expect(runGit(repo.gitdir, 'show', 'main:model/cubes/orders.yml')).toBe('cubes:\n  - name: orders\n');
    expect(runGit(repo.gitdir, 'fsck', '--strict').trim()).toBe('');
  });

  it('initialising again keeps the existing history', async () => {
    const head = await repo.requireHead('main');
    expect(await repo.initialize({ branch: 'main', files: [], author, message: 'again' })).toBe(head);
    expect(await repo.log('main')).toHaveLength(1);
  });

  it('reads files from the branch commit tree', async () => {
    expect(text(await repo.readFile('main', 'model/views/sales.yml'))).toBe('views: []\n');
    expect(await repo.readFile('main', 'model/nope.yml')).toBeNull();
    await expect(repo.readFile('nope', 'model/views/sales.yml')).rejects.toMatchObject({ code: 'BRANCH_NOT_FOUND' });
  });

  it('writes many files as one commit whose parent is the previous head', async () => {
    const before = await repo.requireHead('main');
    const result = await repo.commitChanges(
      'main',
      [
        { path: 'model/cubes/users.yml', content: 'cubes:\n  - name: users\n' },
        { path: 'model/views/sales.yml', content: null },
        { path: 'model/cubes/orders.yml', content: 'cubes:\n  - name: orders2\n' },
      ],
      { message: 'Three changes', author },
    );
    expect(result.changed).toBe(true);
    expect(result.changes.map((c) => [c.path, c.status])).toEqual([
      ['model/cubes/orders.yml', 'modified'],
      ['model/cubes/users.yml', 'added'],
      ['model/views/sales.yml', 'deleted'],
    ]);
    expect((await repo.readCommit(result.commit)).parents).toEqual([before]);
    expect(await filesOf('main')).toEqual({ 'model/cubes/orders.yml': 'cubes:\n  - name: orders2\n', 'model/cubes/users.yml': 'cubes:\n  - name: users\n' });
    expect(runGit(repo.gitdir, 'log', '--format=%s', 'main').trim().split('\n')).toEqual(['Three changes', 'Initial model']);
  });

  it('makes no commit when the files are unchanged', async () => {
    const head = await repo.requireHead('main');
    const result = await repo.commitChanges('main', [{ path: 'model/views/sales.yml', content: 'views: []\n' }], { message: 'noop', author });
    expect(result).toMatchObject({ commit: head, changed: false, changes: [] });
  });

  it('writes nothing when one file of a commit clashes with a folder', async () => {
    const head = await repo.requireHead('main');
    const attempt = repo.commitChanges(
      'main',
      [
        { path: 'model/new.yml', content: 'x' },
        { path: 'model/cubes', content: 'a file where a folder is' },
      ],
      { message: 'bad', author },
    );
    await expect(attempt).rejects.toMatchObject({ code: 'PATH_CONFLICT', paths: expect.arrayContaining(['model/cubes']) });
    expect(await repo.requireHead('main')).toBe(head);
  });

  it('refuses a commit when the head moved since the caller read it', async () => {
    await expect(
      repo.commitChanges('main', [{ path: 'model/a.yml', content: 'a' }], { message: 'x', author, expectedHead: '0'.repeat(40) }),
    ).rejects.toMatchObject({ code: 'HEAD_MOVED' });
  });

  it('serialises concurrent writers so no commit is lost', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => repo.commitChanges('main', [{ path: `model/f${i}.yml`, content: `${i}` }], { message: `c${i}`, author })),
    );
    const files = await filesOf('main');
    for (let i = 0; i < 8; i++) expect(files[`model/f${i}.yml`]).toBe(`${i}`);
    expect(await repo.log('main')).toHaveLength(9);
  });

  it('creates a branch from a parent and deletes it', async () => {
    const head = await repo.requireHead('main');
    expect(await repo.createBranch('feature/x', 'main')).toBe(head);
    expect(await repo.branches()).toEqual(['feature/x', 'main']);
    await expect(repo.createBranch('feature/x', 'main')).rejects.toMatchObject({ code: 'BRANCH_EXISTS' });
    await expect(repo.createBranch('feature', 'main')).rejects.toMatchObject({ code: 'BRANCH_NAME_CONFLICT' });
    await expect(repo.createBranch('feature/x/y', 'main')).rejects.toMatchObject({ code: 'BRANCH_NAME_CONFLICT' });
    await repo.deleteBranch('feature/x');
    expect(await repo.branches()).toEqual(['main']);
    expect(runGit(repo.gitdir, 'branch', '--format=%(refname:short)').trim()).toBe('main');
  });

  it('fast-forwards a target that has no commits of its own', async () => {
    await repo.createBranch('dev', 'main');
    const { commit } = await repo.commitChanges('dev', [{ path: 'model/a.yml', content: 'a' }], { message: 'a', author });
    const result = await repo.merge('dev', 'main', { message: 'merge', author });
    expect(result).toMatchObject({ outcome: 'fast-forward', commit, conflicts: [] });
    expect(result.changes.map((c) => c.path)).toEqual(['model/a.yml']);
    expect(await repo.requireHead('main')).toBe(commit);
  });

  it('answers up-to-date when the target already contains the source', async () => {
    await repo.createBranch('dev', 'main');
    const head = await repo.requireHead('main');
    expect(await repo.merge('dev', 'main', { message: 'm', author })).toMatchObject({ outcome: 'up-to-date', commit: head });
  });

  it('creates a two-parent merge commit when both sides changed different files', async () => {
    await repo.createBranch('dev', 'main');
    const dev = await repo.commitChanges('dev', [{ path: 'model/a.yml', content: 'a' }], { message: 'a', author });
    const main = await repo.commitChanges('main', [{ path: 'model/b.yml', content: 'b' }], { message: 'b', author });
    const result = await repo.merge('dev', 'main', { message: "Merge 'dev'", author });
    expect(result.outcome).toBe('merged');
    expect((await repo.readCommit(result.commit!)).parents).toEqual([main.commit, dev.commit]);
    expect(await filesOf('main')).toMatchObject({ 'model/a.yml': 'a', 'model/b.yml': 'b' });
    expect(runGit(repo.gitdir, 'log', '--format=%s', '-1', 'main').trim()).toBe("Merge 'dev'");
  });

  it('reports conflicting paths and changes nothing when both sides changed a file differently', async () => {
    await repo.createBranch('dev', 'main');
    await repo.commitChanges('dev', [{ path: 'model/views/sales.yml', content: 'dev' }, { path: 'model/ok.yml', content: 'x' }], { message: 'd', author });
    const main = await repo.commitChanges('main', [{ path: 'model/views/sales.yml', content: 'main' }], { message: 'm', author });
    const result = await repo.merge('dev', 'main', { message: 'merge', author });
    expect(result).toMatchObject({ outcome: 'conflict', conflicts: ['model/views/sales.yml'] });
    expect(await repo.requireHead('main')).toBe(main.commit);
  });

  it('refuses a merge, fast-forward or not, whose sides are fine alone and make case twins together, and moves nothing', async () => {
    await repo.createBranch('dev', 'main');
    await repo.commitChanges('dev', [{ path: 'model/ok.yml', content: 'dev' }], { message: 'd', author });
    const main = await repo.commitChanges('main', [{ path: 'model/OK.yml', content: 'main' }], { message: 'm', author });
    await expect(repo.merge('dev', 'main', { message: 'merge', author })).rejects.toMatchObject({ code: 'PATH_REFUSED', paths: ['model/ok.yml'] });
    expect(await repo.requireHead('main')).toBe(main.commit);
    // A branch made by plain git on top of main adds a twin: the fast-forward is refused too.
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@x' };
    const git = (args: string[], input?: string) => execFileSync('git', ['--git-dir', repo.gitdir, ...args], { encoding: 'utf8', input, env }).trim();
    const blob = git(['hash-object', '-w', '--stdin'], 'feature');
    const model = git(['mktree'], `${git(['ls-tree', `${main.commit}:model`])}\n100644 blob ${blob}\tOk.yml\n`);
    const rootEntries = git(['ls-tree', main.commit]).split('\n').filter((e) => !e.endsWith('\tmodel'));
    const root = git(['mktree'], `${[...rootEntries, `040000 tree ${model}\tmodel`].join('\n')}\n`);
    git(['update-ref', 'refs/heads/feature', git(['commit-tree', root, '-p', main.commit, '-m', 'twin by plain git'])]);
    await expect(repo.merge('feature', 'main', { message: 'merge', author })).rejects.toMatchObject({ code: 'PATH_REFUSED', paths: ['model/Ok.yml'] });
    expect(await repo.requireHead('main')).toBe(main.commit);
  });

  it('previews a merge without moving the target', async () => {
    await repo.createBranch('dev', 'main');
    await repo.commitChanges('dev', [{ path: 'model/a.yml', content: 'a' }], { message: 'a', author });
    await repo.commitChanges('main', [{ path: 'model/b.yml', content: 'b' }], { message: 'b', author });
    const head = await repo.requireHead('main');
    const preview = await repo.merge('dev', 'main', { message: 'm', author, dryRun: true });
    expect(preview).toMatchObject({ outcome: 'merged', commit: null });
    expect(preview.changes.map((c) => [c.path, c.status])).toEqual([['model/a.yml', 'added']]);
    expect(await repo.requireHead('main')).toBe(head);
  });

  it('diffs two commits by path with blob ids before and after', async () => {
    const first = await repo.requireHead('main');
    const second = await repo.commitChanges('main', [{ path: 'model/views/sales.yml', content: 'views: [x]\n' }], { message: 'x', author });
    const [change] = await repo.diff(first, second.commit);
    expect(change).toMatchObject({ path: 'model/views/sales.yml', status: 'modified' });
    expect(text(await repo.readBlob(change.beforeOid!))).toBe('views: []\n');
    expect(text(await repo.readBlob(change.afterOid!))).toBe('views: [x]\n');
    expect((await repo.diff(null, first)).every((c) => c.status === 'added')).toBe(true);
  });

  it('reports the SHA-256 and size of a blob', async () => {
    const { tree } = await repo.branchTree('main');
    const info = await repo.blobInfo(tree.get('model/views/sales.yml')!.oid);
    expect(info).toEqual({ size: 10, sha256: createHash('sha256').update('views: []\n').digest('hex') });
  });

  it('accepts git-valid branch names only', () => {
    for (const ok of ['main', 'dev-12', 'feature/new_cube', 'release.1']) expect(isValidBranchName(ok)).toBe(true);
    for (const bad of ['', '-x', 'a..b', 'a//b', 'a/', 'a.lock', 'x/.hidden', 'a b', 'a~1', 'HEAD', 'a.', '../etc']) {
      expect(isValidBranchName(bad)).toBe(false);
    }
  });

  it('refuses to create a branch with an invalid name', async () => {
    await expect(repo.createBranch('a..b', 'main')).rejects.toBeInstanceOf(RepoError);
  });
});

describe('sample project', () => {
  it('loads the model/** files of a sample project folder with repository paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'drydock-sample-'));
    try {
      mkdirSync(join(dir, 'model', 'cubes'), { recursive: true });
      writeFileSync(join(dir, 'model', 'cubes', 'a.yml'), 'cubes: []\n');
      writeFileSync(join(dir, 'README.md'), 'not a model file');
      const files = readSampleModelFiles(dir);
      expect(files.map((f) => f.path)).toEqual(['model/cubes/a.yml']);
      expect(readSampleModelFiles(join(dir, 'missing'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
