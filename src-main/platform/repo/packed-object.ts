/**
 * Reading objects from a repository's pack files natively (git's pack format, index version 2).
 *
 * A repository filled by a fetch holds its objects in packs. isomorphic-git, called without a cache
 * shared between calls (and every call here is its own), reads and indexes the whole pack again for
 * each object: the first validate of a 10,000-cube model fetched from a remote ran past its 60 s
 * limit. Here each pack's index is read once per thread (again only when the pack folder changes),
 * an object is one positioned read of its bytes, inflated with Node's zlib, its deltas applied and
 * the result checked against its id. Anything this reader does not understand (another index
 * version, damage, an id that does not match) reads as null, and the caller falls back to
 * isomorphic-git, which says what is wrong.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { outsideStop } from '../workers/stop-gate';
import { LRUCache } from 'lru-cache';
import { readLooseAnySync, readLooseObjectSync, type GitObject, type ObjectType } from './loose-object';

/** The object type of each type code of a pack entry (6 and 7 are deltas). */
export const PACK_TYPES: readonly (ObjectType | null)[] = [null, 'commit', 'tree', 'blob', 'tag', null, null, null];
export const OFS_DELTA = 6;
export const REF_DELTA = 7;
export const INDEX_MAGIC = 0xff744f63; // "\377tOc"
/** Deepest chain of deltas followed (git's default is 50; a chain that loops ends here). */
const MAX_DELTA_DEPTH = 1000;
/** An open pack file is closed after this long unused (a thread that ends does not close its files). */
const IDLE_CLOSE_MS = 5_000;
/**
 * Bytes of delta bases kept per thread while a read goes on (dropped once the thread has read
 * nothing for IDLE_CLOSE_MS): a chain's bases are built once for all the objects built on them.
 */
const BASE_CACHE_BYTES = 32 * 1024 * 1024;

class PackFile {
  private fd: number | null = null;
  private closer: NodeJS.Timeout | null = null;
  /** Object offsets in ascending order: an object's bytes end where the next one starts. */
  private readonly sortedOffsets: Float64Array;

  constructor(
    readonly path: string,
    private readonly fanout: Uint32Array,
    private readonly ids: Buffer,
    private readonly offsets: Float64Array,
    private readonly dataEnd: number,
  ) {
    this.sortedOffsets = Float64Array.from(offsets).sort();
  }

  /** The offset of object `id` (20 bytes) in the pack, or -1. */
  offsetOf(id: Buffer): number {
    const first = id[0]!;
    let low = first === 0 ? 0 : this.fanout[first - 1]!;
    let high = this.fanout[first]!;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = this.ids.compare(id, 0, 20, middle * 20, middle * 20 + 20);
      if (order === 0) return this.offsets[middle]!;
      if (order < 0) low = middle + 1;
      else high = middle;
    }
    return -1;
  }

  /** The bytes of the object entry at `offset` (its header and its deflated data). */
  entryAt(offset: number): Buffer | null {
    let low = 0;
    let high = this.sortedOffsets.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.sortedOffsets[middle]! <= offset) low = middle + 1;
      else high = middle;
    }
    const end = low < this.sortedOffsets.length ? this.sortedOffsets[low]! : this.dataEnd;
    if (end <= offset) return null;
    const bytes = Buffer.allocUnsafe(end - offset);
    try {
      const fd = this.open();
      let read = 0;
      while (read < bytes.byteLength) {
        const n = readSync(fd, bytes, read, bytes.byteLength - read, offset + read);
        if (n === 0) return null;
        read += n;
      }
    } catch {
      // The pack went away (the start check removes a pack without its index) or cannot be read:
      // the caller falls back to isomorphic-git, which lists the packs afresh.
      return null;
    }
    return bytes;
  }

  close(): void {
    if (this.closer) clearTimeout(this.closer);
    this.closer = null;
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private open(): number {
    this.fd ??= openSync(this.path, 'r');
    if (this.closer) this.closer.refresh();
    else this.closer = setTimeout(() => this.close(), IDLE_CLOSE_MS).unref();
    return this.fd;
  }
}

