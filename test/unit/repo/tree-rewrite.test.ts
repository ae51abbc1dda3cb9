// A commit's tree is written from its first parent's, folder by folder along the changed paths
// (tree-rewrite.ts): whatever a commit, merge or pull changes, the tree must be the one git makes of
// the same files, and no more than the folders on the way are written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GitRepository } from '../../../src-main/platform/repo';
import { gitFsck, gitText, gitWithIndex } from '../../support/git-cli';

const author = { name: 'A', email: 'a@example.com' };
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'drydock-tree-rewrite-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

/** The tree git writes for the files of `commit` (read into an index of its own, written back). */
function gitsTreeOf(gitdir: string, commit: string): string {
  const index = join(root, `index-${Math.random().toString(36).slice(2)}`);
  gitWithIndex(gitdir, index, 'read-tree', commit);
  const tree = gitWithIndex(gitdir, index, 'write-tree');
  rmSync(index, { force: true });
  return tree;
}

const wholeTreeWrites = () => vi.spyOn(GitRepository.prototype as unknown as { writeFlatTree: () => Promise<string> }, 'writeFlatTree');

/** Paths in a few folders, nested and beside each other, so changes add, empty and share folders. */
const path = fc.constantFrom('a.yml', 'b.yml', 'm/c.yml', 'm/d.yml', 'm/x/e.yml', 'm/x/y/f.yml', 'n/g.yml', 'n/é.yml', 'm-z.yml', 'm.yml');
const write = fc.record({ path, content: fc.option(fc.constantFrom('one\n', 'two\n', 'three\n'), { nil: null }) });

describe('a commit’s tree written from its parent’s', () => {
  it('is the tree git makes of the same files, for any adds, edits and deletions, new and emptied folders', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(write, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }), async (commits) => {
        const repo = GitRepository.at(join(root, `p${round++}`));
        await repo.initialize({ branch: 'main', files: [{ path: 'm/c.yml', content: 'c\n' }, { path: 'keep.yml', content: 'k\n' }], author, message: 'init' });
        const spy = wholeTreeWrites();
        for (const writes of commits) {
          // One write a path: a commit takes each path once.
          const unique = [...new Map(writes.map((w) => [w.path, w])).values()];
          const { commit, changed } = await repo.commitChanges('main', unique, { message: 'c', author });
          if (changed) expect(gitText(repo.gitdir, 'rev-parse', `${commit}^{tree}`)).toBe(gitsTreeOf(repo.gitdir, commit));
        }
        expect(spy).not.toHaveBeenCalled();
        spy.mockRestore();
        expect(gitFsck(repo.gitdir).status).toBe(0);
      }),
      { numRuns: 12 },
    );
  });

  it('writes a merge commit’s tree from the target’s, its files those of both sides, a mode the other side changed included', async () => {
    const repo = GitRepository.at(join(root, 'merge'));
    await repo.initialize({ branch: 'main', files: [{ path: 'model/cubes/a.yml', content: 'a\n' }, { path: 'model/run.sh', content: 'echo\n' }, { path: 'old/x.yml', content: 'x\n' }], author, message: 'init' });
    await repo.createBranch('dev', 'main');
    await repo.commitChanges('dev', [{ path: 'model/cubes/b.yml', content: 'b\n' }, { path: 'old/x.yml', content: null }], { message: 'dev', author });
    // The other side makes a script executable, as `git update-index --chmod=+x` does.
    const run = (...args: string[]) => gitWithIndex(repo.gitdir, join(root, 'index'), ...args);
    run('read-tree', 'dev');
    run('update-index', '--cacheinfo', `100755,${run('rev-parse', 'dev:model/run.sh')},model/run.sh`);
    const devHead = (await repo.head('dev'))!;
    run('update-ref', 'refs/heads/dev', run('commit-tree', run('write-tree'), '-p', devHead, '-m', 'chmod'));
    await repo.commitChanges('main', [{ path: 'model/views/v.yml', content: 'v\n' }], { message: 'main', author });
    const spy = wholeTreeWrites();
    const merged = await repo.merge('dev', 'main', { message: 'merge', author });
    expect(spy).not.toHaveBeenCalled();
    expect(merged.outcome).toBe('merged');
    expect(gitText(repo.gitdir, 'rev-parse', `${merged.commit}^{tree}`)).toBe(gitsTreeOf(repo.gitdir, merged.commit!));
    expect(gitText(repo.gitdir, 'ls-tree', '-r', merged.commit!).split('\n').map((line) => line.replace(/ [0-9a-f]{40}/, ''))).toEqual([
      '100644 blob\tmodel/cubes/a.yml',
      '100644 blob\tmodel/cubes/b.yml',
      '100755 blob\tmodel/run.sh',
      '100644 blob\tmodel/views/v.yml',
    ]);
    expect(gitFsck(repo.gitdir).status).toBe(0);
  });

  it('leaves a file and a folder of one name to the whole-tree writer, which refuses them', async () => {
    const repo = GitRepository.at(join(root, 'clash'));
    await repo.initialize({ branch: 'main', files: [{ path: 'm/c.yml', content: 'c\n' }], author, message: 'init' });
    const spy = wholeTreeWrites();
    await expect(repo.commitChanges('main', [{ path: 'm', content: 'file\n' }], { message: 'clash', author })).rejects.toMatchObject({ code: 'PATH_CONFLICT' });
    expect(spy).toHaveBeenCalled();
    // A folder replaced by a file of its name in one commit is no clash.
    const { commit } = await repo.commitChanges('main', [{ path: 'm', content: 'file\n' }, { path: 'm/c.yml', content: null }], { message: 'swap', author });
    expect(gitText(repo.gitdir, 'ls-tree', '-r', '--name-only', commit)).toBe('m');
    expect(gitText(repo.gitdir, 'rev-parse', `${commit}^{tree}`)).toBe(gitsTreeOf(repo.gitdir, commit));
  });
});
