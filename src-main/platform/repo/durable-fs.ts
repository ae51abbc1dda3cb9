/**
 * The file system isomorphic-git is given for every repository (its documented `fs` extension
 * point), so that a kill -9 or a power cut never leaves a half-written object, ref or pack
 * (issue 23). isomorphic-git writes with a plain `writeFile`: a process killed between the open
 * and the write left a 0-byte object that the repository then treated as present for good.
 *
 * - Every file is written under a temporary name and renamed over its final name, so a reader (or
 *   a kill -9) sees the old file or the whole new one. Temporary names are ones git skips:
 *   `tmp_obj_*` beside loose objects, `*.lock` elsewhere (loose refs named so are not refs).
 * - Refs, packs, indexes and the config are fsynced before their rename and their folder after it.
 * - Objects are made durable together: their bytes and their folders' entries are fsynced by
 *   `flushDirectories`, which runs before the next ref, pack index or config moves (and before
 *   `moveRef` moves a branch), never after. A ref therefore never names an object a power cut could
 *   take back. One flush per commit costs far less than an fsync per object (issue 23: a 400-file
 *   commit, `npm run bench -- commit-durability`): the first fsync commits the file system's journal
 *   with most of the other objects' data in it. An object a power cut takes back before its flush is
 *   named by nothing; it comes back empty or cut off, counts as absent (below) and the start check
 *   removes it.
 * - A loose object file that is empty or does not hold the object its name says is not there:
 *   `stat` says ENOENT, so the next write of the same content replaces it (isomorphic-git skips
 *   writing an object it believes present), and reading an empty one falls through to the packs.
 */
import { hash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { outsideStop } from '../workers/stop-gate';
import { bufferView } from '../files/buffer-view';
import { inflateAsync } from './zlib-async';

/** `…/objects/ab/cdef…` → `abcdef…`, or null for any other file. */
export function looseObjectIdOf(file: string): string | null {
  const match = /[\\/]objects[\\/]([0-9a-f]{2})[\\/]([0-9a-f]{38})$/.exec(file);
  return match ? match[1] + match[2] : null;
}

export const looseObjectFile = (gitdir: string, oid: string): string => join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));

/** A temporary name beside `file` that git ignores (see the module comment). */
export function temporaryNameFor(file: string): string {
  const suffix = randomBytes(8).toString('hex');
  return looseObjectIdOf(file) ? join(dirname(file), `tmp_obj_${suffix}`) : join(dirname(file), `${basename(file)}.${suffix}.lock`);
}

const notFound = (file: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`ENOENT: no such file or directory (an empty or damaged git object), '${file}'`), { code: 'ENOENT', errno: -2, path: file });

/**
 * Whether `bytes` (a loose object file's content) is the deflated object `oid`: it inflates, its
 * header says a known type and the length that follows, and its SHA-1 is `oid`.
 */
export function isLooseObject(oid: string, inflated: Uint8Array): boolean {
  const nul = inflated.indexOf(0);
  // The longest header is `commit ` and a size of 16 digits.
  if (nul < 0 || nul > 24) return false;
  const space = inflated.indexOf(0x20);
  if (space < 0 || space > nul || !OBJECT_TYPES.has(bufferView(inflated).toString('latin1', 0, space))) return false;
  let size = 0;
  for (let k = space + 1; k < nul; k++) {
    const digit = inflated[k]! - 48;
    if (digit < 0 || digit > 9) return false;
    size = size * 10 + digit;
  }
  if (nul === space + 1 || size !== inflated.byteLength - nul - 1) return false;
  // The one-shot hash: a Hash object per object cost reading a 10,000-cube model's 12,500 blobs
  // about 50 ms more (issue 28).
  return hash('sha1', inflated, 'hex') === oid;
}

const OBJECT_TYPES: ReadonlySet<string> = new Set(['blob', 'tree', 'commit', 'tag']);

/** Verified object files by path, size and mtime: an object rewritten or cut short is checked again. */
const verified = new Map<string, true>();
const VERIFIED_LIMIT = 20_000;
const remember = (key: string) => {
  if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value as string);
  verified.set(key, true);
};

/** Whether the loose object file `file` holds the object `oid`, whole. */
export async function isIntactLooseObject(file: string, oid: string, stat?: fs.Stats): Promise<boolean> {
  const st = stat ?? (await fs.promises.stat(file).catch(() => null));
  if (!st || !st.isFile() || st.size === 0) return false;
  const key = `${file}\0${st.size}\0${st.mtimeMs}`;
  if (verified.has(key)) return true;
  try {
    const ok = isLooseObject(oid, await inflateAsync(await fs.promises.readFile(file)));
    if (ok) remember(key);
    return ok;
  } catch {
    return false;
  }
}