/** What a pack's index (version 2) says: each object's id (20 bytes each, sorted), offset and CRC-32. */
export interface PackIndex {
  fanout: Uint32Array;
  ids: Buffer;
  offsets: Float64Array;
  crcs: Uint32Array;
}

/** The index (version 2) in `idx`, or null when it is not one this reader knows. */
export function parsePackIndex(idx: Buffer): PackIndex | null {
  if (idx.byteLength < 8 + 1024 + 40 || idx.readUInt32BE(0) !== INDEX_MAGIC || idx.readUInt32BE(4) !== 2) return null;
  const fanout = new Uint32Array(256);
  for (let i = 0; i < 256; i++) fanout[i] = idx.readUInt32BE(8 + i * 4);
  const count = fanout[255]!;
  const idsAt = 8 + 1024;
  const crcsAt = idsAt + count * 20;
  const offsetsAt = crcsAt + count * 4;
  const largeAt = offsetsAt + count * 4;
  if (idx.byteLength < largeAt + 40) return null;
  const offsets = new Float64Array(count);
  const crcs = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    crcs[i] = idx.readUInt32BE(crcsAt + i * 4);
    const small = idx.readUInt32BE(offsetsAt + i * 4);
    if (small < 0x80000000) offsets[i] = small;
    else {
      const at = largeAt + (small & 0x7fffffff) * 8;
      if (at + 8 > idx.byteLength - 40) return null;
      offsets[i] = Number(idx.readBigUInt64BE(at));
    }
  }
  return { fanout, ids: idx.subarray(idsAt, crcsAt), offsets, crcs };
}

/** The pack index `idx` (version 2) with its pack, or null when it is not one this reader knows. */
function loadPack(idxPath: string, packPath: string): PackFile | null {
  let index: PackIndex | null;
  let packSize: number;
  try {
    index = parsePackIndex(readFileSync(idxPath));
    packSize = statSync(packPath).size;
  } catch {
    return null;
  }
  // The pack ends with the 20-byte checksum of what precedes it.
  return index && new PackFile(packPath, index.fanout, index.ids, index.offsets, packSize - 20);
}

interface PackSet {
  /** When the pack folder last changed, as seen when it was listed. */
  listedAt: number;
  packs: PackFile[];
}

const packSets = new Map<string, PackSet>();

/** The packs of `gitdir`, listed again when the folder changed since (`refresh`) or never listed. */
function packsOf(gitdir: string, refresh: boolean): PackFile[] {
  const folder = join(gitdir, 'objects', 'pack');
  const known = packSets.get(gitdir);
  if (known && !refresh) return known.packs;
  let changedAt: number;
  let names: string[];
  try {
    // A repository without packs (no folder) is listed as such once, not asked again per object.
    changedAt = statSync(folder, { throwIfNoEntry: false })?.mtimeMs ?? -1;
    if (known && known.listedAt === changedAt) return known.packs;
    names = changedAt === -1 ? [] : readdirSync(folder);
  } catch {
    return known?.packs ?? [];
  }
  const kept = new Map((known?.packs ?? []).map((pack) => [pack.path, pack]));
  const packs: PackFile[] = [];
  for (const name of names) {
    if (!name.endsWith('.idx')) continue;
    const packPath = join(folder, `${name.slice(0, -4)}.pack`);
    const pack = kept.get(packPath) ?? loadPack(join(folder, name), packPath);
    kept.delete(packPath);
    if (pack) packs.push(pack);
  }
  for (const gone of kept.values()) gone.close();
  packSets.set(gitdir, { listedAt: changedAt, packs });
  return packs;
}

/** Recently built delta bases, by pack and offset. */
const bases = new LRUCache<string, GitObject>({
  maxSize: BASE_CACHE_BYTES,
  maxEntrySize: BASE_CACHE_BYTES / 4,
  sizeCalculation: (object) => Math.max(1, object.content.byteLength),
});

