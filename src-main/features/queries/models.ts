import { LRUCache } from 'lru-cache';
import { QueryErrorCodes as Codes } from '../../../src-shared/api/queries';
import type { CompiledModel } from '../../../src-shared/model';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { modelSourceOfBranch } from '../data-model';
import { getDeployBranch } from '../deployments';
import { runCompute } from '../../workers/run';
import type { QueryModelOutput } from './model-tasks';

export interface BranchModel {
  model: CompiledModel;
  branch: string;
  /** Fingerprint of the model files: equal fingerprints, equal models (and equal answers for equal data). */
  hash: string;
}

/** Compiled models by the hash of their files: a query compiles a model once until a file changes. */
function cacheOf(ctx: ServiceContext): LRUCache<string, CompiledModel> {
  let cache = ctx.services.queryModelCache as LRUCache<string, CompiledModel> | undefined;
  if (!cache) {
    cache = new LRUCache<string, CompiledModel>({ max: 32 });
    ctx.services.queryModelCache = cache;
  }
  return cache;
}

/** Compiles under way, by fingerprint: concurrent first queries of a branch share one compile. */
function compilesOf(ctx: ServiceContext): Map<string, Promise<QueryModelOutput>> {
  let compiles = ctx.services.queryModelCompiles as Map<string, Promise<QueryModelOutput>> | undefined;
  if (!compiles) {
    compiles = new Map();
    ctx.services.queryModelCompiles = compiles;
  }
  return compiles;
}

/**
 * The compiled model a query runs on: the deploy branch's head, or another branch with its
 * uncommitted edits (as dev mode sees it) unless `workingEdits` is false. 422 MODEL_INVALID when
 * the model has errors, naming the first few. A model not compiled yet is read and compiled on a
 * compute thread; the HTTP thread only fingerprints the branch.
 */
export async function branchModel(ctx: ServiceContext, deploymentId: number, branch: string | undefined, workingEdits?: boolean): Promise<BranchModel> {
  const deployBranch = getDeployBranch(ctx, deploymentId);
  const name = branch ?? deployBranch;
  // Keyed by the files' blob ids (and edit texts): an unchanged branch reads no file to answer.
  const source = await modelSourceOfBranch(ctx, deploymentId, name, workingEdits ?? name !== deployBranch);
  const key = source.fingerprint;
  const cache = cacheOf(ctx);
  let model = cache.get(key);
  if (!model) {
    const compiles = compilesOf(ctx);
    let compiling = compiles.get(key);
    if (!compiling) {
      compiling = runCompute(ctx, 'compileQueryModel', { gitdir: source.gitdir, commit: source.commit, edits: [...source.edits] });
      compiles.set(key, compiling);
      const started = compiling;
      void started.then(
        (result) => {
          if (result.valid) cache.set(key, result.model);
          if (compiles.get(key) === started) compiles.delete(key);
        },
        () => {
          if (compiles.get(key) === started) compiles.delete(key);
        },
      );
    }
    const result = await compiling;
    if (!result.valid) {
      throw new ApiError(422, Codes.MODEL_INVALID, `The model of branch "${name}" has ${result.errorCount} error(s), so it cannot answer queries: ${result.firstErrors}`, {
        error: `The model of branch "${name}" has errors: ${result.firstErrors}`,
      });
    }
    model = result.model;
  }
  return { model, branch: name, hash: key };
}
