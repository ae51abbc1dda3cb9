// A repository whose packs pile up (a pack per fetch, per copy from or to a repository on this
// disk) has them consolidated into one past git's gc.autoPackLimit: every object stays readable
// byte for byte, by git and natively, deltas stay deltas, and a pack that cannot be copied as it
// is leaves every pack as it was.
import { createHash } from 'node:crypto';
import fs, { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GitRepository } from '../../../src-main/platform/repo';
import { writeLooseObject } from '../../../src-main/platform/repo/loose-object';
import { consolidatePacks, consolidatePacksWhenMany, PackNotConsolidated } from '../../../src-main/platform/repo/pack-consolidation';
import { entryHeaderOfKind, packHeader, packIndexOf, writePack } from '../../../src-main/platform/repo/pack-writer';
import { readAnyObjectSync, REF_DELTA } from '../../../src-main/platform/repo/packed-object';
import { checkRepository } from '../../../src-main/platform/repo/repo-check';
import { gitBytes, gitFsck, gitText } from '../../support/git-cli';

const author = { name: 'Ada Lovelace', email: 'ada@example.com' };

let root: string;
let repo: GitRepository;

/** A cube file whose lines mostly repeat from version to version, so git stores versions as deltas. */
const cube = (n: number, version: number) =>
  [`cubes:`, `  - name: cube_${n}`, `    sql_table: public.t_${n}`, ...Array.from({ length: 40 }, (_, i) => `    # line ${i} of cube ${n}${i === version % 40 ? ` edited in version ${version}` : ''}`), ''].join('\n');

const packFolder = () => join(repo.gitdir, 'objects', 'pack');
const packNames = () => readdirSync(packFolder()).filter((name) => name.endsWith('.pack')).sort();

/** Every object of the repository as git lists it, with its content (one `git cat-file --batch`). */
function everyObject(gitdir: string): Map<string, Buffer> {
  const listing = gitBytes(gitdir, 'cat-file', '--batch-all-objects', '--batch');
  const objects = new Map<string, Buffer>();
  // Each object: "<id> <type> <size>\n", its bytes, "\n".
  for (let at = 0; at < listing.byteLength; ) {
    const lineEnd = listing.indexOf(0x0a, at);
    const [oid, , size] = listing.toString('latin1', at, lineEnd).split(' ');
    objects.set(oid!, listing.subarray(lineEnd + 1, lineEnd + 1 + Number(size)));
    at = lineEnd + 1 + Number(size) + 1;
  }
  return objects;
}

/** Entries of the repository's packs that are deltas (from `git verify-pack -v`). */
function deltaEntries(gitdir: string): number {
  return readdirSync(join(gitdir, 'objects', 'pack'))
    .filter((name) => name.endsWith('.idx'))
    .map((idx) => gitText(gitdir, 'verify-pack', '-v', join(gitdir, 'objects', 'pack', idx)))
    .join('\n')
    .split('\n')
    .filter((line) => /^[0-9a-f]{40} (blob|tree|commit)\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/.test(line)).length;
}

