// Objects are written by Drydock's own writer (hash in slices, deflate on the thread pool); they
// must be exactly what git and isomorphic-git expect.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitRepository } from '../../../src-main/platform/repo';
import { deflateSync, inflateSync } from 'node:zlib';
import { readLooseObjectSync, writeLooseBlob, writeLooseBlobSync } from '../../../src-main/platform/repo/loose-object';
import { gitBytes as git } from '../../support/git-cli';

const author = { name: 'Ada Lovelace', email: 'ada@example.com' };

let root: string;
let repo: GitRepository;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'drydock-loose-'));
  repo = GitRepository.at(join(root, 'repo'));
  await repo.initialize({ branch: 'main', files: [{ path: 'a.txt', content: 'a\n' }], author, message: 'init' });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The writer hashes a blob in slices of 1 MiB, with turns of the event loop in between. */
const MIB = 1024 * 1024;
const bigContent = (n: number, seed: string) => Buffer.from(`${seed} line of text, repeated to make a big file\n`.repeat(Math.ceil(n / 40)).slice(0, n));

describe('blobs', () => {
  it('commits a file of several hash slices that git reads back byte for byte, with the id git gives it', async () => {
    const content = bigContent(MIB * 1.5 + 13, 'x');
    const result = await repo.commitChanges('main', [{ path: 'docs/big.md', content }], { message: 'big', author });
    const change = result.changes.find((c) => c.path === 'docs/big.md')!;
    expect(change.afterOid).toBe(await GitRepository.blobIdOf(content));
    expect(git(repo.gitdir, 'cat-file', 'blob', `main:docs/big.md`).equals(content)).toBe(true);
    expect(Buffer.from(await repo.readBlob(change.afterOid!)).equals(content)).toBe(true);
    git(repo.gitdir, 'fsck', '--strict');
  });

  it('writes the same object from a worker thread (sync) and leaves no temporary file', async () => {
    const content = bigContent(MIB / 4 + 1, 'y');
    const a = writeLooseBlobSync(repo.gitdir, content);
    const b = await writeLooseBlob(repo.gitdir, content);
    expect(a).toBe(b);
    expect(a).toBe(execFileSync('git', ['hash-object', '--stdin'], { input: content, encoding: 'utf8' }).trim());
    expect(readdirSync(join(repo.gitdir, 'objects', a.slice(0, 2)))).toEqual([a.slice(2)]);
  });

  it('commits an already written blob by its id (a worker wrote it)', async () => {
    const content = bigContent(MIB / 2, 'z');
    const blob = writeLooseBlobSync(repo.gitdir, content);
    const result = await repo.commitChanges('main', [{ path: 'docs/z.md', blob }], { message: 'z', author });
    expect(result.changes).toEqual([{ path: 'docs/z.md', status: 'added', beforeOid: null, afterOid: blob }]);
    expect(git(repo.gitdir, 'cat-file', 'blob', 'main:docs/z.md').equals(content)).toBe(true);
  });
});

describe('reading loose objects natively', () => {
  const objectFile = (oid: string) => join(repo.gitdir, 'objects', oid.slice(0, 2), oid.slice(2));

  it('reads a blob and a folder (tree) as git wrote them', () => {
    const blob = git(repo.gitdir, 'rev-parse', 'main:a.txt').toString().trim();
    expect(Buffer.from(readLooseObjectSync(repo.gitdir, blob, 'blob')!).toString()).toBe('a\n');
    const tree = git(repo.gitdir, 'rev-parse', 'main^{tree}').toString().trim();
    expect(Buffer.from(readLooseObjectSync(repo.gitdir, tree, 'tree')!).equals(git(repo.gitdir, 'cat-file', 'tree', tree))).toBe(true);
  });

  it('leaves to the repository’s reader an object of another type, a packed or missing one, and one whose bytes do not match its id', () => {
    const blob = git(repo.gitdir, 'rev-parse', 'main:a.txt').toString().trim();
    expect(readLooseObjectSync(repo.gitdir, blob, 'tree')).toBeNull();
    expect(readLooseObjectSync(repo.gitdir, '0'.repeat(40), 'blob')).toBeNull();
    const file = objectFile(blob);
    chmodSync(file, 0o644);
    writeFileSync(file, deflateSync(Buffer.from(inflateSync(readFileSync(file)).toString('latin1').replace('a', 'b'), 'latin1')));
    expect(readLooseObjectSync(repo.gitdir, blob, 'blob')).toBeNull();
    writeFileSync(file, Buffer.alloc(0));
    expect(readLooseObjectSync(repo.gitdir, blob, 'blob')).toBeNull();
  });

  it('leaves to the repository’s reader an object whose header names another size, no size or no known type', () => {
    const blob = git(repo.gitdir, 'rev-parse', 'main:a.txt').toString().trim();
    const file = objectFile(blob);
    chmodSync(file, 0o644);
    for (const header of ['blob 3', 'blob ', 'blob 0x2', 'blobs 2', 'blob  2']) {
      writeFileSync(file, deflateSync(Buffer.from(`${header}\0a\n`, 'latin1')));
      expect(readLooseObjectSync(repo.gitdir, blob, 'blob'), header).toBeNull();
    }
  });

  it('reads an object file larger than the thread’s read buffer whole, as git wrote it', () => {
    // Random bytes deflate to about their own size: several times the 256 KiB read buffer.
    const content = Buffer.concat([randomBytes(700 * 1024), Buffer.from('end\n')]);
    writeFileSync(join(root, 'big.bin'), content);
    const oid = git(repo.gitdir, 'hash-object', '-w', join(root, 'big.bin')).toString().trim();
    expect(readFileSync(objectFile(oid)).byteLength).toBeGreaterThan(600 * 1024);
    expect(Buffer.from(readLooseObjectSync(repo.gitdir, oid, 'blob')!).equals(content)).toBe(true);
    expect(Buffer.from(readLooseObjectSync(repo.gitdir, git(repo.gitdir, 'rev-parse', 'main:a.txt').toString().trim(), 'blob')!).toString()).toBe('a\n');
  });
});
