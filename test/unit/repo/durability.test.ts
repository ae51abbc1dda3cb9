// Damaged objects (issue 23): a 0-byte or cut-off loose object — what a kill -9 during a write left
// before writes became atomic — is never taken for the object. The next write of the same content
// replaces it, a read says REPOSITORY_DAMAGED instead of failing in zlib, and the start check
// repairs what it can (and reports the rest) so that plain `git fsck --full` passes again.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitRepository, RepositoryDamagedError } from '../../../src-main/platform/repo';
import { holdRefWrites } from '../../../src-main/platform/repo/durable-fs';
import { checkRepository } from '../../../src-main/platform/repo/repo-check';
import { gitFsck as fsck, gitText as git } from '../../support/git-cli';

const author = { name: 'Ada Lovelace', email: 'ada@example.com' };
const objectFile = (gitdir: string, oid: string) => join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));

let root: string;
let repo: GitRepository;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'drydock-durable-'));
  repo = GitRepository.at(join(root, 'repo'));
  await repo.initialize({ branch: 'main', files: [{ path: 'model/a.yml', content: 'a: 1\n' }], author, message: 'init' });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** An empty file where object `oid` goes, as a process killed between open and write left it. */
function leaveEmptyObject(oid: string): void {
  mkdirSync(join(repo.gitdir, 'objects', oid.slice(0, 2)), { recursive: true });
  writeFileSync(objectFile(repo.gitdir, oid), '');
}

describe('an empty or cut-off object file is not the object', () => {
  it('a repository deleted with objects not yet flushed does not fail the next commit of another', async () => {
    const other = GitRepository.at(join(root, 'other'));
    await other.initialize({ branch: 'main', files: [{ path: 'x.yml', content: 'x\n' }], author, message: 'init' });
    // Written, not yet made durable (that comes before the next ref moves)...
    await other.writeBlob('waiting for a flush\n');
    // ...when the repository goes, as a deleted deployment's does.
    rmSync(other.gitdir, { recursive: true, force: true });
    const { changed } = await repo.commitChanges('main', [{ path: 'model/b.yml', content: 'b: 1\n' }], { message: 'b', author });
    expect(changed).toBe(true);
    expect(git(repo.gitdir, 'cat-file', 'blob', 'main:model/b.yml')).toBe('b: 1');
  });

  it('the next write of the same content replaces an empty object file, and git fsck passes', async () => {
    const content = 'cubes:\n  - name: orders\n';
    const oid = await GitRepository.blobIdOf(content);
    leaveEmptyObject(oid);
    expect(fsck(repo.gitdir).status).not.toBe(0);
    await repo.commitChanges('main', [{ path: 'model/orders.yml', content }], { message: 'orders', author });
    expect(statSync(objectFile(repo.gitdir, oid)).size).toBeGreaterThan(0);
    expect(git(repo.gitdir, 'cat-file', 'blob', 'main:model/orders.yml')).toBe(content.trim());
    expect(new TextDecoder().decode(await repo.readBlob(oid))).toBe(content);
    const check = fsck(repo.gitdir);
    expect(check.status, check.stderr).toBe(0);
  });

  it('a cut-off (non-empty) object file is replaced the same way', async () => {
    const content = 'x'.repeat(5000);
    const { commit } = await repo.commitChanges('main', [{ path: 'model/x.yml', content }], { message: 'x', author });
    const oid = await GitRepository.blobIdOf(content);
    truncateSync(objectFile(repo.gitdir, oid), 7);
    await repo.commitChanges('main', [{ path: 'model/x2.yml', content }], { message: 'again', author, expectedHead: commit });
    expect(git(repo.gitdir, 'cat-file', 'blob', 'main:model/x.yml')).toBe(content);
  });

  it('reading a damaged object answers REPOSITORY_DAMAGED (409) naming it, not a zlib error', async () => {
    const content = 'views: []\n';
    await repo.commitChanges('main', [{ path: 'model/v.yml', content }], { message: 'v', author });
    const oid = await GitRepository.blobIdOf(content);
    truncateSync(objectFile(repo.gitdir, oid), 0);
    const failure = await repo.readBlob(oid).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RepositoryDamagedError);
    expect(failure).toMatchObject({ status: 409, code: 'REPOSITORY_DAMAGED', extras: { objects: [oid] } });
  });
});

