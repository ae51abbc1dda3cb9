import { DataModelErrorCodes, existingPathProblem, filePathProblem } from '../../../../src-shared/api/data-model';
import { UpstreamErrorCodes as Codes, type PullUpstreamResult } from '../../../../src-shared/api/git-host';
import type { ServiceContext } from '../../../context';
import type { Principal } from '../../../http/auth';
import { ApiError } from '../../../http/problem';
import { diffTrees, isAncestor, newPathProblems, remoteTrackingHead, threeWayMerge, type GitRepository, type TreeFile } from '../../../platform/repo';
import { assertBranchName, assertMayActOn, loadBranch } from '../branches';
import { authorOf, emitBranchCommit, guarded, logRepositoryEvent, openRepository, pathsRefused, shortId } from '../repository';
import { workingEdits } from '../working';
import { pushAfterChange } from './auto-push';
import { requireUpstream } from './endpoint';
import { fetchUpstream } from './fetch';
import { upstreamOf } from './tracking';

export interface PullInput {
  branchName?: string;
  message?: string;
  upstreamCommit?: string;
  resolutions?: { path: string; content: string | null }[];
}

const decoder = new TextDecoder();
const FILE_MODE = '100644';

/**
 * Fetches, then brings the upstream's commits into the branch: nothing to do, a fast-forward, or
 * a merge commit whose parents are both heads (a real merge: `git log --graph` shows both lines).
 * A conflict changes nothing and answers 409 with what the user needs to resolve it; pulling
 * again with `resolutions` commits the merge with the resolved files. A merge is pushed.
 */
export async function pullUpstream(ctx: ServiceContext, deploymentId: number, principal: Principal, input: PullInput): Promise<PullUpstreamResult> {
  if (input.branchName !== undefined) assertBranchName(input.branchName, '/body/branchName');
  const resolutions = checkResolutions(input.resolutions ?? []);
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const branch = input.branchName ?? deployBranch;
  const before = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
  assertMayActOn(before, principal, false);
  const upstream = upstreamOf(ctx, deploymentId, branch);
  if (!upstream) throw new ApiError(409, Codes.BRANCH_HAS_NO_UPSTREAM, `Branch "${branch}" tracks no branch of the connected repository; push it to publish it.`);
  await requireUpstream(ctx, deploymentId);
  await fetchUpstream(ctx, deploymentId);
  const theirs = await remoteTrackingHead(repo.gitdir, upstream);
  if (!theirs) throw new ApiError(409, Codes.UPSTREAM_BRANCH_GONE, `Branch "${upstream}" does not exist on the connected repository (deleted there, or not pushed yet).`);

  const result = await repo.exclusive(async (): Promise<Omit<PullUpstreamResult, 'push'>> => {
    const ours = await guarded(() => repo.requireHead(branch));
    const pending = workingEdits(ctx, deploymentId, branch).size;
    if (pending > 0) throw new ApiError(409, DataModelErrorCodes.UNCOMMITTED_CHANGES, `Branch "${branch}" has ${pending} uncommitted change(s); commit them before pulling.`);
    if (input.upstreamCommit !== undefined && input.upstreamCommit !== theirs) {
      throw new ApiError(409, Codes.UPSTREAM_MOVED, `"${upstream}" moved to ${shortId(theirs)} since ${shortId(input.upstreamCommit)}; pull again and resolve against the new commits.`, { theirs });
    }
    const base = { branchName: branch, upstream };
    if (await isAncestor(repo.gitdir, theirs, ours)) {
      // The fetch may have fast-forwarded the branch already.
      if (ours !== before.head && (await isAncestor(repo.gitdir, before.head, ours))) {
        return { ...base, outcome: 'fast-forward', commit: ours, changes: await changesBetween(repo, before.head, ours) };
      }
      return { ...base, outcome: 'up-to-date', commit: ours, changes: [] };
    }
    if (await isAncestor(repo.gitdir, ours, theirs)) {
      const refused = newPathProblems(await repo.treeOf(ours), await repo.treeOf(theirs));
      if (refused.length > 0) throw incomingRefused(upstream, refused);
      await guarded(() => repo.setHead(branch, theirs, ours));
      logRepositoryEvent(ctx, deploymentId, branch, deployBranch, `Pulled "${upstream}" into "${branch}": fast-forward ${shortId(ours)} → ${shortId(theirs)}.`);
      emitBranchCommit(ctx, deploymentId, branch, theirs);
      return { ...base, outcome: 'fast-forward', commit: theirs, changes: await changesBetween(repo, ours, theirs) };
    }
    const mergeBase = await repo.mergeBase(ours, theirs);
    const baseTree = mergeBase ? await repo.treeOf(mergeBase) : new Map<string, TreeFile>();
    const oursTree = await repo.treeOf(ours);
    const theirsTree = await repo.treeOf(theirs);
    const { merged, conflicts } = threeWayMerge(baseTree, oursTree, theirsTree);
    const unresolved = conflicts.filter((path) => !resolutions.has(path));
    if (unresolved.length > 0) {
      const read = async (tree: ReadonlyMap<string, TreeFile>, path: string) => {
        const entry = tree.get(path);
        return entry ? decoder.decode(await repo.readBlob(entry.oid)) : null;
      };
      const files = await Promise.all(
        unresolved.map(async (path) => ({ path, base: await read(baseTree, path), ours: await read(oursTree, path), theirs: await read(theirsTree, path) })),
      );
      throw new ApiError(
        409,
        DataModelErrorCodes.MERGE_CONFLICT,
        `"${branch}" and "${upstream}" of the connected repository changed the same files differently: ${unresolved.join(', ')}. ` +
          'Nothing was changed; pull again with `resolutions` (the final content of each file) and `upstreamCommit`.',
        { conflicts: unresolved, branchName: branch, upstream, ours, theirs, base: mergeBase, files },
      );
    }
    for (const [path, content] of resolutions) {
      if (content === null) merged.delete(path);
      else merged.set(path, { oid: await repo.writeBlob(content), mode: oursTree.get(path)?.mode ?? theirsTree.get(path)?.mode ?? FILE_MODE });
    }
    // What the merge changes, found once: for the path checks, the merge commit's tree and the answer.
    const diff = diffTrees(oursTree, merged);
    const refused = newPathProblems(oursTree, merged, diff);
    if (refused.length > 0) throw incomingRefused(upstream, refused, true);
    const message = input.message ?? `Merge branch '${upstream}' of the connected repository into '${branch}'`;
    const commit = await guarded(() => repo.writeCommit(merged, [ours, theirs], message, authorOf(principal), diff));
    await guarded(() => repo.setHead(branch, commit, ours));
    const changes = diff.map((c) => ({ path: c.path, status: c.status }));
    logRepositoryEvent(
      ctx,
      deploymentId,
      branch,
      deployBranch,
      `Merged "${upstream}" of the connected repository into "${branch}" at ${shortId(commit)}${conflicts.length ? ` (${conflicts.length} conflict(s) resolved)` : ''}.`,
    );
    emitBranchCommit(ctx, deploymentId, branch, commit);
    return { ...base, outcome: 'merged', commit, changes };
  });
  const push = result.outcome === 'merged' ? await pushAfterChange(ctx, deploymentId, branch) : null;
  return { ...result, push };
}

