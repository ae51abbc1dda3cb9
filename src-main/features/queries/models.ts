import { LRUCache } from 'lru-cache';
import { QueryErrorCodes as Codes } from '../../../src-shared/api/queries';
import { compileModel, type CompiledModel } from '../../../src-shared/model';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { modelSourceOfBranch } from '../data-model';
import { getDeployBranch } from '../deployments';

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

/**
 * The compiled model a query runs on: the deploy branch's head, or another branch with its
 * uncommitted edits (as dev mode sees it) unless `workingEdits` is false. 422 MODEL_INVALID when
 * the model has errors, naming the first few.
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
    const result = compileModel(await source.files());
    if (!result.valid) {
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      const first = errors
        .slice(0, 3)
        .map((d) => `${d.file}:${d.line}: ${d.message}`)
        .join('; ');
      throw new ApiError(422, Codes.MODEL_INVALID, `The model of branch "${name}" has ${errors.length} error(s), so it cannot answer queries: ${first}`, {
        error: `The model of branch "${name}" has errors: ${first}`,
      });
    }
    model = result.model;
    cache.set(key, model);
  }
  return { model, branch: name, hash: key };
}
