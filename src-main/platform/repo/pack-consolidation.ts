/**
 * Consolidating a repository's packs into one, as `git gc --auto` does once a repository holds
 * more than `gc.autoPackLimit` (50) packs. Every fetch keeps what it brings as a pack of its own
 * (isomorphic-git stores the pack it receives; a copy from a repository on this disk writes packs
 * of up to 16 MB, local-transport.ts), so a branch pulled every day gains a pack a day, and so does
 * the repository a local host keeps for each push. Every object read looks through the index of
 * each pack (packed-object.ts), and isomorphic-git reads every pack's index again in each operation
 * (a log, a merge base): 28–34 ms for the first object of one from 300 packs, 9 ms from 60.
 *
 * Entries are copied as they are, deflated data and deltas alike; nothing is inflated or deflated
 * again. A delta on a base at an offset of its own pack (OFS_DELTA) names its base by id in the
 * new pack (REF_DELTA), which git reads too; a delta on a base outside its own pack (a thin pack's)
 * is written whole. Each entry is checked against the CRC-32 its index gives before it is
 * copied: a damaged pack stops the consolidation and stays as it is.
 *
 * The new pack is written to a temporary file one old pack at a time (memory: the largest old pack),
 * fsynced and renamed, then its index; only then are the old packs removed, each index before its
 * pack. A crash at any point leaves every object readable, in the old packs, the new one or both;
 * the start check (repo-check.ts) removes a temporary file or a pack left without its index.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { turnEvery } from '../jobs/types';
import { fsyncDirectory, temporaryNameFor, writeFileDurably } from './durable-fs';
import { entryHeaderOfKind, packHeader, packIndexOf } from './pack-writer';
import { GitRepository } from './repository';
import { OFS_DELTA, PACK_TYPES, parsePackIndex, readAnyObjectSync, readEntryHeader, REF_DELTA, type PackIndex } from './packed-object';
import { deflateAsync } from './zlib-async';

/** Packs a repository may hold before they are consolidated (git's `gc.autoPackLimit`). */
const AUTO_PACK_LIMIT = 50;
/** Bytes of packs consolidated at once, smallest first: a bigger one is left as it is. */
const MAX_PACK_BYTES = 1024 * 1024 * 1024;
/** Most of the HTTP thread's time a stretch of copying takes before other work gets a turn. */
const SLICE_MS = 8;

/** Thrown when a pack cannot be consolidated as it is (damaged, or a format this reader does not know). */
export class PackNotConsolidated extends Error {}

interface OldPack {
  name: string;
  packPath: string;
  idxPath: string;
  size: number;
  index: PackIndex;
}

/** The packs of `folder` that may be consolidated: with an index this reader knows and no `.keep`. */
async function packsIn(folder: string): Promise<Omit<OldPack, 'index'>[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(folder);
  } catch {
    return [];
  }
  const present = new Set(names);
  const packs: Omit<OldPack, 'index'>[] = [];
  for (const file of names) {
    if (!file.startsWith('pack-') || !file.endsWith('.pack')) continue;
    const name = file.slice(0, -'.pack'.length);
    // A kept pack (git's `.keep`) is one someone asked to leave alone; one without its index is no pack yet.
    if (!present.has(`${name}.idx`) || present.has(`${name}.keep`)) continue;
    const stat = await fs.promises.stat(join(folder, file)).catch(() => null);
    if (stat) packs.push({ name, packPath: join(folder, file), idxPath: join(folder, `${name}.idx`), size: stat.size });
  }
  return packs;
}

/** How many packs `gitdir` holds (each pack file with its index). */
async function packCount(gitdir: string): Promise<number> {
  return (await packsIn(join(gitdir, 'objects', 'pack'))).length;
}

/** Bytes gathered before they are written to the temporary pack (one write a megabyte, not one an entry). */
const WRITE_BYTES = 1024 * 1024;

/** A temporary pack being written: its bytes go into the checksum as they come and to the file a megabyte at a time. */
class PackSink {
  private readonly hash = createHash('sha1');
  private written = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  private constructor(private readonly handle: fs.promises.FileHandle) {}

