// The two commits of a review (issue 26) from what was asked: a branch name, a commit id, or either
// followed by `~N` (its N-th first-parent ancestor). A branch is reviewed against where it left its
// base branch (their merge base, as a pull request into that branch shows it): the base named, or
// without one its parent. Comparing with the base branch's tip instead would show every change made
// on the base since as undone by the branch. A commit id or `branch~N` as a base is taken as it is
// (`main~0`: main's tip itself). Without a base the deploy branch and a bare commit are reviewed
// against their first parent.
import { ReviewErrorCodes as Codes } from '../../../src-shared/api/reviews';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { GitRepository } from '../../platform/repo';
import { getDeployBranch, modelRepositoryDir, parentBranchOf } from '../data-model';

export interface ResolvedRef {
  ref: string;
  commit: string;
  /** The branch the ref names, when it is a branch name alone (no `~N`). */
  branch: string | null;
}

const COMMIT_ID = /^[0-9a-f]{40}$/;

const notFound = (ref: string, pointer: string, deploymentId: number) =>
  new ApiError(404, Codes.REF_NOT_FOUND, `"${ref}" names no branch or commit of the model repository of deployment ${deploymentId}.`, {
    errors: [{ pointer, detail: 'no such branch or commit' }],
  });

async function commitExists(repo: GitRepository, oid: string): Promise<boolean> {
  try {
    await repo.readCommit(oid);
    return true;
  } catch {
    return false;
  }
}

export async function resolveRef(ctx: ServiceContext, deploymentId: number, ref: string, pointer: string): Promise<ResolvedRef> {
  const repo = GitRepository.at(await modelRepositoryDir(ctx, deploymentId));
  const match = /^(.*?)(?:~(\d{1,4}))?$/.exec(ref)!;
  const name = match[1]!;
  const back = Number(match[2] ?? 0);
  let branch: string | null = null;
  let commit: string | null = await repo.head(name);
  if (commit) branch = name;
  else if (COMMIT_ID.test(name) && (await commitExists(repo, name))) commit = name;
  if (!commit) throw notFound(ref, pointer, deploymentId);
  let current: string = commit;
  for (let i = 0; i < back; i++) {
    const parent: string | undefined = (await repo.readCommit(current)).parents[0];
    if (!parent) throw new ApiError(404, Codes.REF_NOT_FOUND, `"${ref}" goes back past the first commit of ${name}.`, { errors: [{ pointer, detail: 'no such ancestor' }] });
    current = parent;
  }
  // `name~N` (`~0` too) names a commit, not the branch.
  return { ref, commit: current, branch: match[2] === undefined ? branch : null };
}

/** The base a review of `head` compares with: `ref` where it names a branch is where `head` left it. */
export async function resolveBase(ctx: ServiceContext, deploymentId: number, ref: string, head: ResolvedRef, pointer: string): Promise<ResolvedRef> {
  const named = await resolveRef(ctx, deploymentId, ref, pointer);
  if (named.branch === null || named.commit === head.commit) return named;
  const repo = GitRepository.at(await modelRepositoryDir(ctx, deploymentId));
  const base = await repo.mergeBase(named.commit, head.commit);
  return { ref: named.ref, commit: base ?? named.commit, branch: null };
}

/** The base a review of `head` compares with when none was asked for. */
export async function defaultBase(ctx: ServiceContext, deploymentId: number, head: ResolvedRef): Promise<ResolvedRef> {
  const repo = GitRepository.at(await modelRepositoryDir(ctx, deploymentId));
  const deployBranch = await getDeployBranch(ctx, deploymentId);
  const parentBranch = head.branch && head.branch !== deployBranch ? (parentBranchOf(ctx, deploymentId, head.branch) ?? deployBranch) : null;
  if (parentBranch) {
    const parentHead = await repo.head(parentBranch);
    const base = parentHead ? await repo.mergeBase(parentHead, head.commit) : null;
    if (base) return { ref: parentBranch, commit: base, branch: null };
  }
  const parent = (await repo.readCommit(head.commit)).parents[0];
  // A first commit has nothing before it: it is reviewed against itself (no changes).
  return { ref: parent ? `${head.ref}~1` : head.ref, commit: parent ?? head.commit, branch: null };
}
