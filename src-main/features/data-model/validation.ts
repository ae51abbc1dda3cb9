// Validation of a branch, off the HTTP thread and incremental: a model shard thread keeps each
// branch's compiled model (see workers/model-worker.ts) and re-checks only the files that changed
// since it last compiled the branch. This thread only resolves the branch, reads its uncommitted
// edits from SQLite and hands both over.
//
// A compile has a time limit, and its thread a heap limit (issue 23). A thread that dies of either
// marked the file it was reading (platform/workers/read-marker.ts): that file is remembered by its
// blob id, validation runs again without it, and it is an error on its file until it changes. A
// compile that dies outside any one file is an error on the model; either way the answer is a
// validation result, never a failed request.
import { LRUCache } from 'lru-cache';
import type { ValidationResult } from '../../../src-shared/api/data-model';
import { DiagnosticCodes } from '../../../src-shared/model';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { isOutOfMemory, workerHeapMb } from '../../platform/workers/pools';
import { fileBeingRead, newReadMarker } from '../../platform/workers/read-marker';
import { getWorkerPools, runOnModelShard } from '../../workers/run';
import { assertBranchName, defaultBranch, loadBranch } from './branches';
import { openRepository } from './repository';
import { workingEdits } from './working';

/** Which shard holds which branch: a branch stays on its shard so its state is reused. */
const placements = new WeakMap<ServiceContext, LRUCache<string, number>>();

/** How a branch is named to the model shards. */
export const branchKey = (deploymentId: number, branch: string) => `${deploymentId}:${branch}`;

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

/** How long one validation may compile: 60 s unless DRYDOCK_VALIDATE_TIMEOUT_MS says otherwise (10,000 cubes take a few). */
const validateTimeoutMs = (): number => Number(process.env.DRYDOCK_VALIDATE_TIMEOUT_MS) || 60_000;

/** Files (by blob id) that stopped a model shard, with why; kept per service, never read again while unchanged. */
const stoppers = new WeakMap<ServiceContext, LRUCache<string, string>>();

/**
 * A validation's answer as the bytes of its JSON (a ValidationResult): made on the model shard, so
 * this thread neither builds nor serialises a model's list of diagnostics (issue 28).
 */
export interface ValidationAnswer {
  body: Uint8Array;
  /** The branch and commit validated (also in the body), for what adds to the answer. */
  branchName: string;
  commit: string;
}

const encoder = new TextEncoder();
export const answerOf = (result: ValidationResult): ValidationAnswer => ({ body: encoder.encode(JSON.stringify(result)), branchName: result.branchName, commit: result.commit });

/** Compiles the branch as the user sees it (with dev-mode edits); compile errors are a result, not a failure. */
export async function validateBranch(ctx: ServiceContext, deploymentId: number, principal: Principal, branchName?: string): Promise<ValidationAnswer> {
  if (branchName !== undefined) assertBranchName(branchName, '/querystring/branchName');
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const branch = defaultBranch(ctx, deploymentId, principal, deployBranch, branchName);
  const { head } = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
  const edits = [...workingEdits(ctx, deploymentId, branch)];
  const key = branchKey(deploymentId, branch);
  let stopped = stoppers.get(ctx);
  if (!stopped) stoppers.set(ctx, (stopped = new LRUCache<string, string>({ max: 1_000 })));
  // Each round that dies of a file leaves that file out of the next; a few rounds, then the model is reported.
  for (let round = 0; round < 3; round++) {
    const marker = newReadMarker();
    const timeoutMs = validateTimeoutMs();
    try {
      const input = { key, branchName: branch, gitdir: repo.gitdir, commit: head, edits, marker, skip: [...stopped.entries()] };
      const shard = shardOf(ctx, key);
      // The time limit is the validation's: the shard's thread is up first (after a stop, a new one
      // starts, which on a busy machine alone can take longer than a short limit).
      await runOnModelShard(ctx, shard, 'ready', undefined);
      const { body } = await runOnModelShard(ctx, shard, 'validate', input, { signal: AbortSignal.timeout(timeoutMs) });
      return { body, branchName: branch, commit: head };
    } catch (error) {
      const why = stopReason(error, timeoutMs);
      if (why === null) throw error;
      const file = fileBeingRead(marker);
      if (!file?.id) return answerOf(modelStopped(branch, head, why));
      stopped.set(file.id, why);
    }
  }
  return answerOf(modelStopped(branch, head, 'the files that stopped it were left out, and it still did not finish'));
}

/** Why a validation's thread stopped, when it ran out of heap or time; null for any other failure. */
function stopReason(error: unknown, timeoutMs: number): string | null {
  if (isOutOfMemory(error)) return `reading it took more than the ${workerHeapMb().toLocaleString('en-US')} MB a model thread may use`;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'AbortError' || name === 'TimeoutError') return `reading it took longer than the ${(timeoutMs / 1000).toLocaleString('en-US')} s a validation may take`;
  return null;
}

/** The answer when a compile stopped outside any one file: an error on the model, not a failed request. */
function modelStopped(branch: string, head: string, why: string): ValidationResult {
  const message = `The model could not be validated: ${why}`;
  return {
    branchName: branch,
    commit: head,
    valid: false,
    fileCount: 0,
    errorCount: 1,
    warningCount: 0,
    diagnostics: [{ severity: 'error', code: DiagnosticCodes.TOO_LARGE, message, file: '', line: 1, column: 1 }],
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
