// What a vendor statement can run against: the deployment's Snowflake and Databricks data sources
// (local emulators or real accounts), and the views pushed or published to them — read from the
// push jobs' results and the publication runs, newest first, each target once.
import { getDeploymentSettings } from '../../../../../src-shared/api/deployments';
import { getLakehouseMetricViewSync, listLakehouseMetricViewSyncs } from '../../../../../src-shared/api/lakehouse';
import { getWarehouseSemanticViewSyncResult, listWarehouseSemanticViewSyncJobs } from '../../../../../src-shared/api/warehouse-sync';
import { api } from '../../../app/session';

export interface VendorDataSource {
  name: string;
  kind: 'warehouse' | 'lakehouse';
  /** "local warehouse (Snowflake SQL)", "Databricks", … */
  label: string;
}

export interface PushedTarget {
  dataSource: string;
  kind: 'warehouse' | 'lakehouse';
  /** Fully qualified name to query, e.g. `ANALYTICS.PUBLIC.SV_PRODUCT_SALES`, `main.default.mv_product_sales`. */
  target: string;
  /** The model view it was made from. */
  viewName: string;
  /** Semantic views: `table.member` names from the DDL, for a first statement. */
  metrics: string[];
  dimensions: string[];
  /** A dev copy (pushed or published from a user's dev branch): that user's tag, e.g. `ALICE`; null for production. */
  devOf: string | null;
}

export interface VendorTargets {
  dataSources: VendorDataSource[];
  targets: PushedTarget[];
  /** Pushes or publications that could not be read (e.g. missing rights), in words. */
  notes: string[];
}

const RECENT = 10;

/** `table.member` items of the DIMENSIONS and METRICS clauses of a CREATE SEMANTIC VIEW. */
export function semanticViewMembers(ddl: string): { metrics: string[]; dimensions: string[] } {
  const out = { metrics: [] as string[], dimensions: [] as string[] };
  let section: 'metrics' | 'dimensions' | null = null;
  for (const line of ddl.split('\n')) {
    if (/^ {2}DIMENSIONS \($/.test(line)) section = 'dimensions';
    else if (/^ {2}METRICS \($/.test(line)) section = 'metrics';
    else if (/^ {2}\S/.test(line)) section = null;
    else if (section) {
      const m = /^ {4}(?:PRIVATE )?((?:"[^"]+"|[A-Za-z_][\w$]*)(?:\.(?:"[^"]+"|[A-Za-z_][\w$]*))?) AS /.exec(line);
      if (m && !line.startsWith('    PRIVATE ')) out[section].push(m[1]!);
    }
  }
  return out;
}

export async function loadVendorTargets(deploymentId: number, signal: AbortSignal): Promise<VendorTargets> {
  const settings = await api.call(getDeploymentSettings, { params: { deploymentId }, signal });
  const dataSources: VendorDataSource[] = settings.dataSources
    .filter((ds): ds is typeof ds & { kind: 'warehouse' | 'lakehouse' } => ds.kind === 'warehouse' || ds.kind === 'lakehouse')
    .map((ds) => ({
      name: ds.name,
      kind: ds.kind,
      label: ds.connector === 'emulator' ? (ds.kind === 'warehouse' ? 'local warehouse · Snowflake SQL' : 'local lakehouse · Databricks SQL') : ds.kind === 'warehouse' ? 'Snowflake' : 'Databricks',
    }));
  const notes: string[] = [];
  const targets: PushedTarget[] = [];
  const seen = new Set<string>();
  const add = (t: PushedTarget) => {
    const key = `${t.dataSource}\u0000${t.target.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    targets.push(t);
  };

  if (dataSources.some((ds) => ds.kind === 'warehouse')) {
    try {
      const jobs = await api.call(listWarehouseSemanticViewSyncJobs, { params: { deploymentId }, query: { direction: 'push', status: ['COMPLETED'], first: RECENT }, signal });
      const results = await Promise.all(jobs.items.map((job) => api.call(getWarehouseSemanticViewSyncResult, { params: { deploymentId, syncJobId: job.syncJobId }, signal }).catch(() => null)));
      for (const result of results) {
        for (const view of result?.views ?? []) {
          add({ dataSource: view.dataSourceName, kind: 'warehouse', target: view.qualifiedName, viewName: view.viewName, ...semanticViewMembers(view.ddl), devOf: result?.devTarget?.userTag ?? null });
        }
      }
    } catch (error) {
      if (signal.aborted) throw error;
      notes.push('The pushed semantic views could not be listed (reading pushes needs access to the model).');
    }
  }
  for (const ds of dataSources.filter((d) => d.kind === 'lakehouse')) {
    try {
      const runs = await api.call(listLakehouseMetricViewSyncs, { params: { deploymentId, dataSourceName: ds.name }, query: { first: RECENT }, signal });
      const full = await Promise.all(runs.items.map((run) => api.call(getLakehouseMetricViewSync, { params: { deploymentId, dataSourceName: ds.name, runId: run.runId }, signal }).catch(() => null)));
      for (const run of full) {
        for (const view of run?.views ?? []) {
          if (view.target && ['created', 'updated', 'unchanged'].includes(view.outcome)) add({ dataSource: ds.name, kind: 'lakehouse', target: view.target, viewName: view.viewName, metrics: [], dimensions: [], devOf: run?.devTarget?.userTag ?? null });
        }
      }
    } catch (error) {
      if (signal.aborted) throw error;
      // No publication settings for this data source yet: nothing published.
    }
  }
  return { dataSources, targets, notes };
}
