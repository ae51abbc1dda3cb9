import { UpstreamErrorCodes as Codes, type FetchReport, type UpstreamBranchOutcome } from '../../../../src-shared/api/git-host';
import type { ServiceContext } from '../../../context';
import { ApiError } from '../../../http/problem';
import { clearRemoteTracking, fetchRemote, remoteTrackingHeads, setRemoteTrackingHeads, type RemoteEndpoint } from '../../../platform/repo';
import { openRepository } from '../repository';
import { emitUpstreamFetched, remoteLocks, requireUpstream, upstreamFailure, upstreamProblem } from './endpoint';
import { reconcile } from './reconcile';
import { clearTracking } from './tracking';

interface Running {
  controller: AbortController;
  promise: Promise<FetchReport>;
}

const running = new WeakMap<ServiceContext, Map<number, Running>>();

function runningOf(ctx: ServiceContext): Map<number, Running> {
  let map = running.get(ctx);
  if (!map) {
    running.set(ctx, (map = new Map()));
    // Shutting down: stop transfers still under way (the next start fetches again).
    ctx.onClose(() => map!.forEach((r) => r.controller.abort()));
  }
  return map;
}

/**
 * Fetches the connected remote and brings the branches in line (see `reconcile`): tracking
 * branches without commits of their own move to their upstream's head (a new commit on the deploy
 * branch builds the deployment), new remote branches become branches. One fetch per deployment at
 * a time: a second caller joins the one running. Cancellable (`cancelFetch`, or `signal`).
 */
export function fetchUpstream(ctx: ServiceContext, deploymentId: number, options: { signal?: AbortSignal } = {}): Promise<FetchReport> {
  const map = runningOf(ctx);
  const current = map.get(deploymentId);
  if (current) return current.promise;
  const controller = new AbortController();
  options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  const promise = (async (): Promise<FetchReport> => {
    const connection = await requireUpstream(ctx, deploymentId);
    const { repo, deployBranch } = await openRepository(ctx, deploymentId);
    try {
      const report = await remoteLocks.run(repo.gitdir, async () => {
        const fetched = await fetchRemote(repo.gitdir, connection.endpoint, { signal: controller.signal });
        controller.signal.throwIfAborted();
        const branches = await reconcile(ctx, deploymentId, repo, deployBranch, fetched.heads, 'fetch', connection.deployUpstream);
        return { fetchedAt: ctx.clock.now().toISOString(), defaultBranch: fetched.defaultBranch, branches };
      });
      emitUpstreamFetched(ctx, deploymentId, null);
      return report;
    } catch (error) {
      const problem = controller.signal.aborted
        ? new ApiError(409, Codes.UPSTREAM_CANCELLED, `The fetch of deployment ${deploymentId} was cancelled.`)
        : upstreamProblem(error);
      if (problem instanceof ApiError) emitUpstreamFetched(ctx, deploymentId, { code: problem.code, message: problem.detail });
      throw problem;
    }
  })().finally(() => {
    if (map.get(deploymentId)?.controller === controller) map.delete(deploymentId);
  });
  map.set(deploymentId, { controller, promise });
  return promise;
}

/** Stops the fetch running for the deployment; false when none was. */
export function cancelFetch(ctx: ServiceContext, deploymentId: number): boolean {
  const current = runningOf(ctx).get(deploymentId);
  if (!current) return false;
  current.controller.abort();
  return true;
}

export function isFetching(ctx: ServiceContext, deploymentId: number): boolean {
  return runningOf(ctx).has(deploymentId);
}

export interface ConnectedUpstream {
  deployUpstream: string;
  headCommit: string | null;
  branches: UpstreamBranchOutcome[];
}

/**
 * Connects the deployment's repository to a remote: fetches it (nothing written to the remote)
 * and makes its branches the deployment's (see `reconcile`, mode connect). `branch` is the remote
 * branch the deploy branch tracks (default the remote's HEAD; 404 when a non-empty remote lacks
 * it). `commit` runs inside the same remote lock once the branches are in place, so the caller's
 * record of the connection and the branches change together for every other remote operation.
 */
export async function connectUpstream(
  ctx: ServiceContext,
  deploymentId: number,
  endpoint: RemoteEndpoint,
  branch: string | undefined,
  commit: (result: ConnectedUpstream) => Promise<void>,
): Promise<ConnectedUpstream> {
  cancelFetch(ctx, deploymentId);
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  return remoteLocks.run(repo.gitdir, async () => {
    // A refused connect leaves the current connection's view of its remote as it was.
    const previous = await remoteTrackingHeads(repo.gitdir);
    const fetched = await fetchRemote(repo.gitdir, endpoint).catch((error: unknown) => upstreamFailure(error, 'connect'));
    if (branch !== undefined && fetched.heads.size > 0 && !fetched.heads.has(branch)) {
      await setRemoteTrackingHeads(repo.gitdir, previous);
      throw new ApiError(404, Codes.UPSTREAM_BRANCH_NOT_FOUND, `The repository has no branch "${branch}"; it has ${[...fetched.heads.keys()].sort().map((b) => `"${b}"`).join(', ')}.`);
    }
    const deployUpstream =
      branch ?? fetched.defaultBranch ?? (fetched.heads.has(deployBranch) || fetched.heads.size === 0 ? deployBranch : [...fetched.heads.keys()].sort()[0]);
    const branches = await reconcile(ctx, deploymentId, repo, deployBranch, fetched.heads, 'connect', deployUpstream);
    const result = { deployUpstream, headCommit: fetched.heads.get(deployUpstream) ?? null, branches };
    await commit(result);
    return result;
  });
}

/** Forgets the remote: no branch tracks anything any more; every branch and commit stays. */
export async function disconnectUpstream(ctx: ServiceContext, deploymentId: number, commit: () => Promise<void>): Promise<void> {
  cancelFetch(ctx, deploymentId);
  const { repo } = await openRepository(ctx, deploymentId);
  await remoteLocks.run(repo.gitdir, async () => {
    await commit();
    clearTracking(ctx, deploymentId);
    await clearRemoteTracking(repo.gitdir);
  });
}

/** Checks that `endpoint` (e.g. new credentials for the connected remote) works: 422 `UPSTREAM_AUTH_FAILED` when refused. */
export async function probeUpstream(ctx: ServiceContext, deploymentId: number, endpoint: RemoteEndpoint): Promise<void> {
  const { repo } = await openRepository(ctx, deploymentId);
  await remoteLocks.run(repo.gitdir, () => fetchRemote(repo.gitdir, endpoint)).catch((error: unknown) => upstreamFailure(error, 'connect'));
}