/** Six versions of eight cubes, each two versions packed by git on their own (deltas on offsets). */
async function repositoryOfPacks(): Promise<void> {
  await repo.initialize({ branch: 'main', files: [{ path: 'model/cube_0.yml', content: cube(0, 0) }], author, message: 'init' });
  for (let version = 1; version <= 6; version++) {
    const files = Array.from({ length: 8 }, (_, n) => ({ path: `model/cube_${n}.yml`, content: cube(n, version) }));
    await repo.commitChanges('main', files, { message: `version ${version}`, author });
    if (version % 2 === 0) {
      gitBytes(repo.gitdir, 'repack', '-d', '-q', '--window=50', '--depth=50');
      gitBytes(repo.gitdir, 'prune-packed');
    }
  }
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'drydock-consolidate-'));
  repo = GitRepository.at(join(root, 'repo'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('consolidating packs', () => {
  it('makes one pack of many that git verifies, every object the same bytes, deltas kept as deltas', async () => {
    await repositoryOfPacks();
    // And a pack written the way a copy from a repository on this disk writes one.
    const extra = [Buffer.from('cubes: []\n'), Buffer.from('views: []\n')];
    const oids = extra.map((content) => createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex'));
    await writePack(repo.gitdir, extra.map((content, i) => ({ oid: oids[i]!, type: 'blob' as const, content })));
    expect(packNames()).toHaveLength(4);
    const before = everyObject(repo.gitdir);
    const deltasBefore = deltaEntries(repo.gitdir);
    expect(deltasBefore).toBeGreaterThan(10);

    const result = await consolidatePacks(repo.gitdir);

    expect(result).toMatchObject({ replaced: 4, objects: before.size });
    expect(packNames()).toEqual([`${result!.name}.pack`]);
    expect(readdirSync(packFolder()).sort()).toEqual([`${result!.name}.idx`, `${result!.name}.pack`]);
    expect(gitFsck(repo.gitdir).status).toBe(0);
    expect(deltaEntries(repo.gitdir)).toBe(deltasBefore);
    const after = everyObject(repo.gitdir);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [oid, content] of before) {
      expect(after.get(oid)!.equals(content)).toBe(true);
      expect(readAnyObjectSync(repo.gitdir, oid)?.content.equals(content)).toBe(true);
    }
    // The branch reads as before through the repository too.
    expect(Buffer.from((await repo.readFile('main', 'model/cube_3.yml'))!).toString()).toBe(cube(3, 6));
  });

  it('writes whole an object whose delta builds on a base outside its pack (a thin pack), and keeps an object two packs hold once', async () => {
    await repo.initialize({ branch: 'main', files: [], author, message: 'init' });
    const base = Buffer.from('cubes:\n  - name: orders\n');
    const baseId = await writeLooseObject(repo.gitdir, 'blob', base);
    const target = Buffer.from('cubes:\n  - name: orders\n    sql_table: public.orders\n');
    const targetId = createHash('sha1').update(`blob ${target.byteLength}\0`).update(target).digest('hex');
    // A delta of one copy (all of the base) and one insert (the rest).
    const rest = target.subarray(base.byteLength);
    const delta = Buffer.from([base.byteLength, target.byteLength, 0x90, base.byteLength, rest.byteLength, ...rest]);
    const entry = Buffer.concat([entryHeaderOfKind(REF_DELTA, delta.byteLength), Buffer.from(baseId, 'hex'), deflateSync(delta)]);
    writeThinPack(repo.gitdir, targetId, entry);
    expect(readAnyObjectSync(repo.gitdir, targetId)?.content.equals(target)).toBe(true);
    const shared = Buffer.from('views: []\n');
    const sharedId = createHash('sha1').update(`blob ${shared.byteLength}\0`).update(shared).digest('hex');
    await writePack(repo.gitdir, [{ oid: sharedId, type: 'blob', content: shared }]);
    const other = Buffer.from('view_groups: []\n');
    const otherId = createHash('sha1').update(`blob ${other.byteLength}\0`).update(other).digest('hex');
    await writePack(repo.gitdir, [
      { oid: sharedId, type: 'blob', content: shared },
      { oid: otherId, type: 'blob', content: other },
    ]);

    const result = await consolidatePacks(repo.gitdir);

    expect(result).toMatchObject({ replaced: 3, objects: 3 });
    const verified = gitText(repo.gitdir, 'verify-pack', '-v', join(packFolder(), `${result!.name}.idx`));
    expect(verified).toMatch(new RegExp(`^${targetId} blob\\s+${target.byteLength} `, 'm'));
    expect(verified).not.toMatch(new RegExp(`^${targetId} .* ${baseId}$`, 'm'));
    expect(readAnyObjectSync(repo.gitdir, targetId)?.content.equals(target)).toBe(true);
    expect(readAnyObjectSync(repo.gitdir, sharedId)?.content.equals(shared)).toBe(true);
  });

  it('leaves every pack as it was when one is damaged, with no file of its own left behind', async () => {
    await repositoryOfPacks();
    const names = readdirSync(packFolder()).sort();
    const victim = join(packFolder(), packNames()[1]!);
    const bytes = readFileSync(victim);
    bytes[40] = bytes[40]! ^ 0xff;
    writeFileSync(victim, bytes);

    await expect(consolidatePacks(repo.gitdir)).rejects.toBeInstanceOf(PackNotConsolidated);

    expect(readdirSync(packFolder()).sort()).toEqual(names);
  });

  it('leaves every object readable, and the start check a sound repository, when it stops dead at any step', async () => {
    await repositoryOfPacks();
    const template = join(root, 'template');
    cpSync(repo.gitdir, template, { recursive: true });
    const before = everyObject(template);
    let finished = false;
    for (let step = 0; !finished; step++) {
      const gitdir = join(root, `step-${step}`);
      cpSync(template, gitdir, { recursive: true });
      // Every open, rename and removal from the step on fails, as if the process had died there.
      let calls = 0;
      const dying = <T extends (...args: never[]) => Promise<unknown>>(original: T) =>
        ((...args: Parameters<T>) => (calls++ >= step ? Promise.reject(new Error('killed')) : original(...args))) as T;
      const spies = (['open', 'rename', 'rm'] as const).map((name) => {
        const original = fs.promises[name].bind(fs.promises);
        return vi.spyOn(fs.promises, name).mockImplementation(dying(original) as never);
      });
      finished = await consolidatePacks(gitdir).then(
        () => true,
        () => false,
      );
      for (const spy of spies) spy.mockRestore();
      await checkRepository(gitdir, { since: null });
      expect(everyObject(gitdir), `stopped at step ${step}`).toEqual(before);
      expect(gitFsck(gitdir).status, `stopped at step ${step}`).toBe(0);
      expect(readdirSync(join(gitdir, 'objects', 'pack')).filter((name) => !/^pack-[0-9a-f]{40}\.(pack|idx)$/.test(name))).toEqual([]);
      for (const oid of before.keys()) expect(readAnyObjectSync(gitdir, oid), `${oid} after step ${step}`).not.toBeNull();
    }
    expect(readdirSync(join(root, 'step-0', 'objects', 'pack')).filter((name) => name.endsWith('.pack'))).toHaveLength(3);
  });

  it('leaves a kept pack (.keep) alone and does nothing with fewer than two others', async () => {
    await repositoryOfPacks();
    const [kept, ...others] = packNames();
    writeFileSync(join(packFolder(), kept!.replace(/\.pack$/, '.keep')), '');
    rmSync(join(packFolder(), others[1]!));
    rmSync(join(packFolder(), others[1]!.replace(/\.pack$/, '.idx')));
    expect(await consolidatePacks(repo.gitdir)).toBeNull();
    expect(packNames()).toEqual([kept, others[0]]);
  });

  it('consolidates after a write of packs only once a repository holds more than the limit', async () => {
    await repositoryOfPacks();
    await consolidatePacksWhenMany(repo.gitdir, 3);
    expect(packNames()).toHaveLength(3);
    await writePack(repo.gitdir, [{ oid: createHash('sha1').update('blob 2\0{}').digest('hex'), type: 'blob', content: Buffer.from('{}') }]);
    await consolidatePacksWhenMany(repo.gitdir, 3);
    expect(packNames()).toHaveLength(1);
    expect(gitFsck(repo.gitdir).status).toBe(0);
  });
});

/** Writes a pack of the one entry given (a delta on an object outside it), with its index. */
function writeThinPack(gitdir: string, oid: string, entry: Buffer): void {
  const body = Buffer.concat([packHeader(1), entry]);
  const checksum = createHash('sha1').update(body).digest();
  mkdirSync(join(gitdir, 'objects', 'pack'), { recursive: true });
  const name = `pack-${checksum.toString('hex')}`;
  writeFileSync(join(gitdir, 'objects', 'pack', `${name}.pack`), Buffer.concat([body, checksum]));
  writeFileSync(join(gitdir, 'objects', 'pack', `${name}.idx`), packIndexOf([oid], [12], [crc32(entry)], checksum));
}
