import type { PushReport } from '../../../../src-shared/api/git-host';
import type { ServiceContext } from '../../../context';
import { fetchRemote, GitRepository, pushBranch, RemoteError, remoteTrackingHead } from '../../../platform/repo';
import { logRepositoryEvent, onBranchCommit, openRepository, shortId } from '../repository';
import { remoteLocks, resolveUpstream } from './endpoint';
import { upstreamOf } from './tracking';

/** A push made on behalf of a commit gives up sooner than an explicit one: the commit request waits for it. */
const AUTO_PUSH_TIMEOUT_MS = 30_000;

interface Entry {
  started: boolean;
  promise: Promise<PushReport | null>;
}

const queues = new WeakMap<ServiceContext, Map<string, Entry>>();
const lastReports = new WeakMap<ServiceContext, Map<string, { head: string; report: PushReport }>>();

const mapOf = <V>(store: WeakMap<ServiceContext, Map<string, V>>, ctx: ServiceContext): Map<string, V> => {
  let map = store.get(ctx);
  if (!map) store.set(ctx, (map = new Map()));
  return map;
};

/**
 * Pushes a tracking branch's head to its upstream (fast-forward only) and says how it went; null
 * when the branch tracks nothing or the deployment is not connected. Calls for one branch are
 * queued and coalesced: a call made while a push waits to start shares it (it pushes the latest
 * head), and a call for a head already pushed gets that push's report. A failure is reported,
 * never thrown: the commit stays, and `ahead` shows it until a later push gets through.
 */
export function pushAfterChange(ctx: ServiceContext, deploymentId: number, branch: string): Promise<PushReport | null> {
  const queue = mapOf(queues, ctx);
  const key = `${deploymentId}\0${branch}`;
  const current = queue.get(key);
  if (current && !current.started) return current.promise;
  const previous = current ? current.promise.catch(() => null) : Promise.resolve(null);
  const entry: Entry = { started: false, promise: Promise.resolve(null) };
  entry.promise = previous.then(() => {
    entry.started = true;
    return pushNow(ctx, deploymentId, branch, key);
  });
  queue.set(key, entry);
  entry.promise
    .finally(() => {
      if (queue.get(key) === entry) queue.delete(key);
    })
    .catch(() => undefined);
  return entry.promise;
}

async function pushNow(ctx: ServiceContext, deploymentId: number, branch: string, key: string): Promise<PushReport | null> {
  const upstream = upstreamOf(ctx, deploymentId, branch);
  if (!upstream) return null;
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  let connection;
  try {
    connection = await resolveUpstream(ctx, deploymentId);
  } catch (error) {
    // The host would not hand out a token (app uninstalled, rate limit…): the commit stays, the push waits.
    const e = error as { code?: string; detail?: string; message?: string };
    const head = (await repo.head(branch)) ?? '';
    return { upstream, status: 'failed', commit: head, code: e.code ?? 'UPSTREAM_ERROR', detail: e.detail ?? e.message ?? String(error) };
  }
  if (!connection) return null;
  const endpoint = connection.endpoint;
  return remoteLocks.run(repo.gitdir, async (): Promise<PushReport | null> => {
    const head = await repo.head(branch);
    if (!head) return null;
    const last = mapOf(lastReports, ctx).get(key);
    if (last?.head === head) return last.report;
    if ((await remoteTrackingHead(repo.gitdir, upstream)) === head) return { upstream, status: 'up-to-date' as const, commit: head, code: null, detail: null };
    let report: PushReport;
    try {
      const { before } = await pushBranch(repo.gitdir, endpoint, branch, upstream, { timeoutMs: AUTO_PUSH_TIMEOUT_MS });
      report = { upstream, status: 'pushed', commit: head, code: null, detail: null };
      logRepositoryEvent(ctx, deploymentId, branch, deployBranch, `Pushed "${branch}" to "${upstream}": ${before ? shortId(before) : 'new branch'} → ${shortId(head)}.`);
    } catch (error) {
      if (!(error instanceof RemoteError)) {
        ctx.log.error('pushing a branch failed unexpectedly', { deploymentId, branch, error: String(error) });
        return { upstream, status: 'failed' as const, commit: head, code: 'UPSTREAM_ERROR', detail: 'The push failed unexpectedly; the commit is kept. Push again.' };
      }
      const rejected = error.code === 'PUSH_REJECTED';
      report = { upstream, status: rejected ? 'rejected' : 'failed', commit: head, code: error.code, detail: error.message };
      logRepositoryEvent(ctx, deploymentId, branch, deployBranch, `Push of "${branch}" to "${upstream}" did not happen (${error.code}): ${error.message}`);
      // Learn what the remote has, so the branch shows how far behind it is (best effort).
      if (rejected) await fetchRemote(repo.gitdir, endpoint, { timeoutMs: AUTO_PUSH_TIMEOUT_MS }).catch(() => undefined);
    }
    mapOf(lastReports, ctx).set(key, { head, report });
    return report;
  });
}

/** Pushes every new head of a tracking branch, whoever moved it (API operations, syncs, uploads). */
export function setUpAutoPush(ctx: ServiceContext): void {
  onBranchCommit(ctx, (deploymentId, branch) => {
    if (!upstreamOf(ctx, deploymentId, branch)) return;
    // Started outside the mover's locks: it queues for the remote like any other push.
    GitRepository.detached(() =>
      remoteLocks.outside(() =>
        pushAfterChange(ctx, deploymentId, branch).catch((error: unknown) =>
          ctx.log.warn('pushing a branch to its upstream failed', { deploymentId, branch, error: String(error) }),
        ),
      ),
    );
  });
}

/** An API operation's answer with the push of its new commit, when the target branch tracks an upstream. */
export async function withPush<T extends { dryRun: boolean; commit: string | null; outcome: string; targetBranch: string; push?: PushReport }>(
  ctx: ServiceContext,
  deploymentId: number,
  result: T,
): Promise<T> {
  if (result.dryRun || result.commit === null || !['committed', 'fast-forward', 'merged'].includes(result.outcome)) return result;
  const push = await pushAfterChange(ctx, deploymentId, result.targetBranch);
  return push ? { ...result, push } : result;
}
