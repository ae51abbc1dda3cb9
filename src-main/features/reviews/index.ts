// What other areas may use of the change review area (issue 26).
export { registerReviewRoutes } from './routes';
export { REVIEW_JOB_KIND } from './store';
