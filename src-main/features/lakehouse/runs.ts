import {
  LakehouseErrorCodes as Codes,
  SUCCESSFUL_RUN_OUTCOMES,
  type LakehouseConfiguration,
  type PublicationIssue,
  type Run,
  type RunSummary,
  type RunView,
  type RunViewOutcome,
} from '../../../src-shared/api/lakehouse';
import { ErrorCodes } from '../../../src-shared/api/errors';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { DRYDOCK_PROPERTIES, LakehouseError, metricViewYamlEquals, ownershipProperties, type LakehouseConnector } from '../../connectors/lakehouse';
import {
  ACTIVE_STATUSES,
  getJobRunner,
  JobCancelledError,
  JobOutcome,
  type Job,
  type JobContext,
} from '../../platform/jobs';
import { buildForPublication, getBuild, waitForBuild, type BuildRecord } from '../builds';
import { appendDeploymentLog, getDataSource, type DataSource } from '../deployments';
import { assertPublicationActive, isPublicationActive } from './activation';
import { describeLakehouseError, openLakehouseConnector } from './connector';
import { deployedViews, planFromBuild } from './deployed';
import { confirmsWrite, inspectTarget, issuesOf, type ViewPlan } from './publish';
import { checkScopeAgainstModel, getSettings, requireLakehouseDataSource } from './settings';
import { listOwnedTargets, normalizeName, qualifiedTarget, recordOwnedTarget } from './targets';

export const RUN_JOB_KIND = 'lakehouse.run';

interface RunInputs {
  deploymentId: number;
  dataSourceName: string;
  configurationVersion: number;
}

interface RunResult {
  viewCount: number;
  incompleteViewCount: number;
  outcomeCounts: Record<string, number>;
}

interface RunRow {
  id: string;
  deployment_id: number;
  data_source: string;
  configuration_version: number;
  configuration: string;
  build_id: string | null;
  commit_sha: string | null;
  view_names: string | null;
  idempotency_key: string | null;
  created_by: number | null;
  created_at: string;
}

interface RunViewRow {
  view_name: string;
  target: string | null;
  outcome: RunViewOutcome;
  withheld_members: string;
  reasons: string;
  warnings: string;
  definition_written: number;
  finished_at: string;
}

interface ViewResult {
  viewName: string;
  target: string | null;
  outcome: RunViewOutcome;
  withheldMembers?: string[];
  reasons?: PublicationIssue[];
  warnings?: PublicationIssue[];
  definitionWritten?: boolean;
}

export function runStatusUrl(deploymentId: number, dataSource: string, runId: string): string {
  return `/api/v1/deployments/${deploymentId}/lakehouse-metric-view-integrations/${encodeURIComponent(dataSource)}/syncs/${runId}`;
}

const PUBLISHED: readonly RunViewOutcome[] = ['created', 'updated', 'unchanged'];

// ---- reading ---------------------------------------------------------------------------------------

function findRunRow(ctx: ServiceContext, deploymentId: number, dataSourceName: string, runId: string): RunRow {
  const row = ctx.db
    .prepare('SELECT * FROM lakehouse_runs WHERE id = ? AND deployment_id = ? AND data_source = ? COLLATE NOCASE')
    .get(runId, deploymentId, dataSourceName) as RunRow | undefined;
  if (!row) throw new ApiError(404, Codes.RUN_NOT_FOUND, `Data source "${dataSourceName}" of deployment ${deploymentId} has no publication run ${runId}.`);
  return row;
}

function runViews(ctx: ServiceContext, runId: string): RunView[] {
  const rows = ctx.db
    .prepare('SELECT * FROM lakehouse_run_views WHERE run_id = ? ORDER BY position')
    .all(runId) as RunViewRow[];
  return rows.map((row) => ({
    viewName: row.view_name,
    target: row.target,
    outcome: row.outcome,
    withheldMembers: JSON.parse(row.withheld_members) as string[],
    reasons: JSON.parse(row.reasons) as PublicationIssue[],
    warnings: JSON.parse(row.warnings) as PublicationIssue[],
    definitionWritten: row.definition_written === 1,
    finishedAt: row.finished_at,
  }));
}

