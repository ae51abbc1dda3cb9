import {
  WarehouseSyncErrorCodes as Codes,
  type PullResult,
  type PushResult,
  type StartPullInput,
  type StartPushInput,
  type SyncDirection,
  type SyncJob,
  type SyncJobStatus,
} from '../../../src-shared/api/warehouse-sync';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import type { PageRequest, PageResult } from '../../http/pagination';
import { ApiError } from '../../http/problem';
import { getJobRunner, type Job } from '../../platform/jobs';
import { authorOf, checkOutputPath, getBranchHead, getDeployBranch } from '../data-model';
import { PULL_KIND, runPull, type PullJobInputs, type PullJobResult } from './pull';
import { planPush, PUSH_KIND, runPush, type PushJobInputs, type PushJobResult } from './push';
import { requestedPlacement, type PushPlacement } from './push-plan';
import { devPlacementFor } from '../dev-targets';
import type { PushDevTarget } from '../../../src-shared/api/warehouse-sync';
import { warehouseDataSource } from './warehouse';

const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const KIND_OF: Record<SyncDirection, string> = { push: PUSH_KIND, pull: PULL_KIND };
const DIRECTION_OF: Record<string, SyncDirection> = { [PUSH_KIND]: 'push', [PULL_KIND]: 'pull' };
const PATH_OF: Record<SyncDirection, string> = { push: 'warehouse-semantic-view-syncs', pull: 'warehouse-semantic-view-pulls' };

/** Declares the push and pull job kinds (every process serving the data dir does, so any can resume them). */
export function registerWarehouseSyncJobs(ctx: ServiceContext): void {
  const runner = getJobRunner(ctx);
  if (runner.isRegistered(PUSH_KIND)) return;
  runner.register<PushJobInputs, PushJobResult>(PUSH_KIND, (job, jobCtx) => runPush(ctx, job, jobCtx), {
    concurrency: 2,
    maxAttempts: 3,
    retentionMs: RETENTION_MS,
  });
  runner.register<PullJobInputs, PullJobResult>(PULL_KIND, (job, jobCtx) => runPull(ctx, job, jobCtx), {
    concurrency: 2,
    maxAttempts: 3,
    retentionMs: RETENTION_MS,
  });
}

/** The request without absent optional fields, so equal requests hash equally. */
const cleaned = <T extends object>(request: T): T => JSON.parse(JSON.stringify(request)) as T;

function started(job: Job, direction: SyncDirection) {
  return {
    syncJobId: job.id,
    workflowId: job.workflowId,
    statusUrl: `/api/v1/deployments/${job.deploymentId}/${PATH_OF[direction]}/${job.id}`,
  };
}

/**
 * Where a push from `branchName` writes: as asked, or — from a personal dev branch — the owner's
 * per-user schema (views and helper views) or name prefix (views and helper views), so a dev push
 * never replaces the production semantic views.
 */
function pushPlacement(ctx: ServiceContext, deploymentId: number, branchName: string, request: StartPushInput): { placement: PushPlacement; devTarget: PushDevTarget | null } {
  const asked = requestedPlacement(request);
  const { placement, dev } = devPlacementFor(ctx, deploymentId, branchName, { schema: asked.schema, prefix: asked.prefix });
  if (!dev) return { placement: asked, devTarget: null };
  const helper = devPlacementFor(ctx, deploymentId, branchName, { schema: asked.helperSchema, prefix: '' }).placement;
  return {
    placement: { schema: placement.schema, prefix: placement.prefix, helperSchema: helper.schema, helperNamePrefix: helper.prefix, defaultSchema: asked.schema },
    devTarget: {
      ownerUserId: dev.ownerUserId,
      userTag: dev.userTag,
      mode: dev.rule.mode,
      template: dev.rule.template,
      requestedSchema: asked.schema,
      requestedPrefix: asked.prefix,
      schema: placement.schema,
      prefix: placement.prefix,
    },
  };
}

/** Validates a push against the model at the branch head and queues it (202). */
export async function startPush(ctx: ServiceContext, deploymentId: number, body: StartPushInput, principal: Principal) {
  const runner = getJobRunner(ctx);
  const request = cleaned(body);
  const replay = runner.findReplay({ kind: PUSH_KIND, deploymentId, inputs: null, idempotencyKey: request.idempotencyKey, idempotencyInputs: request });
  if (replay) return started(replay, 'push');
  const branchName = request.branchName ?? (await getDeployBranch(ctx, deploymentId));
  const commit = await getBranchHead(ctx, deploymentId, branchName);
  const { placement, devTarget } = pushPlacement(ctx, deploymentId, branchName, request);
  await planPush(ctx, deploymentId, commit, request, placement);
  const job = runner.enqueue<PushJobInputs>({
    kind: PUSH_KIND,
    deploymentId,
    inputs: { request, branchName, commit, placement, devTarget },
    idempotencyKey: request.idempotencyKey ?? null,
    idempotencyInputs: request,
    createdBy: principal.userId,
  });
  return started(job, 'push');
}

