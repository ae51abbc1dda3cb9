/**
 * One model query end to end: plan it for the engine of the data source its cubes read, run it
 * there (cancellable, with progress), and shape the rows the way the data API returns them.
 */
import { QueryErrorCodes as Codes } from '../../../src-shared/api/queries';
import type { CompiledModel } from '../../../src-shared/model';
import { duckdbDialect, planQuery, QueryError, type PlannedQuery, type QuerySecurity } from '../../../src-shared/model/query';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { queryFailure, queryTarget, type QueryTarget } from './execute';
import { shapeRows } from './format';
import type { RunControl } from './runs';

export interface QueryOutcome {
  plan: PlannedQuery;
  data: Record<string, unknown>[];
  total: number | null;
  dialect: string;
  dataSource: string;
  label: string;
  lastRefreshTime: string;
}

/** A planner refusal as the API's error: 400 (or 403 for access), with `error` for the official client. */
export function queryProblem(error: unknown): unknown {
  if (!(error instanceof QueryError)) return error;
  const code = error.status === 403 ? Codes.ACCESS_DENIED : Codes.INVALID_QUERY;
  return new ApiError(error.status, code, error.message, { error: error.message, reason: error.code });
}

/** Plans with the target's dialect (the data source is known only from the cubes the query reads). */
export async function planForTarget(
  ctx: ServiceContext,
  deploymentId: number,
  model: CompiledModel,
  query: unknown,
  security: QuerySecurity | null,
): Promise<{ plan: PlannedQuery; target: QueryTarget }> {
  let probe: PlannedQuery;
  try {
    probe = planQuery(model, query, { dialect: duckdbDialect, security, now: ctx.clock.now() });
  } catch (error) {
    throw queryProblem(error);
  }
  const target = await queryTarget(ctx, deploymentId, probe.dataSource);
  if (target.dialect === duckdbDialect) return { plan: probe, target };
  try {
    return { plan: planQuery(model, query, { dialect: target.dialect, security, now: ctx.clock.now() }), target };
  } catch (error) {
    await target.close();
    throw queryProblem(error);
  }
}

export async function runPlanned(ctx: ServiceContext, plan: PlannedQuery, target: QueryTarget, control: RunControl): Promise<QueryOutcome> {
  try {
    control.progress('running', 5);
    const rows = await target.run(plan.main.sql, plan.main.params, { signal: control.signal, onProgress: (p) => control.progress('running', Math.max(5, p)) });
    control.signal.throwIfAborted();
    let total: number | null = null;
    if (plan.total) {
      control.progress('counting', 90);
      const counted = await target.run(plan.total.sql, plan.total.params, { signal: control.signal });
      total = Number(counted.rows[0]?.[0] ?? 0);
    }
    control.progress('shaping', 95);
    return {
      plan,
      data: shapeRows(plan, rows),
      total,
      dialect: target.dialect.name,
      dataSource: target.dataSource.name,
      label: target.label,
      lastRefreshTime: ctx.clock.now().toISOString(),
    };
  } catch (error) {
    throw control.signal.aborted ? error : queryFailure(error, target.label);
  } finally {
    await target.close().catch(() => undefined);
  }
}
