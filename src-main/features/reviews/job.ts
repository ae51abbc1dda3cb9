// The review job (issue 26): what uses the model is read here (SQLite), everything else that is
// work goes elsewhere — compiling, diffing and planning to a compute thread, queries to the data
// plane (DuckDB's threads) or the warehouse, the row comparison to a compute thread again. Queries
// run a few at a time within a time budget; a cancel interrupts the ones running.
import { ReviewErrorCodes as Codes, type QueryDiff, type ReviewResult, type ReviewSummary } from '../../../src-shared/api/reviews';
import type { PlannedDiffQuery, PlannedSide, PreparedReview, SideRows } from '../../../src-shared/model/review';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { JobFailure, type Job, type JobContext } from '../../platform/jobs';
import { runCompute } from '../../workers/run';
import { modelRepositoryDir } from '../data-model';
import { dataSourceDialects, queryFailure, queryTarget, type QueryTarget } from '../queries';
import { readReviewFacts } from './facts';
import type { ReviewJobInputs } from './store';

const SAMPLES = 10;

type SideOutcome = { ok: true; rows: SideRows; ms: number } | { ok: false; message: string; skipped: boolean };

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
  let finished = 0;
  const runnable = review.queries.filter((q) => q.base.ok && q.head.ok && !q.sameSql);
  let total = runnable.length * 2;
  const runSide = (side: PlannedSide) => async (): Promise<SideOutcome> => {
    if (!side.ok) return { ok: false, message: side.message, skipped: false };
    if (signal.aborted || Date.now() >= deadline) {
      jobCtx.signal.throwIfAborted();
      return { ok: false, message: 'Not run: the time budget ran out.', skipped: true };
    }
    const t0 = performance.now();
    let label = 'The data source';
    try {
      const target = await targets.get(side.dataSource);
      label = target.label;
      const rows = await target.run(side.sql, side.params, { signal });
      return { ok: true, rows: { columns: side.columns, rows: rows.rows }, ms: performance.now() - t0 };
    } catch (error) {
      jobCtx.signal.throwIfAborted();
      if (budget.signal.aborted) return { ok: false, message: 'Stopped: the time budget ran out.', skipped: true };
      return { ok: false, message: messageOf(error, label), skipped: false };
    } finally {
      finished++;
      jobCtx.progress('querying', 30 + Math.floor((60 * finished) / Math.max(1, total)));
    }
  };
  let outcomes: [SideOutcome, SideOutcome][];
  try {
    // One run per distinct statement: sides that plan to the same statement share its rows.
    const sides = runnable.flatMap((q) => [q.base, q.head]) as Extract<PlannedSide, { ok: true }>[];
    const distinct = [...new Map(sides.map((side) => [side.runKey, side])).values()];
    total = distinct.length;
    const results = await pool(distinct.map(runSide), options.concurrency);
    const byKey = new Map(distinct.map((side, i) => [side.runKey, results[i]!]));
    const shaped = (side: Extract<PlannedSide, { ok: true }>): SideOutcome => {
      const outcome = byKey.get(side.runKey)!;
      return outcome.ok ? { ...outcome, rows: { columns: side.columns, rows: outcome.rows.rows } } : outcome;
    };
    outcomes = runnable.map((q) => [shaped(q.base as Extract<PlannedSide, { ok: true }>), shaped(q.head as Extract<PlannedSide, { ok: true }>)]);
  } finally {
    clearTimeout(budgetTimer);
    await targets.close();
  }

  jobCtx.progress('comparing', 92);
  const compared = outcomes.filter(([b, h]) => b.ok && h.ok) as [Extract<SideOutcome, { ok: true }>, Extract<SideOutcome, { ok: true }>][];
  const diffs = compared.length
    ? await runCompute(
        ctx,
        'compareReviewRows',
        { pairs: compared.map(([b, h]) => ({ base: b.rows, head: h.rows })), tolerance: options.tolerance, samples: SAMPLES },
        { signal: jobCtx.signal },
      )
    : [];

  const byQuery = new Map<PlannedDiffQuery, [SideOutcome, SideOutcome]>(runnable.map((q, i) => [q, outcomes[i]!]));
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
      return { ...common, status: 'failed', durationMs: null, truncated: false, error: { side, message }, diff: null };
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
    const truncated = b.rows.rows.length >= limit || h.rows.rows.length >= limit;
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
      budgetExhausted: queries.some((q) => q.status === 'skipped'),
      durationMs: Math.round(performance.now() - (options.dataDiff ? dataStarted : started)),
      queries,
    },
  };
}