/** Validates a pull (output folder, branch, data source) and queues it (202). */
export async function startPull(ctx: ServiceContext, deploymentId: number, body: StartPullInput, principal: Principal) {
  const runner = getJobRunner(ctx);
  const request = cleaned(body);
  const replay = runner.findReplay({ kind: PULL_KIND, deploymentId, inputs: null, idempotencyKey: request.idempotencyKey, idempotencyInputs: request });
  if (replay) return started(replay, 'pull');
  const outputPath = checkOutputPath(request.outputPath);
  const branchName = request.branchName ?? (await getDeployBranch(ctx, deploymentId));
  await getBranchHead(ctx, deploymentId, branchName);
  const dataSource = warehouseDataSource(ctx, deploymentId, request.dataSourceName ?? 'default');
  const job = runner.enqueue<PullJobInputs>({
    kind: PULL_KIND,
    deploymentId,
    inputs: { request, branchName, dataSourceName: dataSource.name, outputPath, author: authorOf(principal) },
    idempotencyKey: request.idempotencyKey ?? null,
    idempotencyInputs: request,
    createdBy: principal.userId,
  });
  return started(job, 'pull');
}

function findJob(ctx: ServiceContext, deploymentId: number, syncJobId: string, direction: SyncDirection): Job {
  const job = getJobRunner(ctx).get(syncJobId, { deploymentId, kinds: [KIND_OF[direction]] });
  if (!job) throw new ApiError(404, Codes.SYNC_JOB_NOT_FOUND, `Deployment ${deploymentId} has no warehouse ${direction} job ${syncJobId}.`);
  return job;
}

/** Warnings of a job's result: a push's per view, a pull's per generated file. */
function warningCountOf(job: Job): number {
  if (job.kind === PUSH_KIND) return ((job.result as PushJobResult).views ?? []).reduce((n, v) => n + v.warnings.length, 0);
  const files = (job.result as { generatedFiles?: { warnings: unknown[] }[] }).generatedFiles ?? [];
  return files.reduce((n, f) => n + f.warnings.length, 0);
}

export function toSyncJob(job: Job): SyncJob {
  const inputs = job.inputs as { request: SyncJob['request']; branchName: string; dataSourceName?: string; devTarget?: PushDevTarget | null };
  return {
    syncJobId: job.id,
    workflowId: job.workflowId,
    direction: DIRECTION_OF[job.kind]!,
    status: job.status,
    progress: job.progress,
    ...(job.status === 'FAILED' && job.error ? { error: job.error } : {}),
    ...(job.status === 'CANCELLED' && job.kind === PUSH_KIND && job.result ? { written: (job.result as PushJobResult).views.map((v) => v.semanticViewName) } : {}),
    ...(job.result ? { warningCount: warningCountOf(job) } : {}),
    request: inputs.request,
    ...(inputs.devTarget ? { devTarget: inputs.devTarget } : {}),
    branchName: inputs.branchName,
    dataSourceName: inputs.dataSourceName ?? null,
    createdBy: job.createdBy,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    attempts: job.attempts,
  };
}

export function getSyncJob(ctx: ServiceContext, deploymentId: number, syncJobId: string, direction: SyncDirection): SyncJob {
  return toSyncJob(findJob(ctx, deploymentId, syncJobId, direction));
}

function completed(job: Job, direction: SyncDirection) {
  if (job.status !== 'COMPLETED' || !job.result || !job.finishedAt) {
    const ended = job.status === 'FAILED' || job.status === 'CANCELLED' || job.status === 'PARTIAL';
    throw new ApiError(
      409,
      Codes.SYNC_JOB_NOT_COMPLETED,
      ended
        ? `The ${direction} job ${job.id} ended ${job.status}; it has no result.${job.error ? ` ${job.error.message}` : ''}`
        : `The ${direction} job ${job.id} is ${job.status} (${job.progress.stage}, ${job.progress.percentComplete}%); its result is available once it is COMPLETED.`,
      { jobStatus: job.status },
    );
  }
  const finished = job.finishedAt;
  return {
    syncJobId: job.id,
    completedAt: finished,
    durationMs: Math.max(0, new Date(finished).getTime() - new Date(job.startedAt ?? job.createdAt).getTime()),
  };
}

export function getPushResult(ctx: ServiceContext, deploymentId: number, syncJobId: string): PushResult {
  const job = findJob(ctx, deploymentId, syncJobId, 'push');
  const meta = completed(job, 'push');
  // Results stored before dev targets lack `devTarget` and `ensuredSchemas`.
  const result = { devTarget: null, ensuredSchemas: [], ...(job.result as Partial<PushJobResult>) } as PushJobResult;
  return { ...meta, viewCount: result.views.length, ...result };
}

export function getPullResult(ctx: ServiceContext, deploymentId: number, syncJobId: string): PullResult {
  const job = findJob(ctx, deploymentId, syncJobId, 'pull');
  const meta = completed(job, 'pull');
  const result = job.result as PullJobResult;
  return { ...meta, viewCount: result.generatedFiles.length, ...result };
}

export function listSyncJobs(
  ctx: ServiceContext,
  deploymentId: number,
  filter: { statuses?: SyncJobStatus[]; direction?: SyncDirection },
  page: PageRequest,
): PageResult<SyncJob> {
  const jobs = getJobRunner(ctx).list(
    {
      deploymentId,
      kinds: filter.direction ? [KIND_OF[filter.direction]] : [PUSH_KIND, PULL_KIND],
      ...(filter.statuses && filter.statuses.length ? { statuses: filter.statuses } : {}),
    },
    page,
  );
  return { items: jobs.items.map(toSyncJob), pageInfo: jobs.pageInfo };
}

export function cancelSyncJob(ctx: ServiceContext, deploymentId: number, syncJobId: string, direction: SyncDirection): SyncJob {
  findJob(ctx, deploymentId, syncJobId, direction);
  return toSyncJob(getJobRunner(ctx).requestCancel(syncJobId)!);
}