let basesDropper: NodeJS.Timeout | null = null;

function keepBase(key: string, object: GitObject): void {
  if (basesDropper) basesDropper.refresh();
  else {
    basesDropper = setTimeout(() => {
      bases.clear();
      basesDropper = null;
    }, IDLE_CLOSE_MS).unref();
  }
  bases.set(key, object);
}

/** `content` with git's delta instructions `delta` applied; null when the delta does not fit it. */
export function applyDelta(content: Buffer, delta: Buffer): Buffer | null {
  let at = 0;
  const size = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = delta[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80 && at < delta.byteLength);
    return value;
  };
  if (size() !== content.byteLength) return null;
  const out = Buffer.allocUnsafe(size());
  let written = 0;
  while (at < delta.byteLength) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let offset = 0;
      let length = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) offset += delta[at++]! * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (op & (0x10 << bit)) length += delta[at++]! * 2 ** (8 * bit);
      if (length === 0) length = 0x10000;
      if (offset + length > content.byteLength || written + length > out.byteLength) return null;
      content.copy(out, written, offset, offset + length);
      written += length;
    } else if (op !== 0) {
      if (at + op > delta.byteLength || written + op > out.byteLength) return null;
      delta.copy(out, written, at, at + op);
      at += op;
      written += op;
    } else return null;
  }
  return written === out.byteLength ? out : null;
}

/** What a pack entry starts with: its type code, the size of its object (or delta), and a delta's base. */
export interface EntryHeader {
  kind: number;
  size: number;
  /** Where the deflated data starts. */
  dataAt: number;
  /** An OFS_DELTA's base: how many bytes before this entry it starts (0 for any other entry). */
  back: number;
  /** A REF_DELTA's base id (null for any other entry). */
  baseId: string | null;
}

/** The header of the pack entry whose bytes `entry` starts with; null when it is cut short. */
export function readEntryHeader(entry: Buffer): EntryHeader | null {
  let at = 0;
  let byte = entry[at++]!;
  const kind = (byte >> 4) & 7;
  let size = byte & 0x0f;
  let shift = 4;
  while (byte & 0x80) {
    if (at >= entry.byteLength) return null;
    byte = entry[at++]!;
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  }
  let back = 0;
  let baseId: string | null = null;
  if (kind === OFS_DELTA) {
    byte = entry[at++]!;
    back = byte & 0x7f;
    while (byte & 0x80) {
      if (at >= entry.byteLength) return null;
      byte = entry[at++]!;
      back = (back + 1) * 128 + (byte & 0x7f);
    }
  } else if (kind === REF_DELTA) {
    if (at + 20 > entry.byteLength) return null;
    baseId = entry.toString('hex', at, at + 20);
    at += 20;
  }
  return { kind, size, dataAt: at, back, baseId };
}

/** The object whose entry starts at `offset` of `pack`, its deltas applied; null when it cannot be read. */
function objectAt(gitdir: string, pack: PackFile, offset: number, depth: number): GitObject | null {
  if (depth > MAX_DELTA_DEPTH) return null;
  const entry = pack.entryAt(offset);
  const header = entry && readEntryHeader(entry);
  if (!entry || !header) return null;
  const { kind, size } = header;
  let base: GitObject | null = null;
  if (kind === OFS_DELTA) {
    const baseOffset = offset - header.back;
    const key = `${pack.path}:${baseOffset}`;
    base = bases.get(key) ?? null;
    if (!base) {
      base = objectAt(gitdir, pack, baseOffset, depth + 1);
      if (base) keepBase(key, base);
    }
  } else if (kind === REF_DELTA) {
    base = readPackedOrLoose(gitdir, header.baseId!, depth + 1);
  } else if (PACK_TYPES[kind] === null) return null;
  let data: Buffer;
  try {
    data = outsideStop(() => inflateSync(entry.subarray(header.dataAt)));
  } catch {
    return null;
  }
  if (data.byteLength !== size) return null;
  if (kind === OFS_DELTA || kind === REF_DELTA) {
    if (!base) return null;
    const content = applyDelta(base.content, data);
    return content ? { type: base.type, content } : null;
  }
  return { type: PACK_TYPES[kind]!, content: data };
}

