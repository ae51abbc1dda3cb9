import { getDataModelFiles, type FileList, type ListedFile } from '../../../../src-shared/api/data-model';
import { isModelSourcePath, type ModelFile } from '../../../../src-shared/model';
import { api } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import type { ModelViewInfo, ModelViews, ViewsAnswer } from './views';
import ViewsWorker from './views.worker?worker';

export type { ModelViewInfo, ModelViews } from './views';

const cache = new Map<string, ModelViews>();

/** Views of `branchName` (default: the service's default branch), compiled once per file set. */
export async function loadModelViews(deploymentId: number, branchName: string | undefined, signal?: AbortSignal): Promise<ModelViews> {
  const query = (after: string | undefined, content: boolean) => ({ ...(branchName ? { branchName } : {}), first: 1000, ...(content ? { content } : {}), ...(after ? { after } : {}) });
  let listed: FileList | null = null;
  // The whole branch, however many files: views compiled from part of the model would be wrong.
  const files = await fetchAllPages(async (after) => {
    listed = (await api.call(getDataModelFiles, { params: { deploymentId }, query: query(after, false), signal })) as FileList;
    return listed;
  }, Infinity);
  const head = listed as FileList | null;
  const sources = files.filter((f: ListedFile) => isModelSourcePath(f.path));
  const key = `${deploymentId}|${head?.branchName ?? branchName ?? ''}|${sources.map((f) => `${f.path}:${f.sha256}`).join(',')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // Every file's text, a few pages for the whole branch.
  const withContent = await fetchAllPages(async (after) => (await api.call(getDataModelFiles, { params: { deploymentId }, query: query(after, true), signal })) as FileList, Infinity);
  const contents = withContent.filter((f) => isModelSourcePath(f.path) && f.content !== undefined);
  const compiled = await compileViews(contents.map((c) => ({ path: c.path, content: c.content! })), signal);
  const result: ModelViews = { branchName: head?.branchName ?? branchName ?? '', commit: head?.commit ?? '', ...compiled };
  cache.set(key, result);
  return result;
}

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
