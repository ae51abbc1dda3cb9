/**
 * Query runs for the app's data preview: started at once (202), polled for progress, cancelled on
 * request; the result carries the rows, column titles and the SQL that ran. Runs belong to the
 * user who started them (admins see all).
 */
import { QueryErrorCodes as Codes, type QueryRun, type ResultColumnInfo, type StartQueryRunInput } from '../../../src-shared/api/queries';
import { QueryError } from '../../../src-shared/model/query';
import type { ServiceContext } from '../../context';
import { hasAccess, type Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { planForTarget, queryProblem, runPlanned, type QueryOutcome } from './load';
import { branchModel } from './models';
import { queryRunsOf, type Run } from './runs';
import { querySecurityOf } from './security';

interface PreviewValue {
  outcome: QueryOutcome;
}

interface PreviewRun extends Run<PreviewValue> {
  sql?: QueryRun['sql'];
}

function errorOf(error: unknown): { code: string; message: string } {
  const mapped = queryProblem(error);
  if (mapped instanceof ApiError) return { code: mapped.code, message: mapped.detail };
  if (error instanceof QueryError) return { code: error.code, message: error.message };
  return { code: Codes.QUERY_FAILED, message: error instanceof Error ? error.message : String(error) };
}

function columnsOf(outcome: QueryOutcome): ResultColumnInfo[] {
  const a = outcome.plan.annotation;
  return outcome.plan.columns
    .filter((c) => !c.hidden)
    .map((c) => {
      const note = c.kind === 'measure' ? a.measures[c.key] : c.kind === 'timeDimension' ? a.timeDimensions[c.key] : a.dimensions[c.key];
      return { key: c.key, title: note?.shortTitle ?? c.key, kind: c.kind, type: c.type, ...(note?.format !== undefined ? { format: note.format } : {}) };
    });
}

export function toQueryRun(run: PreviewRun): QueryRun {
  const finishedAt = run.finishedAt?.toISOString() ?? null;
  const out: QueryRun = {
    id: run.id,
    status: run.status,
    progress: run.progress,
    branch: run.branch,
    startedAt: run.startedAt.toISOString(),
    finishedAt,
    durationMs: run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null,
    ...(run.sql ? { sql: run.sql } : {}),
  };
  if (run.status === 'FAILED') out.error = errorOf(run.error);
  if (run.status === 'CANCELLED') out.error = { code: 'QUERY_CANCELLED', message: 'The query was cancelled.' };
  if (run.status === 'COMPLETED' && run.value) {
    const o = run.value.outcome;
    out.result = { columns: columnsOf(o), data: o.data, rowCount: o.data.length, total: o.total };
  }
  return out;
}

export async function startPreviewRun(ctx: ServiceContext, deploymentId: number, principal: Principal, input: StartQueryRunInput): Promise<QueryRun> {
  const { model, branch } = await branchModel(ctx, deploymentId, input.branch, input.workingEdits);
  // Planning errors answer 400 at once (the preview shows them next to the query).
  const { plan, target } = await planForTarget(ctx, deploymentId, model, input.query, querySecurityOf(ctx, principal));
  const run = queryRunsOf(ctx).start({ key: null, deploymentId, userId: principal.userId, branch }, async (control) => ({
    outcome: await runPlanned(ctx, plan, target, control),
  })) as PreviewRun;
  run.sql = { sql: plan.main.sql, params: plan.main.params, dialect: target.dialect.name, dataSource: target.dataSource.name };
  return toQueryRun(run);
}

function ownRun(ctx: ServiceContext, deploymentId: number, principal: Principal, runId: string): PreviewRun {
  const run = queryRunsOf(ctx).get<PreviewValue>(runId) as PreviewRun | undefined;
  const mine = run && run.deploymentId === deploymentId && (run.userId === principal.userId || hasAccess(principal, 'admin'));
  if (!run || !mine) throw new ApiError(404, Codes.QUERY_RUN_NOT_FOUND, `Deployment ${deploymentId} has no query run ${runId} of yours (runs are kept 10 minutes).`);
  return run;
}

export async function getPreviewRun(ctx: ServiceContext, deploymentId: number, principal: Principal, runId: string, waitMs = 0): Promise<QueryRun> {
  const run = ownRun(ctx, deploymentId, principal, runId);
  if (waitMs > 0) await queryRunsOf(ctx).wait(run, waitMs);
  return toQueryRun(run);
}

export function cancelPreviewRun(ctx: ServiceContext, deploymentId: number, principal: Principal, runId: string): QueryRun {
  const run = ownRun(ctx, deploymentId, principal, runId);
  queryRunsOf(ctx).cancel(run);
  return toQueryRun(run);
}
