// Starting and cancelling lakehouse publication runs. The stored runs and their reading are in
// run-records.ts, the job that publishes in run-job.ts.
import { LakehouseErrorCodes as Codes, type Run } from '../../../src-shared/api/lakehouse';
import { ErrorCodes } from '../../../src-shared/api/errors';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { ACTIVE_STATUSES, getJobRunner, type Job } from '../../platform/jobs';
import { getDeployBranch } from '../deployments';
import { assertPublicationActive } from './activation';
import { placedSettings, publicationSource } from './branch-source';
import { deployedViews } from './deployed';
import { findRunRow, getRun, jobOf, RUN_JOB_KIND, runPlacement, runStatusUrl, type RunInputs, type RunRow } from './run-records';
import { checkScopeAgainstModel, getSettings, requireLakehouseDataSource } from './settings';

export { RUN_JOB_KIND, getRun, listRuns, runStatusUrl } from './run-records';
export { registerRunJob } from './run-job';

// ---- starting and cancelling ------------------------------------------------------------------------

export interface StartRunRequest {
  configurationVersion: number;
  idempotencyKey?: string;
  branchName?: string;
}

/**
 * Starts a run of the saved settings against the latest successful deployed build (or the build
 * of the deploy branch still under way when none succeeded yet), or against a personal dev
 * branch's head into its owner's per-user target. Refused while a run of the data source is
 * active, and when `configurationVersion` is not the current one.
 */
export async function startRun(ctx: ServiceContext, deploymentId: number, dataSourceName: string, request: StartRunRequest, userId: number | null) {
  assertPublicationActive(ctx, deploymentId);
  const ds = requireLakehouseDataSource(ctx, deploymentId, dataSourceName);
  const settings = getSettings(ctx, deploymentId, ds.name);
  const replay = request.idempotencyKey ? findByIdempotencyKey(ctx, deploymentId, ds.name, request.idempotencyKey) : null;
  if (replay) return startedOf(ctx, replayed(ctx, replay, request));
  if (request.configurationVersion !== settings.configurationVersion) {
    throw new ApiError(
      409,
      Codes.CONFIGURATION_VERSION_CONFLICT,
      `The run was asked for configuration version ${request.configurationVersion}, but the settings are at version ${settings.configurationVersion}. Review the current settings and start again.`,
      { currentConfigurationVersion: settings.configurationVersion },
    );
  }
  const { build, branchName, devTarget } = await publicationSource(ctx, deploymentId, request.branchName, settings.configuration, userId);
  const deployed = build?.status === 'succeeded' ? await deployedViews(ctx, build.id) : null;
  if (deployed && settings.configuration.enabled) checkScopeAgainstModel(deployed, placedSettings(settings.configuration, devTarget), ds.name);
  const runner = getJobRunner(ctx);
  const row = ctx.db
    .transaction((): RunRow => {
      if (request.idempotencyKey) {
        const again = findByIdempotencyKey(ctx, deploymentId, ds.name, request.idempotencyKey);
        if (again) return replayed(ctx, again, request);
      }
      const active = activeRun(ctx, deploymentId, ds.name);
      if (active) {
        throw new ApiError(409, Codes.RUN_ACTIVE, `Run ${active.id} of "${ds.name}" is still ${active.status}; wait for it to end or cancel it.`, {
          runId: active.id,
          statusUrl: runStatusUrl(deploymentId, ds.name, active.id),
        });
      }
      const job = runner.enqueue<RunInputs>({
        kind: RUN_JOB_KIND,
        deploymentId,
        inputs: { deploymentId, dataSourceName: ds.name, configurationVersion: settings.configurationVersion, branchName, devTarget },
        idempotencyKey: request.idempotencyKey ?? null,
        createdBy: userId,
      });
      ctx.db
        .prepare(
          `INSERT INTO lakehouse_runs (id, deployment_id, data_source, configuration_version, configuration, build_id, commit_sha, idempotency_key,
             created_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          job.id,
          deploymentId,
          ds.name,
          settings.configurationVersion,
          JSON.stringify(settings.configuration),
          build?.id ?? null,
          build?.status === 'succeeded' ? build.commit : null,
          request.idempotencyKey ?? null,
          userId,
          job.createdAt,
        );
      return ctx.db.prepare('SELECT * FROM lakehouse_runs WHERE id = ?').get(job.id) as RunRow;
    })
    .immediate();
  return startedOf(ctx, row);
}

function findByIdempotencyKey(ctx: ServiceContext, deploymentId: number, dataSource: string, key: string): RunRow | null {
  const row = ctx.db
    .prepare('SELECT * FROM lakehouse_runs WHERE deployment_id = ? AND data_source = ? AND idempotency_key = ?')
    .get(deploymentId, dataSource, key) as RunRow | undefined;
  return row ?? null;
}

function replayed(ctx: ServiceContext, row: RunRow, request: StartRunRequest): RunRow {
  const branch = runBranch(ctx, row);
  if (row.configuration_version !== request.configurationVersion || branch !== (request.branchName ?? getDeployBranch(ctx, row.deployment_id))) {
    throw new ApiError(
      409,
      ErrorCodes.IDEMPOTENCY_KEY_REUSED,
      `The idempotency key ${request.idempotencyKey} already started run ${row.id} of branch "${branch}" with configuration version ${row.configuration_version}. Use a new key for a new run.`,
      { runId: row.id },
    );
  }
  return row;
}

/** The branch a stored run reads (runs started before dev publications read the deploy branch). */
function runBranch(ctx: ServiceContext, row: RunRow): string {
  return (jobOf(ctx, row.id).inputs as Partial<RunInputs>).branchName ?? getDeployBranch(ctx, row.deployment_id);
}

function activeRun(ctx: ServiceContext, deploymentId: number, dataSource: string): Job | null {
  const runner = getJobRunner(ctx);
  const active = runner.list({ deploymentId, kinds: [RUN_JOB_KIND], statuses: [...ACTIVE_STATUSES] }, { first: 1000 }).items;
  const ofSource = ctx.db.prepare('SELECT 1 FROM lakehouse_runs WHERE id = ? AND data_source = ?');
  return active.find((job) => ofSource.get(job.id, dataSource) !== undefined) ?? null;
}

function startedOf(ctx: ServiceContext, row: RunRow) {
  const job = jobOf(ctx, row.id);
  return {
    runId: row.id,
    buildJobId: row.build_id,
    ...(row.commit_sha ? { commit: row.commit_sha } : {}),
    statusUrl: runStatusUrl(row.deployment_id, row.data_source, row.id),
    status: job.status,
    ...runPlacement(ctx, row.deployment_id, job),
  };
}

/**
 * Requests cancellation: no further writes; what was written stays. A run that already ended is
 * returned unchanged (the one cancellation rule, `CANCEL_RULE`).
 */
export function cancelRun(ctx: ServiceContext, deploymentId: number, dataSourceName: string, runId: string): Run {
  const row = findRunRow(ctx, deploymentId, dataSourceName, runId);
  getJobRunner(ctx).requestCancel(row.id);
  return getRun(ctx, deploymentId, row.data_source, row.id);
}
