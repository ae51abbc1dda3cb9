/**
 * Writing big blobs into a repository without holding the thread that asks.
 *
 * isomorphic-git hashes and deflates a blob in one synchronous stretch of JavaScript (a 5 MB file
 * held the HTTP thread for well over 100 ms). A blob is a loose object like git writes it:
 * `objects/<2 hex>/<38 hex>`, the zlib-deflated bytes of `blob <size>\0<content>`, named by the
 * SHA-1 of those bytes. Here the SHA-1 is computed natively in slices with turns of the event loop
 * in between, deflate runs on libuv's thread pool, and the file is written like every object
 * (durable-fs.ts): under a temporary name, fsynced, renamed, so a reader (or a crash) never meets
 * half an object, and an existing object file that is empty or damaged is written again.
 * `writeLooseBlobSync` is the same for worker threads, where blocking is fine.
 */
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { deflate, deflateSync } from 'node:zlib';
import {
  isIntactLooseObject,
  isIntactLooseObjectSync,
  looseObjectFile,
  makeDirectoryDurably,
  makeDirectoryDurablySync,
  writeFileDurably,
  writeFileDurablySync,
} from './durable-fs';

/** From this size on, blobs go through this writer instead of isomorphic-git's. */
export const BIG_BLOB_BYTES = 256 * 1024;

/** Bytes hashed between two turns of the event loop. */
const HASH_SLICE_BYTES = 1024 * 1024;

const deflateAsync = promisify(deflate);

const headerOf = (size: number): Buffer => Buffer.from(`blob ${size}\0`, 'latin1');

const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/** Writes `content` as a blob of the bare repository at `gitdir` (if it is not there yet); returns its id. */
export async function writeLooseBlob(gitdir: string, content: Uint8Array): Promise<string> {
  const bytes = asBuffer(content);
  const header = headerOf(bytes.byteLength);
  const hash = createHash('sha1').update(header);
  for (let at = 0; at < bytes.byteLength; at += HASH_SLICE_BYTES) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    hash.update(bytes.subarray(at, at + HASH_SLICE_BYTES));
  }
  const oid = hash.digest('hex');
  const file = looseObjectFile(gitdir, oid);
  if (await isIntactLooseObject(file, oid)) return oid;
  const deflated = await deflateAsync(Buffer.concat([header, bytes]));
  await makeDirectoryDurably(dirname(file));
  await writeFileDurably(file, deflated);
  return oid;
}

/** `writeLooseBlob` for worker threads: the same object, written in one go. */
export function writeLooseBlobSync(gitdir: string, content: Uint8Array): string {
  const bytes = asBuffer(content);
  const header = headerOf(bytes.byteLength);
  const oid = createHash('sha1').update(header).update(bytes).digest('hex');
  const file = looseObjectFile(gitdir, oid);
  if (isIntactLooseObjectSync(file, oid)) return oid;
  const deflated = deflateSync(Buffer.concat([header, bytes]));
  makeDirectoryDurablySync(dirname(file));
  writeFileDurablySync(file, deflated);
  return oid;
}
