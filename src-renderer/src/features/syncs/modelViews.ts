import { getDataModelFiles, type FileContent, type FileList, type FileSummary } from '../../../../src-shared/api/data-model';
import { compileModel, isModelSourcePath } from '../../../../src-shared/model';
import { api } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import { viewsOf, type ModelViews } from './views';
import { mapLimit } from '../../lib/mapLimit';

export type { ModelViewInfo, ModelViews } from './views';

const cache = new Map<string, ModelViews>();
const CONTENT_CONCURRENCY = 8;

/** Views of `branchName` (default: the service's default branch), compiled once per file set. */
export async function loadModelViews(deploymentId: number, branchName: string | undefined, signal?: AbortSignal): Promise<ModelViews> {
  const query = (after: string | undefined) => ({ ...(branchName ? { branchName } : {}), first: 1000, ...(after ? { after } : {}) });
  let listed: FileList | null = null;
  const files = await fetchAllPages(async (after) => {
    listed = (await api.call(getDataModelFiles, { params: { deploymentId }, query: query(after), signal })) as FileList;
    return listed;
  });
  const head = listed as FileList | null;
  const sources = files.filter((f: FileSummary) => isModelSourcePath(f.path));
  const key = `${deploymentId}|${head?.branchName ?? branchName ?? ''}|${sources.map((f) => `${f.path}:${f.sha256}`).join(',')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const contents = await mapLimit(sources, CONTENT_CONCURRENCY, async (f) =>
    (await api.call(getDataModelFiles, { params: { deploymentId }, query: { ...(branchName ? { branchName } : {}), path: f.path }, signal })) as FileContent,
  );
  const compiled = compileModel(contents.map((c) => ({ path: c.path, content: c.content })));
  const result: ModelViews = {
    branchName: head?.branchName ?? branchName ?? '',
    commit: head?.commit ?? '',
    views: viewsOf(compiled.model),
    errorCount: compiled.diagnostics.filter((d) => d.severity === 'error').length,
  };
  cache.set(key, result);
  return result;
}
