// Objects in pack files (what a fetch leaves) are read natively: every object git packed, whole
// or as a delta on another, reads back byte for byte as `git cat-file` shows it, and a damaged
// pack reads as nothing (the repository's reader then says what is wrong).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import isoGit from 'isomorphic-git';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GitRepository, RepositoryDamagedError } from '../../../src-main/platform/repo';
import { gitFs } from '../../../src-main/platform/repo/durable-fs';
import { applyDelta, readObjectSync, readPackedObjectSync } from '../../../src-main/platform/repo/packed-object';
import { gitBytes as git } from '../../support/git-cli';

const author = { name: 'Ada Lovelace', email: 'ada@example.com' };

let root: string;
let repo: GitRepository;

/** A cube file whose lines mostly repeat from version to version, so git stores versions as deltas. */
const cube = (n: number, version: number) =>
  [`cubes:`, `  - name: cube_${n}`, `    sql_table: public.t_${n}`, ...Array.from({ length: 40 }, (_, i) => `    # line ${i} of cube ${n}${i === version % 40 ? ` edited in version ${version}` : ''}`), ''].join('\n');

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'drydock-packed-'));
  repo = GitRepository.at(join(root, 'repo'));
  await repo.initialize({ branch: 'main', files: [{ path: 'model/cube_0.yml', content: cube(0, 0) }], author, message: 'init' });
  for (let version = 1; version <= 6; version++) {
    const files = Array.from({ length: 8 }, (_, n) => ({ path: `model/cube_${n}.yml`, content: cube(n, version) }));
    await repo.commitChanges('main', files, { message: `version ${version}`, author });
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Every object of the repository with its type, as git lists them. */
function allObjects(gitdir: string): { oid: string; type: 'commit' | 'tree' | 'blob' }[] {
  return git(gitdir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)')
    .toString()
    .trim()
    .split('\n')
    .map((line) => {
      const [oid, type] = line.split(' ');
      return { oid: oid!, type: type as 'commit' | 'tree' | 'blob' };
    });
}

/** Packs every object, removes the loose copies, and says how many packed entries are deltas. */
function packAll(gitdir: string, ...options: string[]): number {
  git(gitdir, 'repack', '-a', '-d', '-q', '--window=50', '--depth=50', ...options);
  git(gitdir, 'prune-packed');
  const idx = readdirSync(join(gitdir, 'objects', 'pack')).find((name) => name.endsWith('.idx'))!;
  const verified = git(gitdir, 'verify-pack', '-v', join(gitdir, 'objects', 'pack', idx)).toString();
  return verified.split('\n').filter((line) => /^[0-9a-f]{40} (blob|tree|commit)\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/.test(line)).length;
}

describe('reading packed objects natively', () => {
  it('reads every object of a packed repository, deltas on earlier offsets included, as git shows it', () => {
    const deltas = packAll(repo.gitdir);
    expect(deltas).toBeGreaterThan(10);
    const objects = allObjects(repo.gitdir);
    expect(objects.length).toBeGreaterThan(40);
    for (const { oid, type } of objects) {
      const read = readPackedObjectSync(repo.gitdir, oid, type);
      expect(read, `${type} ${oid}`).not.toBeNull();
      expect(read!.equals(git(repo.gitdir, 'cat-file', type, oid)), `${type} ${oid}`).toBe(true);
    }
  });

  it('reads deltas that name their base by id (a pack written without offsets to bases)', () => {
    const gitdir = repo.gitdir;
    const objects = allObjects(gitdir);
    const pack = join(root, 'by-id');
    const base = execFileSync('git', ['--git-dir', gitdir, 'pack-objects', '--no-reuse-delta', '--window=50', '--depth=50', pack], {
      input: objects.map((o) => o.oid).join('\n'),
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    })
      .toString()
      .trim();
    for (const ext of ['pack', 'idx']) writeFileSync(join(gitdir, 'objects', 'pack', `pack-${base}.${ext}`), readFileSync(`${pack}-${base}.${ext}`));
    git(gitdir, 'prune-packed');
    const verified = git(gitdir, 'verify-pack', '-v', join(gitdir, 'objects', 'pack', `pack-${base}.idx`)).toString();
    expect(verified).toMatch(/ [0-9a-f]{40}\n/); // some entries are deltas
    for (const { oid, type } of objects) expect(readObjectSync(gitdir, oid, type)?.equals(git(gitdir, 'cat-file', type, oid)), oid).toBe(true);
  });

  it('reads nothing for an object of another type, an unknown id, or bytes that do not match the id', () => {
    packAll(repo.gitdir);
    const blob = git(repo.gitdir, 'rev-parse', 'main:model/cube_3.yml').toString().trim();
    expect(readPackedObjectSync(repo.gitdir, blob, 'tree')).toBeNull();
    expect(readPackedObjectSync(repo.gitdir, '0123456789abcdef0123456789abcdef01234567', 'blob')).toBeNull();
    const packFile = readdirSync(join(repo.gitdir, 'objects', 'pack')).find((name) => name.endsWith('.pack'))!;
    const path = join(repo.gitdir, 'objects', 'pack', packFile);
    const bytes = readFileSync(path);
    // Damage the middle of the pack: whatever reads through there no longer matches its id.
    for (let i = Math.floor(bytes.length / 2); i < Math.floor(bytes.length / 2) + 64; i++) bytes[i] = bytes[i]! ^ 0xff;
    writeFileSync(path, bytes);
    const damaged = allObjects(repo.gitdir).filter(({ oid, type }) => {
      try {
        git(repo.gitdir, 'cat-file', type, oid);
        return false;
      } catch {
        return true;
      }
    });
    expect(damaged.length).toBeGreaterThan(0);
    for (const { oid, type } of damaged) expect(readPackedObjectSync(repo.gitdir, oid, type), oid).toBeNull();
  });

  it('reads nothing, and does not throw, once a pack it read before is gone', () => {
    packAll(repo.gitdir);
    const [object] = allObjects(repo.gitdir);
    // The pack is closed a while after its last read (a timer): fake time makes that while pass.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      expect(readPackedObjectSync(repo.gitdir, object!.oid, object!.type)).not.toBeNull();
      for (const name of readdirSync(join(repo.gitdir, 'objects', 'pack'))) rmSync(join(repo.gitdir, 'objects', 'pack', name));
      vi.advanceTimersByTime(60_000);
      let read: Buffer | null = Buffer.alloc(0);
      expect(() => (read = readPackedObjectSync(repo.gitdir, object!.oid, object!.type))).not.toThrow();
      expect(read).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('finds objects of a pack added after the first read (a fetch since)', async () => {
    packAll(repo.gitdir);
    const first = allObjects(repo.gitdir)[0]!;
    expect(readPackedObjectSync(repo.gitdir, first.oid, first.type)).not.toBeNull();
    const later = await repo.commitChanges('main', [{ path: 'model/late.yml', content: cube(99, 1) }], { message: 'late', author });
    git(repo.gitdir, 'repack', '-d', '-q'); // a second pack with the new objects only
    git(repo.gitdir, 'prune-packed');
    const blob = later.changes[0]!.afterOid!;
    expect(readPackedObjectSync(repo.gitdir, blob, 'blob')?.toString()).toBe(cube(99, 1));
  });

  it('serves the repository: a packed branch reads its folders and files without isomorphic-git, and a damaged one is reported as damaged', async () => {
    const before = await repo.branchTree('main');
    packAll(repo.gitdir);
    const slowReads = [vi.spyOn(isoGit, 'readBlob'), vi.spyOn(isoGit, 'readObject'), vi.spyOn(isoGit, 'readCommit')];
    const after = await GitRepository.at(repo.gitdir).branchTree('main');
    expect([...after.tree.keys()]).toEqual([...before.tree.keys()]);
    const oid = after.tree.get('model/cube_5.yml')!.oid;
    expect(Buffer.from(await repo.readBlob(oid)).toString()).toBe(cube(5, 6));
    for (const spy of slowReads) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
    const packFile = readdirSync(join(repo.gitdir, 'objects', 'pack')).find((name) => name.endsWith('.pack'))!;
    writeFileSync(join(repo.gitdir, 'objects', 'pack', packFile), Buffer.alloc(64));
    await expect(GitRepository.at(repo.gitdir).readBlob(oid)).rejects.toBeInstanceOf(RepositoryDamagedError);
  });
});

describe('history in a pack', () => {
  it('walks a packed history reading the pack once per operation, each commit as git shows it', async () => {
    const expected = (await repo.log('main')).map((commit) => ({ ...commit }));
    packAll(repo.gitdir);
    const packReads = vi.spyOn(gitFs, 'readFile');
    try {
      const walker = GitRepository.at(repo.gitdir);
      const walked = [];
      for (let oid: string | undefined = expected[0]!.oid; oid; ) {
        const commit = await walker.readCommit(oid);
        walked.push(commit);
        oid = commit.parents[0];
      }
      expect(walked).toEqual(expected);
      expect(packReads.mock.calls.filter(([file]) => String(file).endsWith('.pack'))).toHaveLength(1);
    } finally {
      packReads.mockRestore();
    }
  });
});

describe('applying a delta', () => {
  it('copies from the base and inserts new bytes as git’s instructions say, and refuses a delta for another base', () => {
    const base = Buffer.from('0123456789abcdef');
    // source size 16, target size 9: copy 4 bytes at offset 10 ("abcd"), insert "XY", copy 3 at 0 ("012")
    const delta = Buffer.from([16, 9, 0x80 | 0x01 | 0x10, 10, 4, 2, 0x58, 0x59, 0x80 | 0x10, 3]);
    expect(applyDelta(base, delta)?.toString()).toBe('abcdXY012');
    expect(applyDelta(Buffer.from('short'), delta)).toBeNull();
    expect(applyDelta(base, Buffer.from([16, 9, 0x80 | 0x01 | 0x10, 14, 4]))).toBeNull(); // past the base's end
  });
});
