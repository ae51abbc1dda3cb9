import {
  DataModelErrorCodes as Codes,
  type BranchOperationResult,
  type FileChange,
} from '../../../src-shared/api/data-model';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError, invalidField } from '../../http/problem';
import { GitRepository, RepoError, type MergeResult, type TreeChange } from '../../platform/repo';
import { assertMayActOn, assertWritable, loadBranch, operationBranch, type BranchState } from './branches';
import { authorOf, emitBranchCommit, guarded, logRepositoryEvent, openRepository, pathsRefused, repoFailure, shortId } from './repository';
import { withPush } from './upstream/auto-push';
import { pruneEdits, uncommittedChanges, workingTree } from './working';

const decoder = new TextDecoder();

/** Changes with their content before and after (for commit and merge dialogs). */
export async function withContents(repo: GitRepository, changes: TreeChange[]): Promise<FileChange[]> {
  const text = async (oid: string | null) => (oid === null ? null : decoder.decode(await repo.readBlob(oid)));
  return Promise.all(changes.map(async (c) => ({ path: c.path, status: c.status, before: await text(c.beforeOid), after: await text(c.afterOid) })));
}

const withoutContents = (changes: TreeChange[]): FileChange[] => changes.map((c) => ({ path: c.path, status: c.status }));

const who = (principal: Principal) => principal.email ?? (principal.userId !== null ? `user ${principal.userId}` : 'an API client');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface OperationInput {
  branchName?: string;
  message?: string;
  dryRun?: boolean;
}

/** Commits the uncommitted edits of a dev-mode branch (all, or those of `paths`) as the caller. */
export async function commitWorkingEdits(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  input: OperationInput & { paths?: string[] },
): Promise<BranchOperationResult> {
  const branch = operationBranch(ctx, deploymentId, principal, input.branchName);
  const dryRun = input.dryRun === true;
  if (!dryRun && input.message === undefined) throw invalidField('/body/message', 'A commit needs a message.');
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  return withPush(ctx, deploymentId, await repo.exclusive(async (): Promise<BranchOperationResult> => {
    const state = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
    assertWritable(state, principal);
    const tree = await workingTree(ctx, repo, deploymentId, branch);
    let edits = [...tree.edits];
    if (input.paths) {
      const wanted = new Set(input.paths);
      const missing = input.paths.filter((p) => !tree.edits.has(p));
      if (missing.length > 0) {
        throw new ApiError(400, Codes.FILE_NOT_FOUND, `No uncommitted change at ${missing.map((p) => `"${p}"`).join(', ')}.`, { paths: missing });
      }
      edits = edits.filter(([path]) => wanted.has(path));
    }
    const base = { operation: 'commit' as const, branchName: branch, targetBranch: branch, dryRun };
    if (edits.length === 0) return { ...base, outcome: 'nothing-to-commit' as const, commit: tree.commit, changes: [] };
    if (dryRun) {
      const changes = uncommittedChanges({ head: tree.head, edits: new Map(edits) });
      const contents = new Map(edits);
      const before = async (path: string) => {
        const entry = tree.head.get(path);
        return entry ? decoder.decode(await repo.readBlob(entry.oid)) : null;
      };
      return {
        ...base,
        outcome: 'committed' as const,
        commit: null,
        changes: await Promise.all(changes.map(async (c) => ({ ...c, before: await before(c.path), after: contents.get(c.path) ?? null }))),
      };
    }
    const result = await guarded(() =>
      repo.commitChanges(
        branch,
        edits.map(([path, content]) => ({ path, content })),
        { message: input.message!, author: authorOf(principal), expectedHead: tree.commit },
      ),
    );
    const remove = ctx.db.prepare('DELETE FROM model_working_files WHERE deployment_id = ? AND branch = ? AND path = ?');
    ctx.db.transaction(() => edits.forEach(([path]) => remove.run(deploymentId, branch, path)))();
    if (result.changed) {
      logRepositoryEvent(
        ctx,
        deploymentId,
        branch,
        deployBranch,
        `Commit ${shortId(result.commit)} on "${branch}" by ${who(principal)}: ${firstLine(input.message!)} (${plural(result.changes.length, 'file')}).`,
      );
      emitBranchCommit(ctx, deploymentId, branch, result.commit);
    }
    return { ...base, outcome: result.changed ? ('committed' as const) : ('nothing-to-commit' as const), commit: result.commit, changes: withoutContents(result.changes) };
  }));
}

/**
 * A merge's failures as problems; paths the merged tree would add against the rules (two sides that
 * each added "ok.yml" and "OK.yml", say) are a conflict between the branches: 409 with the rule's code.
 */
async function mergeGuarded(merge: () => Promise<MergeResult>): Promise<MergeResult> {
  try {
    return await merge();
  } catch (error) {
    if (error instanceof RepoError && error.code === 'PATH_REFUSED') throw pathsRefused(error.problems, 409, 'The merge would bring in a path the repository cannot hold: ');
    return repoFailure(error);
  }
}

const firstLine = (message: string) => message.split('\n', 1)[0].slice(0, 200);

function mergeConflict(source: string, target: string, conflicts: string[]): ApiError {
  return new ApiError(
    409,
    Codes.MERGE_CONFLICT,
    `"${source}" and "${target}" changed the same files differently: ${conflicts.join(', ')}. Nothing was changed; resolve the conflicts on one side and try again.`,
    { conflicts },
  );
}

