import { existsSync, rmSync } from 'node:fs';
import type { CompiledModel, Diagnostic, ModelFile } from '../../../src-shared/model';
import type { ServiceContext } from '../../context';
import { getJobRunner, JobOutcome, type Job, type JobContext } from '../../platform/jobs';
import { runCompute } from '../../workers/run';
import { getDeployBranch, onDeploymentDeleted, recordBuildState } from '../deployments';
import { getBranchHead, isServedBranch, modelRepositoryDir, onBranchCommit, onBranchServingChanged } from '../data-model';
import { readSnapshot, removeSnapshot, snapshotDir, snapshotFile, writeSnapshot } from './snapshot';
import { deployBranchHead } from './source';
import { areaEvent } from '../area-events';

export const BUILD_JOB_KIND = 'build';

/** Builds kept per deployment and branch besides the latest successful one. */
const KEEP_BUILDS = 20;

export type BuildStatusValue = 'queued' | 'building' | 'succeeded' | 'failed';

export interface BuildRecord {
  /** Also the build job's id. */
  id: string;
  deploymentId: number;
  branch: string;
  commit: string;
  status: BuildStatusValue;
  diagnostics: Diagnostic[];
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** What ran on the build after it compiled, by check (`modelTests`); null before any did. */
  checks: Record<string, unknown> | null;
}

export interface BuildSnapshot {
  build: BuildRecord;
  files: ModelFile[];
  model: CompiledModel;
}

interface BuildInputs {
  deploymentId: number;
  branch: string;
  commit: string;
}

interface BuildResult {
  commit: string;
  valid: boolean;
  errorCount: number;
  warningCount: number;
  viewCount: number;
}

interface BuildRow {
  id: string;
  deployment_id: number;
  branch: string;
  commit_sha: string;
  status: BuildStatusValue;
  diagnostics: string;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  checks: string | null;
}

const COLUMNS = 'id, deployment_id, branch, commit_sha, status, diagnostics, error, created_at, finished_at, checks';

const toRecord = (row: BuildRow): BuildRecord => ({
  id: row.id,
  deploymentId: row.deployment_id,
  branch: row.branch,
  commit: row.commit_sha,
  status: row.status,
  diagnostics: JSON.parse(row.diagnostics) as Diagnostic[],
  error: row.error,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
  checks: row.checks === null ? null : (JSON.parse(row.checks) as Record<string, unknown>),
});

// ---- reading -------------------------------------------------------------------------------------

export function getBuild(ctx: ServiceContext, buildId: string): BuildRecord | null {
  const row = ctx.db.prepare(`SELECT ${COLUMNS} FROM model_builds WHERE id = ?`).get(buildId) as BuildRow | undefined;
  return row ? toRecord(row) : null;
}

/** Builds of a branch, newest first. */
export function listBuilds(ctx: ServiceContext, deploymentId: number, branch: string, limit = 50): BuildRecord[] {
  const rows = ctx.db
    .prepare(`SELECT ${COLUMNS} FROM model_builds WHERE deployment_id = ? AND branch = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`)
    .all(deploymentId, branch, limit) as BuildRow[];
  return rows.map(toRecord);
}

