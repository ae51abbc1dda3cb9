// Change review routes (issue 26): under the deployment's data model; reading and starting need
// SchemaRead (a review reads the model and runs queries with the caller's rights).
import * as contract from '../../../src-shared/api/reviews';
import { DEPLOYMENT_READ_CREDENTIALS } from '../../http/credentials';
import type { Api, RouteOptions } from '../../http/route';
import { getJobRunner } from '../../platform/jobs';
import { runReview } from './job';
import { cancelReview, getReview, getReviewResult, listModelReviews, startReview } from './reviews';
import { REVIEW_JOB_KIND, type ReviewJobInputs } from './store';
import type { ReviewResult } from '../../../src-shared/api/reviews';

const READ: RouteOptions = { access: ['schemaRead'], credentials: DEPLOYMENT_READ_CREDENTIALS };

export function registerReviewRoutes(api: Api): void {
  const { ctx, route } = api;
  const runner = getJobRunner(ctx);
  if (!runner.isRegistered(REVIEW_JOB_KIND)) {
    // Nothing a review does has a side effect: a review whose worker died simply runs again.
    runner.register<ReviewJobInputs, ReviewResult>(REVIEW_JOB_KIND, (job, jobCtx) => runReview(ctx, job, jobCtx), { concurrency: 2, maxAttempts: 2 });
  }
  route(contract.startModelReview, READ, ({ params, body, principal }) => startReview(ctx, params.deploymentId, body, principal));
  route(contract.listModelReviews, READ, ({ params, query, principal }) =>
    listModelReviews(ctx, params.deploymentId, principal, { head: query.head }, { first: query.first, after: query.after }),
  );
  route(contract.getModelReview, READ, ({ params, principal }) => getReview(ctx, params.deploymentId, params.reviewId, principal));
  route(contract.getModelReviewResult, READ, ({ params, principal }) => getReviewResult(ctx, params.deploymentId, params.reviewId, principal));
  route(contract.cancelModelReview, READ, ({ params, principal }) => cancelReview(ctx, params.deploymentId, params.reviewId, principal));
}
