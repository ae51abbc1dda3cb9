// Reading model files straight from a deployment's git repository inside a worker thread: the
// objects are immutable and addressed by id, so a worker reads them safely while the HTTP thread
// writes new commits. Reading 12,500 blobs stays off the HTTP thread.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isModelSourcePath, type ModelFile } from '../../src-shared/model';
import { Utf8Writer } from '../platform/json/utf8-writer';
import { GitRepository } from '../platform/repo';
import { readObjectSync } from '../platform/repo/packed-object';

const decoder = new TextDecoder();

/** How many blobs are read at once. */
const READ_BATCH = 64;

/**
 * The model trees of recent commits. A commit id names its tree for good, so a kept entry never
 * goes stale; keeping them spares each validation re-reading the commit and re-sorting its paths.
 */
const modelTrees = new LRUCache<string, ReadonlyMap<string, string>>({ max: 32 });

/** path → blob id of the model source files of a commit, sorted by path (shared: do not modify). */
export async function modelTreeOf(gitdir: string, commit: string): Promise<ReadonlyMap<string, string>> {
  const key = `${gitdir}\0${commit}`;
  const kept = modelTrees.get(key);
  if (kept) return kept;
  const tree = await GitRepository.at(gitdir).treeOf(commit);
  const ids = new Map<string, string>();
  for (const path of [...tree.keys()].sort()) if (isModelSourcePath(path)) ids.set(path, tree.get(path)!.oid);
  modelTrees.set(key, ids);
  return ids;
}

/**
 * Calls `each` with the bytes of every blob of `oids` and its index: loose and packed objects read
 * natively, any other (damaged, say) through the repository's reader, which says what is wrong.
 */
async function eachBlob(gitdir: string, oids: readonly string[], each: (index: number, bytes: Uint8Array) => void): Promise<void> {
  const unread: number[] = [];
  for (let i = 0; i < oids.length; i++) {
    const bytes = readObjectSync(gitdir, oids[i]!, 'blob');
    if (bytes === null) unread.push(i);
    else each(i, bytes);
  }
  if (unread.length === 0) return;
  const repo = GitRepository.at(gitdir);
  for (let i = 0; i < unread.length; i += READ_BATCH) {
    const batch = unread.slice(i, i + READ_BATCH);
    const read = await Promise.all(batch.map((index) => repo.readBlob(oids[index]!)));
    batch.forEach((index, k) => each(index, read[k]!));
  }
}

/** The text of blobs, in the order of `oids`. */
export async function readBlobs(gitdir: string, oids: readonly string[]): Promise<string[]> {
  const texts = new Array<string>(oids.length);
  await eachBlob(gitdir, oids, (index, bytes) => (texts[index] = decoder.decode(bytes)));
  return texts;
}

/**
 * Size and SHA-256 of blobs, in the order of `oids` (a model shard's task: the file hashes of a
 * branch, see features/data-model/files.ts). The hashes come as one string of 64 hex digits each,
 * which crosses to the HTTP thread as one value instead of an object per file.
 */
export async function blobInfos(input: { gitdir: string; oids: string[] }): Promise<{ sizes: number[]; sha256: string }> {
  const sizes = new Array<number>(input.oids.length);
  const hashes = new Array<string>(input.oids.length);
  await eachBlob(input.gitdir, input.oids, (index, bytes) => {
    sizes[index] = bytes.byteLength;
    hashes[index] = createHash('sha256').update(bytes).digest('hex');
  });
  return { sizes, sha256: hashes.join('') };
}

/** A file of a list page: a committed one by blob id, or an uncommitted edit with its text. */
export type PageEntry = { path: string; oid: string } | { path: string; content: string };

/** The files of a list page with their text (`GET …/data-model/files?content=true`). */
export interface FilePage {
  /** How many of the entries the page holds (at least one). */
  count: number;
  /** Those files as a JSON array of `ListedFile`s (keys in the contract's order), in UTF-8. */
  items: Uint8Array;
  /** Size and SHA-256 of each committed file read, by blob id. */
  infos: [string, { size: number; sha256: string }][];
}

const encoder = new TextEncoder();

/**
 * The entries of a list page, in order, until their bytes pass `budget`: a page ends before the
 * file that would take it past the budget, and holds at least one file. The JSON is made here,
 * where the files are read: a page of 1,000 files and 4 MiB serialised by the route held the HTTP
 * thread 35–55 ms (issue 28).
 */
export async function filePageWithin(entries: readonly PageEntry[], budget: number, read: (oid: string) => Promise<Uint8Array>): Promise<FilePage> {
  // Small at first, so a page of a few small files costs little; a full page grows it a few times
  // (about its own size copied in all).
  const json = new Utf8Writer(64 * 1024);
  const infos: FilePage['infos'] = [];
  let count = 0;
  let bytes = 0;
  json.write('[');
  for (const entry of entries) {
    const raw = 'oid' in entry ? await read(entry.oid) : encoder.encode(entry.content);
    if (count > 0 && bytes + raw.byteLength > budget) break;
    bytes += raw.byteLength;
    const sha256 = createHash('sha256').update(raw).digest('hex');
    if ('oid' in entry) infos.push([entry.oid, { size: raw.byteLength, sha256 }]);
    const content = 'oid' in entry ? decoder.decode(raw) : entry.content;
    json.write(`${count > 0 ? ',' : ''}{"path":${JSON.stringify(entry.path)},"size":${raw.byteLength},"sha256":"${sha256}","uncommitted":${'oid' in entry ? 'false' : 'true'},"content":`);
    json.write(JSON.stringify(content));
    json.write('}');
    count++;
  }
  json.write(']');
  return { count, items: json.result(), infos };
}

/** The model source files of a commit, sorted by path. */
export async function modelFilesOfCommit(gitdir: string, commit: string): Promise<ModelFile[]> {
  const tree = await modelTreeOf(gitdir, commit);
  const contents = await readBlobs(gitdir, [...tree.values()]);
  return [...tree.keys()].map((path, i) => ({ path, content: contents[i]! }));
}

/** The git blob id `content` would have (same as `git hash-object`). */
export function blobIdOf(content: string): string {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}
