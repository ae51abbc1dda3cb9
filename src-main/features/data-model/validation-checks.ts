// More diagnostics of a validated branch from other areas (model tests, issue 26): each check sees
// the branch as validated and the model shard that holds its compiled model, and adds diagnostics
// to the validation's answer. A check that fails is logged and adds none.
import type { ModelDiagnostic, ValidationResult } from '../../../src-shared/api/data-model';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { openRepository } from './repository';
import { answerOf, branchKey, shardOf, validateBranch, type ValidationAnswer } from './validation';
import { workingEdits } from './working';

export interface ValidationCheckInput {
  deploymentId: number;
  branch: string;
  principal: Principal;
  /** `<deploymentId>:<branch>`: the branch's state on its shard. */
  key: string;
  shard: number;
  gitdir: string;
  commit: string;
  edits: [string, string | null][];
}

export type ValidationCheck = (input: ValidationCheckInput) => Promise<ModelDiagnostic[]>;

const checks = new WeakMap<ServiceContext, Set<ValidationCheck>>();

/** Adds diagnostics to every validation. Returns a remover. */
export function addValidationCheck(ctx: ServiceContext, check: ValidationCheck): () => void {
  let set = checks.get(ctx);
  if (!set) checks.set(ctx, (set = new Set()));
  set.add(check);
  return () => set.delete(check);
}

/**
 * The validation of a branch, with what the checks add. The shard's serialised answer goes out as it
 * is; only when a check adds diagnostics is it read and written again here (issue 28).
 */
export async function validateWithChecks(ctx: ServiceContext, deploymentId: number, principal: Principal, branchName?: string): Promise<ValidationAnswer> {
  const result = await validateBranch(ctx, deploymentId, principal, branchName);
  const registered = [...(checks.get(ctx) ?? [])];
  if (registered.length === 0) return result;
  const branch = result.branchName;
  const key = branchKey(deploymentId, branch);
  const input: ValidationCheckInput = {
    deploymentId,
    branch,
    principal,
    key,
    shard: shardOf(ctx, key),
    gitdir: (await openRepository(ctx, deploymentId)).repo.gitdir,
    commit: result.commit,
    edits: [...workingEdits(ctx, deploymentId, branch)],
  };
  const more = (
    await Promise.all(
      registered.map((check) =>
        check(input).catch((error: unknown) => {
          ctx.log.warn('a validation check failed', { deploymentId, branch, error: String(error) });
          return [];
        }),
      ),
    )
  ).flat();
  if (more.length === 0) return result;
  const validated = JSON.parse(new TextDecoder().decode(result.body)) as ValidationResult;
  const errors = more.filter((d) => d.severity === 'error').length;
  return answerOf({
    ...validated,
    valid: validated.valid && errors === 0,
    errorCount: validated.errorCount + errors,
    warningCount: validated.warningCount + more.filter((d) => d.severity === 'warning').length,
    diagnostics: [...validated.diagnostics, ...more],
  });
}
