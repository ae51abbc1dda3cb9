import { LRUCache } from 'lru-cache';
import { getDataModelFiles, type FileList, type ListedFile } from '../../../../src-shared/api/data-model';
import { isModelSourcePath, type ModelFile } from '../../../../src-shared/model';
import { api } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import type { ModelViewInfo, ModelViews, ViewsAnswer } from './views';
import ViewsWorker from './views.worker?worker';

export type { ModelViewInfo, ModelViews } from './views';

/** Compiled views by what they were compiled from; the least recently used go first. */
const cache = new LRUCache<string, ModelViews>({ max: 16 });

/**
 * Views of `branchName` (default: the service's default branch), compiled once per file set. A
 * branch without uncommitted changes is known by its commit, read from a one-file page; one with
 * them by every model file's hash. Naming every compile by hashes would have the service hash each
 * file of the branch (12,500 at 10,000 cubes) before the cache is even looked at.
 */
export async function loadModelViews(deploymentId: number, branchName: string | undefined, signal?: AbortSignal): Promise<ModelViews> {
  const query = (after: string | undefined, content: boolean, first = 1000) => ({ ...(branchName ? { branchName } : {}), first, ...(content ? { content } : {}), ...(after ? { after } : {}) });
  const list = async (after: string | undefined, content: boolean, first?: number) =>
    (await api.call(getDataModelFiles, { params: { deploymentId }, query: query(after, content, first), signal })) as FileList;
  const head = await list(undefined, false, 1);
  // The whole branch, however many files: views compiled from part of the model would be wrong.
  const known = head.hasUncommittedChanges ? hashKey(deploymentId, head.branchName, await fetchAllPages((after) => list(after, false), Infinity)) : commitKey(deploymentId, head);
  const hit = cache.get(known);
  if (hit) return hit;
  // Every file's text, a few pages for the whole branch; the key says what these pages hold (the
  // branch may have moved since the first page).
  const pages: FileList[] = [];
  const withContent = await fetchAllPages(async (after) => {
    const page = await list(after, true);
    pages.push(page);
    return page;
  }, Infinity);
  const last = pages[pages.length - 1]!;
  const clean = pages.every((page) => page.commit === last.commit && !page.hasUncommittedChanges);
  const key = clean ? commitKey(deploymentId, last) : hashKey(deploymentId, last.branchName, withContent);
  const contents = withContent.filter((f) => isModelSourcePath(f.path) && f.content !== undefined);
  const compiled = await compileViews(contents.map((c) => ({ path: c.path, content: c.content! })), signal);
  const result: ModelViews = { branchName: last.branchName, commit: last.commit, ...compiled };
  cache.set(key, result);
  return result;
}

const commitKey = (deploymentId: number, page: FileList) => `${deploymentId}|${page.branchName}|commit:${page.commit}`;

const hashKey = (deploymentId: number, branch: string, files: ListedFile[]) =>
  `${deploymentId}|${branch}|${files
    .filter((f) => isModelSourcePath(f.path))
    .map((f) => `${f.path}:${f.sha256}`)
    .join(',')}`;

/** The views of `files` compiled on a worker of their own (one per compile; `signal` ends it). */
function compileViews(files: ModelFile[], signal?: AbortSignal): Promise<{ views: ModelViewInfo[]; errorCount: number }> {
  return new Promise((resolve, reject) => {
    const worker = new ViewsWorker();
    const done = () => {
      worker.terminate();
      signal?.removeEventListener('abort', aborted);
    };
    const aborted = () => {
      done();
      reject(signal!.reason ?? new DOMException('The read was cancelled.', 'AbortError'));
    };
    if (signal?.aborted) return aborted();
    signal?.addEventListener('abort', aborted);
    worker.onmessage = (event: MessageEvent<ViewsAnswer>) => {
      done();
      if ('failure' in event.data) reject(new Error(`Compiling the branch's views failed: ${event.data.failure}`));
      else resolve(event.data);
    };
    worker.onerror = (event) => {
      done();
      reject(new Error(`The views compiler could not run: ${event.message || 'it did not start'}.`));
    };
    worker.postMessage(files);
  });
}