/** The newest successful build of a branch (default: the deploy branch), by when its commit arrived. */
export function getLatestSuccessfulBuild(ctx: ServiceContext, deploymentId: number, branch?: string): BuildRecord | null {
  const row = ctx.db
    .prepare(
      `SELECT ${COLUMNS} FROM model_builds WHERE deployment_id = ? AND branch = ? AND status = 'succeeded'
       ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    )
    .get(deploymentId, branch ?? getDeployBranch(ctx, deploymentId)) as BuildRow | undefined;
  return row ? toRecord(row) : null;
}

/**
 * The snapshot file of a successful build (null for other builds), for worker threads to read.
 * Builds recorded before snapshots moved to files keep theirs in the row; the first read moves it.
 */
export function buildSnapshotFile(ctx: ServiceContext, buildId: string): string | null {
  const row = ctx.db.prepare(`SELECT ${COLUMNS} FROM model_builds WHERE id = ?`).get(buildId) as BuildRow | undefined;
  if (!row || row.status !== 'succeeded') return null;
  const file = snapshotFile(ctx.dataDir, row.deployment_id, row.id);
  if (existsSync(file)) return file;
  const inline = ctx.db.prepare('SELECT files, model FROM model_builds WHERE id = ?').get(buildId) as { files: string | null; model: string | null };
  if (inline.files === null || inline.model === null) return null;
  writeSnapshot(file, `{"files":${inline.files},"model":${inline.model}}`);
  ctx.db.prepare('UPDATE model_builds SET files = NULL, model = NULL WHERE id = ?').run(buildId);
  return file;
}

/**
 * The files and compiled model a successful build recorded; null for other builds. Reads and
 * parses on the calling thread: for tests and tools. Request paths and jobs hand
 * `buildSnapshotFile` to a worker task instead.
 */
export function loadBuildSnapshot(ctx: ServiceContext, buildId: string): BuildSnapshot | null {
  const build = getBuild(ctx, buildId);
  const file = buildSnapshotFile(ctx, buildId);
  if (!build || !file) return null;
  const { files, model } = readSnapshot(file) as { files: ModelFile[]; model: CompiledModel };
  return { build, files, model };
}

// ---- starting ------------------------------------------------------------------------------------

/**
 * Queues a build of `commit` unless it was already built or is being built (the same commit
 * compiles the same way; only a build that could not read its files is tried again). Returns the
 * build, new or existing.
 */
export function startBuild(ctx: ServiceContext, deploymentId: number, branch: string, commit: string, createdBy: number | null = null): BuildRecord {
  const runner = getJobRunner(ctx);
  return ctx.db.transaction((): BuildRecord => {
    const existing = ctx.db
      .prepare(
        `SELECT ${COLUMNS} FROM model_builds WHERE deployment_id = ? AND branch = ? AND commit_sha = ?
           AND (status != 'failed' OR diagnostics != '[]')
         ORDER BY created_at DESC LIMIT 1`,
      )
      .get(deploymentId, branch, commit) as BuildRow | undefined;
    if (existing) return toRecord(existing);
    const job = runner.enqueue<BuildInputs>({ kind: BUILD_JOB_KIND, deploymentId, inputs: { deploymentId, branch, commit }, createdBy });
    ctx.db
      .prepare(`INSERT INTO model_builds (id, deployment_id, branch, commit_sha, status, created_at) VALUES (?, ?, ?, ?, 'queued', ?)`)
      .run(job.id, deploymentId, branch, commit, job.createdAt);
    return getBuild(ctx, job.id)!;
  })();
}

/**
 * The build publication reads, as at this moment: the latest successful build of the deploy
 * branch; else one still queued or running; else (no build of the head yet) a new build of the
 * head. Null when the deploy branch's builds all failed.
 */
export async function buildForPublication(ctx: ServiceContext, deploymentId: number, createdBy: number | null): Promise<BuildRecord | null> {
  const succeeded = getLatestSuccessfulBuild(ctx, deploymentId);
  if (succeeded) return succeeded;
  const branch = getDeployBranch(ctx, deploymentId);
  const pending = ctx.db
    .prepare(
      `SELECT ${COLUMNS} FROM model_builds WHERE deployment_id = ? AND branch = ? AND status IN ('queued', 'building')
       ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    )
    .get(deploymentId, branch) as BuildRow | undefined;
  if (pending) return toRecord(pending);
  const head = await deployBranchHead(ctx, deploymentId);
  if (head.commit === null) return null;
  const build = startBuild(ctx, deploymentId, head.branch, head.commit, createdBy);
  return build.status === 'failed' ? null : build;
}