function summaryOf(views: Pick<RunView, 'outcome' | 'withheldMembers'>[]): { incompleteViewCount: number; outcomeCounts: Record<string, number> } {
  const outcomeCounts: Record<string, number> = {};
  for (const view of views) outcomeCounts[view.outcome] = (outcomeCounts[view.outcome] ?? 0) + 1;
  const incompleteViewCount = views.filter((v) => PUBLISHED.includes(v.outcome) && v.withheldMembers.length > 0).length;
  return { incompleteViewCount, outcomeCounts };
}

function runFields(row: RunRow, job: Job, views: RunView[]) {
  const { incompleteViewCount, outcomeCounts } = summaryOf(views);
  return {
    runId: row.id,
    dataSourceName: row.data_source,
    buildJobId: row.build_id,
    ...(row.commit_sha ? { commit: row.commit_sha } : {}),
    statusUrl: runStatusUrl(row.deployment_id, row.data_source, row.id),
    configurationVersion: row.configuration_version,
    status: job.status,
    progress: job.progress,
    incompleteViewCount,
    outcomeCounts,
    error: job.error ? { code: job.error.code, message: job.error.message } : null,
    createdBy: row.created_by,
    createdAt: row.created_at,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  };
}

function jobOf(ctx: ServiceContext, runId: string): Job {
  const job = getJobRunner(ctx).get(runId, { kinds: [RUN_JOB_KIND] });
  if (!job) throw new ApiError(404, Codes.RUN_NOT_FOUND, `Publication run ${runId} no longer exists.`);
  return job;
}

export function getRun(ctx: ServiceContext, deploymentId: number, dataSourceName: string, runId: string): Run {
  const row = findRunRow(ctx, deploymentId, dataSourceName, runId);
  const views = runViews(ctx, row.id);
  return { ...runFields(row, jobOf(ctx, row.id), views), viewNames: row.view_names ? (JSON.parse(row.view_names) as string[]) : [], views };
}

