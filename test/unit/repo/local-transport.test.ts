// Fetch and push with a repository on this disk copy objects between the two object stores
// (local-transport.ts): every object the head reaches and the target lacks, read loose or packed,
// written so that git finds the same objects under the same ids.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitRepository } from '../../../src-main/platform/repo';
import { looseObjectFile } from '../../../src-main/platform/repo/durable-fs';
import { copyMissingObjects } from '../../../src-main/platform/repo/local-transport';
import { writePack } from '../../../src-main/platform/repo/pack-writer';
import { gitFsck, gitIn, gitText } from '../../support/git-cli';

const author = { name: 'A', email: 'a@example.com' };
let root: string;
let source: GitRepository;
let target: string;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'drydock-local-transport-'));
  source = GitRepository.at(join(root, 'source'));
  const files = Array.from({ length: 30 }, (_, i) => ({ path: `model/cubes/c${i}.yml`, content: `cubes:\n  - name: c${i}\n` }));
  await source.initialize({ branch: 'main', files: [...files, { path: 'README.md', content: 'r\n' }], author, message: 'init' });
  target = join(root, 'target');
  gitIn(root, 'init', '-q', '--bare', target);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Ids of every object `head` reaches (and `without` does not), as git lists them. */
const reachable = (gitdir: string, head: string, without?: string) =>
  gitText(gitdir, 'rev-list', '--objects', head, ...(without ? [`^${without}`] : []))
    .split('\n')
    .map((line) => line.split(' ')[0])
    .sort();

const objectsIn = (gitdir: string) =>
  gitText(gitdir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)')
    .split('\n')
    .filter(Boolean)
    .sort();