/** Waits until a build has ended (or `signal` aborts); returns it. */
export async function waitForBuild(ctx: ServiceContext, buildId: string, signal?: AbortSignal, intervalMs = 25): Promise<BuildRecord | null> {
  for (;;) {
    const build = getBuild(ctx, buildId);
    if (!build || build.status === 'succeeded' || build.status === 'failed') return build;
    signal?.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

// ---- checks after a build (issue 26: a build of the deploy branch runs the model tests) ----------

export type BuildSucceededListener = (build: BuildRecord) => void;

// Model tests run after each build; their area subscribes when it loads (area-events.ts).
const buildSucceeded = areaEvent<[build: BuildRecord]>('a build listener failed', (build) => ({ buildId: build.id }));

/** Calls `listener` after every successful build. Listeners only schedule work. Returns an unsubscribe function. */
export function onBuildSucceeded(ctx: ServiceContext, listener: BuildSucceededListener): () => void {
  return buildSucceeded.on(ctx, listener);
}

/** Notes on a build what a check found (merged with what other checks noted). */
export function recordBuildCheck(ctx: ServiceContext, buildId: string, check: string, outcome: unknown): void {
  ctx.db.transaction(() => {
    const row = ctx.db.prepare('SELECT checks FROM model_builds WHERE id = ?').get(buildId) as { checks: string | null } | undefined;
    if (!row) return;
    const checks = { ...(row.checks ? (JSON.parse(row.checks) as Record<string, unknown>) : {}), [check]: outcome };
    ctx.db.prepare('UPDATE model_builds SET checks = ? WHERE id = ?').run(JSON.stringify(checks), buildId);
  })();
}

function emitBuildSucceeded(ctx: ServiceContext, buildId: string): void {
  const build = getBuild(ctx, buildId);
  if (build) buildSucceeded.emit(ctx, build);
}

// ---- the job -------------------------------------------------------------------------------------

function summarize(diagnostics: Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0];
  return `${errors.length} compile error${errors.length === 1 ? '' : 's'}${first ? `; first: ${first.file}:${first.line}: ${first.message}` : ''}`.slice(0, 500);
}

async function runBuild(ctx: ServiceContext, job: Job<BuildInputs, BuildResult>, jobCtx: JobContext): Promise<BuildResult | JobOutcome<BuildResult>> {
  const { deploymentId, branch, commit } = job.inputs;
  const now = () => ctx.clock.now().toISOString();
  const hadSuccess = getLatestSuccessfulBuild(ctx, deploymentId, branch) !== null;
  const report = (buildStatus: 'building' | 'succeeded' | 'failed', detail: string | null) => {
    // Build status is reported for served branches (deploy, staging, dev mode); a branch no longer served keeps its reset state.
    if (!isServedBranch(ctx, deploymentId, branch, getDeployBranch(ctx, deploymentId))) return;
    // The previous successful build keeps serving while a new one builds or after it failed.
    const deployStatus = buildStatus === 'succeeded' ? 'deployed' : hadSuccess ? 'deployed' : buildStatus === 'failed' ? 'failed' : 'deploying';
    recordBuildState(ctx, deploymentId, branch, { buildStatus, deployStatus, commit, buildJobId: job.id, detail });
  };
  ctx.db.prepare(`UPDATE model_builds SET status = 'building' WHERE id = ?`).run(job.id);
  report('building', null);
  jobCtx.progress('compiling', 10);
  // Reading the commit, compiling and writing the snapshot all happen on a compute thread.
  const built = await runCompute(
    ctx,
    'buildCommit',
    { gitdir: await modelRepositoryDir(ctx, deploymentId), commit, snapshotFile: snapshotFile(ctx.dataDir, deploymentId, job.id) },
    { signal: jobCtx.signal },
  );
  if (!built.readable) {
    const message = `Could not read the model at ${commit.slice(0, 12)}: ${built.message}`;
    ctx.db.prepare(`UPDATE model_builds SET status = 'failed', error = ?, finished_at = ? WHERE id = ?`).run(message, now(), job.id);
    report('failed', message.slice(0, 500));
    return JobOutcome.failed({ code: 'BUILD_SOURCE_UNREADABLE', message });
  }
  const { valid, diagnostics, errorCount, warningCount, viewCount } = built;
  const result: BuildResult = { commit, valid, errorCount, warningCount, viewCount };
  if (!valid) {
    const detail = summarize(diagnostics);
    ctx.db
      .prepare(`UPDATE model_builds SET status = 'failed', diagnostics = ?, error = ?, finished_at = ? WHERE id = ?`)
      .run(JSON.stringify(diagnostics), detail, now(), job.id);
    report('failed', detail);
    return JobOutcome.failed({ code: 'BUILD_COMPILE_FAILED', message: detail, details: { errorCount } }, result);
  }
  ctx.db.transaction(() => {
    ctx.db
      .prepare(`UPDATE model_builds SET status = 'succeeded', files = NULL, model = NULL, diagnostics = ?, finished_at = ? WHERE id = ?`)
      .run(JSON.stringify(diagnostics), now(), job.id);
    pruneBuilds(ctx, deploymentId, branch);
  })();
  report('succeeded', null);
  emitBuildSucceeded(ctx, job.id);
  return result;
}

/** Drops old builds, always keeping the latest successful one (publication reads it). */
function pruneBuilds(ctx: ServiceContext, deploymentId: number, branch: string): void {
  const latest = getLatestSuccessfulBuild(ctx, deploymentId, branch);
  const pruned = ctx.db
    .prepare(
      `DELETE FROM model_builds WHERE deployment_id = ? AND branch = ? AND status IN ('succeeded', 'failed') AND id != ?
         AND id NOT IN (SELECT id FROM model_builds WHERE deployment_id = ? AND branch = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)
       RETURNING id`,
    )
    .all(deploymentId, branch, latest?.id ?? '', deploymentId, branch, KEEP_BUILDS) as { id: string }[];
  for (const { id } of pruned) removeSnapshot(snapshotFile(ctx.dataDir, deploymentId, id));
}

/**
 * Registers the build job and starts a build for every new commit of a deploy branch. Builds
 * never start a publication (lakehouse publication is on demand only).
 */
export function setUpBuilds(ctx: ServiceContext): void {
  const runner = getJobRunner(ctx);
  runner.register<BuildInputs, BuildResult>(BUILD_JOB_KIND, (job, jobCtx) => runBuild(ctx, job, jobCtx), { concurrency: 2 });
  // Snapshots live beside the database; they go with their deployment.
  onDeploymentDeleted(ctx, (deploymentId) => rmSync(snapshotDir(ctx.dataDir, deploymentId), { recursive: true, force: true }));
  const buildServed = (deploymentId: number, branch: string, commit: string) => {
    const build = startBuild(ctx, deploymentId, branch, commit);
    const hadSuccess = getLatestSuccessfulBuild(ctx, deploymentId, branch) !== null;
    if (build.status === 'queued') {
      recordBuildState(ctx, deploymentId, branch, { buildStatus: 'queued', deployStatus: hadSuccess ? 'deployed' : 'deploying', commit, buildJobId: build.id });
    } else if (build.status === 'succeeded' || build.status === 'failed') {
      // The commit was built before (e.g. while served earlier): its outcome is the branch's state again.
      const deployStatus = build.status === 'succeeded' || hadSuccess ? 'deployed' : 'failed';
      recordBuildState(ctx, deploymentId, branch, { buildStatus: build.status, deployStatus, commit, buildJobId: build.id, detail: build.error });
    }
  };
  // Served branches (deploy, always-on staging, dev mode) are built on every commit.
  onBranchCommit(ctx, (deploymentId, branch, commit) => {
    try {
      if (!isServedBranch(ctx, deploymentId, branch, getDeployBranch(ctx, deploymentId))) return;
      buildServed(deploymentId, branch, commit);
    } catch (error) {
      ctx.log.error('could not start a build', { deploymentId, branch, commit, error: (error as Error).message });
    }
  });
  // A branch that starts being served is built at its head; one that stops is torn down to not deployed.
  onBranchServingChanged(ctx, (deploymentId, branch) => {
    void (async () => {
      if (isServedBranch(ctx, deploymentId, branch, getDeployBranch(ctx, deploymentId))) {
        buildServed(deploymentId, branch, await getBranchHead(ctx, deploymentId, branch));
      } else {
        recordBuildState(ctx, deploymentId, branch, { buildStatus: 'idle', deployStatus: 'not_deployed', detail: 'no longer served (staging environment disabled)' });
      }
    })().catch((error: unknown) => ctx.log.error('could not update a served branch', { deploymentId, branch, error: String(error) }));
  });
}
