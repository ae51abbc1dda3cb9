// Publication runs as stored: the run record and the per-view results a run writes as it goes,
// read back into the API's Run and RunSummary. Starting and cancelling live in runs.ts, the job
// that publishes in run-job.ts.
import {
  LakehouseErrorCodes as Codes,
  type PublicationIssue,
  type Run,
  type RunSummary,
  type RunView,
  type RunViewOutcome,
} from '../../../src-shared/api/lakehouse';
import type { DevTargetPlacement } from '../../../src-shared/api/dev-targets';
import { ErrorCodes } from '../../../src-shared/api/errors';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { getJobRunner, type Job } from '../../platform/jobs';
import { getDeployBranch } from '../deployments';
import { requireLakehouseDataSource } from './settings';

export const RUN_JOB_KIND = 'lakehouse.run';

export interface RunInputs {
  deploymentId: number;
  dataSourceName: string;
  configurationVersion: number;
  /** The branch read (absent in runs started before dev publications: the deploy branch). */
  branchName?: string;
  /** A dev-branch run: the owner's per-user target, fixed when the run started. */
  devTarget?: DevTargetPlacement | null;
}

export interface RunResult {
  viewCount: number;
  incompleteViewCount: number;
  outcomeCounts: Record<string, number>;
}

export interface RunRow {
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

export interface RunViewRow {
  view_name: string;
  target: string | null;
  outcome: RunViewOutcome;
  withheld_members: string;
  reasons: string;
  warnings: string;
  definition_written: number;
  finished_at: string;
}

export interface ViewResult {
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

export function findRunRow(ctx: ServiceContext, deploymentId: number, dataSourceName: string, runId: string): RunRow {
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

export function summaryOf(views: Pick<RunView, 'outcome' | 'withheldMembers'>[]): { incompleteViewCount: number; outcomeCounts: Record<string, number> } {
  const outcomeCounts: Record<string, number> = {};
  for (const view of views) outcomeCounts[view.outcome] = (outcomeCounts[view.outcome] ?? 0) + 1;
  const incompleteViewCount = views.filter((v) => PUBLISHED.includes(v.outcome) && v.withheldMembers.length > 0).length;
  return { incompleteViewCount, outcomeCounts };
}

/** The branch a run reads and, for a dev branch, its per-user target. */
export function runPlacement(ctx: ServiceContext, deploymentId: number, job: Job): { branchName: string; devTarget: DevTargetPlacement | null } {
  const inputs = job.inputs as Partial<RunInputs>;
  return { branchName: inputs.branchName ?? getDeployBranch(ctx, deploymentId), devTarget: inputs.devTarget ?? null };
}

function runFields(ctx: ServiceContext, row: RunRow, job: Job, views: RunView[]) {
  const { incompleteViewCount, outcomeCounts } = summaryOf(views);
  return {
    runId: row.id,
    dataSourceName: row.data_source,
    buildJobId: row.build_id,
    ...(row.commit_sha ? { commit: row.commit_sha } : {}),
    statusUrl: runStatusUrl(row.deployment_id, row.data_source, row.id),
    ...runPlacement(ctx, row.deployment_id, job),
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

export function jobOf(ctx: ServiceContext, runId: string): Job {
  const job = getJobRunner(ctx).get(runId, { kinds: [RUN_JOB_KIND] });
  if (!job) throw new ApiError(404, Codes.RUN_NOT_FOUND, `Publication run ${runId} no longer exists.`);
  return job;
}

export function getRun(ctx: ServiceContext, deploymentId: number, dataSourceName: string, runId: string): Run {
  const row = findRunRow(ctx, deploymentId, dataSourceName, runId);
  const views = runViews(ctx, row.id);
  return { ...runFields(ctx, row, jobOf(ctx, row.id), views), viewNames: row.view_names ? (JSON.parse(row.view_names) as string[]) : [], views };
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
    return { ...runFields(ctx, row, runner.get(row.id)!, views), viewCount: views.length };
  });
}

// ---- writing (the job's per-view results) ------------------------------------------------------

export class RunRecorder {
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
