// Typed calls into the worker threads: `runCompute(ctx, 'taskName', input)` runs the export of
// compute-worker.ts with that name on a compute thread; `runOnModelShard` runs an export of
// model-worker.ts on one model shard.
import type { ServiceContext } from '../context';
import { RepositoryDamagedError } from '../platform/repo/repo-types';
import { WorkerPools, type RunOptions } from '../platform/workers/pools';
import type * as Compute from './compute-worker';
import type * as Model from './model-worker';

type Task = (input: never) => unknown;
type Input<F> = F extends (input: infer I) => unknown ? I : never;
type Output<F> = F extends (input: never) => infer O ? Awaited<O> : never;
type TaskNames<M> = { [K in keyof M]: M[K] extends Task ? K : never }[keyof M] & string;

export type ComputeTask = TaskNames<typeof Compute>;
export type ModelTask = TaskNames<typeof Model>;

/** The service's worker pools (created by the composition root). */
export function getWorkerPools(ctx: ServiceContext): WorkerPools {
  const pools = ctx.services.workers;
  if (!(pools instanceof WorkerPools)) throw new Error('The worker pools are not set up: ctx.services.workers is missing.');
  return pools;
}

/** A thread's failure as the caller would have met it on this thread (a damaged repository stays a 409). */
function reviveError(error: unknown): never {
  throw RepositoryDamagedError.revive(error) ?? error;
}

export function runCompute<K extends ComputeTask>(
  ctx: ServiceContext,
  name: K,
  input: Input<(typeof Compute)[K]>,
  options?: RunOptions,
): Promise<Output<(typeof Compute)[K]>> {
  return getWorkerPools(ctx).runCompute(name, input, options).catch(reviveError) as Promise<Output<(typeof Compute)[K]>>;
}

export function runOnModelShard<K extends ModelTask>(
  ctx: ServiceContext,
  shard: number,
  name: K,
  input: Input<(typeof Model)[K]>,
  options?: RunOptions,
): Promise<Output<(typeof Model)[K]>> {
  return getWorkerPools(ctx).runOnShard(shard, name, input, options).catch(reviveError) as Promise<Output<(typeof Model)[K]>>;
}