/**
 * 422 naming the paths the team's commits would bring in that this repository refuses (a name git
 * reserves, one Windows cannot hold, a case twin…): the branch is not moved, nothing is written. A
 * merge can take the rest by resolving those paths (deleted, or kept under another name).
 */
function incomingRefused(upstream: string, problems: Parameters<typeof pathsRefused>[0], merge = false): ApiError {
  const error = pathsRefused(problems, 422, `"${upstream}" of the connected repository adds a path this repository cannot hold; nothing was changed. `);
  const hint = merge
    ? ' Pull again with `resolutions` that delete these paths (content null) or write them under other names, or fix them in the team\'s repository.'
    : ' Fix them in the team\'s repository (rename or remove them), then pull again.';
  return new ApiError(error.status, error.code, `${error.detail}${hint}`, error.extras);
}

async function changesBetween(repo: GitRepository, from: string, to: string) {
  return (await repo.diff(from, to)).map((c) => ({ path: c.path, status: c.status }));
}

function checkResolutions(list: { path: string; content: string | null }[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  list.forEach((resolution, i) => {
    const pointer = `/body/resolutions/${i}/path`;
    // A resolution that drops a path only names it (the team's side may hold a name refused here).
    const problem = resolution.content === null ? existingPathProblem(resolution.path) : filePathProblem(resolution.path);
    if (problem) throw new ApiError(400, problem.code, problem.detail, { errors: [{ pointer, detail: problem.detail }] });
    if (out.has(resolution.path)) {
      throw new ApiError(400, DataModelErrorCodes.DUPLICATE_PATH, `"${resolution.path}" is resolved twice.`, { errors: [{ pointer, detail: 'duplicate path' }] });
    }
    out.set(resolution.path, resolution.content);
  });
  return out;
}
