// What other areas may use of the data-model area. Everything else here is internal.
import { filePathProblem } from '../../../src-shared/api/data-model';
import type { ModelFile } from '../../../src-shared/model';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import type { CommitInfo, Signature } from '../../platform/repo';
import { branchRow, loadBranch } from './branches';
import { modelFilesOfBranch, isModelSourcePath } from './files';
export { modelSourceOfBranch } from './files';
import { withContents } from './operations';
import { emitBranchCommit, guarded, logRepositoryEvent, openRepository, shortId } from './repository';
import { pruneEdits } from './working';
import type { FileChange } from '../../../src-shared/api/data-model';

export { registerDataModelRoutes } from './routes';
export { addValidationCheck, type ValidationCheck, type ValidationCheckInput } from './validation-checks';
export { onBranchCommit, removeDeploymentRepository, authorOf, type BranchCommitListener } from './repository';
export { onBranchServingChanged, isServedBranch } from './repository';
export { isModelSourcePath, checkOutputPath } from './files';
// Two-way git with the team's repository (the git-host area owns connections and credentials).
export { setUpstreamResolver, onUpstreamFetched, type UpstreamConnection } from './upstream/endpoint';
export { fetchUpstream, cancelFetch, isFetching, connectUpstream, disconnectUpstream, probeUpstream, type ConnectedUpstream } from './upstream/fetch';
export { pullUpstream } from './upstream/pull';
export { pushUpstream } from './upstream/push';
export type { Signature } from '../../platform/repo';

/**
 * The model source files (YAML/JS/TS under `model/` or `schema/`) of a branch — by default its
 * head commit; with `includeWorkingEdits` as a dev-mode user sees it. `branch` defaults to the
 * deploy branch. 404 `BRANCH_NOT_FOUND` for an unknown branch.
 */
export function readModelFiles(
  ctx: ServiceContext,
  deploymentId: number,
  branch?: string,
  options: { includeWorkingEdits?: boolean } = {},
): Promise<ModelFile[]> {
  return modelFilesOfBranch(ctx, deploymentId, branch, options.includeWorkingEdits === true);
}

/** The model source files of one commit (e.g. the commit a build was made from). */
export async function readModelFilesAt(ctx: ServiceContext, deploymentId: number, commit: string): Promise<ModelFile[]> {
  const { repo } = await openRepository(ctx, deploymentId);
  const tree = await repo.treeOf(commit).catch(() => {
    throw new ApiError(404, 'COMMIT_NOT_FOUND', `Commit ${commit} is not in the model repository of deployment ${deploymentId}.`);
  });
  const files: ModelFile[] = [];
  for (const [path, entry] of tree) {
    if (isModelSourcePath(path)) files.push({ path, content: new TextDecoder().decode(await repo.readBlob(entry.oid)) });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Commits files directly on a branch (no dev mode needed: for the service's own writers such as
 * warehouse pulls and transform syncs). `content: null` deletes a path. All files land in one
 * commit or none do; nothing is committed when nothing changes (`changed: false`, head unchanged).
 * Paths are checked like the API's (400 `INVALID_FILE_PATH` / `FILE_TYPE_NOT_ALLOWED`).
 */
export async function commitFiles(
  ctx: ServiceContext,
  deploymentId: number,
  branch: string,
  files: { path: string; content: string | null }[],
  message: string,
  author: Signature,
): Promise<{ commit: string; changed: boolean; changes: { path: string; status: FileChange['status'] }[] }> {
  files.forEach((file) => {
    const problem = filePathProblem(file.path);
    if (problem) throw new ApiError(400, problem.code, problem.detail);
  });
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  return repo.exclusive(async () => {
    const state = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
    const result = await guarded(() => repo.commitChanges(branch, files, { message, author }));
    if (result.changed) {
      if (state.kind === 'personal') await pruneEdits(ctx, repo, deploymentId, branch);
      logRepositoryEvent(ctx, deploymentId, branch, deployBranch, `Commit ${shortId(result.commit)} on "${branch}" by ${author.name}: ${message.split('\n', 1)[0]}.`);
      emitBranchCommit(ctx, deploymentId, branch, result.commit);
    }
    return { commit: result.commit, changed: result.changed, changes: result.changes.map((c) => ({ path: c.path, status: c.status })) };
  });
}

/**
 * Every file of a branch's head commit with its bytes (uncommitted dev-mode edits excluded), e.g.
 * to publish the branch to another service. `branch` defaults to the deploy branch.
 */
export async function readBranchSnapshot(
  ctx: ServiceContext,
  deploymentId: number,
  branch?: string,
): Promise<{ branchName: string; deployBranch: string; commit: string; files: { path: string; content: Uint8Array }[] }> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const name = branch ?? deployBranch;
  await loadBranch(ctx, repo, deploymentId, deployBranch, name);
  const { commit, tree } = await repo.branchTree(name);
  const files: { path: string; content: Uint8Array }[] = [];
  for (const [path, entry] of tree) files.push({ path, content: await repo.readBlob(entry.oid) });
  return { branchName: name, deployBranch, commit, files };
}

/** The owner of a personal dev branch; null for the deploy branch, shared branches and unknown names. */
export function personalBranchOwner(ctx: ServiceContext, deploymentId: number, branch: string): number | null {
  const row = branchRow(ctx, deploymentId, branch);
  return row?.kind === 'personal' ? row.owner_user_id : null;
}

/** Head commit id of a branch (404 `BRANCH_NOT_FOUND`). */
export async function getBranchHead(ctx: ServiceContext, deploymentId: number, branch: string): Promise<string> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  return (await loadBranch(ctx, repo, deploymentId, deployBranch, branch)).head;
}

/**
 * The git directory of the deployment's model repository (created on first use), for worker
 * threads that read commits themselves (git objects are immutable, so reading beside writers is safe).
 */
export async function modelRepositoryDir(ctx: ServiceContext, deploymentId: number): Promise<string> {
  return (await openRepository(ctx, deploymentId)).repo.gitdir;
}

/** The deployment's deploy branch, its repository created on first use. */
export async function getDeployBranch(ctx: ServiceContext, deploymentId: number): Promise<string> {
  return (await openRepository(ctx, deploymentId)).deployBranch;
}

/** Files changed between two commits (`from` null = since the empty tree), with content before and after. */
export async function diffCommits(ctx: ServiceContext, deploymentId: number, from: string | null, to: string): Promise<FileChange[]> {
  const { repo } = await openRepository(ctx, deploymentId);
  return withContents(repo, await repo.diff(from, to));
}

/** History of a branch, newest first. */
export async function branchHistory(ctx: ServiceContext, deploymentId: number, branch: string, depth = 50): Promise<CommitInfo[]> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
  return repo.log(branch, depth);
}

/** The branch a branch was created from; null for the deploy branch, branches without one and unknown names. */
export function parentBranchOf(ctx: ServiceContext, deploymentId: number, branch: string): string | null {
  return branchRow(ctx, deploymentId, branch)?.parent_branch ?? null;
}
