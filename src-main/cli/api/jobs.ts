// The service's long-running jobs as one vocabulary for the command line: warehouse pushes and
// pulls, lakehouse publication runs and previews, dbt transform syncs and transfers to remote
// profiles (cross-instance promotions and publishes) all share the status
// set QUEUED → RUNNING (→ CANCELLING) → COMPLETED | PARTIAL | FAILED | CANCELLED and a progress
// stage. Job ids are unique across kinds, so a bare id can be looked up in each kind in turn.
import { deploymentsRoutes } from '../../../src-shared/api/deployments';
import { lakehouseRoutes } from '../../../src-shared/api/lakehouse';
import { transformSyncRoutes } from '../../../src-shared/api/transform-sync';
import { warehouseSyncRoutes } from '../../../src-shared/api/warehouse-sync';
import { isApiProblem } from '../../../src-shared/api/client';
import { remoteTransfersRoutes, type RemoteTransfer } from '../../../src-shared/api/remote-transfers';
import { reviewRoutes, type ModelReview } from '../../../src-shared/api/reviews';
import { CliError } from '../output';
import type { Connection } from './connection';
import { listAll } from './resolve';

export const JOB_KINDS = ['push', 'pull', 'publish', 'preview', 'transform', 'transfer', 'review'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
/** Kinds `jobs list` enumerates (previews are short-lived and only reachable by id). */
export const LISTED_KINDS: readonly JobKind[] = ['push', 'pull', 'publish', 'transform', 'transfer'];
export const ACTIVE_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING'] as const;
export const TERMINAL_STATUSES = ['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'] as const;

export interface JobRef {
  kind: JobKind;
  deploymentId: number;
  id: string;
  /** Publication runs live under their lakehouse data source. */
  dataSourceName?: string | null;
}

/** What the command line shows of any job (`--json` prints exactly this). */
export interface JobInfo extends JobRef {
  status: string;
  stage: string;
  percentComplete: number;
  error: { code: string; message: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Root-relative URL of the job's status on the service. */
  statusUrl: string;
}

export const isTerminal = (status: string) => (TERMINAL_STATUSES as readonly string[]).includes(status);

const D = (deploymentId: number) => `/api/v1/deployments/${deploymentId}`;

function fromSyncJob(kind: 'push' | 'pull', deploymentId: number, job: {
  syncJobId: string;
  status: string;
  progress: { stage: string; percentComplete: number };
  error?: { code: string; message: string };
  dataSourceName: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}): JobInfo {
  const path = kind === 'push' ? 'warehouse-semantic-view-syncs' : 'warehouse-semantic-view-pulls';
  return {
    kind,
    deploymentId,
    id: job.syncJobId,
    dataSourceName: job.dataSourceName,
    status: job.status,
    stage: job.progress.stage,
    percentComplete: job.progress.percentComplete,
    error: job.error ? { code: job.error.code, message: job.error.message } : null,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    statusUrl: `${D(deploymentId)}/${path}/${job.syncJobId}`,
  };
}

type RunLike = {
  runId: string;
  dataSourceName: string;
  status: string;
  progress: { stage: string; percentComplete: number };
  error: { code: string; message: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  statusUrl: string;
};

function fromRun(deploymentId: number, run: RunLike): JobInfo {
  return {
    kind: 'publish',
    deploymentId,
    id: run.runId,
    dataSourceName: run.dataSourceName,
    status: run.status,
    stage: run.progress.stage,
    percentComplete: run.progress.percentComplete,
    error: run.error,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    statusUrl: run.statusUrl,
  };
}

function fromPreview(
  deploymentId: number,
  p: Omit<RunLike, 'runId' | 'startedAt'> & { previewId: string },
): JobInfo {
  return { ...fromRun(deploymentId, { ...p, runId: p.previewId, startedAt: null }), kind: 'preview' };
}

function fromTransform(deploymentId: number, job: Omit<Parameters<typeof fromSyncJob>[2], 'dataSourceName'>): JobInfo {
  // A transform sync job has the warehouse sync jobs' shape, without a data source.
  return {
    ...fromSyncJob('push', deploymentId, { ...job, dataSourceName: null }),
    kind: 'transform',
    statusUrl: `${D(deploymentId)}/transform-sync/${job.syncJobId}`,
  };
}

function fromTransfer(t: RemoteTransfer): JobInfo {
  return {
    kind: 'transfer',
    deploymentId: t.source.deploymentId,
    id: t.id,
    dataSourceName: null,
    status: t.status,
    stage: t.progress.stage,
    percentComplete: t.progress.percentComplete,
    error: t.error,
    createdAt: t.createdAt,
    startedAt: null,
    finishedAt: t.finishedAt,
    statusUrl: t.statusUrl,
  };
}

function fromReview(deploymentId: number, r: ModelReview): JobInfo {
  return {
    kind: 'review',
    deploymentId,
    id: r.reviewId,
    dataSourceName: null,
    status: r.status,
    stage: r.progress.stage,
    percentComplete: r.progress.percentComplete,
    error: r.error,
    createdAt: r.createdAt,
    startedAt: null,
    finishedAt: r.finishedAt,
    statusUrl: r.statusUrl,
  };
}

const publishParams = (ref: JobRef) => {
  if (!ref.dataSourceName) throw new CliError('DATA_SOURCE_REQUIRED', `Publication run ${ref.id}: the data source is unknown.`);
  return { deploymentId: ref.deploymentId, dataSourceName: ref.dataSourceName, runId: ref.id };
};

export async function getJob(conn: Connection, ref: JobRef, signal?: AbortSignal): Promise<JobInfo> {
  const c = conn.client;
  const params = { deploymentId: ref.deploymentId, syncJobId: ref.id };
  switch (ref.kind) {
    case 'push':
      return fromSyncJob('push', ref.deploymentId, await c.call(warehouseSyncRoutes.getWarehouseSemanticViewSync, { params, signal }));
    case 'pull':
      return fromSyncJob('pull', ref.deploymentId, await c.call(warehouseSyncRoutes.getWarehouseSemanticViewPull, { params, signal }));
    case 'transform':
      return fromTransform(ref.deploymentId, await c.call(transformSyncRoutes.getTransformSync, { params, signal }));
    case 'publish':
      return fromRun(ref.deploymentId, await c.call(lakehouseRoutes.getLakehouseMetricViewSync, { params: publishParams(ref), signal }));
    case 'preview':
      return fromPreview(
        ref.deploymentId,
        await c.call(lakehouseRoutes.getLakehouseMetricViewPreview, { params: { deploymentId: ref.deploymentId, previewId: ref.id }, signal }),
      );
    case 'transfer':
      return fromTransfer(await c.call(remoteTransfersRoutes.getRemoteTransfer, { params: { transferId: ref.id }, signal }));
    case 'review':
      return fromReview(ref.deploymentId, await c.call(reviewRoutes.getModelReview, { params: { deploymentId: ref.deploymentId, reviewId: ref.id }, signal }));
  }
}

export async function cancelJob(conn: Connection, ref: JobRef): Promise<JobInfo> {
  const c = conn.client;
  const params = { deploymentId: ref.deploymentId, syncJobId: ref.id };
  switch (ref.kind) {
    case 'push':
      return fromSyncJob('push', ref.deploymentId, await c.call(warehouseSyncRoutes.cancelWarehouseSemanticViewSync, { params }));
    case 'pull':
      return fromSyncJob('pull', ref.deploymentId, await c.call(warehouseSyncRoutes.cancelWarehouseSemanticViewPull, { params }));
    case 'transform':
      return fromTransform(ref.deploymentId, await c.call(transformSyncRoutes.cancelTransformSync, { params }));
    case 'publish':
      return fromRun(ref.deploymentId, await c.call(lakehouseRoutes.cancelLakehouseMetricViewSync, { params: publishParams(ref) }));
    case 'preview':
      return fromPreview(
        ref.deploymentId,
        await c.call(lakehouseRoutes.cancelLakehouseMetricViewPreview, { params: { deploymentId: ref.deploymentId, previewId: ref.id } }),
      );
    case 'transfer':
      return fromTransfer(await c.call(remoteTransfersRoutes.cancelRemoteTransfer, { params: { transferId: ref.id } }));
    case 'review':
      return fromReview(ref.deploymentId, await c.call(reviewRoutes.cancelModelReview, { params: { deploymentId: ref.deploymentId, reviewId: ref.id } }));
  }
}

/** The result of a COMPLETED job (a publication run's per-view outcomes are part of the run itself). */
export async function getJobResult(conn: Connection, ref: JobRef): Promise<unknown> {
  const c = conn.client;
  const params = { deploymentId: ref.deploymentId, syncJobId: ref.id };
  switch (ref.kind) {
    case 'push':
      return c.call(warehouseSyncRoutes.getWarehouseSemanticViewSyncResult, { params });
    case 'pull':
      return c.call(warehouseSyncRoutes.getWarehouseSemanticViewPullResult, { params });
    case 'transform':
      return c.call(transformSyncRoutes.getTransformSyncResult, { params });
    case 'publish':
      return c.call(lakehouseRoutes.getLakehouseMetricViewSync, { params: publishParams(ref) });
    case 'preview':
      return c.call(lakehouseRoutes.getLakehouseMetricViewPreviewResult, { params: { deploymentId: ref.deploymentId, previewId: ref.id } });
    case 'transfer':
      return c.call(remoteTransfersRoutes.getRemoteTransfer, { params: { transferId: ref.id } });
    case 'review':
      return c.call(reviewRoutes.getModelReviewResult, { params: { deploymentId: ref.deploymentId, reviewId: ref.id } });
  }
}

/** Lakehouse data sources of a deployment (publication runs live under them). */
export async function lakehouseDataSources(conn: Connection, deploymentId: number): Promise<string[]> {
  const settings = await conn.client.call(deploymentsRoutes.getDeploymentSettings, { params: { deploymentId } });
  return settings.dataSources.filter((ds) => ds.kind === 'lakehouse').map((ds) => ds.name);
}

const notFound = (error: unknown) => isApiProblem(error) && error.status === 404;

/** Finds which kind of job `id` is (and its data source for publication runs). */
export async function findJob(conn: Connection, deploymentId: number, id: string, kind?: JobKind): Promise<JobInfo> {
  const kinds = kind ? [kind] : (['push', 'pull', 'transform', 'transfer', 'preview', 'review', 'publish'] as JobKind[]);
  for (const k of kinds) {
    const refs: JobRef[] =
      k === 'publish'
        ? (await lakehouseDataSources(conn, deploymentId)).map((dataSourceName) => ({ kind: k, deploymentId, id, dataSourceName }))
        : [{ kind: k, deploymentId, id }];
    for (const ref of refs) {
      try {
        return await getJob(conn, ref);
      } catch (error) {
        if (!notFound(error)) throw error;
      }
    }
  }
  throw new CliError('JOB_NOT_FOUND', `Deployment ${deploymentId} has no ${kind ?? 'push, pull, publish, preview, transform, transfer or review'} job ${id}.`);
}

/** Jobs of a deployment, newest first. */
export async function listJobs(
  conn: Connection,
  deploymentId: number,
  options: { kinds?: readonly JobKind[]; activeOnly: boolean; limit: number },
): Promise<JobInfo[]> {
  const kinds = options.kinds?.length ? options.kinds : LISTED_KINDS;
  const status = options.activeOnly ? [...ACTIVE_STATUSES] : undefined;
  const page = (after: string | undefined) => ({ first: Math.min(options.limit, 100), ...(after ? { after } : {}), ...(status ? { status } : {}) });
  const params = { deploymentId };
  const found: JobInfo[] = [];
  for (const kind of ['push', 'pull'] as const) {
    if (!kinds.includes(kind)) continue;
    const jobs = await listAll(
      (after) => conn.client.call(warehouseSyncRoutes.listWarehouseSemanticViewSyncJobs, { params, query: { ...page(after), direction: kind } }),
      options.limit,
    );
    found.push(...jobs.map((j) => fromSyncJob(kind, deploymentId, j)));
  }
  if (kinds.includes('transform')) {
    const jobs = await listAll((after) => conn.client.call(transformSyncRoutes.listTransformSyncs, { params, query: page(after) }), options.limit);
    found.push(...jobs.map((j) => fromTransform(deploymentId, j)));
  }
  if (kinds.includes('publish')) {
    for (const dataSourceName of await lakehouseDataSources(conn, deploymentId)) {
      // Runs have no status filter: read the newest ones and keep the active ones.
      const runs = await listAll(
        (after) =>
          conn.client.call(lakehouseRoutes.listLakehouseMetricViewSyncs, {
            params: { deploymentId, dataSourceName },
            query: { first: Math.min(options.limit, 100), ...(after ? { after } : {}) },
          }),
        options.limit,
      ).catch((error: unknown) => {
        if (notFound(error)) return []; // no publication settings yet: no runs
        throw error;
      });
      found.push(...runs.map((r) => fromRun(deploymentId, r)).filter((j) => !options.activeOnly || !isTerminal(j.status)));
    }
  }
  if (kinds.includes('transfer')) {
    // Transfers need admin; a caller without it simply has none to list.
    const transfers = await listAll(
      (after) => conn.client.call(remoteTransfersRoutes.listRemoteTransfers, { query: { deploymentId, first: Math.min(options.limit, 100), ...(after ? { after } : {}) } }),
      options.limit,
    ).catch((error: unknown) => {
      if (isApiProblem(error) && (error.status === 403 || error.status === 404)) return [];
      throw error;
    });
    found.push(...transfers.map(fromTransfer).filter((j) => !options.activeOnly || !isTerminal(j.status)));
  }
  found.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  return found.slice(0, options.limit);
}