/** `isIntactLooseObject` for worker threads. */
export function isIntactLooseObjectSync(file: string, oid: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size === 0) return false;
    const deflated = fs.readFileSync(file);
    return isLooseObject(oid, outsideStop(() => inflateSync(deflated)));
  } catch {
    return false;
  }
}

// ---- durability --------------------------------------------------------------------------------

/** Object files renamed into place whose bytes are not fsynced yet, and the folders whose new entries are not. */
const pendingFiles = new Set<string>();
const pendingDirectories = new Set<string>();
let flushing: Promise<void> = Promise.resolve();
/** fsyncs at once: libuv's thread pool has four threads; more only queue. */
const FSYNC_PARALLEL = 4;

/** fsyncs a directory, making the renames and creations in it durable. */
export async function fsyncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems (and some network mounts) refuse fsync on a directory: nothing more to do there.
    if (!['EINVAL', 'ENOTSUP', 'EISDIR', 'EBADF'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle.close();
  }
}

async function fsyncFile(file: string): Promise<void> {
  // r+: Windows flushes only a handle open for writing.
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function inLanes(items: string[], fn: (item: string) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(FSYNC_PARALLEL, items.length) }, lane));
}

/**
 * Makes every object written so far durable: their bytes, then their folders' entries. Called
 * before anything points at them — a ref, a pack index, a branch move — never after. Done once for
 * a whole commit, the fsyncs cost far less than one per object: the first commits the file system's
 * journal with most of the others' data in it.
 */
export function flushDirectories(): Promise<void> {
  const files = [...pendingFiles];
  const dirs = [...pendingDirectories];
  pendingFiles.clear();
  pendingDirectories.clear();
  const previous = flushing;
  // A flush started earlier must be done too: its files were taken out of the sets.
  const current = previous.catch(() => undefined).then(async () => {
    // An object removed meanwhile (a check removed it as damaged), or a folder (its repository
    // was deleted), needs nothing; a flush for another repository must not fail for it.
    const unlessGone = (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    };
    await inLanes(files, (file) => fsyncFile(file).catch(unlessGone));
    await inLanes(dirs, (dir) => fsyncDirectory(dir).catch(unlessGone));
  });
  flushing = current;
  return current;
}

