// What a model shard and the reader thread reading its blobs ahead share (see blob-readahead.ts).
import type { MessagePort } from 'node:worker_threads';
import { readObjectSync } from '../platform/repo/packed-object';

/** Slots of the shared control array: the next blob to claim, and the blob the shard takes. */
export const NEXT = 0;
export const CONSUMED = 1;
export const CONTROL_SLOTS = 2;

/** How far the reader may run ahead of what the shard has taken, in blobs and in bytes. */
export const AHEAD_BLOBS = 512;
export const AHEAD_BYTES = 16 * 1024 * 1024;

/** Blobs and bytes the reader gathers before it sends them. */
export const BATCH_BLOBS = 16;
export const BATCH_BYTES = 128 * 1024;

/** What the reader thread is given. */
export interface ReaderInput {
  gitdir: string;
  oids: string[];
  control: SharedArrayBuffer;
  port: MessagePort;
}

/** What the reader sends: the bytes of blobs `indexes`, blob k ending at `ends[k]` of `bytes`. */
export interface ReaderBatch {
  indexes: Int32Array;
  ends: Int32Array;
  bytes: Uint8Array;
}

/** Blob `oid`, read natively (loose or packed) and checked against its id; null when that cannot be done. */
export const readBlobSync = (gitdir: string, oid: string): Uint8Array | null => readObjectSync(gitdir, oid, 'blob');