async function toResult(
  repo: GitRepository,
  operation: BranchOperationResult['operation'],
  branch: string,
  target: string,
  merge: MergeResult,
  dryRun: boolean,
): Promise<BranchOperationResult> {
  return {
    operation,
    branchName: branch,
    targetBranch: target,
    outcome: merge.outcome === 'conflict' ? 'up-to-date' : merge.outcome,
    dryRun,
    commit: merge.commit,
    changes: dryRun ? await withContents(repo, merge.changes) : withoutContents(merge.changes),
  };
}

/**
 * Brings the parent's new commits into a branch. Uncommitted edits stay on top; a path the parent
 * changed that the branch also changed (committed or not) differently is a conflict: 409, nothing changed.
 */
export async function pullFromParent(ctx: ServiceContext, deploymentId: number, principal: Principal, input: OperationInput): Promise<BranchOperationResult> {
  const branch = operationBranch(ctx, deploymentId, principal, input.branchName);
  const dryRun = input.dryRun === true;
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  return withPush(ctx, deploymentId, await repo.exclusive(async (): Promise<BranchOperationResult> => {
    const state = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
    assertMayActOn(state, principal, false);
    const parent = requireParent(state);
    const parentState = await loadBranch(ctx, repo, deploymentId, deployBranch, parent);
    const message = input.message ?? `Merge branch '${parent}' into '${branch}'`;
    const author = authorOf(principal);

    const preview = await mergeGuarded(() => repo.merge(parent, branch, { message, author, dryRun: true }));
    const editConflicts = await conflictsWithEdits(ctx, repo, deploymentId, state, parentState.head);
    const conflicts = [...new Set([...preview.conflicts, ...editConflicts])].sort();
    if (conflicts.length > 0) throw mergeConflict(parent, branch, conflicts);
    if (dryRun || preview.outcome === 'up-to-date') return toResult(repo, 'pull', branch, branch, preview, dryRun);

    const merged = await mergeGuarded(() => repo.merge(parent, branch, { message, author }));
    if (merged.outcome === 'conflict') throw mergeConflict(parent, branch, merged.conflicts);
    await pruneEdits(ctx, repo, deploymentId, branch);
    logRepositoryEvent(
      ctx,
      deploymentId,
      branch,
      deployBranch,
      `Pulled "${parent}" into "${branch}" (${merged.outcome}, ${plural(merged.changes.length, 'file')}) by ${who(principal)}.`,
    );
    if (merged.commit) emitBranchCommit(ctx, deploymentId, branch, merged.commit);
    return toResult(repo, 'pull', branch, branch, merged, false);
  }));
}

/** Paths the parent changed since the merge base that the branch's uncommitted edits changed differently. */
async function conflictsWithEdits(ctx: ServiceContext, repo: GitRepository, deploymentId: number, branch: BranchState, parentHead: string): Promise<string[]> {
  const tree = await workingTree(ctx, repo, deploymentId, branch.name);
  if (tree.edits.size === 0) return [];
  const baseCommit = await repo.mergeBase(tree.commit, parentHead);
  const base = baseCommit ? await repo.treeOf(baseCommit) : new Map();
  const theirs = await repo.treeOf(parentHead);
  const conflicts: string[] = [];
  for (const [path, content] of tree.edits) {
    const before = base.get(path)?.oid;
    const incoming = theirs.get(path)?.oid;
    if (before === incoming) continue;
    const mine = content === null ? undefined : await GitRepository.blobIdOf(content);
    if (mine !== incoming) conflicts.push(path);
  }
  return conflicts;
}

function requireParent(state: BranchState): string {
  if (!state.parent) {
    throw new ApiError(409, Codes.BRANCH_HAS_NO_PARENT, `Branch "${state.name}" has no parent branch to pull from or merge into.`);
  }
  return state.parent;
}

/** Merges a branch into its parent (`merge`) or into the deploy branch (`merge-to-default`). */
export async function mergeBranchInto(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  input: OperationInput,
  into: 'parent' | 'deploy',
): Promise<BranchOperationResult> {
  const branch = operationBranch(ctx, deploymentId, principal, input.branchName);
  const dryRun = input.dryRun === true;
  const operation = into === 'parent' ? ('merge' as const) : ('merge-to-default' as const);
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  return withPush(ctx, deploymentId, await repo.exclusive(async (): Promise<BranchOperationResult> => {
    const state = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
    assertMayActOn(state, principal, true);
    const target = into === 'parent' ? requireParent(state) : deployBranch;
    if (target === branch) throw new ApiError(409, Codes.MERGE_INTO_ITSELF, `Branch "${branch}" cannot be merged into itself.`);
    const targetState = await loadBranch(ctx, repo, deploymentId, deployBranch, target);
    const pending = (await workingTree(ctx, repo, deploymentId, branch)).edits.size;
    if (pending > 0) {
      throw new ApiError(409, Codes.UNCOMMITTED_CHANGES, `Branch "${branch}" has ${plural(pending, 'uncommitted change')}; commit them before merging.`);
    }
    const message = input.message ?? `Merge branch '${branch}' into '${target}'`;
    const result = await mergeGuarded(() => repo.merge(branch, target, { message, author: authorOf(principal), dryRun }));
    if (result.outcome === 'conflict') throw mergeConflict(branch, target, result.conflicts);
    if (!dryRun && result.outcome !== 'up-to-date' && result.commit) {
      if (targetState.kind === 'personal') await pruneEdits(ctx, repo, deploymentId, target);
      logRepositoryEvent(
        ctx,
        deploymentId,
        target,
        deployBranch,
        `Merged "${branch}" into "${target}" at ${shortId(result.commit)} (${result.outcome}, ${plural(result.changes.length, 'file')}) by ${who(principal)}.`,
      );
      emitBranchCommit(ctx, deploymentId, target, result.commit);
    }
    return toResult(repo, operation, branch, target, result, dryRun);
  }));
}
