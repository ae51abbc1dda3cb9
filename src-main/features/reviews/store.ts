// Reviews as rows beside their jobs (issue 26): which commit pair, options and rights each compared,
// so the same request finds the stored review and a caller only reads reviews made with its rights.
import { ReviewErrorCodes as Codes, type ModelReview, type ReviewOptions, type ReviewResult } from '../../../src-shared/api/reviews';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { getJobRunner, type Job } from '../../platform/jobs';

export const REVIEW_JOB_KIND = 'model-review';

export interface ReviewRow {
  id: string;
  deployment_id: number;
  base_ref: string;
  head_ref: string;
  base_commit: string;
  head_commit: string;
  options: string;
  review_key: string;
  rights_key: string;
  created_by: number | null;
  created_at: string;
}

export interface ReviewJobInputs {
  deploymentId: number;
  base: { ref: string; commit: string };
  head: { ref: string; commit: string };
  options: Required<Omit<ReviewOptions, 'tolerance'>> & { tolerance: { absolute: number; relative: number } };
  /** The reviewer's query rights and what they may see, as at the request. */
  security: import('../../../src-shared/model/query').QuerySecurity;
  reviewer: { userId: number | null; admin: boolean };
  /** "Now" of relative date ranges in queries, the same on both sides and on a retry. */
  now: string;
}

export function insertReview(ctx: ServiceContext, row: ReviewRow): void {
  ctx.db
    .prepare(
      `INSERT INTO model_reviews (id, deployment_id, base_ref, head_ref, base_commit, head_commit, options, review_key, rights_key, created_by, created_at)
       VALUES (@id, @deployment_id, @base_ref, @head_ref, @base_commit, @head_commit, @options, @review_key, @rights_key, @created_by, @created_at)`,
    )
    .run(row);
}

/** The newest review with this key whose job completed or is still under way (a failed or cancelled one is not reused). */
export function findReusable(ctx: ServiceContext, deploymentId: number, reviewKey: string): { row: ReviewRow; job: Job<ReviewJobInputs, ReviewResult> } | null {
  const rows = ctx.db
    .prepare('SELECT * FROM model_reviews WHERE deployment_id = ? AND review_key = ? ORDER BY created_at DESC LIMIT 5')
    .all(deploymentId, reviewKey) as ReviewRow[];
  for (const row of rows) {
    const job = getJobRunner(ctx).get<ReviewJobInputs, ReviewResult>(row.id, { deploymentId, kinds: [REVIEW_JOB_KIND] });
    if (job && ['QUEUED', 'RUNNING', 'COMPLETED'].includes(job.status)) return { row, job };
  }
  return null;
}

const mayRead = (row: ReviewRow, rightsKey: string, admin: boolean) => admin || row.rights_key === rightsKey;

export function requireReview(
  ctx: ServiceContext,
  deploymentId: number,
  reviewId: string,
  caller: { rightsKey: string; admin: boolean },
): { row: ReviewRow; job: Job<ReviewJobInputs, ReviewResult> } {
  const row = ctx.db.prepare('SELECT * FROM model_reviews WHERE id = ? AND deployment_id = ?').get(reviewId, deploymentId) as ReviewRow | undefined;
  const job = row ? getJobRunner(ctx).get<ReviewJobInputs, ReviewResult>(row.id, { deploymentId, kinds: [REVIEW_JOB_KIND] }) : null;
  if (!row || !job || !mayRead(row, caller.rightsKey, caller.admin)) {
    throw new ApiError(404, Codes.REVIEW_NOT_FOUND, `Deployment ${deploymentId} has no review ${reviewId}.`);
  }
  return { row, job };
}

export function toModelReview(row: ReviewRow, job: Job<ReviewJobInputs, ReviewResult>): ModelReview {
  const base = `/api/v1/deployments/${row.deployment_id}/data-model/reviews/${row.id}`;
  return {
    reviewId: row.id,
    status: job.status,
    progress: job.progress,
    error: job.error ? { code: job.error.code, message: job.error.message } : null,
    base: { ref: row.base_ref, commit: row.base_commit },
    head: { ref: row.head_ref, commit: row.head_commit },
    options: JSON.parse(row.options) as ReviewOptions,
    summary: job.status === 'COMPLETED' && job.result ? job.result.summary : null,
    createdBy: row.created_by,
    createdAt: row.created_at,
    finishedAt: job.finishedAt,
    statusUrl: base,
    resultUrl: `${base}/result`,
  };
}

/** Newest first; reviews made with other rights are left out for non-admins. */
export function listReviews(
  ctx: ServiceContext,
  deploymentId: number,
  caller: { rightsKey: string; admin: boolean },
  filter: { head?: string },
  page: PageRequest,
): PageResult<ModelReview> {
  const { limit, after } = pageWindow<[string, string]>(page);
  const where = ['deployment_id = ?'];
  const args: unknown[] = [deploymentId];
  if (!caller.admin) {
    where.push('rights_key = ?');
    args.push(caller.rightsKey);
  }
  if (filter.head) {
    where.push('(head_ref = ? OR head_commit = ?)');
    args.push(filter.head, filter.head);
  }
  if (after) {
    where.push('(created_at < ? OR (created_at = ? AND id < ?))');
    args.push(after[0], after[0], after[1]);
  }
  const rows = ctx.db.prepare(`SELECT * FROM model_reviews WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`).all(...args, limit) as ReviewRow[];
  const runner = getJobRunner(ctx);
  return toPage(
    rows,
    page,
    (row) => [row.created_at, row.id],
    (row) => toModelReview(row, runner.get<ReviewJobInputs, ReviewResult>(row.id, { deploymentId, kinds: [REVIEW_JOB_KIND] })!),
  );
}
