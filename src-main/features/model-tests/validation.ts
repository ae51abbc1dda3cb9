// What validation shows of model tests (issue 26): the problems of the branch's test files and the
// queries the model refuses (checked on the shard that holds the branch), and the failures of the
// run of exactly what is validated — the same commit and edits — when there was one. Failure
// messages carry numbers, so they are shown to those who may run tests (SchemaUpdate).
import type { ModelDiagnostic } from '../../../src-shared/api/data-model';
import { diagnosticJson } from '../../../src-shared/model';
import { testResultDiagnostics } from '../../../src-shared/model/tests';
import type { ServiceContext } from '../../context';
import { hasAccess } from '../../http/auth';
import { runOnModelShard } from '../../workers/run';
import type { ValidationCheckInput } from '../data-model';
import { completedRunOf, fingerprintOf } from './runs';

export async function modelTestDiagnostics(ctx: ServiceContext, input: ValidationCheckInput): Promise<ModelDiagnostic[]> {
  const { key, gitdir, commit, edits } = input;
  const found = (await runOnModelShard(ctx, input.shard, 'checkTests', { key, branchName: input.branch, gitdir, commit, edits })).map(diagnosticJson);
  if (!hasAccess(input.principal, 'schemaUpdate')) return found;
  const run = completedRunOf(ctx, input.deploymentId, fingerprintOf(commit, edits));
  if (!run) return found;
  // Problems the run also found are already listed; its test outcomes are new.
  return [...found, ...testResultDiagnostics(run.results).map(diagnosticJson)];
}