  static async open(path: string, count: number): Promise<PackSink> {
    const sink = new PackSink(await fs.promises.open(path, 'wx', 0o666));
    await sink.write([packHeader(count)]);
    return sink;
  }

  /** Where the next entry starts. */
  get offset(): number {
    return this.written;
  }

  async write(pieces: Buffer[]): Promise<void> {
    for (const piece of pieces) {
      this.hash.update(piece);
      this.pending.push(piece);
      this.pendingBytes += piece.byteLength;
      this.written += piece.byteLength;
    }
    if (this.pendingBytes >= WRITE_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    const bytes = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    let at = 0;
    while (at < bytes.byteLength) at += (await this.handle.write(bytes, at, bytes.byteLength - at)).bytesWritten;
  }

  /** Ends the pack with its checksum, makes it durable and closes it; returns the checksum. */
  async finish(): Promise<Buffer> {
    const checksum = this.hash.digest();
    this.pending.push(checksum);
    this.pendingBytes += checksum.byteLength;
    await this.flush();
    await this.handle.sync();
    await this.handle.close();
    return checksum;
  }

  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

/** Object ids of an index, as hex (20 bytes each). */
const idAt = (index: PackIndex, i: number): string => index.ids.toString('hex', i * 20, i * 20 + 20);

/**
 * Consolidates the packs of `gitdir` into one (the smallest first, up to 1 GiB of them); returns how
 * many packs it replaced and the new pack's name, or null when there were fewer than two. Throws
 * PackNotConsolidated, leaving every pack as it was, when one is damaged or of a format it does
 * not know.
 */
export async function consolidatePacks(gitdir: string): Promise<{ replaced: number; objects: number; name: string } | null> {
  const folder = join(gitdir, 'objects', 'pack');
  const found = (await packsIn(folder)).sort((a, b) => a.size - b.size);
  const chosen: OldPack[] = [];
  let total = 0;
  for (const pack of found) {
    if (total + pack.size > MAX_PACK_BYTES) break;
    const index = parsePackIndex(await fs.promises.readFile(pack.idxPath));
    if (!index) throw new PackNotConsolidated(`${pack.idxPath} is not a version-2 pack index.`);
    chosen.push({ ...pack, index });
    total += pack.size;
  }
  if (chosen.length < 2) return null;

  // Every object once: the first pack that holds it gives its entry.
  const turn = turnEvery(SLICE_MS);
  const everyId = new Set<string>();
  for (const pack of chosen) {
    for (let i = 0; i < pack.index.offsets.length; i++) {
      if (i % 4096 === 0) await turn();
      everyId.add(idAt(pack.index, i));
    }
  }

  const temp = temporaryNameFor(join(folder, 'consolidated.pack'));
  const sink = await PackSink.open(temp, everyId.size);
  const oids: string[] = [];
  const offsets: number[] = [];
  const crcs: number[] = [];
  let name: string;
  try {
    const copied = new Set<string>();
    for (const pack of chosen) {
      await copyEntries(gitdir, pack, copied, sink, { oids, offsets, crcs }, turn);
    }
    const checksum = await sink.finish();
    await turn();
    name = `pack-${checksum.toString('hex')}`;
    await fs.promises.rename(temp, join(folder, `${name}.pack`));
    await fsyncDirectory(folder);
    await writeFileDurably(join(folder, `${name}.idx`), packIndexOf(oids, offsets, crcs, checksum));
  } catch (error) {
    await sink.abandon();
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  // Removed while no write of the repository runs (a merge or a commit may read objects through
  // isomorphic-git, which lists the packs once and then opens each index); this thread's readers and
  // the model threads' list the packs again when an object is not where they last saw it.
  await GitRepository.at(gitdir).exclusive(async () => {
    for (const pack of chosen) {
      // The same objects in the same order make the same pack: it is the new one, not an old one.
      if (pack.name === name) continue;
      await fs.promises.rm(pack.idxPath, { force: true });
      await fs.promises.rm(pack.packPath, { force: true });
    }
    await fsyncDirectory(folder);
  });
  return { replaced: chosen.filter((pack) => pack.name !== name).length, objects: oids.length, name };
}

/** Copies the entries of `pack` not copied yet into `sink`, recording each one's id, offset and CRC-32. */
async function copyEntries(
  gitdir: string,
  pack: OldPack,
  copied: Set<string>,
  sink: PackSink,
  out: { oids: string[]; offsets: number[]; crcs: number[] },
  turn: () => Promise<void>,
): Promise<void> {
  const { index } = pack;
  const data = await fs.promises.readFile(pack.packPath);
  if (data.byteLength < 32 || data.toString('latin1', 0, 4) !== 'PACK') throw new PackNotConsolidated(`${pack.packPath} is not a pack.`);
  const byOffset = new Map<number, number>();
  const inPack = new Set<string>();
  for (let i = 0; i < index.offsets.length; i++) {
    if (i % 4096 === 0) await turn();
    byOffset.set(index.offsets[i]!, i);
    inPack.add(idAt(index, i));
  }
  const order = [...byOffset.keys()].sort((a, b) => a - b);
  const dataEnd = data.byteLength - 20;
  for (let k = 0; k < order.length; k++) {
    await turn();
    const offset = order[k]!;
    const i = byOffset.get(offset)!;
    const oid = idAt(index, i);
    if (copied.has(oid)) continue;
    const end = k + 1 < order.length ? order[k + 1]! : dataEnd;
    const raw = data.subarray(offset, end);
    const header = raw.byteLength > 0 ? readEntryHeader(raw) : null;
    if (!header || crc32(raw) !== index.crcs[i]) throw new PackNotConsolidated(`Object ${oid} of ${pack.packPath} is damaged.`);
    let entry: Buffer[];
    if (header.kind === OFS_DELTA) {
      const base = byOffset.get(offset - header.back);
      if (base === undefined) throw new PackNotConsolidated(`Object ${oid} of ${pack.packPath} builds on an entry the pack does not have.`);
      entry = [entryHeaderOfKind(REF_DELTA, header.size), index.ids.subarray(base * 20, base * 20 + 20), raw.subarray(header.dataAt)];
    } else if (header.kind === REF_DELTA && !inPack.has(header.baseId!)) {
      // On a base outside its own pack: written whole, so that no delta of the new pack depends on an
      // object another pack gave (two such could build on each other).
      entry = [await wholeEntry(gitdir, oid)];
    } else if (header.kind === REF_DELTA || PACK_TYPES[header.kind]) {
      entry = [raw];
    } else {
      throw new PackNotConsolidated(`Object ${oid} of ${pack.packPath} has an unknown type.`);
    }
    out.oids.push(oid);
    out.offsets.push(sink.offset);
    // An entry copied as it is keeps its CRC-32; one rewritten gets its own.
    out.crcs.push(entry[0] === raw ? index.crcs[i]! : entry.reduce((sum, piece) => crc32(piece, sum), 0));
    await sink.write(entry);
    copied.add(oid);
  }
}

/** The entry of object `oid` written whole (for a delta whose base is outside its own pack). */
async function wholeEntry(gitdir: string, oid: string): Promise<Buffer> {
  const object = readAnyObjectSync(gitdir, oid);
  if (!object) throw new PackNotConsolidated(`Object ${oid} cannot be read whole.`);
  const deflated = await deflateAsync(object.content);
  return Buffer.concat([entryHeaderOfKind(PACK_TYPES.indexOf(object.type), object.content.byteLength), deflated]);
}

/** Consolidations under way, by repository: one at a time for each. */
const running = new Map<string, Promise<void>>();

/**
 * Consolidates the packs of `gitdir` once it holds more than `limit`; called after each write of
 * packs (a fetch, a copy from or to a repository on this disk). It is upkeep, as `git gc --auto` is
 * after a fetch: a consolidation that fails (a damaged pack, a full disk) changes nothing, every
 * pack stays as it was, and the next write of packs tries again.
 */
export function consolidatePacksWhenMany(gitdir: string, limit = AUTO_PACK_LIMIT): Promise<void> {
  const under = running.get(gitdir);
  if (under) return under;
  const run = (async () => {
    try {
      if ((await packCount(gitdir)) > limit) await consolidatePacks(gitdir);
    } catch {
      // Left as it was; see above.
    } finally {
      running.delete(gitdir);
    }
  })();
  running.set(gitdir, run);
  return run;
}
