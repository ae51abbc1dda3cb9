/**
 * Writing big blobs into a repository without holding the thread that asks.
 *
 * isomorphic-git hashes and deflates a blob in one synchronous stretch of JavaScript (a 5 MB file
 * held the HTTP thread for well over 100 ms). A blob is a loose object like git writes it:
 * `objects/<2 hex>/<38 hex>`, the zlib-deflated bytes of `blob <size>\0<content>`, named by the
 * SHA-1 of those bytes. Here the SHA-1 is computed natively in slices with turns of the event loop
 * in between, deflate runs on libuv's thread pool, and the file is written under a temporary name
 * and renamed, so a reader (or a crash) never meets half an object. `writeLooseBlobSync` is the
 * same for worker threads, where blocking is fine.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, deflateSync } from 'node:zlib';

/** From this size on, blobs go through this writer instead of isomorphic-git's. */
export const BIG_BLOB_BYTES = 256 * 1024;

/** Bytes hashed between two turns of the event loop. */
const HASH_SLICE_BYTES = 1024 * 1024;

const deflateAsync = promisify(deflate);

const headerOf = (size: number): Buffer => Buffer.from(`blob ${size}\0`, 'latin1');

const objectFile = (gitdir: string, oid: string): string => join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));

const tempNameOf = (file: string): string => `${file}.${randomBytes(6).toString('hex')}.tmp`;

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
  const file = objectFile(gitdir, oid);
  if (await exists(file)) return oid;
  const deflated = await deflateAsync(Buffer.concat([header, bytes]));
  await fs.promises.mkdir(dirname(file), { recursive: true });
  const temp = tempNameOf(file);
  try {
    await fs.promises.writeFile(temp, deflated);
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  return oid;
}

/** `writeLooseBlob` for worker threads: the same object, written in one go. */
export function writeLooseBlobSync(gitdir: string, content: Uint8Array): string {
  const bytes = asBuffer(content);
  const header = headerOf(bytes.byteLength);
  const oid = createHash('sha1').update(header).update(bytes).digest('hex');
  const file = objectFile(gitdir, oid);
  if (fs.existsSync(file)) return oid;
  const deflated = deflateSync(Buffer.concat([header, bytes]));
  fs.mkdirSync(dirname(file), { recursive: true });
  const temp = tempNameOf(file);
  try {
    fs.writeFileSync(temp, deflated);
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  return oid;
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.access(file);
    return true;
  } catch {
    return false;
  }
}
