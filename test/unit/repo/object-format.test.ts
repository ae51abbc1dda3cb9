// Tree and commit objects are written by Drydock's own writer (object-format.ts, loose-object.ts):
// their bytes must be what git itself makes of the same entries, and what isomorphic-git (which
// wrote them before, and still reads them) makes of the same commit.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GitRepository } from '../../../src-main/platform/repo';
import { gitFs } from '../../../src-main/platform/repo/durable-fs';
import { readObjectSync } from '../../../src-main/platform/repo/packed-object';
import { writeLooseObject } from '../../../src-main/platform/repo/loose-object';
import { commitObjectOf, treeObjectOf, type EntryToWrite } from '../../../src-main/platform/repo/object-format';
import { parseTreeObject } from '../../../src-main/platform/repo/tree-object';
import { gitBytes, gitText } from '../../support/git-cli';

let root: string;
let gitdir: string;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'drydock-object-format-'));
  gitdir = join(root, 'repo');
  await GitRepository.at(gitdir).initialize({ branch: 'main', files: [{ path: 'a.txt', content: 'a\n' }], author: { name: 'A', email: 'a@example.com' }, message: 'init' });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const blob = (text: string) => execFileSync('git', ['--git-dir', gitdir, 'hash-object', '-w', '--stdin'], { input: text, encoding: 'utf8' }).trim();
const idOf = (type: string, content: Buffer) => createHash('sha1').update(`${type} ${content.byteLength}\0`).update(content).digest('hex');

describe('tree objects', () => {
  const file = () => blob('x\n');
  const folder = () => gitText(gitdir, 'rev-parse', 'main^{tree}');
  const mktree = (entries: EntryToWrite[]) => {
    const listing = entries.map((e) => `${e.mode.replace(/^0/, '').padStart(6, '0')} ${/^0?4/.test(e.mode) ? 'tree' : e.mode === '160000' ? 'commit' : 'blob'} ${e.oid}\t${e.name}`).join('\n');
    return execFileSync('git', ['--git-dir', gitdir, 'mktree'], { input: `${listing}\n`, encoding: 'utf8' }).trim();
  };

  it('are the bytes git mktree writes for the same entries, in git’s order (a folder sorts as if its name ended in /)', async () => {
    const entries: EntryToWrite[] = [
      { mode: '100644', name: 'a.b', oid: file() },
      { mode: '040000', name: 'a', oid: folder() },
      { mode: '100644', name: 'a-b', oid: file() },
      { mode: '100644', name: 'a0', oid: file() },
      { mode: '100755', name: 'run.sh', oid: file() },
      { mode: '120000', name: 'link', oid: file() },
      { mode: '40000', name: 'b', oid: folder() },
      { mode: '100644', name: 'B', oid: file() },
    ];
    const made = mktree(entries);
    const content = treeObjectOf(entries);
    expect(idOf('tree', content)).toBe(made);
    expect(content.equals(gitBytes(gitdir, 'cat-file', 'tree', made))).toBe(true);
    // Written by the native writer, git finds the object whole.
    expect(await writeLooseObject(gitdir, 'tree', content)).toBe(made);
    gitBytes(gitdir, 'fsck', '--strict');
  });

  it('order names beyond ASCII by their UTF-8 bytes, as git does (not by UTF-16 units)', () => {
    const entries: EntryToWrite[] = ['é.yml', '😀.yml', '\uFFFD.yml', 'z.yml', 'ab'].map((name) => ({ mode: '100644', name, oid: file() }));
    entries.push({ mode: '040000', name: 'é', oid: folder() });
    expect(idOf('tree', treeObjectOf(entries))).toBe(mktree(entries));
  });

  it('read back entry by entry as git lists them: modes, kinds, ids and names beyond ASCII', () => {
    const entries: EntryToWrite[] = [
      { mode: '100644', name: 'orders.yml', oid: file() },
      { mode: '100755', name: 'run.sh', oid: file() },
      { mode: '120000', name: 'link', oid: file() },
      { mode: '160000', name: 'vendored', oid: gitText(gitdir, 'rev-parse', 'main') },
      { mode: '040000', name: 'model', oid: folder() },
      { mode: '100644', name: 'é.yml', oid: file() },
      { mode: '100644', name: '😀 ünïcode.yml', oid: file() },
      { mode: '100644', name: 'git~1', oid: file() },
    ];
    const made = mktree(entries);
    const listed = gitBytes(gitdir, 'ls-tree', '-z', made).toString('utf8').split('\0').filter(Boolean).map((line) => {
      const [meta, name] = line.split('\t');
      const [mode, type, oid] = meta!.split(' ');
      return { mode: mode!, path: name!, oid: oid!, type };
    });
    expect(parseTreeObject(gitBytes(gitdir, 'cat-file', 'tree', made))).toEqual(listed);
  });

  it('refuse an id that is not 40 hexadecimal digits', () => {
    expect(() => treeObjectOf([{ mode: '100644', name: 'f', oid: 'g'.repeat(40) }])).toThrow(/object id/);
    expect(() => treeObjectOf([{ mode: '100644', name: 'f', oid: 'a'.repeat(39) }])).toThrow(/object id/);
  });

  it('read other modes as isomorphic-git did (100664 is a plain file), and refuse one it could not understand', () => {
    const oid = '0'.repeat(40);
    expect(treeObjectOf([{ mode: '100664', name: 'f', oid }]).equals(treeObjectOf([{ mode: '100644', name: 'f', oid }]))).toBe(true);
    expect(() => treeObjectOf([{ mode: '777', name: 'f', oid }])).toThrow(/file mode/);
  });

  it('of no entries is git’s empty tree', () => {
    expect(idOf('tree', treeObjectOf([]))).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  });
});

