// Upload work that scales with the bytes: decoding and storing chunks, checking and committing whole
// files. The HTTP thread only hands over names and offsets; the bytes never cross it.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isBase64 } from '../platform/json/base64-field';
import { writeLooseBlobSync } from '../platform/repo/loose-object';
import { bufferView } from '../platform/files/buffer-view';

export interface StoreChunkInput {
  /** The chunk as sent (base64), or its bytes when a compute thread already decoded the request body. */
  data: string | Uint8Array;
  /** Where its bytes go: a new file (never one that exists) in the upload's folder. */
  file: string;
  /** The largest chunk accepted, and the bytes left in the file from the chunk's offset: a chunk over either is not stored. */
  maxBytes: number;
  room: number;
}

/**
 * Decodes a base64 chunk (unless a compute thread decoded it with the request body) and, when it fits, writes its bytes to `input.file`. Null when `data` is
 * not base64; otherwise the decoded length and whether it was stored (the caller refuses the rest).
 * The file is complete once this returns; the caller records it only then, so a chunk that failed
 * half-way is never counted.
 */
export function storeUploadChunk(input: StoreChunkInput): { length: number; stored: boolean } | null {
  let bytes: Uint8Array;
  if (typeof input.data === 'string') {
    if (input.data.length === 0 || !isBase64(input.data)) return null;
    bytes = Buffer.from(input.data, 'base64');
  } else bytes = input.data;
  if (bytes.byteLength > input.maxBytes || bytes.byteLength > input.room) return { length: bytes.byteLength, stored: false };
  mkdirSync(dirname(input.file), { recursive: true, mode: 0o700 });
  writeFileSync(input.file, bytes, { flag: 'wx', mode: 0o600 });
  return { length: bytes.byteLength, stored: true };
}

/** One received chunk of a file: in a part file, or (received before chunks moved to files) its bytes. */
export interface UploadPart {
  offset: number;
  file?: string;
  bytes?: Uint8Array;
}

export interface StageInput {
  parts: UploadPart[];
  size: number;
  sha256: string;
  /** The deployment's repository: a file that checks out is written there as a blob. */
  gitdir: string;
}

/**
 * `vanished`: a part file was replaced while this ran (a chunk sent again); read the parts anew.
 * Otherwise whether the bytes match the declared SHA-256, whether they are UTF-8 text, and the id of
 * the blob written to the repository when both hold (null otherwise).
 */
export type StageResult = { vanished: true } | { vanished: false; matches: boolean; text: boolean; blob: string | null };

/** Assembles one file of an upload from its parts (in offset order), checks it and writes its blob. */
export function stageUploadFile(input: StageInput): StageResult {
  const buffer = Buffer.alloc(input.size);
  for (const part of [...input.parts].sort((a, b) => a.offset - b.offset)) {
    if (part.bytes) {
      bufferView(part.bytes).copy(buffer, part.offset);
      continue;
    }
    let fd: number;
    try {
      fd = openSync(part.file!, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { vanished: true };
      throw error;
    }
    try {
      let at = part.offset;
      while (at < input.size) {
        const read = readSync(fd, buffer, at, input.size - at, at - part.offset);
        if (read === 0) break;
        at += read;
      }
    } finally {
      closeSync(fd);
    }
  }
  const matches = createHash('sha256').update(buffer).digest('hex') === input.sha256;
  let text = true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    text = false;
  }
  return { vanished: false, matches, text, blob: matches && text ? writeLooseBlobSync(input.gitdir, buffer) : null };
}