function fsyncDirectorySync(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } catch (error) {
    if (!['EINVAL', 'ENOTSUP', 'EISDIR', 'EBADF'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    fs.closeSync(fd);
  }
}

type WriteData = string | Uint8Array;
type WriteOptions = { encoding?: BufferEncoding | null; mode?: number } | BufferEncoding | undefined;

/**
 * Writes `file` whole or not at all: a temporary file in the same folder, renamed over `file`.
 * Any file but an object (a ref, a pack, its index, the config) is fsynced before the rename and
 * its folder after it, once the objects written before it are durable (`flushDirectories`). An
 * object is fsynced with the next flush, which comes before anything names it: until then a power
 * cut may take it back (a kill -9 cannot), and an object that comes back empty or cut off counts
 * as absent (`stat` below) and is removed by the start check (repo-check.ts).
 */
export async function writeFileDurably(file: string, data: WriteData, options?: WriteOptions): Promise<void> {
  const isObject = looseObjectIdOf(file) !== null;
  if (!isObject) await flushDirectories();
  const temp = temporaryNameFor(file);
  const mode = typeof options === 'object' && options?.mode !== undefined ? options.mode : 0o666;
  const encoding = typeof options === 'string' ? options : (options?.encoding ?? 'utf8');
  const handle = await fs.promises.open(temp, 'wx', mode);
  try {
    try {
      await handle.writeFile(typeof data === 'string' ? Buffer.from(data, encoding ?? 'utf8') : data);
      if (!isObject) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  if (isObject) {
    pendingFiles.add(file);
    pendingDirectories.add(dirname(file));
  } else await fsyncDirectory(dirname(file));
}

/** `writeFileDurably` for worker threads (their own flush is their own business: they fsync at once). */
export function writeFileDurablySync(file: string, data: Uint8Array): void {
  const temp = temporaryNameFor(file);
  const fd = fs.openSync(temp, 'wx', 0o666);
  try {
    try {
      fs.writeSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fsyncDirectorySync(dirname(file));
}

/** Creates `dir` and its missing parents; the new entries are durable with the next flush. */
export async function makeDirectoryDurably(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = dir; !fs.existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  await fs.promises.mkdir(dir, { recursive: true });
  for (const created of missing) pendingDirectories.add(dirname(created));
}

/** `makeDirectoryDurably` for worker threads. */
export function makeDirectoryDurablySync(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !fs.existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  fs.mkdirSync(dir, { recursive: true });
  for (const created of missing.reverse()) fsyncDirectorySync(dirname(created));
}

// ---- the fs handed to isomorphic-git ---------------------------------------------------------------

/**
 * A promise-based `fs` for isomorphic-git (its `fs` option): node's, with writes made atomic and
 * durable and damaged loose objects treated as absent (see the module comment).
 */
export const gitFs = {
  readFile: async (file: string, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<Buffer | string> => {
    const data = await fs.promises.readFile(file, options ?? null);
    // An empty object file is no object: let isomorphic-git look in the packs (and report it missing).
    if (data.length === 0 && looseObjectIdOf(file) !== null) throw notFound(file);
    return data;
  },
  writeFile: (file: string, data: WriteData, options?: WriteOptions) => writeFileDurably(file, data, options),
  mkdir: async (dir: string, options?: fs.MakeDirectoryOptions) => {
    await fs.promises.mkdir(dir, options);
    pendingDirectories.add(dirname(dir));
  },
  rmdir: (dir: string, options?: fs.RmDirOptions) => fs.promises.rmdir(dir, options),
  rm: (path: string, options?: fs.RmOptions) => fs.promises.rm(path, options),
  unlink: (file: string) => fs.promises.unlink(file),
  stat: async (file: string, options?: fs.StatOptions) => {
    const st = (await fs.promises.stat(file, options)) as fs.Stats;
    const oid = looseObjectIdOf(file);
    // isomorphic-git asks before writing an object: a damaged one must be written again.
    if (oid !== null && !(await isIntactLooseObject(file, oid, st))) throw notFound(file);
    return st;
  },
  lstat: (file: string, options?: fs.StatOptions) => fs.promises.lstat(file, options),
  readdir: (dir: string, options?: { encoding?: BufferEncoding; withFileTypes?: false }) => fs.promises.readdir(dir, options),
  readlink: (file: string, options?: { encoding?: BufferEncoding }) => fs.promises.readlink(file, options),
  symlink: (target: string, file: string, type?: fs.symlink.Type) => fs.promises.symlink(target, file, type),
};

/**
 * A `gitFs` for one isomorphic-git fetch into `gitdir` that holds back every ref write and delete
 * until `release()`: isomorphic-git moves the remote-tracking refs *before* it writes the pack
 * holding their objects, so a kill -9 in between left refs naming missing commits. Reads of a held
 * ref see the held value. `release()` applies them (after the pack and its index are durable);
 * without it (the fetch failed) the refs stay as they were.
 */
export function holdRefWrites(gitdir: string): { fs: typeof gitFs; release(): Promise<void> } {
  const slash = (path: string) => path.replace(/\\/g, '/');
  const root = slash(gitdir).replace(/\/+$/, '');
  const isRef = (file: string) => {
    const path = slash(file);
    return path.startsWith(`${root}/refs/`) || path === `${root}/packed-refs`;
  };
  /** Held refs: content, or null when deleted. */
  const held = new Map<string, string | Uint8Array | null>();
  const heldFs: typeof gitFs = {
    ...gitFs,
    readFile: async (file, options) => {
      if (!held.has(file)) return gitFs.readFile(file, options);
      const value = held.get(file);
      if (value === null || value === undefined) throw notFound(file);
      const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
      const encoding = typeof options === 'string' ? options : options?.encoding;
      return encoding ? bytes.toString(encoding) : bytes;
    },
    writeFile: async (file, data, options) => {
      if (!isRef(file)) return gitFs.writeFile(file, data, options);
      held.set(file, data);
    },
    unlink: async (file) => {
      if (!isRef(file)) return gitFs.unlink(file);
      if (held.get(file) === null || (!held.has(file) && !fs.existsSync(file))) throw notFound(file);
      held.set(file, null);
    },
    stat: async (file, options) => {
      if (held.get(file) === null) throw notFound(file);
      return gitFs.stat(file, options);
    },
    lstat: async (file, options) => {
      if (held.get(file) === null) throw notFound(file);
      return gitFs.lstat(file, options);
    },
  };
  return {
    fs: heldFs,
    release: async () => {
      for (const [file, value] of held) {
        if (value === null) await fs.promises.rm(file, { force: true });
        else {
          await makeDirectoryDurably(dirname(file));
          await writeFileDurably(file, value);
        }
      }
      held.clear();
    },
  };
}