describe('commit objects', () => {
  it('are the bytes isomorphic-git wrote for the same commit, carriage returns and blank lines around the message dropped', async () => {
    const tree = gitText(gitdir, 'rev-parse', 'main^{tree}');
    const parent = gitText(gitdir, 'rev-parse', 'main');
    const person = { name: 'Ada Lovelace', email: 'ada@example.com', timestamp: 1_700_000_000 };
    for (const message of ['Edit orders\n', 'no line break', '\n\nTitle\r\n\r\nBody line\r\n\n\n']) {
      const commit = { tree, parents: [parent], author: person, committer: { ...person, name: 'Bo' }, message };
      const theirs = await git.writeCommit({
        fs: gitFs,
        gitdir,
        commit: { tree, parent: [parent], message, author: { ...person, timezoneOffset: 0 }, committer: { ...person, name: 'Bo', timezoneOffset: 0 } },
      });
      const content = commitObjectOf(commit);
      expect(idOf('commit', content)).toBe(theirs);
      expect(readObjectSync(gitdir, theirs, 'commit')!.equals(content)).toBe(true);
    }
    gitBytes(gitdir, 'fsck', '--strict');
  });

  it('written by a commit on a branch, read by git with their tree, parent, author and message', async () => {
    const repo = GitRepository.at(gitdir);
    const before = gitText(gitdir, 'rev-parse', 'main');
    const { commit } = await repo.commitChanges('main', [{ path: 'model/cubes/orders.yml', content: 'cubes: []\n' }], { message: 'Add orders', author: { name: 'Ada', email: 'ada@example.com' } });
    expect(gitText(gitdir, 'log', '-1', '--format=%P|%an <%ae>|%cn|%s', commit)).toBe(`${before}|Ada <ada@example.com>|Ada|Add orders`);
    expect(gitText(gitdir, 'show', `${commit}:model/cubes/orders.yml`)).toBe('cubes: []');
    expect(gitText(gitdir, 'ls-tree', '-r', '--name-only', commit).split('\n')).toEqual(['a.txt', 'model/cubes/orders.yml']);
    gitBytes(gitdir, 'fsck', '--strict');
  });
});

describe('a commit that only changes files', () => {
  const files: Record<string, string> = {
    'a.txt': 'a\n',
    'x.yml': 'x\n',
    'x/inner.yml': 'inner\n',
    'model/cubes.yml': 'cubes file\n',
    'model/cubes/a.yml': 'one\n',
    'model/cubes/a.yml.bak': 'backup\n',
    'model/cubes/é.yml': 'accent\n',
    'model/views/deep/v.yml': 'deep\n',
  };

  it('rewrites the folders on the way to each file in place: the same tree as writing every folder again, and as git reads it', async () => {
    const repo = GitRepository.at(join(root, 'edits'));
    await repo.initialize({ branch: 'main', files: Object.entries(files).map(([path, content]) => ({ path, content })), author: { name: 'A', email: 'a@example.com' }, message: 'init' });
    const changed = { 'a.txt': 'A\n', 'x/inner.yml': 'INNER\n', 'model/cubes.yml': 'CUBES\n', 'model/cubes/a.yml': 'ONE\n', 'model/cubes/é.yml': 'ACCENT\n', 'model/views/deep/v.yml': 'DEEP\n' };
    const wholeTree = vi.spyOn(GitRepository.prototype as unknown as { writeFlatTree: () => Promise<string> }, 'writeFlatTree');
    const { commit, changes } = await repo.commitChanges('main', Object.entries(changed).map(([path, content]) => ({ path, content })), { message: 'edit', author: { name: 'A', email: 'a@example.com' } });
    // The folders were changed in place, not written again from the list of every file.
    expect(wholeTree).not.toHaveBeenCalled();
    wholeTree.mockRestore();
    expect(changes.map((c) => [c.path, c.status])).toEqual(Object.keys(changed).sort().map((path) => [path, 'modified']));
    const tree = gitText(repo.gitdir, 'rev-parse', `${commit}^{tree}`);
    const expected = await repo.writeCommit(await repo.treeOf(commit), [], 'same files', { name: 'A', email: 'a@example.com' });
    expect(gitText(repo.gitdir, 'rev-parse', `${expected}^{tree}`)).toBe(tree);
    for (const [path, content] of Object.entries({ ...files, ...changed })) expect(gitBytes(repo.gitdir, 'show', `${commit}:${path}`).toString('utf8')).toBe(content);
    gitBytes(repo.gitdir, 'fsck', '--strict');
  });

  it('adding or removing a file gives the tree git lists with the file added and the other gone', async () => {
    const repo = GitRepository.at(join(root, 'adds'));
    await repo.initialize({ branch: 'main', files: Object.entries(files).map(([path, content]) => ({ path, content })), author: { name: 'A', email: 'a@example.com' }, message: 'init' });
    const { commit } = await repo.commitChanges('main', [{ path: 'model/cubes/b.yml', content: 'two\n' }, { path: 'x.yml', content: null }, { path: 'a.txt', content: 'A\n' }], { message: 'add', author: { name: 'A', email: 'a@example.com' } });
    expect(gitText(repo.gitdir, 'ls-tree', '-r', '--name-only', commit).split('\n')).toEqual(['a.txt', 'model/cubes.yml', 'model/cubes/a.yml', 'model/cubes/a.yml.bak', 'model/cubes/b.yml', 'model/cubes/é.yml', 'model/views/deep/v.yml', 'x/inner.yml'].map((p) => (p.includes('é') ? `"model/cubes/\\303\\251.yml"` : p)));
    gitBytes(repo.gitdir, 'fsck', '--strict');
  });
});
