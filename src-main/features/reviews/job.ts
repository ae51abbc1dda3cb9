// The review job (issue 26): what uses the model is read here (SQLite), everything else that is
// work goes elsewhere — compiling, diffing and planning to a compute thread, queries to the data
// plane (DuckDB's threads) or the warehouse, the row comparison to a compute thread again. Queries
// run a few at a time within a time budget; a cancel interrupts the ones running.
import { ReviewErrorCodes as Codes, type QueryDiff, type ReviewResult, type ReviewSummary } from '../../../src-shared/api/reviews';
import type { PlannedDiffQuery, PlannedSide, PreparedReview, SidePick, StatementRun } from '../../../src-shared/model/review';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { JobFailure, type Job, type JobContext } from '../../platform/jobs';
import { runCompute } from '../../workers/run';
import { modelRepositoryDir } from '../data-model';
import { dataSourceDialects, queryFailure, queryTarget, type QueryTarget } from '../queries';
import { readReviewFacts } from './facts';
import type { ReviewJobInputs } from './store';

const SAMPLES = 10;

type PlannedOk = Extract<PlannedSide, { ok: true }>;

/** What became of one side: its rows (a statement's rows and where the side's are in them), or why none. */
type SideOutcome = { ok: true; result: number; pick: SidePick; ms: number } | { ok: false; message: string; skipped: boolean };
type StatementOutcome = { ok: true; result: number; ms: number } | { ok: false; message: string; skipped: boolean };

/** A side that ran alone: its rows are the statement's rows as they are. */
const WHOLE: SidePick = { run: -1, columns: [], rank: null };

/** Runs tasks at most `limit` at a time, in order. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < tasks.length; i = next++) results[i] = await tasks[i]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** Opens one query target per data source for the whole review, and closes them all at the end. */
class Targets {
  private readonly open = new Map<string, Promise<QueryTarget>>();
  constructor(
    private readonly ctx: ServiceContext,
    private readonly deploymentId: number,
  ) {}
  get(dataSource: string): Promise<QueryTarget> {
    let target = this.open.get(dataSource);
    if (!target) {
      target = queryTarget(this.ctx, this.deploymentId, dataSource);
      this.open.set(dataSource, target);
    }
    return target;
  }
  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((t) => t.then((x) => x.close()).catch(() => undefined)));
  }
}

const messageOf = (error: unknown, label: string) => {
  const failure = queryFailure(error, label);
  return failure instanceof ApiError ? failure.detail : failure.message;
};

function summarize(prepared: PreparedReview, queries: QueryDiff[]): ReviewSummary {
  const { changes, impact } = prepared;
  return {
    changes: changes.length,
    numberChanges: changes.filter((c) => c.effect === 'numbers').length,
    affectedMembers: impact.members.length,
    affectedViews: impact.views.length,
    affectedWidgets: impact.widgets.length,
    affectedReports: impact.reports.length,
    breaking: impact.breaking.length,
    queries: queries.length,
    queriesChanged: queries.filter((q) => q.status === 'changed').length,
    queriesFailed: queries.filter((q) => q.status === 'failed').length,
    queriesSkipped: queries.filter((q) => q.status === 'skipped').length,
  };
}

