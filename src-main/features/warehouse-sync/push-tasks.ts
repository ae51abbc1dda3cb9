// Compute-thread side of warehouse pushes: compile the commit (kept per thread: a push is usually
// validated at submission and run a moment later) and plan the views' DDL.
import type { StartPushInput } from '../../../src-shared/api/warehouse-sync';
import { compileModel, type CompiledModel } from '../../../src-shared/model';
import { modelFilesOfCommit } from '../../workers/model-source';
import { planPushOf, type PushPlacement, type PushPlanOutcome, type WarehouseResolutions } from './push-plan';

const compiled = new Map<string, CompiledModel>();
const COMPILED_KEPT = 4;

async function compileCommit(gitdir: string, commit: string): Promise<CompiledModel> {
  const key = `${gitdir}:${commit}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const model = compileModel(await modelFilesOfCommit(gitdir, commit)).model;
  compiled.set(key, model);
  if (compiled.size > COMPILED_KEPT) compiled.delete(compiled.keys().next().value as string);
  return model;
}

export async function planWarehousePush(input: {
  gitdir: string;
  commit: string;
  request: StartPushInput;
  dataSources: WarehouseResolutions;
  placement?: PushPlacement;
}): Promise<PushPlanOutcome> {
  return planPushOf(await compileCommit(input.gitdir, input.commit), input.request, input.dataSources, input.placement);
}
