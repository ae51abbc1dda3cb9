import type { ServiceContext } from '../../context';
import { JobRunner } from './runner';

export { JobRunner, jobErrorOf, type JobRunnerOptions } from './runner';
export { canonicalJson, inputsHashOf } from './store';
export * from './types';

/** The service's job runner (created by the composition root right after the database). */
export function getJobRunner(ctx: ServiceContext): JobRunner {
  const runner = ctx.services.jobs;
  if (!(runner instanceof JobRunner)) throw new Error('The job runner is not set up: ctx.services.jobs is missing.');
  return runner;
}
