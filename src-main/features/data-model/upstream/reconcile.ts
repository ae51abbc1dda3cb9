import type { UpstreamBranchOutcome } from '../../../../src-shared/api/git-host';
import type { ServiceContext } from '../../../context';
import { isAncestor, isValidBranchName, newPathProblems, RepoError, type GitRepository } from '../../../platform/repo';
import { adoptBranch, insertBranchRow, loadBranch, type BranchRow } from '../branches';
import { emitBranchCommit, logRepositoryEvent, shortId, SYSTEM_AUTHOR } from '../repository';
import { clearTracking, ignoredUpstreams, setUpstream, trackedBranches } from './tracking';

/**
 * Brings the deployment's branches in line with what a fetch brought (`remote`: the remote's
 * branches → heads). On connect, the deploy branch starts tracking `deployUpstream` and every other
 * remote branch becomes a branch of the same name; on a later fetch, tracking branches follow
 * their upstream and new remote branches are adopted. A branch only ever moves forward to the
 * remote head (nothing of its own is dropped), except on connect, where a branch whose history
 * differs takes the remote's and keeps its own commits on `before-connect/<name>`.
 */
export type ReconcileMode = 'connect' | 'fetch';

interface Plan {
  local: string;
  upstream: string;
}

const hasWorkingEdits = (ctx: ServiceContext, deploymentId: number, branch: string): boolean =>
  ctx.db.prepare('SELECT 1 FROM model_working_files WHERE deployment_id = ? AND branch = ? LIMIT 1').get(deploymentId, branch) !== undefined;

export async function reconcile(
  ctx: ServiceContext,
  deploymentId: number,
  repo: GitRepository,
  deployBranch: string,
  remote: Map<string, string>,
  mode: ReconcileMode,
  deployUpstream: string,
): Promise<UpstreamBranchOutcome[]> {
  return repo.exclusive(async () => {
    const rows = new Map(
      (ctx.db.prepare('SELECT * FROM model_branches WHERE deployment_id = ?').all(deploymentId) as BranchRow[]).map((r) => [r.name, r]),
    );
    const outcomes: UpstreamBranchOutcome[] = [];
    const skip = (local: string, upstream: string, reason: string) => outcomes.push({ branchName: local, upstream, outcome: 'skipped', head: null, reason });
    const plans: Plan[] = [];
    if (mode === 'connect') {
      clearTracking(ctx, deploymentId);
      plans.push({ local: deployBranch, upstream: deployUpstream });
      for (const name of [...remote.keys()].sort()) {
        if (name === deployUpstream) continue;
        if (name === deployBranch) skip(name, name, `the deploy branch "${deployBranch}" tracks "${deployUpstream}" instead`);
        else if (!isValidBranchName(name)) skip(name, name, 'not a branch name this service accepts');
        else if (rows.get(name)?.kind === 'personal') skip(name, name, 'a personal dev branch has this name');
        else plans.push({ local: name, upstream: name });
      }
    } else {
      const tracked = trackedBranches(ctx, deploymentId);
      for (const [local, upstream] of tracked) plans.push({ local, upstream });
      const following = new Set(tracked.values());
      const ignored = ignoredUpstreams(ctx, deploymentId);
      for (const name of [...remote.keys()].sort()) {
        if (following.has(name) || ignored.has(name) || !isValidBranchName(name)) continue;
        // A local branch of that name that tracks nothing is the user's: left alone.
        if (rows.has(name) || (await repo.head(name)) !== null) continue;
        plans.push({ local: name, upstream: name });
      }
    }
    for (const plan of plans) {
      try {
        outcomes.push(await apply(ctx, deploymentId, repo, deployBranch, plan, remote.get(plan.upstream) ?? null, mode, rows.get(plan.local)));
      } catch (error) {
        if (!(error instanceof RepoError)) throw error;
        skip(plan.local, plan.upstream, error.message);
      }
    }
    return outcomes.sort((a, b) => (a.branchName === deployBranch ? -1 : b.branchName === deployBranch ? 1 : a.branchName < b.branchName ? -1 : 1));
  });
}

