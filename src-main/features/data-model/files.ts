import type { FileContent, FileList } from '../../../src-shared/api/data-model';
import { isModelSourcePath, type ModelFile } from '../../../src-shared/model';

export { isModelSourcePath };
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { paginateArray, type PageRequest } from '../../http/pagination';
import { assertBranchName, defaultBranch, loadBranch } from './branches';
import { openRepository } from './repository';
import { assertFilePath, fileSummary, fileText, readWorkingFile, workingTree, type WorkingTree } from './working';


async function branchView(ctx: ServiceContext, deploymentId: number, principal: Principal, requested?: string) {
  if (requested !== undefined) assertBranchName(requested, '/querystring/branchName');
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const branch = defaultBranch(ctx, deploymentId, principal, deployBranch, requested);
  await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
  return { repo, tree: await workingTree(ctx, repo, deploymentId, branch) };
}

export async function listOrReadFiles(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  query: { branchName?: string; path?: string } & PageRequest,
): Promise<FileContent | FileList> {
  if (query.path !== undefined) assertFilePath(query.path, '/querystring/path');
  const { repo, tree } = await branchView(ctx, deploymentId, principal, query.branchName);
  if (query.path !== undefined) return readWorkingFile(ctx, repo, tree, query.path);
  const paths = [...tree.files.keys()];
  const page = paginateArray(paths, query, (p) => p);
  const items = await Promise.all(page.items.map((path) => fileSummary(repo, tree.files.get(path)!)));
  return { items, pageInfo: page.pageInfo, branchName: tree.branch, commit: tree.commit, hasUncommittedChanges: tree.edits.size > 0 };
}

export async function fileHashes(ctx: ServiceContext, deploymentId: number, principal: Principal, branchName?: string) {
  const { repo, tree } = await branchView(ctx, deploymentId, principal, branchName);
  const hashes: Record<string, string> = {};
  for (const [path, file] of tree.files) hashes[path] = (await fileSummary(repo, file)).sha256;
  return { branchName: tree.branch, commit: tree.commit, hashes };
}

async function modelFilesOf(repo: Awaited<ReturnType<typeof openRepository>>['repo'], tree: WorkingTree): Promise<ModelFile[]> {
  const files: ModelFile[] = [];
  for (const [path, file] of tree.files) if (isModelSourcePath(path)) files.push({ path, content: await fileText(repo, file) });
  return files;
}

/** Model source files of a branch head, or of the branch with its uncommitted edits. */
export async function modelFilesOfBranch(ctx: ServiceContext, deploymentId: number, branch: string | undefined, includeWorkingEdits: boolean): Promise<ModelFile[]> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const name = branch ?? deployBranch;
  await loadBranch(ctx, repo, deploymentId, deployBranch, name);
  const tree = await workingTree(ctx, repo, deploymentId, name);
  if (!includeWorkingEdits) {
    const committed = [...tree.head].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    tree.files = new Map(committed.map(([path, entry]) => [path, { path, source: 'head' as const, oid: entry.oid }]));
  }
  return modelFilesOf(repo, tree);
}
