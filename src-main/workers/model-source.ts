// Reading model files straight from a deployment's git repository inside a worker thread: the
// objects are immutable and addressed by id, so a worker reads them safely while the HTTP thread
// writes new commits. Inflating blobs (pure JavaScript) stays off the HTTP thread.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isModelSourcePath, type ModelFile } from '../../src-shared/model';
import { GitRepository } from '../platform/repo';

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

/** The text of blobs, in the order of `oids`. */
export async function readBlobs(gitdir: string, oids: string[]): Promise<string[]> {
  const repo = GitRepository.at(gitdir);
  const texts: string[] = [];
  for (let i = 0; i < oids.length; i += READ_BATCH) {
    const batch = await Promise.all(oids.slice(i, i + READ_BATCH).map((oid) => repo.readBlob(oid)));
    for (const bytes of batch) texts.push(decoder.decode(bytes));
  }
  return texts;
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
