import { getDataModelFiles, type FileList, type ListedFile } from '../../../../src-shared/api/data-model';
import { compileModel, isModelSourcePath } from '../../../../src-shared/model';
import { api } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import { viewsOf, type ModelViews } from './views';

export type { ModelViewInfo, ModelViews } from './views';

const cache = new Map<string, ModelViews>();

/** Views of `branchName` (default: the service's default branch), compiled once per file set. */
export async function loadModelViews(deploymentId: number, branchName: string | undefined, signal?: AbortSignal): Promise<ModelViews> {
  const query = (after: string | undefined, content: boolean) => ({ ...(branchName ? { branchName } : {}), first: 1000, ...(content ? { content } : {}), ...(after ? { after } : {}) });
  let listed: FileList | null = null;
  const files = await fetchAllPages(async (after) => {
    listed = (await api.call(getDataModelFiles, { params: { deploymentId }, query: query(after, false), signal })) as FileList;
    return listed;
  });
  const head = listed as FileList | null;
  const sources = files.filter((f: ListedFile) => isModelSourcePath(f.path));
  const key = `${deploymentId}|${head?.branchName ?? branchName ?? ''}|${sources.map((f) => `${f.path}:${f.sha256}`).join(',')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // Every file's text, a few pages for the whole branch.
  const withContent = await fetchAllPages(async (after) => (await api.call(getDataModelFiles, { params: { deploymentId }, query: query(after, true), signal })) as FileList);
  const contents = withContent.filter((f) => isModelSourcePath(f.path) && f.content !== undefined);
  const compiled = compileModel(contents.map((c) => ({ path: c.path, content: c.content! })));
  const result: ModelViews = {
    branchName: head?.branchName ?? branchName ?? '',
    commit: head?.commit ?? '',
    views: viewsOf(compiled.model),
    errorCount: compiled.diagnostics.filter((d) => d.severity === 'error').length,
  };
  cache.set(key, result);
  return result;
}
