import { DataModelErrorCodes } from '../../../../src-shared/api/data-model';
import { UpstreamErrorCodes as Codes } from '../../../../src-shared/api/git-host';
import type { ServiceContext } from '../../../context';
import type { Principal } from '../../../http/auth';
import { ApiError } from '../../../http/problem';
import { deleteRemoteBranch, fetchRemote, isAncestor, pushBranch, remoteTrackingHead } from '../../../platform/repo';
import { adoptBranch, assertBranchName, assertMayActOn, deleteBranch, loadBranch, type DeletedBranch } from '../branches';
import { logRepositoryEvent, openRepository, shortId } from '../repository';
import { remoteLocks, requireUpstream, upstreamFailure } from './endpoint';
import { ignoreUpstream, setUpstream, trackedBranches, upstreamOf } from './tracking';

export interface PushResult {
  branchName: string;
  upstream: string;
  pushed: boolean;
  before: string | null;
  commit: string;
}

/**
 * Pushes a branch to its upstream now, fast-forward only; a branch that tracks nothing is
 * published under its own name and tracks it from then on. 409 `PUSH_REJECTED` when the remote
 * has commits the branch lacks: the local commits stay, pull then push.
 */
export async function pushUpstream(ctx: ServiceContext, deploymentId: number, principal: Principal, branchName?: string): Promise<PushResult> {
  if (branchName !== undefined) assertBranchName(branchName, '/body/branchName');
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const branch = branchName ?? deployBranch;
  const state = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
  assertMayActOn(state, principal, true);
  const connection = await requireUpstream(ctx, deploymentId);
  return remoteLocks.run(repo.gitdir, async () => {
    let upstream = upstreamOf(ctx, deploymentId, branch);
    if (!upstream) {
      const taken = [...trackedBranches(ctx, deploymentId)].find(([, u]) => u === branch);
      if (taken) throw new ApiError(409, DataModelErrorCodes.BRANCH_EXISTS, `Branch "${taken[0]}" already tracks "${branch}" of the connected repository.`);
      upstream = branch;
      ctx.db.transaction(() => {
        adoptBranch(ctx, deploymentId, state);
        setUpstream(ctx, deploymentId, branch, upstream);
      })();
    }
    const target = upstream;
    const { before, after } = await pushBranch(repo.gitdir, connection.endpoint, branch, target).catch(async (error: unknown) => {
      // Learn the remote's commits, so the branch shows how far behind it is.
      if ((error as { code?: string }).code === 'PUSH_REJECTED') await fetchRemote(repo.gitdir, connection.endpoint).catch(() => undefined);
      return upstreamFailure(error);
    });
    if (before !== after) {
      logRepositoryEvent(ctx, deploymentId, branch, deployBranch, `Pushed "${branch}" to "${target}": ${before ? shortId(before) : 'new branch'} → ${shortId(after)}.`);
    }
    return { branchName: branch, upstream: target, pushed: before !== after, before, commit: after };
  });
}

/**
 * Deletes a branch, and with `removeOnUpstream` the branch it tracks on the remote first — only
 * when the remote branch holds nothing the local one lacks (so its commits are not lost), and
 * with a problem instead of silence when there is no remote or no upstream. Deleting a tracking
 * branch locally only keeps later fetches from bringing it back.
 */
export async function deleteBranchAndUpstream(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  name: string,
  removeOnUpstream: boolean,
): Promise<DeletedBranch> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const upstream = upstreamOf(ctx, deploymentId, name);
  if (!removeOnUpstream) {
    const deleted = await deleteBranch(ctx, deploymentId, principal, name);
    if (upstream) ignoreUpstream(ctx, deploymentId, upstream);
    return deleted;
  }
  if (name === deployBranch) {
    throw new ApiError(409, DataModelErrorCodes.DEPLOY_BRANCH_PROTECTED, `"${name}" is the deploy branch of deployment ${deploymentId} and cannot be deleted.`);
  }
  const state = await loadBranch(ctx, repo, deploymentId, deployBranch, name);
  assertMayActOn(state, principal, true);
  const connection = await requireUpstream(ctx, deploymentId);
  if (!upstream) {
    throw new ApiError(409, Codes.BRANCH_HAS_NO_UPSTREAM, `Branch "${name}" tracks no branch of the connected repository, so there is nothing to remove there; delete it without removeOnUpstream.`);
  }
  const removed = await remoteLocks.run(repo.gitdir, async () => {
    await fetchRemote(repo.gitdir, connection.endpoint).catch((error: unknown) => upstreamFailure(error));
    const remoteHead = await remoteTrackingHead(repo.gitdir, upstream);
    if (!remoteHead) return false;
    const localHead = (await loadBranch(ctx, repo, deploymentId, deployBranch, name)).head;
    if (!(await isAncestor(repo.gitdir, remoteHead, localHead))) {
      throw new ApiError(
        409,
        Codes.PUSH_REJECTED,
        `"${upstream}" on the connected repository has commits "${name}" does not have; pull them first (or delete without removeOnUpstream). Nothing was deleted.`,
      );
    }
    await deleteRemoteBranch(repo.gitdir, connection.endpoint, upstream, remoteHead).catch((error: unknown) => upstreamFailure(error));
    logRepositoryEvent(ctx, deploymentId, name, deployBranch, `Deleted "${upstream}" on the connected repository (was ${shortId(remoteHead)}).`);
    return true;
  });
  const deleted = await deleteBranch(ctx, deploymentId, principal, name);
  return { ...deleted, removedOnUpstream: removed };
}