async function apply(
  ctx: ServiceContext,
  deploymentId: number,
  repo: GitRepository,
  deployBranch: string,
  { local, upstream }: Plan,
  remoteHead: string | null,
  mode: ReconcileMode,
  row: BranchRow | undefined,
): Promise<UpstreamBranchOutcome> {
  const localHead = await repo.head(local);
  const result = (outcome: UpstreamBranchOutcome['outcome'], head: string | null, extra: Partial<UpstreamBranchOutcome> = {}): UpstreamBranchOutcome => ({
    branchName: local,
    upstream,
    outcome,
    head,
    ...extra,
  });
  const track = async () => {
    if (!row) adoptBranch(ctx, deploymentId, await loadBranch(ctx, repo, deploymentId, deployBranch, local));
    setUpstream(ctx, deploymentId, local, upstream);
  };
  const moved = (from: string, to: string, how: string) => {
    logRepositoryEvent(ctx, deploymentId, local, deployBranch, `"${local}" ${how} "${upstream}" of the connected repository: ${shortId(from)} → ${shortId(to)}.`);
    emitBranchCommit(ctx, deploymentId, local, to);
  };

  if (remoteHead === null) {
    if (localHead === null) return result('skipped', null, { reason: 'neither side has the branch' });
    if (mode === 'fetch') return result('upstream-gone', localHead);
    // Connecting to an empty repository (or a branch it does not have yet): the next push creates it.
    await track();
    return result('ahead', localHead);
  }
  // A remote head that would add a path this repository cannot hold is never taken (pull explains).
  const refused = async (from: string | null) => {
    const problems = newPathProblems(from ? await repo.treeOf(from) : new Map(), await repo.treeOf(remoteHead));
    if (problems.length === 0) return null;
    const named = problems.slice(0, 3).map((p) => `"${p.path}" (${p.rule})`).join(', ');
    return `the upstream adds ${problems.length === 1 ? 'a path' : `${problems.length} paths`} this repository cannot hold: ${named}${problems.length > 3 ? ', …' : ''}; pull to see them`;
  };
  if (localHead === null) {
    const reason = await refused(null);
    if (reason) return result('skipped', null, { reason });
    await repo.createBranch(local, remoteHead);
    try {
      ctx.db.transaction(() => {
        ctx.db.prepare('DELETE FROM model_branches WHERE deployment_id = ? AND name = ?').run(deploymentId, local);
        insertBranchRow(ctx, deploymentId, { name: local, kind: 'shared', parent: deployBranch, devMode: false, owner: null });
        setUpstream(ctx, deploymentId, local, upstream);
      })();
    } catch (error) {
      await repo.deleteBranch(local);
      throw error;
    }
    logRepositoryEvent(ctx, deploymentId, local, deployBranch, `Branch "${local}" created from "${upstream}" of the connected repository at ${shortId(remoteHead)}.`);
    return result('created', remoteHead);
  }
  await track();
  if (localHead === remoteHead) return result('up-to-date', localHead);
  if (await isAncestor(repo.gitdir, localHead, remoteHead)) {
    if (hasWorkingEdits(ctx, deploymentId, local)) return result('behind', localHead, { reason: 'uncommitted edits: commit them, then pull' });
    const reason = await refused(localHead);
    if (reason) return result('behind', localHead, { reason });
    await repo.setHead(local, remoteHead, localHead);
    moved(localHead, remoteHead, 'fast-forwarded to');
    return result('fast-forward', remoteHead);
  }
  if (await isAncestor(repo.gitdir, remoteHead, localHead)) return result('ahead', localHead);
  if (mode === 'fetch') return result('diverged', localHead);

  // Connect: the branch takes the remote history; its own commits stay on a branch of their own.
  const reason = await refused(localHead);
  if (reason) return result('skipped', localHead, { reason });
  const keptAs = (await isUntouchedSample(repo, localHead)) ? undefined : await keepAside(ctx, deploymentId, repo, deployBranch, local, localHead);
  await repo.setHead(local, remoteHead, localHead);
  moved(localHead, remoteHead, 'now holds');
  return result('replaced', remoteHead, keptAs ? { keptAs } : {});
}

/** The first commit the service made for a new deployment (the sample project), never touched since. */
async function isUntouchedSample(repo: GitRepository, commit: string): Promise<boolean> {
  const info = await repo.readCommit(commit);
  return info.parents.length === 0 && info.author.email === SYSTEM_AUTHOR.email;
}

async function keepAside(ctx: ServiceContext, deploymentId: number, repo: GitRepository, deployBranch: string, local: string, head: string): Promise<string> {
  const base = `before-connect/${local}`.slice(0, 90);
  let name = base;
  for (let n = 2; (await repo.head(name)) !== null || ctx.db.prepare('SELECT 1 FROM model_branches WHERE deployment_id = ? AND name = ?').get(deploymentId, name); n++) {
    name = `${base}-${n}`;
  }
  await repo.createBranch(name, head);
  insertBranchRow(ctx, deploymentId, { name, kind: 'shared', parent: local, devMode: false, owner: null });
  logRepositoryEvent(ctx, deploymentId, local, deployBranch, `Commits of "${local}" that the connected repository does not have are kept on "${name}" (${shortId(head)}).`);
  return name;
}