/** Runs of a data source, newest first. */
export function listRuns(ctx: ServiceContext, deploymentId: number, dataSourceName: string, page: PageRequest): PageResult<RunSummary> {
  const ds = requireLakehouseDataSource(ctx, deploymentId, dataSourceName);
  const { limit, after } = pageWindow<[string, string]>(page);
  if (after !== null && (!Array.isArray(after) || after.length !== 2 || typeof after[0] !== 'string' || typeof after[1] !== 'string')) {
    throw new ApiError(400, ErrorCodes.INVALID_CURSOR, 'The `after` cursor is not one this service issued.');
  }
  const rows = ctx.db
    .prepare(
      `SELECT * FROM lakehouse_runs WHERE deployment_id = ? AND data_source = ?
         ${after ? 'AND created_at <= ? AND (created_at < ? OR id < ?)' : ''}
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .all(...(after ? [deploymentId, ds.name, after[0], after[0], after[1], limit] : [deploymentId, ds.name, limit])) as RunRow[];
  const runner = getJobRunner(ctx);
  const present = rows.filter((row) => runner.get(row.id) !== null);
  return toPage(present, page, (row) => [row.created_at, row.id], (row) => {
    const views = runViews(ctx, row.id);
    return { ...runFields(row, runner.get(row.id)!, views), viewCount: views.length };
  });
}

// ---- starting and cancelling ------------------------------------------------------------------------

export interface StartRunRequest {
  configurationVersion: number;
  idempotencyKey?: string;
}

/**
 * Starts a run of the saved settings against the latest successful deployed build (or the build
 * of the deploy branch still under way when none succeeded yet). Refused while a run of the data
 * source is active, and when `configurationVersion` is not the current one.
 */
export async function startRun(ctx: ServiceContext, deploymentId: number, dataSourceName: string, request: StartRunRequest, userId: number | null) {
  assertPublicationActive(ctx, deploymentId);
  const ds = requireLakehouseDataSource(ctx, deploymentId, dataSourceName);
  const settings = getSettings(ctx, deploymentId, ds.name);
  const replay = request.idempotencyKey ? findByIdempotencyKey(ctx, deploymentId, ds.name, request.idempotencyKey) : null;
  if (replay) return startedOf(ctx, replayed(replay, request));
  if (request.configurationVersion !== settings.configurationVersion) {
    throw new ApiError(
      409,
      Codes.CONFIGURATION_VERSION_CONFLICT,
      `The run was asked for configuration version ${request.configurationVersion}, but the settings are at version ${settings.configurationVersion}. Review the current settings and start again.`,
      { currentConfigurationVersion: settings.configurationVersion },
    );
  }
  const build = await buildForPublication(ctx, deploymentId, userId);
  const deployed = build?.status === 'succeeded' ? await deployedViews(ctx, build.id) : null;
  if (deployed && settings.configuration.enabled) checkScopeAgainstModel(deployed, settings.configuration, ds.name);
  const runner = getJobRunner(ctx);
  const row = ctx.db
    .transaction((): RunRow => {
      if (request.idempotencyKey) {
        const again = findByIdempotencyKey(ctx, deploymentId, ds.name, request.idempotencyKey);
        if (again) return replayed(again, request);
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
        inputs: { deploymentId, dataSourceName: ds.name, configurationVersion: settings.configurationVersion },
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

function replayed(row: RunRow, request: StartRunRequest): RunRow {
  if (row.configuration_version !== request.configurationVersion) {
    throw new ApiError(
      409,
      ErrorCodes.IDEMPOTENCY_KEY_REUSED,
      `The idempotency key ${request.idempotencyKey} already started run ${row.id} with configuration version ${row.configuration_version}. Use a new key for a new run.`,
      { runId: row.id },
    );
  }
  return row;
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

// ---- the job ------------------------------------------------------------------------------------------

class RunRecorder {
  private position = 0;
  readonly results: ViewResult[] = [];
  private readonly insert;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly runId: string,
  ) {
    // A resumed attempt starts over: writes are idempotent (an unchanged view stays unchanged).
    ctx.db.prepare('DELETE FROM lakehouse_run_views WHERE run_id = ?').run(runId);
    this.insert = ctx.db.prepare(
      `INSERT INTO lakehouse_run_views (run_id, position, view_name, target, outcome, withheld_members, reasons, warnings, definition_written, finished_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  record(result: ViewResult): void {
    this.results.push(result);
    const row = [
      this.runId,
      this.position++,
      result.viewName,
      result.target,
      result.outcome,
      JSON.stringify(result.withheldMembers ?? []),
      JSON.stringify(result.reasons ?? []),
      JSON.stringify(result.warnings ?? []),
      result.definitionWritten ? 1 : 0,
      this.ctx.clock.now().toISOString(),
    ];
    this.ctx.db.transaction(() => this.insert.run(...row))();
  }

  summary(): RunResult {
    const views = this.results.map((r) => ({ outcome: r.outcome, withheldMembers: r.withheldMembers ?? [] }));
    return { viewCount: views.length, ...summaryOf(views) };
  }
}

function failRun(code: string, message: string, recorder?: RunRecorder): JobOutcome<RunResult> {
  return JobOutcome.failed({ code, message }, recorder ? recorder.summary() : null);
}

/** Stops at once on shutdown (the run is handed to another worker) and reports a cancel request. */
function stopRequested(jobCtx: JobContext): boolean {
  if (jobCtx.signal.aborted && !(jobCtx.signal.reason instanceof JobCancelledError)) throw jobCtx.signal.reason;
  return jobCtx.isCancelRequested();
}

async function executeRun(ctx: ServiceContext, job: Job<RunInputs, RunResult>, jobCtx: JobContext): Promise<RunResult | JobOutcome<RunResult>> {
  const row = ctx.db.prepare('SELECT * FROM lakehouse_runs WHERE id = ?').get(job.id) as RunRow | undefined;
  if (!row) return failRun('LAKEHOUSE_RUN_RECORD_MISSING', `Run ${job.id} has no run record.`);
  const deploymentId = row.deployment_id;
  const configuration = JSON.parse(row.configuration) as LakehouseConfiguration;
  const recorder = new RunRecorder(ctx, job.id);

  // 1. The build the run reads.
  jobCtx.progress('waiting for the deployed build', 2);
  let build: BuildRecord | null = row.build_id ? getBuild(ctx, row.build_id) : null;
  if (build && build.status !== 'succeeded' && build.status !== 'failed') build = await waitForBuild(ctx, build.id, jobCtx.signal);
  if (!build || build.status !== 'succeeded') {
    return failRun(
      Codes.NO_SUCCESSFUL_BUILD,
      build ? `Build ${build.id} of commit ${build.commit.slice(0, 12)} failed: ${build.error ?? 'compile errors'}.` : 'The deploy branch has no successful build to publish.',
    );
  }
  if (!row.commit_sha) ctx.db.prepare('UPDATE lakehouse_runs SET commit_sha = ? WHERE id = ?').run(build.commit, job.id);

  let ds: DataSource;
  try {
    ds = getDataSource(ctx, deploymentId, row.data_source);
  } catch {
    return failRun(Codes.DATA_SOURCE_NOT_FOUND, `Data source "${row.data_source}" no longer exists.`);
  }

  // 2. Plan: the views in scope now (a disabled publication or a deactivated preview plans none),
  //    generated on a compute thread from the build's snapshot.
  jobCtx.progress('planning', 4);
  const publishing = configuration.enabled && isPublicationActive(ctx, deploymentId);
  const planning = publishing
    ? await planFromBuild(ctx, build.id, { dataSource: ds.name, catalog: ds.catalog, scope: configuration, settings: configuration }, jobCtx.signal)
    : { scope: { views: [], matched: 0, tooLarge: false }, plans: [] as ViewPlan[] };
  if (!planning) return failRun(Codes.NO_SUCCESSFUL_BUILD, `Build ${build.id} has no snapshot to publish from; deploy again.`);
  const { scope, plans } = planning;
  if (scope.tooLarge) return failRun(Codes.SCOPE_TOO_LARGE, `The scope resolves to ${scope.matched} views; at most 128 are published per data source.`);
  ctx.db.prepare('UPDATE lakehouse_runs SET view_names = ? WHERE id = ?').run(JSON.stringify(scope.views), job.id);
  const planned = new Set(plans.map((p) => normalizeName(qualifiedTarget(p.target))));

  // 3. Publish view by view; one failing view does not stop the others.
  let cancelled = false;
  if (plans.length > 0) {
    let connector: LakehouseConnector;
    try {
      connector = openLakehouseConnector(ctx, deploymentId, ds);
    } catch (error) {
      const { code, message } = describeLakehouseError(error);
      return failRun(code, `The lakehouse cannot be reached: ${message}`);
    }
    try {
      try {
        await connector.checkWarehouseAccess();
      } catch (error) {
        const { code, message } = describeLakehouseError(error);
        return failRun(code, `The lakehouse cannot be reached: ${message}`);
      }
      for (const [index, plan] of plans.entries()) {
        if (stopRequested(jobCtx)) {
          cancelled = true;
          break;
        }
        jobCtx.progress(`publishing ${plan.viewName}`, 5 + Math.floor((90 * index) / plans.length));
        const result = await publishView(ctx, connector, deploymentId, ds, job.id, plan, jobCtx);
        if (result === 'cancelled') {
          cancelled = true;
          break;
        }
        recorder.record(result);
      }
    } finally {
      await connector.close();
    }
  }

  // 4. Targets this data source owns that left the scope: kept, and reported.
  if (!cancelled) {
    for (const target of listOwnedTargets(ctx, deploymentId, ds.name)) {
      if (planned.has(normalizeName(qualifiedTarget(target)))) continue;
      recorder.record({ viewName: target.viewName, target: qualifiedTarget(target), outcome: 'retained_obsolete' });
    }
  }

  const summary = recorder.summary();
  logRun(ctx, deploymentId, ds.name, job.id, summary, cancelled);
  if (cancelled) return JobOutcome.cancelled(summary);
  const allSucceeded = recorder.results.every((r) => SUCCESSFUL_RUN_OUTCOMES.includes(r.outcome));
  return allSucceeded ? summary : JobOutcome.partial(summary);
}

async function publishView(
  ctx: ServiceContext,
  connector: LakehouseConnector,
  deploymentId: number,
  ds: DataSource,
  runId: string,
  plan: ViewPlan,
  jobCtx: JobContext,
): Promise<ViewResult | 'cancelled'> {
  const { generated, target } = plan;
  const shown = qualifiedTarget(target);
  const { blockedReasons, warnings } = issuesOf(generated);
  const base = { viewName: plan.viewName, target: shown, withheldMembers: generated.withheldMembers, warnings };
  if (generated.status === 'blocked' || generated.yaml === null) return { ...base, withheldMembers: [], outcome: 'blocked', reasons: blockedReasons };
  const yaml = generated.yaml;

  let inspection;
  try {
    inspection = await inspectTarget(ctx, connector, deploymentId, target, yaml);
  } catch (error) {
    return { ...base, outcome: 'publish_failed', reasons: [describeLakehouseError(error)] };
  }
  if (inspection.kind === 'refused') return { ...base, outcome: 'publish_failed', reasons: [inspection.reason] };
  if (inspection.kind === 'managed' && inspection.unchanged) {
    recordOwned(ctx, deploymentId, ds, plan, yaml, runId);
    return { ...base, outcome: 'unchanged' };
  }

  // Cancellation stops before the next write; what was written stays.
  if (stopRequested(jobCtx)) return 'cancelled';
  const replaceWithAlter = inspection.kind === 'managed';
  const properties = ownershipProperties({ deployment: deploymentId, view: plan.viewName, yaml });
  try {
    // ALTER keeps an existing view's owner and grants; a new one is created.
    await connector.createOrReplaceMetricView(target.catalog, target.schema, target.name, yaml, properties, { replaceWithAlter });
  } catch (error) {
    const reason = describeLakehouseError(error);
    const definitionWritten = error instanceof LakehouseError && error.definitionWritten;
    if (definitionWritten) {
      // The definition is ours even though its properties failed: remember it so the next run does not see drift.
      try {
        const object = await connector.getObject(target.catalog, target.schema, target.name);
        if (object?.definition && metricViewYamlEquals(object.definition.yaml, yaml)) recordOwned(ctx, deploymentId, ds, plan, yaml, runId);
      } catch {
        // Left unrecorded: the next run reports the target as drifted rather than guessing.
      }
    }
    const outcome = error instanceof LakehouseError && error.code === 'LAKEHOUSE_INVALID_DEFINITION' ? 'validation_failed' : 'publish_failed';
    return { ...base, outcome, reasons: [reason], definitionWritten };
  }

  // Ownership is recorded only once the write reads back as ours.
  let readBack;
  try {
    readBack = await connector.getObject(target.catalog, target.schema, target.name);
  } catch (error) {
    return { ...base, outcome: 'publish_failed', reasons: [describeLakehouseError(error)], definitionWritten: true };
  }
  if (!confirmsWrite(readBack, deploymentId, yaml)) {
    return {
      ...base,
      outcome: 'publish_failed',
      reasons: [{ code: Codes.WRITE_NOT_CONFIRMED, message: `${shown} did not read back as the definition just written; ownership was not recorded.` }],
      definitionWritten: true,
    };
  }
  recordOwned(ctx, deploymentId, ds, plan, yaml, runId);
  return { ...base, outcome: replaceWithAlter ? 'updated' : 'created', definitionWritten: true };
}

function recordOwned(ctx: ServiceContext, deploymentId: number, ds: DataSource, plan: ViewPlan, yaml: string, runId: string): void {
  const properties = ownershipProperties({ deployment: deploymentId, view: plan.viewName, yaml });
  recordOwnedTarget(ctx, deploymentId, {
    dataSource: ds.name,
    ...plan.target,
    viewName: plan.viewName,
    definitionHash: properties[DRYDOCK_PROPERTIES.definitionHash]!,
    yaml,
    runId,
  });
}

function logRun(ctx: ServiceContext, deploymentId: number, dataSource: string, runId: string, summary: RunResult, cancelled: boolean): void {
  const counts = Object.entries(summary.outcomeCounts)
    .map(([outcome, n]) => `${n} ${outcome}`)
    .join(', ');
  try {
    appendDeploymentLog(ctx, deploymentId, {
      source: 'production',
      container: 'MAIN',
      level: 'info',
      message: `Lakehouse publication run ${runId} for "${dataSource}" ${cancelled ? 'cancelled' : 'finished'}: ${counts || 'no views'}.`,
    });
  } catch (error) {
    ctx.log.warn('could not log a lakehouse run', { runId, error: (error as Error).message });
  }
}

export function registerRunJob(ctx: ServiceContext): void {
  getJobRunner(ctx).register<RunInputs, RunResult>(RUN_JOB_KIND, (job, jobCtx) => executeRun(ctx, job, jobCtx), { concurrency: 2 });
}
