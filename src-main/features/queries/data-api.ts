/**
 * The platform's data API (`load`, `sql`, `meta`) over a deployment's model. A `load` waits up to
 * a few seconds for its query; a query still running then is answered `{ "error": "Continue wait" }`
 * (HTTP 200), and the next request for the same query (same model, same rights) joins the run
 * instead of starting another, as the platform's clients expect when they poll.
 */
import { createHash } from 'node:crypto';
import { META_HIDDEN_KEY, QueryErrorCodes as Codes } from '../../../src-shared/api/queries';
import { hiddenByAccessPolicy, modelMeta, type PlannedQuery } from '../../../src-shared/model/query';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { credentialKindOf } from '../../http/credentials';
import { ApiError } from '../../http/problem';
import { planForTarget, runPlanned, type QueryOutcome } from './load';
import { branchModel } from './models';
import { queryRunsOf } from './runs';
import { querySecurityOf } from './security';

/** How long a `load` request waits before answering `Continue wait` (test seam: `ctx.services.queryWaitMs`). */
const waitMs = (ctx: ServiceContext) => (typeof ctx.services.queryWaitMs === 'number' ? ctx.services.queryWaitMs : 5000);

const invalid = (message: string) => new ApiError(400, Codes.INVALID_QUERY, message, { error: message });

/** The `query` parameter: JSON text (GET) or an object (POST); a list is a blending query. */
function parseQueries(raw: unknown): { queries: unknown[]; multi: boolean } {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw invalid('The `query` parameter is not valid JSON.');
    }
  }
  if (value === undefined || value === null) throw invalid('Send the query in the `query` parameter (JSON).');
  if (Array.isArray(value)) {
    if (value.length === 0) throw invalid('The list of queries is empty.');
    return { queries: value, multi: true };
  }
  return { queries: [value], multi: false };
}

export interface DataApiScope {
  deploymentId: number;
  /** Undefined: the deploy branch. */
  branch?: string;
}

async function prepare(ctx: ServiceContext, principal: Principal, scope: DataApiScope, rawQuery: unknown) {
  const { queries, multi } = parseQueries(rawQuery);
  const { model, hash, branch } = await branchModel(ctx, scope.deploymentId, scope.branch);
  const security = querySecurityOf(ctx, principal);
  return { queries, multi, model, hash, branch, security };
}

function queryResult(outcome: QueryOutcome): Record<string, unknown> {
  return {
    query: normalizedQuery(outcome.plan),
    data: outcome.data,
    lastRefreshTime: outcome.lastRefreshTime,
    annotation: outcome.plan.annotation,
    dataSource: outcome.dataSource,
    dbType: outcome.dialect,
    extDbType: 'cubestore',
    external: false,
    slowQuery: false,
    ...(outcome.total !== null ? { total: outcome.total } : {}),
  };
}

/** The query as the platform echoes it: defaults filled in, order as `{ id, desc }`. */
function normalizedQuery(plan: PlannedQuery): Record<string, unknown> {
  const { order, ...rest } = plan.normalized;
  return { ...rest, order: order.map(([id, dir]) => ({ id, desc: dir === 'desc' })), rowLimit: plan.normalized.limit, queryType: 'regularQuery' };
}

export async function dataApiLoad(ctx: ServiceContext, principal: Principal, scope: DataApiScope, rawQuery: unknown, queryType: string | undefined): Promise<Record<string, unknown>> {
  const { queries, multi, model, hash, branch, security } = await prepare(ctx, principal, scope, rawQuery);
  // Plan every query first, so a bad one answers 400 at once rather than after the others ran.
  const planned: Awaited<ReturnType<typeof planForTarget>>[] = [];
  for (const q of queries) planned.push(await planForTarget(ctx, scope.deploymentId, model, q, security));
  const key = createHash('sha256').update(JSON.stringify([scope.deploymentId, branch, hash, security, queries])).digest('hex');
  const runs = queryRunsOf(ctx);
  const run = runs.start({ key, deploymentId: scope.deploymentId, userId: principal.userId, branch }, async (control) => {
    const outcomes: QueryOutcome[] = [];
    for (const p of planned) outcomes.push(await runPlanned(ctx, p.plan, p.target, control));
    return outcomes;
  }, () => void Promise.all(planned.map((p) => p.target.close().catch(() => undefined))));
  if (!(await runs.wait(run, waitMs(ctx)))) {
    return { error: 'Continue wait', stage: { stage: run.progress.stage, percentDone: run.progress.percentComplete }, timeElapsed: ctx.clock.now().getTime() - run.startedAt.getTime() };
  }
  if (run.status !== 'COMPLETED') {
    if (run.status === 'CANCELLED') throw new ApiError(409, 'QUERY_CANCELLED', 'The query was cancelled.', { error: 'The query was cancelled.' });
    throw run.error;
  }
  const results = run.value!.map(queryResult);
  if (multi || queryType === 'multi') {
    const first = results[0]!.query as Record<string, unknown>;
    const type = multi ? 'blendingQuery' : 'regularQuery';
    return { queryType: type, results, pivotQuery: { ...first, queryType: type }, slowQuery: false };
  }
  return results[0]!;
}

export async function dataApiSql(ctx: ServiceContext, principal: Principal, scope: DataApiScope, rawQuery: unknown): Promise<Record<string, unknown> | Record<string, unknown>[]> {
  const { queries, multi, model, security } = await prepare(ctx, principal, scope, rawQuery);
  const answers: Record<string, unknown>[] = [];
  for (const q of queries) {
    const { plan, target } = await planForTarget(ctx, scope.deploymentId, model, q, security);
    await target.close();
    const time = plan.columns.find((c) => c.kind === 'timeDimension');
    answers.push({
      sql: {
        sql: [plan.main.sql, plan.main.params],
        order: plan.normalized.order.map(([id, dir]) => ({ id, desc: dir === 'desc' })),
        timeDimensionAlias: time?.alias,
        timeDimensionField: time?.alsoKey,
        aliasNameToMember: Object.fromEntries(plan.columns.map((c) => [c.alias, c.key])),
        cacheKeyQueries: [],
        dataSource: plan.dataSource,
        dialect: target.dialect.name,
        external: false,
        preAggregations: [],
        rollupMatchResults: [],
      },
    });
  }
  return multi ? answers : answers[0]!;
}

export async function dataApiMeta(ctx: ServiceContext, principal: Principal, scope: DataApiScope, options: { onlyViews?: boolean }): Promise<Record<string, unknown>> {
  const { model } = await branchModel(ctx, scope.deploymentId, scope.branch);
  const security = querySecurityOf(ctx, principal);
  const meta: Record<string, unknown> = modelMeta(model, security, options);
  // Only people learn what is hidden from them (they may read the model's files, policies included);
  // tokens made for data access (deployment, environment, embed, OAuth) see the platform's shape alone.
  if (credentialKindOf(principal) === 'user') meta[META_HIDDEN_KEY] = hiddenByAccessPolicy(model, security, options);
  return meta;
}