export async function runReview(ctx: ServiceContext, job: Job<ReviewJobInputs, ReviewResult>, jobCtx: JobContext): Promise<ReviewResult> {
  const { deploymentId, base, head, options, security, reviewer, now } = job.inputs;
  const started = performance.now();
  jobCtx.progress('reading-uses', 5);
  const facts = readReviewFacts(ctx, deploymentId, reviewer);
  jobCtx.progress('compiling', 10);
  const prepared = await runCompute(
    ctx,
    'prepareModelReview',
    {
      gitdir: await modelRepositoryDir(ctx, deploymentId),
      baseCommit: base.commit,
      headCommit: head.commit,
      facts,
      security,
      now,
      dialects: dataSourceDialects(ctx, deploymentId),
      limits: { rowLimit: options.rowLimit, maxQueries: options.maxQueries, maxViewDimensions: options.maxViewDimensions, maxViewMeasures: 20 },
      dataDiff: options.dataDiff,
    },
    { signal: jobCtx.signal },
  );
  if (!prepared.readable) {
    throw new JobFailure(Codes.REVIEW_SOURCE_UNREADABLE, `Could not read the ${prepared.side} commit ${(prepared.side === 'base' ? base : head).commit.slice(0, 12)}: ${prepared.message}`);
  }
  const review = prepared.review;

  jobCtx.progress('querying', 30);
  const dataStarted = performance.now();
  const deadline = Date.now() + options.timeBudgetMs;
  const budget = new AbortController();
  const budgetTimer = setTimeout(() => budget.abort(), options.timeBudgetMs);
  const signal = AbortSignal.any([jobCtx.signal, budget.signal]);
  const targets = new Targets(ctx, deploymentId);
  const runnable = review.queries.filter((q) => q.base.ok && q.head.ok && !q.sameSql);
  const { runs, picks } = prepared.batch;
  const sides = new Map((runnable.flatMap((q) => [q.base, q.head]) as PlannedOk[]).map((side) => [side.runKey, side]));
  /** Rows of every statement that ran, referred to by index (they go to the comparison as they are). */
  const results: unknown[][][] = [];
  const outcomes = new Map<string, SideOutcome>();
  let finished = 0;

  const execute = async (dataSource: string, sql: string, params: unknown[]): Promise<StatementOutcome> => {
    if (signal.aborted || Date.now() >= deadline) {
      jobCtx.signal.throwIfAborted();
      return { ok: false, message: 'Not run: the time budget ran out.', skipped: true };
    }
    const t0 = performance.now();
    let label = 'The data source';
    try {
      const target = await targets.get(dataSource);
      label = target.label;
      const rows = await target.run(sql, params, { signal });
      results.push(rows.rows);
      return { ok: true, result: results.length - 1, ms: performance.now() - t0 };
    } catch (error) {
      jobCtx.signal.throwIfAborted();
      if (budget.signal.aborted) return { ok: false, message: 'Stopped: the time budget ran out.', skipped: true };
      return { ok: false, message: messageOf(error, label), skipped: false };
    }
  };
  const runStatement = (run: StatementRun) => async () => {
    try {
      const outcome = await execute(run.dataSource, run.sql, run.params);
      if (outcome.ok || !run.combined || outcome.skipped) {
        for (const key of run.sides) outcomes.set(key, outcome.ok ? { ...outcome, pick: picks[key]! } : outcome);
        return;
      }
      // A statement computing several sides failed: each side alone says which of them fails, and why.
      for (const key of run.sides) {
        const side = sides.get(key)!;
        const alone = await execute(side.dataSource, side.sql, side.params);
        outcomes.set(key, alone.ok ? { ...alone, pick: WHOLE } : alone);
      }
    } finally {
      finished++;
      jobCtx.progress('querying', 30 + Math.floor((60 * finished) / Math.max(1, runs.length)));
    }
  };
  try {
    await pool(runs.map(runStatement), options.concurrency);
  } finally {
    clearTimeout(budgetTimer);
    await targets.close();
  }

  jobCtx.progress('comparing', 92);
  const pairs = runnable.map((q) => [outcomes.get((q.base as PlannedOk).runKey)!, outcomes.get((q.head as PlannedOk).runKey)!] as const);
  const compared = runnable.flatMap((q, i) => {
    const [b, h] = pairs[i]!;
    if (!b.ok || !h.ok) return [];
    const source = (side: PlannedSide, outcome: Extract<SideOutcome, { ok: true }>) => ({ columns: (side as PlannedOk).columns, result: outcome.result, pick: outcome.pick });
    return [{ base: source(q.base, b), head: source(q.head, h) }];
  });
  const diffs = compared.length
    ? await runCompute(ctx, 'compareReviewRows', { results, pairs: compared, tolerance: options.tolerance, samples: SAMPLES }, { signal: jobCtx.signal })
    : [];

  const byQuery = new Map<PlannedDiffQuery, readonly [SideOutcome, SideOutcome]>(runnable.map((q, i) => [q, pairs[i]!]));
  let diffIndex = 0;
  const queries: QueryDiff[] = review.queries.map((q) => {
    const common = {
      id: q.id,
      label: q.label,
      source: q.source,
      query: q.query as unknown as QueryDiff['query'],
      dataSource: q.base.ok ? q.base.dataSource : q.head.ok ? q.head.dataSource : null,
    };
    if (!q.base.ok || !q.head.ok) {
      const side = !q.base.ok && !q.head.ok ? 'both' : !q.base.ok ? 'base' : 'head';
      const message = !q.head.ok ? q.head.message : !q.base.ok ? q.base.message : '';
      // A member the reviewer may not see is not the change's fault: the query is left out, not failed.
      const denied = (!q.base.ok && q.base.denied) || (!q.head.ok && q.head.denied);
      return { ...common, status: denied ? 'skipped' : 'failed', durationMs: null, truncated: false, error: { side, message }, diff: null };
    }
    if (q.sameSql) return { ...common, status: 'identical', durationMs: null, truncated: false, error: null, diff: null };
    const [b, h] = byQuery.get(q)!;
    const durationMs = { base: b.ok ? Math.round(b.ms) : null, head: h.ok ? Math.round(h.ms) : null };
    if (!b.ok || !h.ok) {
      const skipped = (!b.ok && b.skipped) || (!h.ok && h.skipped);
      const side = !b.ok && !h.ok ? 'both' : !b.ok ? 'base' : 'head';
      const message = !b.ok ? b.message : !h.ok ? h.message : '';
      return { ...common, status: skipped ? 'skipped' : 'failed', durationMs, truncated: false, error: { side, message }, diff: null };
    }
    const diff = diffs[diffIndex++]!;
    const limit = options.rowLimit;
    const truncated = diff.baseRows >= limit || diff.headRows >= limit;
    return { ...common, status: diff.same ? 'same' : 'changed', durationMs, truncated, error: null, diff };
  });
  jobCtx.progress('completed', 100);
  return {
    base,
    head,
    summary: summarize(review, queries),
    changes: review.changes,
    impact: review.impact,
    problems: review.problems,
    dataDiff: {
      enabled: options.dataDiff,
      // Only the time budget skips a statement (a query hidden by a policy is never run).
      budgetExhausted: [...outcomes.values()].some((outcome) => !outcome.ok && outcome.skipped),
      durationMs: Math.round(performance.now() - (options.dataDiff ? dataStarted : started)),
      queries,
    },
  };
}
