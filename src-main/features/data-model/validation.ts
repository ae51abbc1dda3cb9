// Validation of a branch, off the HTTP thread and incremental: a model shard thread keeps each
// branch's compiled model (see workers/model-worker.ts) and re-checks only the files that changed
// since it last compiled the branch. This thread only resolves the branch, reads its uncommitted
// edits from SQLite and hands both over.
import { LRUCache } from 'lru-cache';
import type { ModelDiagnostic, ValidationResult } from '../../../src-shared/api/data-model';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { getWorkerPools, runOnModelShard } from '../../workers/run';
import { assertBranchName, defaultBranch, loadBranch } from './branches';
import { openRepository } from './repository';
import { workingEdits } from './working';

/** Which shard holds which branch: a branch stays on its shard so its state is reused. */
const placements = new WeakMap<ServiceContext, LRUCache<string, number>>();

const branchKey = (deploymentId: number, branch: string) => `${deploymentId}:${branch}`;

/** The shard of a branch: the one it used before, else the least busy one. */
function shardOf(ctx: ServiceContext, key: string): number {
  let placed = placements.get(ctx);
  if (!placed) placements.set(ctx, (placed = new LRUCache<string, number>({ max: 10_000 })));
  const known = placed.get(key);
  if (known !== undefined) return known;
  const pools = getWorkerPools(ctx);
  const assigned = new Array<number>(pools.shardCount).fill(0);
  for (const shard of placed.values()) assigned[shard]!++;
  let best = 0;
  for (let shard = 1; shard < pools.shardCount; shard++) {
    const load = pools.shardLoad(shard) - pools.shardLoad(best) || assigned[shard]! - assigned[best]!;
    if (load < 0) best = shard;
  }
  placed.set(key, best);
  return best;
}

/** What a validation check sees: the branch as validated, and the shard that holds its model. */
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

/** More diagnostics of a validated branch, from another area (model tests, issue 26). */
export type ValidationCheck = (input: ValidationCheckInput) => Promise<ModelDiagnostic[]>;

const checks = new WeakMap<ServiceContext, Set<ValidationCheck>>();

/** Adds diagnostics to every validation (a failing check is logged and adds none). Returns a remover. */
export function addValidationCheck(ctx: ServiceContext, check: ValidationCheck): () => void {
  let set = checks.get(ctx);
  if (!set) checks.set(ctx, (set = new Set()));
  set.add(check);
  return () => set.delete(check);
}

async function checkDiagnostics(ctx: ServiceContext, input: ValidationCheckInput): Promise<ModelDiagnostic[]> {
  const found = await Promise.all(
    [...(checks.get(ctx) ?? [])].map((check) =>
      check(input).catch((error: unknown) => {
        ctx.log.warn('a validation check failed', { deploymentId: input.deploymentId, branch: input.branch, error: String(error) });
        return [];
      }),
    ),
  );
  return found.flat();
}

/** Compiles the branch as the user sees it (with dev-mode edits); compile errors are a result, not a failure. */
export async function validateBranch(ctx: ServiceContext, deploymentId: number, principal: Principal, branchName?: string): Promise<ValidationResult> {
  if (branchName !== undefined) assertBranchName(branchName, '/querystring/branchName');
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const branch = defaultBranch(ctx, deploymentId, principal, deployBranch, branchName);
  const { head } = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
  const edits = [...workingEdits(ctx, deploymentId, branch)];
  const key = branchKey(deploymentId, branch);
  const shard = shardOf(ctx, key);
  const { changedFiles: _changed, ...result } = await runOnModelShard(ctx, shard, 'validate', { key, gitdir: repo.gitdir, commit: head, edits });
  const more = await checkDiagnostics(ctx, { deploymentId, branch, principal, key, shard, gitdir: repo.gitdir, commit: head, edits });
  if (more.length === 0) return { branchName: branch, commit: head, ...result };
  const errors = more.filter((d) => d.severity === 'error').length;
  return {
    branchName: branch,
    commit: head,
    ...result,
    valid: result.valid && errors === 0,
    errorCount: result.errorCount + errors,
    warningCount: result.warningCount + more.filter((d) => d.severity === 'warning').length,
    diagnostics: [...result.diagnostics, ...more],
  };
}

/** Drops the compiled models kept for a branch, or for every branch of a deployment (when deleted). */
export async function forgetBranchModels(ctx: ServiceContext, deploymentId: number, branch?: string): Promise<void> {
  const which = branch === undefined ? { prefix: `${deploymentId}:` } : { key: branchKey(deploymentId, branch) };
  const matches = (key: string) => ('key' in which ? key === which.key : key.startsWith(which.prefix));
  const placed = placements.get(ctx);
  const shards = new Set<number>();
  for (const [key, shard] of [...(placed?.entries() ?? [])]) {
    if (!matches(key)) continue;
    shards.add(shard);
    placed!.delete(key);
  }
  await Promise.all([...shards].map((shard) => runOnModelShard(ctx, shard, 'forget', which)));
}
