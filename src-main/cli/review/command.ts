// `drydock review [--base REF] [--head REF]` (issue 26): a change review on the service (a review
// job under the deployment), followed to its end (Ctrl-C cancels it), reported as text, JSON,
// Markdown (a pull-request comment) or SARIF (code scanning). Exits 1 when something breaks, or
// with --fail-on changed-numbers also when numbers change.
import { reviewRoutes, type ReviewResult, type StartReviewInput } from '../../../src-shared/api/reviews';
import type { ConnectionOptions } from '../api/connection';
import { getJobResult } from '../api/jobs';
import { followJob, withDeployment } from '../commands/common';
import { ExitCodes, writeReport } from '../output';
import { verdictOf } from '../../../src-shared/model/review/describe';

export const REVIEW_FORMATS = ['text', 'json', 'markdown', 'sarif'] as const;
export const FAIL_ON = ['breaking', 'changed-numbers', 'never'] as const;

export interface ReviewCommandOptions extends ConnectionOptions {
  /** Review offline, over this local git repository (no service). */
  repo?: string;
  base?: string;
  head?: string;
  format: (typeof REVIEW_FORMATS)[number];
  output?: string;
  failOn: (typeof FAIL_ON)[number];
  dataDiff: boolean;
  refresh?: boolean;
  rowLimit?: number;
  maxQueries?: number;
  timeBudget?: number;
  tolerance?: number;
}

async function render(result: ReviewResult, format: ReviewCommandOptions['format']): Promise<string> {
  switch (format) {
    case 'text':
      return (await import('./text')).textReport(result);
    case 'json':
      return JSON.stringify(result, null, 2);
    case 'markdown':
      return (await import('./markdown')).markdownReport(result);
    case 'sarif':
      return (await import('./sarif')).sarifReport(result);
  }
}

export function exitCodeOf(result: ReviewResult, failOn: ReviewCommandOptions['failOn']): number {
  const v = verdictOf(result);
  if (failOn === 'never') return ExitCodes.OK;
  if (v.breaking > 0) return ExitCodes.FAILURE;
  if (failOn === 'changed-numbers' && v.changedQueries > 0) return ExitCodes.FAILURE;
  return ExitCodes.OK;
}

async function deliver(result: ReviewResult, format: ReviewCommandOptions['format'], output: string | undefined): Promise<void> {
  const summary = format !== 'text' ? async () => (await import('./text')).textReport(result) : undefined;
  await writeReport(await render(result, format), output, summary);
}

export default async function review(options: ReviewCommandOptions): Promise<number> {
  const format = options.json ? 'json' : options.format;
  if (options.repo !== undefined) {
    const { offlineReview } = await import('./offline');
    const result = await offlineReview({ ...options, repo: options.repo });
    await deliver(result, format, options.output);
    return exitCodeOf(result, options.failOn);
  }
  const ctx = await withDeployment({ ...options, json: format !== 'text' });
  const deploymentId = ctx.deployment.id;
  const body: StartReviewInput = {
    ...(options.base ? { base: options.base } : {}),
    ...(options.head ? { head: options.head } : {}),
    ...(options.refresh ? { refresh: true } : {}),
    options: {
      dataDiff: options.dataDiff,
      ...(options.rowLimit !== undefined ? { rowLimit: options.rowLimit } : {}),
      ...(options.maxQueries !== undefined ? { maxQueries: options.maxQueries } : {}),
      ...(options.timeBudget !== undefined ? { timeBudgetMs: options.timeBudget } : {}),
      ...(options.tolerance !== undefined ? { tolerance: { relative: options.tolerance } } : {}),
    },
  };
  const started = await ctx.conn.client.call(reviewRoutes.startModelReview, { params: { deploymentId }, body });
  const ref = { kind: 'review' as const, deploymentId, id: started.reviewId };
  if (started.status !== 'COMPLETED') await followJob(ctx, ref, { wait: true });
  else if (format === 'text') ctx.out.note(`Review ${started.reviewId} of this commit pair was already made; showing it (--refresh to review again).`);
  const result = (await getJobResult(ctx.conn, ref)) as ReviewResult;
  await deliver(result, format, options.output);
  return exitCodeOf(result, options.failOn);
}

