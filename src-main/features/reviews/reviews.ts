// Starting and reading change reviews (issue 26). The HTTP thread only resolves the two refs,
// fingerprints the request and reads or writes rows; the job does the work.
import { createHash } from 'node:crypto';
import { ReviewErrorCodes as Codes, type ModelReview, type ReviewResult, type StartedReview, type StartReviewInput } from '../../../src-shared/api/reviews';
import { DEFAULT_DATA_DIFF_LIMITS, DEFAULT_TOLERANCE } from '../../../src-shared/model/review';
import type { ServiceContext } from '../../context';
import { hasAccess, type Principal } from '../../http/auth';
import type { PageRequest, PageResult } from '../../http/pagination';
import { ApiError } from '../../http/problem';
import { canonicalJson, getJobRunner } from '../../platform/jobs';
import { getDeployBranch } from '../data-model';
import { querySecurityOf } from '../queries';
import { defaultBase, resolveBase, resolveRef } from './refs';
import { findReusable, insertReview, listReviews, REVIEW_JOB_KIND, requireReview, toModelReview, type ReviewJobInputs } from './store';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const isAdmin = (principal: Principal) => principal.via !== 'embed' && hasAccess(principal, 'admin');

/** Who the caller is for reading reviews: the fingerprint of the rights its queries run with. */
export function callerOf(ctx: ServiceContext, principal: Principal) {
  const security = querySecurityOf(ctx, principal);
  const reviewer = { userId: principal.userId, admin: isAdmin(principal) };
  return { security, reviewer, rightsKey: sha256(canonicalJson({ security, reviewer })), admin: reviewer.admin };
}

function optionsOf(input: StartReviewInput['options']): ReviewJobInputs['options'] {
  const o = input ?? {};
  return {
    dataDiff: o.dataDiff ?? true,
    rowLimit: o.rowLimit ?? DEFAULT_DATA_DIFF_LIMITS.rowLimit,
    maxQueries: o.maxQueries ?? DEFAULT_DATA_DIFF_LIMITS.maxQueries,
    maxViewDimensions: o.maxViewDimensions ?? DEFAULT_DATA_DIFF_LIMITS.maxViewDimensions,
    concurrency: o.concurrency ?? 4,
    timeBudgetMs: o.timeBudgetMs ?? 60_000,
    tolerance: { absolute: o.tolerance?.absolute ?? DEFAULT_TOLERANCE.absolute, relative: o.tolerance?.relative ?? DEFAULT_TOLERANCE.relative },
  };
}

export async function startReview(ctx: ServiceContext, deploymentId: number, body: StartReviewInput | undefined, principal: Principal): Promise<StartedReview> {
  const input = body ?? {};
  const head = await resolveRef(ctx, deploymentId, input.head ?? (await getDeployBranch(ctx, deploymentId)), '/body/head');
  const base = input.base !== undefined ? await resolveBase(ctx, deploymentId, input.base, head, '/body/base') : await defaultBase(ctx, deploymentId, head);
  const options = optionsOf(input.options);
  const caller = callerOf(ctx, principal);
  const reviewKey = sha256(canonicalJson({ base: base.commit, head: head.commit, options, rights: caller.rightsKey }));
  return ctx.db.transaction((): StartedReview => {
    if (!input.refresh) {
      const found = findReusable(ctx, deploymentId, reviewKey);
      if (found) return { ...toModelReview(found.row, found.job), reused: true };
    }
    const now = ctx.clock.now().toISOString();
    const job = getJobRunner(ctx).enqueue<ReviewJobInputs>({
      kind: REVIEW_JOB_KIND,
      deploymentId,
      inputs: { deploymentId, base: { ref: base.ref, commit: base.commit }, head: { ref: head.ref, commit: head.commit }, options, security: caller.security, reviewer: caller.reviewer, now },
      createdBy: principal.userId,
    });
    const row = {
      id: job.id,
      deployment_id: deploymentId,
      base_ref: base.ref,
      head_ref: head.ref,
      base_commit: base.commit,
      head_commit: head.commit,
      options: JSON.stringify(options),
      review_key: reviewKey,
      rights_key: caller.rightsKey,
      created_by: principal.userId,
      created_at: job.createdAt,
    };
    insertReview(ctx, row);
    return { ...toModelReview(row, job as never), reused: false };
  })();
}

export function getReview(ctx: ServiceContext, deploymentId: number, reviewId: string, principal: Principal): ModelReview {
  const { row, job } = requireReview(ctx, deploymentId, reviewId, callerOf(ctx, principal));
  return toModelReview(row, job);
}

export function getReviewResult(ctx: ServiceContext, deploymentId: number, reviewId: string, principal: Principal): ReviewResult {
  const { job } = requireReview(ctx, deploymentId, reviewId, callerOf(ctx, principal));
  if (job.status !== 'COMPLETED' || !job.result) {
    throw new ApiError(409, Codes.REVIEW_NOT_COMPLETED, `Review ${reviewId} is ${job.status}; its result is there once it has COMPLETED.`, { reviewStatus: job.status });
  }
  return job.result;
}

export function cancelReview(ctx: ServiceContext, deploymentId: number, reviewId: string, principal: Principal): ModelReview {
  const { row } = requireReview(ctx, deploymentId, reviewId, callerOf(ctx, principal));
  const job = getJobRunner(ctx).requestCancel(reviewId)!;
  return toModelReview(row, job as never);
}

export function listModelReviews(ctx: ServiceContext, deploymentId: number, principal: Principal, filter: { head?: string }, page: PageRequest): PageResult<ModelReview> {
  return listReviews(ctx, deploymentId, callerOf(ctx, principal), filter, page);
}
