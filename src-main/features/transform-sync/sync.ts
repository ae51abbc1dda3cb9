import { createHash } from 'node:crypto';
import {
  DEFAULT_MANIFEST_PATH,
  DEFAULT_TRANSFORM_OUTPUT_PATH,
  GENERATED_FILES_RETENTION_MS,
  TransformSyncErrorCodes as Codes,
  type StartTransformSyncInput,
  type TransformSyncJob,
  type TransformSyncResult,
} from '../../../src-shared/api/transform-sync';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { DEFAULT_PAGE_SIZE, encodeCursor, pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { ApiError, invalidField } from '../../http/problem';
import { getJobRunner, JobFailure, yieldToEventLoop, type Job, type JobContext, type JobStatus } from '../../platform/jobs';
import { runCompute } from '../../workers/run';
import { authorOf, checkOutputPath, commitFiles, getBranchHead, modelRepositoryDir, type Signature } from '../data-model';
import { appendDeploymentLog, getDeployBranch } from '../deployments';
import { checkManifest, ManifestError, type GenerationStats } from './dbt';
import { readManifestFromGit, readManifestFromRepository } from './git-source';
import { getGitHostConnection } from '../git-host';

export const TRANSFORM_SYNC_KIND = 'transform-sync';

type Source = 'git' | 'manifest';
type Output = 'branch' | 'files';
type Trigger = 'manual' | 'commit';

export interface TransformJobInputs {
  /** The request as sent, the manifest replaced by its SHA-256 (history shows it; the job reads `manifest`). */
  request: Record<string, unknown>;
  source: Source;
  ref: string | null;
  manifestPath: string | null;
  /** `source: git` of a deployment connected to a repository host: that repository (else the deployment's own). */
  repository?: { owner: string; repo: string; path: string } | null;
  manifest: unknown;
  branchName: string;
  output: Output;
  outputPath: string;
  trigger: Trigger;
  author: Signature;
}

export interface TransformJobResult {
  commit: string | null;
  stats: GenerationStats & { files: number };
  files: { path: string; cube: string; model: string; status: 'added' | 'modified' | 'deleted' | 'unchanged' | 'generated' }[];
  removedFiles: string[];
  warnings: string[];
  filesExpireAt: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const started = (job: Job<TransformJobInputs>) => ({
  branchName: job.inputs.branchName,
  syncJobId: job.id,
  workflowId: job.workflowId,
  statusUrl: `/api/v1/deployments/${job.deploymentId}/transform-sync/${job.id}`,
});

/** Validates a start request and queues the run (202). */
export async function startTransformSync(ctx: ServiceContext, deploymentId: number, body: StartTransformSyncInput, principal: Principal) {
  const source: Source = body.source ?? (body.manifest !== undefined ? 'manifest' : 'git');
  if (source === 'manifest') {
    if (body.manifest === undefined) throw invalidField('/body/manifest', '`source: manifest` needs the dbt manifest in `manifest`.');
    if (body.manifestPath !== undefined) throw invalidField('/body/manifestPath', '`manifestPath` is read only with `source: git`.');
    try {
      checkManifest(body.manifest);
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      throw new ApiError(400, Codes.INVALID_MANIFEST, error.message, { errors: [{ pointer: '/body/manifest', detail: error.message }] });
    }
  } else if (body.manifest !== undefined) {
    throw invalidField('/body/manifest', '`source: git` reads the manifest from the repository; send `manifest` only with `source: manifest`.');
  }
  const { manifest, ...rest } = body;
  const request: Record<string, unknown> = JSON.parse(JSON.stringify({ ...rest, source }));
  if (manifest !== undefined) request.manifestSha256 = sha256(JSON.stringify(manifest));
  const runner = getJobRunner(ctx);
  const replay = runner.findReplay<TransformJobInputs>({
    kind: TRANSFORM_SYNC_KIND,
    deploymentId,
    inputs: null as never,
    idempotencyKey: body.idempotencyKey,
    idempotencyInputs: request,
  });
  if (replay) return started(replay);
  const outputPath = checkOutputPath(body.outputPath ?? DEFAULT_TRANSFORM_OUTPUT_PATH);
  const branchName = body.branchName ?? getDeployBranch(ctx, deploymentId);
  // Like pushes and pulls: an unknown branch is refused up front (404 BRANCH_NOT_FOUND), not queued to fail.
  await getBranchHead(ctx, deploymentId, branchName);
  const connected = source === 'git' ? getGitHostConnection(ctx, deploymentId) : null;
  // A repository connected by URL is fetched into the deployment's own: read it there (the deploy branch tracks its branch).
  const connection = connected?.provider === 'url' ? null : connected;
  const projectFolder = connected?.provider === 'url' && connected.path ? `${connected.path}/` : '';
  const job = enqueue(ctx, deploymentId, {
    request,
    source,
    ref: source === 'git' ? (body.ref ?? connection?.branch ?? branchName) : (body.ref ?? null),
    manifestPath: source === 'git' ? projectFolder + (body.manifestPath ?? DEFAULT_MANIFEST_PATH) : null,
    repository: connection ? { owner: connection.owner, repo: connection.repo, path: connection.path } : null,
    manifest: manifest ?? null,
    branchName,
    output: body.output ?? 'branch',
    outputPath,
    trigger: 'manual',
    author: authorOf(principal),
  }, principal.userId, body.idempotencyKey ?? null);
  return started(job);
}

function enqueue(ctx: ServiceContext, deploymentId: number, inputs: TransformJobInputs, createdBy: number | null, idempotencyKey: string | null) {
  return getJobRunner(ctx).enqueue<TransformJobInputs>({
    kind: TRANSFORM_SYNC_KIND,
    deploymentId,
    inputs,
    idempotencyKey,
    idempotencyInputs: inputs.request,
    createdBy,
  });
}

function findJob(ctx: ServiceContext, deploymentId: number, syncJobId: string): Job<TransformJobInputs, TransformJobResult> {
  const job = getJobRunner(ctx).get<TransformJobInputs, TransformJobResult>(syncJobId, { deploymentId, kinds: [TRANSFORM_SYNC_KIND] });
  if (!job) throw new ApiError(404, Codes.TRANSFORM_SYNC_NOT_FOUND, `Deployment ${deploymentId} has no transform sync ${syncJobId}.`);
  return job;
}

export function toSyncJob(job: Job<TransformJobInputs>): TransformSyncJob {
  const i = job.inputs;
  return {
    syncJobId: job.id,
    workflowId: job.workflowId,
    status: job.status,
    progress: job.progress,
    ...(job.status === 'FAILED' && job.error ? { error: job.error } : {}),
    source: i.source,
    ref: i.ref,
    manifestPath: i.manifestPath,
    repository: i.repository ? `${i.repository.owner}/${i.repository.repo}` : null,
    branchName: i.branchName,
    output: i.output,
    outputPath: i.outputPath,
    trigger: i.trigger,
    createdBy: job.createdBy,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    attempts: job.attempts,
  };
}

export const getTransformSync = (ctx: ServiceContext, deploymentId: number, syncJobId: string): TransformSyncJob =>
  toSyncJob(findJob(ctx, deploymentId, syncJobId));

export function cancelTransformSync(ctx: ServiceContext, deploymentId: number, syncJobId: string): TransformSyncJob {
  findJob(ctx, deploymentId, syncJobId);
  return toSyncJob(getJobRunner(ctx).requestCancel(syncJobId) as Job<TransformJobInputs>);
}

/**
 * History, newest first. The trigger lives in the job's inputs, so with a `trigger` filter the
 * pages are cut from the filtered sequence (walking the job list in batches).
 */
export function listTransformSyncs(
  ctx: ServiceContext,
  deploymentId: number,
  filter: { statuses?: JobStatus[]; trigger?: Trigger },
  page: PageRequest,
): PageResult<TransformSyncJob> {
  const runner = getJobRunner(ctx);
  const jobFilter = { deploymentId, kinds: [TRANSFORM_SYNC_KIND], ...(filter.statuses?.length ? { statuses: filter.statuses } : {}) };
  if (!filter.trigger) {
    const jobs = runner.list(jobFilter, page);
    return { items: jobs.items.map((job) => toSyncJob(job as Job<TransformJobInputs>)), pageInfo: jobs.pageInfo };
  }
  const size = page.first ?? DEFAULT_PAGE_SIZE;
  const matched: TransformSyncJob[] = [];
  let cursor = page.after;
  for (;;) {
    const batch = runner.list(jobFilter, { first: 200, ...(cursor ? { after: cursor } : {}) });
    for (const job of batch.items) {
      const sync = toSyncJob(job as Job<TransformJobInputs>);
      if (sync.trigger === filter.trigger) matched.push(sync);
      if (matched.length > size) break;
    }
    if (matched.length > size || !batch.pageInfo.hasNextPage || !batch.pageInfo.endCursor) break;
    cursor = batch.pageInfo.endCursor;
  }
  const hasNextPage = matched.length > size;
  const kept = matched.slice(0, size);
  const last = kept[kept.length - 1];
  // Same key as the job list's cursor (createdAt, id), so it continues the filtered walk.
  return { items: kept, pageInfo: { hasNextPage, endCursor: last ? encodeCursor([last.createdAt, last.syncJobId]) : null } };
}

function completedJob(job: Job<TransformJobInputs, TransformJobResult>): Job<TransformJobInputs, TransformJobResult> & { result: TransformJobResult; finishedAt: string } {
  if (job.status !== 'COMPLETED' || !job.result || !job.finishedAt) {
    const ended = job.status === 'FAILED' || job.status === 'CANCELLED' || job.status === 'PARTIAL';
    throw new ApiError(
      409,
      Codes.TRANSFORM_SYNC_NOT_COMPLETED,
      ended
        ? `Transform sync ${job.id} ended ${job.status}; it has no result.${job.error ? ` ${job.error.message}` : ''}`
        : `Transform sync ${job.id} is ${job.status} (${job.progress.stage}, ${job.progress.percentComplete}%); its result is available once it is COMPLETED.`,
      { jobStatus: job.status },
    );
  }
  return job as Job<TransformJobInputs, TransformJobResult> & { result: TransformJobResult; finishedAt: string };
}

export function getTransformSyncResult(ctx: ServiceContext, deploymentId: number, syncJobId: string): TransformSyncResult {
  const job = completedJob(findJob(ctx, deploymentId, syncJobId));
  const { inputs, result } = job;
  return {
    syncJobId: job.id,
    source: inputs.source,
    output: inputs.output,
    branchName: inputs.branchName,
    ref: inputs.ref,
    commit: result.commit,
    completedAt: job.finishedAt,
    durationMs: Math.max(0, new Date(job.finishedAt).getTime() - new Date(job.startedAt ?? job.createdAt).getTime()),
    stats: result.stats,
    files: result.files,
    removedFiles: result.removedFiles,
    warnings: result.warnings,
    filesExpireAt: inputs.output === 'files' ? new Date(new Date(job.finishedAt).getTime() + GENERATED_FILES_RETENTION_MS).toISOString() : null,
  };
}

export function getTransformSyncLogs(ctx: ServiceContext, deploymentId: number, syncJobId: string, page: PageRequest) {
  findJob(ctx, deploymentId, syncJobId);
  return getJobRunner(ctx).logs(syncJobId, page);
}

/** Drops held files whose hour has passed. */
export function purgeExpiredFiles(ctx: ServiceContext): void {
  ctx.db.transaction(() => ctx.db.prepare('DELETE FROM transform_sync_files WHERE expires_at <= ?').run(ctx.clock.now().toISOString()))();
}

export function listGeneratedFiles(ctx: ServiceContext, deploymentId: number, syncJobId: string, page: PageRequest) {
  purgeExpiredFiles(ctx);
  const job = getJobRunner(ctx).get<TransformJobInputs, TransformJobResult>(syncJobId, { deploymentId, kinds: [TRANSFORM_SYNC_KIND] });
  const gone = (why: string) => new ApiError(404, Codes.GENERATED_FILES_NOT_FOUND, `Transform sync ${syncJobId} has no generated files to download: ${why}.`);
  if (!job) throw gone('there is no such run in this deployment');
  if (job.inputs.output === 'branch') throw gone('it committed its files to the branch (read them from the branch)');
  if (job.status !== 'COMPLETED' || !job.finishedAt) {
    if (job.status === 'QUEUED' || job.status === 'RUNNING' || job.status === 'CANCELLING') completedJob(job);
    throw gone(`it ended ${job.status}`);
  }
  if (ctx.clock.now().getTime() >= new Date(job.finishedAt).getTime() + GENERATED_FILES_RETENTION_MS) {
    throw gone('files are held one hour after the run completed, and that hour has passed');
  }
  const { limit, after } = pageWindow<string>(page);
  if (after !== null && typeof after !== 'string') throw new ApiError(400, 'INVALID_CURSOR', 'The `after` cursor is not one this service issued.');
  const rows = ctx.db
    .prepare(`SELECT path, content, sha256, size FROM transform_sync_files WHERE job_id = ? ${after !== null ? 'AND path > ?' : ''} ORDER BY path LIMIT ?`)
    .all(...(after !== null ? [syncJobId, after, limit] : [syncJobId, limit])) as { path: string; content: string; sha256: string; size: number }[];
  return toPage(rows, page, (row) => row.path, (row) => row);
}

// ---- the job -----------------------------------------------------------------------------------


export async function runTransformSync(ctx: ServiceContext, job: Job<TransformJobInputs>, jobCtx: JobContext): Promise<TransformJobResult> {
  const i = job.inputs;
  const deploymentId = job.deploymentId!;
  const deployLog = (level: 'info' | 'error', message: string) =>
    appendDeploymentLog(ctx, deploymentId, {
      source: getDeployBranch(ctx, deploymentId) === i.branchName ? 'production' : 'dev',
      container: 'MAIN',
      level,
      message,
    });
  try {
    jobCtx.progress('reading-manifest', 10);
    let manifest = i.manifest;
    if (i.source === 'git') {
      jobCtx.log(`reading ${i.manifestPath} at ${i.ref}${i.repository ? ` of ${i.repository.owner}/${i.repository.repo}` : ''}`);
      manifest = i.repository
        ? await readManifestFromRepository(ctx, i.repository, i.ref!, i.manifestPath!)
        : await readManifestFromGit(ctx, deploymentId, i.ref!, i.manifestPath!);
    }
    await yieldToEventLoop();
    jobCtx.signal.throwIfAborted();

    // Checking the manifest, generating the files and compiling them run on a compute thread.
    jobCtx.progress('generating-files', 40);
    const generated = await runCompute(
      ctx,
      'transformGenerate',
      { gitdir: await modelRepositoryDir(ctx, deploymentId), commit: await getBranchHead(ctx, deploymentId, i.branchName), manifest, outputPath: i.outputPath },
      { signal: jobCtx.signal },
    );
    if ('manifestProblem' in generated) throw new JobFailure(Codes.INVALID_MANIFEST, generated.manifestProblem, { status: 422 });
    const { warnings, removed } = generated;
    for (const w of warnings) jobCtx.log(w, undefined, 'warn');
    jobCtx.log(`generated ${generated.files.length} cube file${generated.files.length === 1 ? '' : 's'} from ${generated.stats.models} dbt models`);
    await yieldToEventLoop();
    jobCtx.signal.throwIfAborted();

    const stats = { ...generated.stats, files: generated.files.length };
    if (i.output === 'files') {
      jobCtx.progress('holding-files', 90);
      const expiresAt = new Date(ctx.clock.now().getTime() + GENERATED_FILES_RETENTION_MS).toISOString();
      ctx.db.transaction(() => {
        ctx.db.prepare('DELETE FROM transform_sync_files WHERE job_id = ?').run(job.id);
        const insert = ctx.db.prepare('INSERT INTO transform_sync_files (job_id, path, content, sha256, size, expires_at) VALUES (?, ?, ?, ?, ?, ?)');
        for (const f of generated.files) insert.run(job.id, f.path, f.content, sha256(f.content), Buffer.byteLength(f.content, 'utf8'), expiresAt);
      })();
      return {
        commit: null,
        stats,
        files: generated.files.map((f) => ({ path: f.path, cube: f.cube, model: f.model, status: 'generated' as const })),
        removedFiles: [],
        warnings,
        filesExpireAt: expiresAt,
      };
    }

    jobCtx.progress('committing', 80);
    // Files an earlier sync generated for models that are gone are removed with this commit.
    let commit: string | null = null;
    const statuses = new Map<string, 'added' | 'modified' | 'deleted'>();
    if (generated.files.length + removed.length > 0) {
      const committed = await commitFiles(
        ctx,
        deploymentId,
        i.branchName,
        [...generated.files.map((f) => ({ path: f.path, content: f.content })), ...removed.map((path) => ({ path, content: null }))],
        `Transform sync: ${generated.files.length} cube${generated.files.length === 1 ? '' : 's'} from the dbt manifest${i.source === 'git' ? ` (${i.manifestPath} at ${i.ref})` : ''}`,
        i.author,
      );
      if (committed.changed) commit = committed.commit;
      for (const change of committed.changes) statuses.set(change.path, change.status as 'added' | 'modified' | 'deleted');
    }
    deployLog('info', `Transform sync generated ${generated.files.length} cube file${generated.files.length === 1 ? '' : 's'} in ${i.outputPath} on ${i.branchName}${commit ? ` (commit ${commit.slice(0, 7)})` : ' (no changes)'}.`);
    return {
      commit,
      stats,
      files: generated.files.map((f) => ({ path: f.path, cube: f.cube, model: f.model, status: statuses.get(f.path) ?? 'unchanged' })),
      removedFiles: removed,
      warnings,
      filesExpireAt: null,
    };
  } catch (error) {
    if (!jobCtx.signal.aborted) deployLog('error', `Transform sync failed: ${(error as Error).message}`);
    throw error;
  }
}

/**
 * Keeps git-sourced syncs current: when a commit on a branch changes the manifest that an earlier
 * git sync committing to that same branch read, the sync runs again (trigger `commit`) with the
 * same settings. Its own commits do not touch the manifest, so it does not trigger itself.
 */
export async function rerunAfterManifestCommit(
  ctx: ServiceContext,
  deploymentId: number,
  branch: string,
  changedPaths: () => Promise<string[]>,
): Promise<Job | null> {
  const runner = getJobRunner(ctx);
  const recent = () => runner.list({ deploymentId, kinds: [TRANSFORM_SYNC_KIND] }, { first: 100 }).items as Job<TransformJobInputs>[];
  const watching = recent().find(
    (job) =>
      job.inputs.source === 'git' && !job.inputs.repository && job.inputs.output === 'branch' && job.inputs.branchName === branch && job.inputs.ref === branch,
  );
  if (!watching) return null;
  const changed = await changedPaths();
  if (!changed.includes(watching.inputs.manifestPath ?? DEFAULT_MANIFEST_PATH)) return null;
  // A re-run still waiting to start will read the newest manifest anyway.
  const waiting = recent().find((job) => job.status === 'QUEUED' && job.inputs.trigger === 'commit' && job.inputs.branchName === branch);
  if (waiting) return waiting;
  const { idempotencyKey: _replayKey, ...request } = watching.inputs.request;
  void _replayKey;
  return enqueue(ctx, deploymentId, { ...watching.inputs, request, trigger: 'commit' }, watching.createdBy, null);
}
