// Validation of a branch, off the HTTP thread and incremental: a model shard thread keeps each
// branch's compiled model (see workers/model-worker.ts) and re-checks only the files that changed
// since it last compiled the branch. This thread only resolves the branch, reads its uncommitted
// edits from SQLite and hands both over.
import { LRUCache } from 'lru-cache';
import type { ValidationResult } from '../../../src-shared/api/data-model';
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
export function shardOf(ctx: ServiceContext, key: string): number {
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

/** Compiles the branch as the user sees it (with dev-mode edits); compile errors are a result, not a failure. */
export async function validateBranch(ctx: ServiceContext, deploymentId: number, principal: Principal, branchName?: string): Promise<ValidationResult> {
  if (branchName !== undefined) assertBranchName(branchName, '/querystring/branchName');
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const branch = defaultBranch(ctx, deploymentId, principal, deployBranch, branchName);
  const { head } = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
  const edits = [...workingEdits(ctx, deploymentId, branch)];
  const key = branchKey(deploymentId, branch);
  const { changedFiles: _changed, ...result } = await runOnModelShard(ctx, shardOf(ctx, key), 'validate', { key, gitdir: repo.gitdir, commit: head, edits });
  return { branchName: branch, commit: head, ...result };
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