describe('a fetch moves remote-tracking refs only after the objects they need are written', () => {
  it('holds ref writes and deletes back until release, reads them back meanwhile, and lets other files through', async () => {
    const head = await repo.requireHead('main');
    const held = holdRefWrites(repo.gitdir);
    const ref = join(repo.gitdir, 'refs', 'remotes', 'origin', 'main');
    await held.fs.writeFile(ref, `${head}\n`, 'utf8');
    expect(String(await held.fs.readFile(ref, 'utf8'))).toBe(`${head}\n`);
    expect(() => statSync(ref)).toThrow();
    await held.fs.writeFile(join(repo.gitdir, 'FETCH_NOTES'), 'through\n', 'utf8');
    expect(readFileSync(join(repo.gitdir, 'FETCH_NOTES'), 'utf8')).toBe('through\n');
    await held.release();
    expect(readFileSync(ref, 'utf8')).toBe(`${head}\n`);
    const again = holdRefWrites(repo.gitdir);
    await again.fs.unlink(ref);
    expect(readFileSync(ref, 'utf8')).toBe(`${head}\n`);
    await again.release();
    expect(() => statSync(ref)).toThrow();
  });
});

describe('the start check', () => {
  it('reports an empty object left in objects/, rewrites it when an uncommitted edit still holds its content, and fsck passes', async () => {
    const content = 'cubes:\n  - name: recovered\n';
    await repo.commitChanges('main', [{ path: 'model/r.yml', content }], { message: 'r', author });
    const oid = await GitRepository.blobIdOf(content);
    truncateSync(objectFile(repo.gitdir, oid), 0);
    const report = await checkRepository(repo.gitdir, { since: null, recover: (id) => (id === oid ? Buffer.from(content) : null) });
    expect(report.rewritten).toEqual([oid]);
    expect(report.removed).toEqual([]);
    expect(report.movedBack).toEqual([]);
    expect(git(repo.gitdir, 'cat-file', 'blob', 'main:model/r.yml')).toBe(content.trim());
    expect(fsck(repo.gitdir).status).toBe(0);
  });

  it('moves a branch whose head reaches an unrecoverable object back to its last whole head (reflog), drops the dangling reflog lines, and fsck passes', async () => {
    const first = await repo.requireHead('main');
    const { commit: second } = await repo.commitChanges('main', [{ path: 'model/b.yml', content: 'b: 2\n' }], { message: 'b', author });
    const { commit: third } = await repo.commitChanges('main', [{ path: 'model/c.yml', content: 'c: 3\n' }], { message: 'c', author });
    const lost = await GitRepository.blobIdOf('c: 3\n');
    truncateSync(objectFile(repo.gitdir, lost), 0);
    expect(fsck(repo.gitdir).status).not.toBe(0);

    const report = await checkRepository(repo.gitdir, { since: null });
    expect(report.removed).toEqual([lost]);
    expect(report.movedBack).toEqual([{ ref: 'refs/heads/main', from: third, to: second }]);
    expect(await repo.head('main')).toBe(second);
    expect(first).not.toBe(second);
    const check = fsck(repo.gitdir);
    expect(check.status, check.stderr + check.stdout).toBe(0);
    expect(readFileSync(join(repo.gitdir, 'logs', 'refs', 'heads', 'main'), 'utf8')).not.toContain(third);
  });

  it('a damaged commit object itself: the branch goes back through its reflog', async () => {
    const { commit: second } = await repo.commitChanges('main', [{ path: 'model/b.yml', content: 'b: 2\n' }], { message: 'b', author });
    const { commit: third } = await repo.commitChanges('main', [{ path: 'model/c.yml', content: 'c: 3\n' }], { message: 'c', author });
    writeFileSync(objectFile(repo.gitdir, third), 'not zlib');
    const report = await checkRepository(repo.gitdir, { since: null });
    expect(report.removed).toEqual([third]);
    expect(report.movedBack).toEqual([{ ref: 'refs/heads/main', from: third, to: second }]);
    expect(fsck(repo.gitdir).status).toBe(0);
  });

  it('with no whole head to go back to, the branch is reported as unrepaired (never silently reset)', async () => {
    const head = await repo.requireHead('main');
    rmSync(join(repo.gitdir, 'logs'), { recursive: true, force: true });
    const blob = await GitRepository.blobIdOf('a: 1\n');
    truncateSync(objectFile(repo.gitdir, blob), 0);
    const report = await checkRepository(repo.gitdir, { since: null });
    expect(report.unrepaired).toEqual([{ ref: 'refs/heads/main', head, missing: blob }]);
    expect(await repo.head('main')).toBe(head);
  });

  it('removes leftovers of interrupted writes: temporary object and ref files, a pack without its index', async () => {
    const head = await repo.requireHead('main');
    writeFileSync(join(repo.gitdir, 'objects', head.slice(0, 2), 'tmp_obj_0123456789abcdef'), 'half');
    writeFileSync(join(repo.gitdir, 'refs', 'heads', 'main.0123456789abcdef.lock'), `${head}\n`);
    mkdirSync(join(repo.gitdir, 'objects', 'pack'), { recursive: true });
    writeFileSync(join(repo.gitdir, 'objects', 'pack', 'pack-1111111111111111111111111111111111111111.pack'), 'PACK');
    expect(await repo.branches()).toEqual(['main']);
    const report = await checkRepository(repo.gitdir, { since: null });
    expect(report.leftovers).toBe(3);
    expect(readdirSync(join(repo.gitdir, 'refs', 'heads'))).toEqual(['main']);
    expect(readdirSync(join(repo.gitdir, 'objects', 'pack'))).toEqual([]);
  });

  it('removes git lock files a dead writer left (older than the check\'s start), so the next branch move is not refused as busy', async () => {
    const head = await repo.requireHead('main');
    writeFileSync(join(repo.gitdir, 'refs', 'heads', 'main.lock'), `${head}\n`);
    const refused = await repo.commitChanges('main', [{ path: 'model/b.yml', content: 'b\n' }], { message: 'b', author }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'REPO_BUSY' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const report = await checkRepository(repo.gitdir, { since: null, locksBefore: Date.now() });
    expect(report.leftovers).toBe(1);
    await repo.commitChanges('main', [{ path: 'model/b.yml', content: 'b\n' }], { message: 'b', author });
  });

  it('drops a remote-tracking ref that names a commit never written (a fetch cut off), and the remote HEAD naming it', async () => {
    const missing = 'c0ffee'.padEnd(40, '0');
    mkdirSync(join(repo.gitdir, 'refs', 'remotes', 'origin'), { recursive: true });
    writeFileSync(join(repo.gitdir, 'refs', 'remotes', 'origin', 'main'), `${missing}\n`);
    writeFileSync(join(repo.gitdir, 'refs', 'remotes', 'origin', 'HEAD'), 'ref: refs/remotes/origin/main\n');
    expect(fsck(repo.gitdir).status).not.toBe(0);
    const report = await checkRepository(repo.gitdir, { since: null });
    expect(report.dropped.sort()).toEqual(['refs/remotes/origin/HEAD', 'refs/remotes/origin/main']);
    const check = fsck(repo.gitdir);
    expect(check.status, check.stderr).toBe(0);
  });

  it('checks only what changed since the last clean run when told when that was', async () => {
    await repo.commitChanges('main', [{ path: 'model/b.yml', content: 'b: 2\n' }], { message: 'b', author });
    const all = await checkRepository(repo.gitdir, { since: null });
    const later = await checkRepository(repo.gitdir, { since: Date.now() + 60_000 });
    expect(all.checkedObjects).toBeGreaterThanOrEqual(6);
    expect(later.checkedObjects).toBe(0);
    expect(later.movedBack).toEqual([]);
    expect(later.unrepaired).toEqual([]);
  });
});
