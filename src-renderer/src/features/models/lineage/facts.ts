// What the lineage graph needs beyond the model, read through the typed client from operations the
// app already uses: the newest push of each view (warehouse semantic views), the newest successful
// publication run of each lakehouse data source (metric views), and the dashboards (draft and
// published) whose widget queries name cubes or views. A part the caller may not read (or that
// fails) is left out and named in `unavailable`, so the graph still shows the rest.
import { getDeploymentSettings } from '../../../../../src-shared/api/deployments';
import { getLakehouseMetricViewSync, listLakehouseMetricViewSyncs, SUCCESSFUL_RUN_OUTCOMES } from '../../../../../src-shared/api/lakehouse';
import { getWarehouseSemanticViewSyncResult, listWarehouseSemanticViewSyncJobs } from '../../../../../src-shared/api/warehouse-sync';
import { getWorkbook, listWorkbooks, type DashboardWidget } from '../../../../../src-shared/api/workbooks';
import { api } from '../../../app/session';
import { mapLimit } from '../../../lib/mapLimit';
import { fetchAllPages } from '../../../lib/paging';
import { queryUses, type LineageFacts } from './graph';

/** Push jobs read for their views (newest first); older pushes were replaced by these. */
const PUSHES_READ = 10;
const CONCURRENCY = 4;

export interface LoadedFacts {
  facts: LineageFacts;
  /** Parts that could not be read, in words. */
  unavailable: string[];
}

async function pushes(deploymentId: number, signal: AbortSignal): Promise<LineageFacts['pushes']> {
  const jobs = await api.call(listWarehouseSemanticViewSyncJobs, { params: { deploymentId }, query: { direction: 'push', status: ['COMPLETED'], first: PUSHES_READ }, signal });
  const results = await mapLimit(jobs.items, CONCURRENCY, (job) => api.call(getWarehouseSemanticViewSyncResult, { params: { deploymentId, syncJobId: job.syncJobId }, signal }));
  const newest = new Map<string, LineageFacts['pushes'][number]>();
  // Jobs come newest first: the first push of a view is its current semantic view.
  for (const result of results) {
    for (const view of result.views) {
      if (!newest.has(view.viewName)) newest.set(view.viewName, { viewName: view.viewName, semanticView: view.qualifiedName, syncJobId: result.syncJobId, branchName: result.branchName });
    }
  }
  return [...newest.values()];
}

async function publications(deploymentId: number, signal: AbortSignal): Promise<LineageFacts['publications']> {
  const settings = await api.call(getDeploymentSettings, { params: { deploymentId }, signal });
  const lakehouses = settings.dataSources.filter((d) => d.kind === 'lakehouse');
  const found = await mapLimit(lakehouses, CONCURRENCY, async (source) => {
    const runs = await api.call(listLakehouseMetricViewSyncs, { params: { deploymentId, dataSourceName: source.name }, query: { first: 20 }, signal });
    const last = runs.items.find((r) => r.status === 'COMPLETED' || r.status === 'PARTIAL');
    if (!last) return [];
    const run = await api.call(getLakehouseMetricViewSync, { params: { deploymentId, dataSourceName: source.name, runId: last.runId }, signal });
    return run.views
      .filter((v) => v.target !== null && SUCCESSFUL_RUN_OUTCOMES.includes(v.outcome))
      .map((v) => ({ viewName: v.viewName, target: v.target!, dataSourceName: source.name, runId: run.runId }));
  });
  return found.flat();
}

async function dashboards(deploymentId: number, signal: AbortSignal): Promise<LineageFacts['dashboards']> {
  const workbooks = await fetchAllPages((after) => api.call(listWorkbooks, { params: { deploymentId }, query: { first: 500, ...(after ? { after } : {}) }, signal }), 500);
  const details = await mapLimit(workbooks, CONCURRENCY, (w) => api.call(getWorkbook, { params: { deploymentId, workbookId: w.id }, signal }));
  return details.map((w) => {
    const widgets = [...(w.dashboardPublished?.widgets ?? []), ...(w.dashboardDraft?.widgets ?? [])] as DashboardWidget[];
    const uses = new Set<string>();
    for (const widget of widgets) {
      const query = (widget.config as Record<string, unknown> | null | undefined)?.query;
      if (query && typeof query === 'object' && !Array.isArray(query)) for (const name of queryUses(query as Record<string, unknown>)) uses.add(name);
    }
    return { workbookId: w.id, name: w.name, uses: [...uses] };
  });
}

export async function loadLineageFacts(deploymentId: number, signal: AbortSignal): Promise<LoadedFacts> {
  const unavailable: string[] = [];
  const settle = async <T>(what: string, read: Promise<T>, empty: T): Promise<T> => {
    try {
      return await read;
    } catch (error) {
      if (signal.aborted) throw error;
      unavailable.push(`${what} (${error instanceof Error ? error.message : String(error)})`);
      return empty;
    }
  };
  const [p, m, d] = await Promise.all([
    settle('pushed semantic views', pushes(deploymentId, signal), []),
    settle('published metric views', publications(deploymentId, signal), []),
    settle('dashboards', dashboards(deploymentId, signal), []),
  ]);
  return { facts: { pushes: p, publications: m, dashboards: d }, unavailable };
}