/** A base named by its id (a thin pack's delta may build on a loose object). */
function readPackedOrLoose(gitdir: string, oid: string, depth: number): GitObject | null {
  return readLooseAnySync(gitdir, oid) ?? findPacked(gitdir, oid, depth);
}

/** Object `oid` from the packs listed already, or (`refresh`) from those of a pack folder changed since. */
function packedIn(gitdir: string, oid: string, depth: number, refresh: boolean): GitObject | null {
  const packs = packsOf(gitdir, refresh);
  // Most repositories have no packs: the id is made bytes only when there is one to search (12,500
  // conversions were 40–60 ms of a 10,000-cube first validate, issue 28).
  if (packs.length === 0) return null;
  const id = Buffer.from(oid, 'hex');
  if (id.byteLength !== 20) return null;
  for (const pack of packs) {
    const offset = pack.offsetOf(id);
    if (offset >= 0) return objectAt(gitdir, pack, offset, depth);
  }
  return null;
}

function findPacked(gitdir: string, oid: string, depth: number): GitObject | null {
  return packedIn(gitdir, oid, depth, false) ?? packedIn(gitdir, oid, depth, true);
}

/** `object` when its id is `oid`; null otherwise. */
function checkedAny(object: GitObject | null, oid: string): GitObject | null {
  if (!object) return null;
  const hash = createHash('sha1').update(`${object.type} ${object.content.byteLength}\0`).update(object.content).digest('hex');
  return hash === oid ? object : null;
}

/** `object`'s content when it is a `type` and its id is `oid`; null otherwise. */
function checked(object: GitObject | null, oid: string, type: ObjectType): Buffer | null {
  return object?.type === type ? (checkedAny(object, oid)?.content ?? null) : null;
}

/**
 * The content of object `oid` from the pack files of `gitdir` when it is a `type`, checked against
 * its id; null when no pack holds it, it is not a `type`, or it cannot be read whole.
 */
export function readPackedObjectSync(gitdir: string, oid: string, type: ObjectType): Buffer | null {
  return checked(findPacked(gitdir, oid, 0), oid, type);
}

/**
 * Object `oid` of `type`, loose or packed, checked against its id; null when neither reader has it
 * whole. The packs listed already are looked in first (a search in memory): a packed object read
 * loose first cost a thrown ENOENT, 120 ms over a 12,500-file model. A pack folder changed since
 * (a fetch) is listed again only when the object is not loose either.
 */
export function readObjectSync(gitdir: string, oid: string, type: ObjectType): Buffer | null {
  return checked(packedIn(gitdir, oid, 0, false), oid, type) ?? readLooseObjectSync(gitdir, oid, type) ?? checked(packedIn(gitdir, oid, 0, true), oid, type);
}

/** Object `oid` of whatever type, loose or packed, checked against its id (see readObjectSync). */
export function readAnyObjectSync(gitdir: string, oid: string): GitObject | null {
  return checkedAny(packedIn(gitdir, oid, 0, false), oid) ?? readLooseAnySync(gitdir, oid) ?? checkedAny(packedIn(gitdir, oid, 0, true), oid);
}

/**
 * Whether a pack file of `gitdir` lists an object (its index says so; the object is not read), by
 * the packs there are now: the pack folder is listed once, not again for each object asked about.
 */
export function packedObjectsOf(gitdir: string): (oid: string) => boolean {
  const packs = packsOf(gitdir, true);
  return (oid) => {
    const id = Buffer.from(oid, 'hex');
    return id.byteLength === 20 && packs.some((pack) => pack.offsetOf(id) >= 0);
  };
}