describe('copying objects to a repository on this disk', () => {
  it('copies every object the head reaches, loose and packed alike, under the ids git gives them', async () => {
    const first = (await source.head('main'))!;
    // The first commit's objects in a pack, as a fetch or `git gc` leaves them; the next commit's loose.
    gitText(source.gitdir, 'repack', '-a', '-d', '-q');
    const { commit } = await source.commitChanges('main', [{ path: 'model/cubes/c3.yml', content: 'cubes:\n  - name: c3b\n' }, { path: 'model/views/v.yml', content: 'views: []\n' }], { message: 'next', author });
    expect(gitText(source.gitdir, 'count-objects', '-v')).toMatch(/in-pack: [1-9]/);
    const copied = await copyMissingObjects(source.gitdir, target, commit);
    expect(copied).toBe(reachable(source.gitdir, commit).length);
    expect(objectsIn(target)).toEqual(reachable(source.gitdir, commit));
    gitText(target, 'update-ref', 'refs/heads/main', commit);
    expect(gitFsck(target).status).toBe(0);
    expect(gitText(target, 'show', `${commit}:model/cubes/c3.yml`)).toBe('cubes:\n  - name: c3b');
    expect(gitText(target, 'rev-parse', `${commit}^`)).toBe(first);
  });

  it('copies only what the target lacks: a new commit brings its own objects and no others', async () => {
    const first = (await source.head('main'))!;
    await copyMissingObjects(source.gitdir, target, first);
    const { commit } = await source.commitChanges('main', [{ path: 'model/cubes/c7.yml', content: 'changed\n' }], { message: 'edit', author });
    const before = objectsIn(target);
    const copied = await copyMissingObjects(source.gitdir, target, commit);
    expect(copied).toBe(reachable(source.gitdir, commit, first).length);
    expect(objectsIn(target)).toEqual([...before, ...reachable(source.gitdir, commit, first)].sort());
  });

  it('writes again an object the target holds damaged (an empty file) and keeps it whole', async () => {
    const head = (await source.head('main'))!;
    const blob = gitText(source.gitdir, 'rev-parse', `${head}:README.md`);
    mkdirSync(join(target, 'objects', blob.slice(0, 2)), { recursive: true });
    writeFileSync(looseObjectFile(target, blob), Buffer.alloc(0));
    await copyMissingObjects(source.gitdir, target, head);
    expect(gitText(target, 'cat-file', 'blob', blob)).toBe('r');
    gitText(target, 'update-ref', 'refs/heads/main', head);
    expect(gitFsck(target).status).toBe(0);
  });

  it('stops between two objects when its signal is aborted, leaving no object without what it points at', async () => {
    // Enough objects that the copy is still going when the signal comes.
    const many = Array.from({ length: 600 }, (_, i) => ({ path: `model/more/m${i}.yml`, content: `m${i}\n` }));
    const { commit: head } = await source.commitChanges('main', many, { message: 'more', author });
    const stop = new AbortController();
    const copying = copyMissingObjects(source.gitdir, target, head, stop.signal);
    // Stopped a few turns of the event loop in, with writes under way.
    setTimeout(() => stop.abort(), 5);
    await expect(copying).rejects.toMatchObject({ name: 'AbortError' });
    // Whatever is there is whole, and everything it points at is there too.
    const present = objectsIn(target);
    expect(present.length).toBeLessThan(reachable(source.gitdir, head).length);
    for (const oid of present) {
      if (gitText(target, 'cat-file', '-t', oid) === 'tree') for (const line of gitText(target, 'ls-tree', oid).split('\n')) expect(present).toContain(line.split(/\s+/)[2]);
    }
  });

  it('writes a copy of many objects as one pack whose index is the one git’s index-pack makes of it', async () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ path: `model/more/m${i}.yml`, content: `m${i}\n`.repeat(i + 1) }));
    const { commit } = await source.commitChanges('main', many, { message: 'more', author });
    const copied = await copyMissingObjects(source.gitdir, target, commit);
    expect(copied).toBe(reachable(source.gitdir, commit).length);
    const packs = readdirSync(join(target, 'objects', 'pack'));
    expect(packs.filter((name) => name.endsWith('.pack'))).toHaveLength(1);
    expect(gitText(target, 'count-objects', '-v')).toMatch(new RegExp(`in-pack: ${copied}\\b`));
    const pack = join(target, 'objects', 'pack', packs.find((name) => name.endsWith('.pack'))!);
    // git reads the pack whole and, indexing it itself, writes the very same index.
    gitText(target, 'verify-pack', pack.replace(/\.pack$/, '.idx'));
    gitText(target, 'index-pack', '-o', join(root, 'git.idx'), pack);
    expect(readFileSync(join(root, 'git.idx')).equals(readFileSync(pack.replace(/\.pack$/, '.idx')))).toBe(true);
    gitText(target, 'update-ref', 'refs/heads/main', commit);
    expect(gitFsck(target).status).toBe(0);
    expect(gitText(target, 'show', `${commit}:model/more/m2.yml`)).toBe('m2\nm2\nm2');
  });

  it('consolidates the target’s packs once a copy takes them past 50, as git gc --auto after a fetch', async () => {
    for (let i = 0; i < 50; i++) {
      const content = Buffer.from(`views: [] # ${i}\n`);
      await writePack(target, [{ oid: createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex'), type: 'blob', content }]);
    }
    const files = Array.from({ length: 120 }, (_, i) => ({ path: `model/cubes/d${i}.yml`, content: `cubes:\n  - name: d${i}\n` }));
    const { commit } = await source.commitChanges('main', files, { message: 'many', author });
    await copyMissingObjects(source.gitdir, target, commit);
    const packs = readdirSync(join(target, 'objects', 'pack')).filter((name) => name.endsWith('.pack'));
    expect(packs).toHaveLength(1);
    expect(objectsIn(target)).toHaveLength(50 + reachable(source.gitdir, commit).length);
    gitText(target, 'update-ref', 'refs/heads/main', commit);
    expect(gitFsck(target).status).toBe(0);
  });
});
