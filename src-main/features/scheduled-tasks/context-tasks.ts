// Compute-thread side of scheduled-task runs: compile the deployed model and reduce it to the
// context the agent reads.
import { compileModel } from '../../../src-shared/model';
import { modelContextFrom } from '../../connectors/agent/model-context';
import type { AgentModelContext } from '../../connectors/agent/types';
import { modelFilesOfCommit } from '../../workers/model-source';

export async function agentModelContext(input: { gitdir: string; deploymentId: number; branch: string; commit: string }): Promise<AgentModelContext> {
  const compiled = compileModel(await modelFilesOfCommit(input.gitdir, input.commit)).model;
  return modelContextFrom(compiled, { deploymentId: input.deploymentId, branch: input.branch, commit: input.commit });
}
