/**
 * Reading loose objects natively, and writing big blobs without holding the thread that asks.
 *
 * isomorphic-git inflates an object in JavaScript and hashes it through WebCrypto with a promise
 * per object: reading a 10,000-cube model's 12,500 files that way was a fifth of its first
 * validate, and inflating its 10,000-entry folder took 25 ms of the thread (issue 28).
 * `readLooseObjectSync` inflates and checks an object with Node's zlib and SHA-1 instead; packed
 * objects are read by packed-object.ts, and a damaged object is left to isomorphic-git's reader,
 * which says what is wrong.
 *
 * Objects are written here too, not by isomorphic-git. It hashes and deflates an object in one
 * synchronous stretch of JavaScript (a 5 MB file held the HTTP thread for well over 100 ms, a
 * commit's 10,000-entry folder 40 ms), and its deflate goes through the web streams of Node's
 * fetch, whose first use loads undici: 60–80 ms of the HTTP thread at the first commit after a
 * start (issue 28). An object is written like git writes it: `objects/<2 hex>/<38 hex>`, the
 * zlib-deflated bytes of `<type> <size>\0<content>`, named by the SHA-1 of those bytes. Here the
 * SHA-1 is computed natively in slices with turns of the event loop in between, deflate runs on
 * libuv's thread pool, and the file is written like every object (durable-fs.ts): under a
 * temporary name, fsynced, renamed, so a reader (or a crash) never meets half an object, and an
 * existing object file that is empty or damaged is written again. `writeLooseBlobSync` is the same
 * for worker threads, where blocking is fine.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { outsideStop } from '../workers/stop-gate';
import {
  isIntactLooseObject,
  isIntactLooseObjectSync,
  isLooseObject,
  looseObjectFile,
  makeDirectoryDurably,
  makeDirectoryDurablySync,
  writeFileDurably,
  writeFileDurablySync,
} from './durable-fs';
import { yieldToEventLoop } from '../jobs/types';
import { bufferView } from '../files/buffer-view';
import { deflateAsync } from './zlib-async';

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

export interface GitObject {
  type: ObjectType;
  content: Buffer;
}

/**
 * The loose object `oid` (`objects/<2 hex>/<38 hex>`, zlib over `<type> <size>\0<content>`),
 * checked against its id (`isLooseObject`); null when it is not loose (packed) or not whole.
 */
export function readLooseAnySync(gitdir: string, oid: string): GitObject | null {
  let raw: Buffer;
  try {
    const file = readWhole(looseObjectFile(gitdir, oid));
    raw = outsideStop(() => inflateSync(file));
  } catch {
    return null;
  }
  if (!isLooseObject(oid, raw)) return null;
  const space = raw.indexOf(0x20);
  return { type: raw.toString('latin1', 0, space) as ObjectType, content: raw.subarray(raw.indexOf(0, space) + 1) };
}

/** Object files up to this size are read into one buffer kept by the thread. */
const SCRATCH_BYTES = 256 * 1024;
let scratch: Buffer | null = null;

/**
 * The bytes of `file`, valid until the next call: small files in the thread's scratch buffer,
 * without the `fstat` and the buffer of its own `readFileSync` makes for each (issue 28: 12,500
 * object files read for a 10,000-cube model's first validate). A read that leaves the buffer
 * unfilled is taken as the end of the file, without a second read to see 0 bytes (about 12 ms over
 * 12,500 files): a regular file reads short only at its end, and an object cut short anyway fails
 * to inflate or its check, and is read again by isomorphic-git's reader.
 */
function readWhole(file: string): Buffer {
  scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES);
  const fd = openSync(file, 'r');
  try {
    const length = readSync(fd, scratch, 0, scratch.length, null);
    return length < scratch.length ? scratch.subarray(0, length) : Buffer.concat([scratch, readFileSync(fd)]);
  } finally {
    closeSync(fd);
  }
}

/** The content of the loose object `oid` when it is a `type` (see readLooseAnySync); null otherwise. */
export function readLooseObjectSync(gitdir: string, oid: string, type: ObjectType): Buffer | null {
  const object = readLooseAnySync(gitdir, oid);
  return object?.type === type ? object.content : null;
}

/** Bytes hashed between two turns of the event loop. */
const HASH_SLICE_BYTES = 1024 * 1024;

/** Feeds `bytes` to `hash` a megabyte at a time, with a turn of the event loop between two. */
export async function updateInSlices(hash: Hash, bytes: Uint8Array): Promise<Hash> {
  for (let at = 0; at < bytes.byteLength; at += HASH_SLICE_BYTES) {
    if (at > 0) await yieldToEventLoop();
    hash.update(bytes.subarray(at, at + HASH_SLICE_BYTES));
  }
  return hash;
}

const headerOf = (size: number, type: ObjectType = 'blob'): Buffer => Buffer.from(`${type} ${size}\0`, 'latin1');

/** Writes `content` as a blob of the bare repository at `gitdir` (if it is not there yet); returns its id. */
export function writeLooseBlob(gitdir: string, content: Uint8Array): Promise<string> {
  return writeLooseObject(gitdir, 'blob', content);
}

/** Writes `content` as an object of `type` of the bare repository at `gitdir` (if it is not there yet); returns its id. */
export async function writeLooseObject(gitdir: string, type: ObjectType, content: Uint8Array): Promise<string> {
  const bytes = bufferView(content);
  const header = headerOf(bytes.byteLength, type);
  const oid = (await updateInSlices(createHash('sha1').update(header), bytes)).digest('hex');
  const file = looseObjectFile(gitdir, oid);
  if (await isIntactLooseObject(file, oid)) return oid;
  const deflated = await deflateAsync(Buffer.concat([header, bytes]));
  await makeDirectoryDurably(dirname(file));
  await writeFileDurably(file, deflated);
  return oid;
}

/** `writeLooseBlob` for worker threads: the same object, written in one go. */
export function writeLooseBlobSync(gitdir: string, content: Uint8Array): string {
  const bytes = bufferView(content);
  const header = headerOf(bytes.byteLength);
  const oid = createHash('sha1').update(header).update(bytes).digest('hex');
  const file = looseObjectFile(gitdir, oid);
  if (isIntactLooseObjectSync(file, oid)) return oid;
  const deflated = outsideStop(() => deflateSync(Buffer.concat([header, bytes])));
  makeDirectoryDurablySync(dirname(file));
  writeFileDurablySync(file, deflated);
  return oid;
}
