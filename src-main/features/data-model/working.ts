import { createHash } from 'node:crypto';
import {
  caseTwinProblem,
  DataModelErrorCodes as Codes,
  existingPathProblem,
  filePathProblem,
  MAX_FILE_BYTES,
  type ChangeStatus,
  type FileContent,
  type FileSummary,
  type WorkingState,
} from '../../../src-shared/api/data-model';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { publishEvent } from '../../platform/events';
import { GitRepository, type FlatTree } from '../../platform/repo';
import { assertWritable, loadBranch } from './branches';
import { caseTwinsOfNewPaths, fileFolderClashes, sortedPathsOf } from '../../platform/repo/path-index';
import { indexAfter } from '../../http/pagination';
import { assertUnchanged, type Expectation } from './preconditions';
import { openRepository, pathsRefused } from './repository';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Uncommitted edits of a branch: path → content (null = deleted). */
export function workingEdits(ctx: ServiceContext, deploymentId: number, branch: string): Map<string, string | null> {
  const rows = ctx.db
    .prepare('SELECT path, content FROM model_working_files WHERE deployment_id = ? AND branch = ? ORDER BY path')
    .all(deploymentId, branch) as { path: string; content: string | null }[];
  return new Map(rows.map((r) => [r.path, r.content]));
}

export type WorkingFile = { path: string; source: 'head'; oid: string } | { path: string; source: 'edit'; content: string };

/** A branch as a user sees it: its head commit's files with its uncommitted edits on top. */
export interface WorkingTree {
  branch: string;
  commit: string;
  head: FlatTree;
  edits: ReadonlyMap<string, string | null>;
  /** The file at `path`, or undefined: one lookup, whatever the size of the branch. */
  file(path: string): WorkingFile | undefined;
  /**
   * The paths of every file, in order. The head's are sorted once per commit; with uncommitted
   * edits they are merged in on first use, in proportion to the branch (reads of the whole branch;
   * a page of a list takes `pathsAfter`).
   */
  paths(): readonly string[];
  /**
   * The first `limit` paths after `after` (null: from the first), in order: a page of a list. With
   * uncommitted edits it costs what the page and the edits do, not a merge of every path: the whole
   * list, merged for each page, held the HTTP thread 5–11 ms a page at 10,000 cubes (issue 28).
   */
  pathsAfter(after: string | null, limit: number): string[];
  /**
   * Every file, in path order. Made on first use, in proportion to the branch: for reads of the
   * whole model. A save (`file`, the checks of `applyEdits`) never makes it (issue 28).
   */
  readonly files: ReadonlyMap<string, WorkingFile>;
}

export function workingTreeOf(branch: string, commit: string, head: FlatTree, edits: ReadonlyMap<string, string | null>): WorkingTree {
  const file = (path: string): WorkingFile | undefined => {
    const edit = edits.get(path);
    if (edit !== undefined) return edit === null ? undefined : { path, source: 'edit', content: edit };
    const entry = head.get(path);
    return entry ? { path, source: 'head', oid: entry.oid } : undefined;
  };
  let paths: readonly string[] | undefined;
  let newPaths: string[] | undefined;
  /** New files of the edits (not in the head commit), in order. */
  const addedPaths = (): string[] => (newPaths ??= [...edits].filter(([path, content]) => content !== null && !head.has(path)).map(([path]) => path).sort());
  const pathsAfter = (after: string | null, limit: number): string[] => {
    const committed = sortedPathsOf(head);
    if (edits.size === 0) {
      const start = after === null ? 0 : indexAfter(committed, after);
      return committed.slice(start, start + limit);
    }
    const added = addedPaths();
    let c = after === null ? 0 : indexAfter(committed, after);
    let a = after === null ? 0 : indexAfter(added, after);
    const out: string[] = [];
    while (out.length < limit && (c < committed.length || a < added.length)) {
      if (a < added.length && (c >= committed.length || added[a]! < committed[c]!)) out.push(added[a++]!);
      else {
        const path = committed[c++]!;
        if (edits.get(path) !== null) out.push(path);
      }
    }
    return out;
  };
  // Without edits the head's own sorted list, not a copy of it.
  const pathsInOrder = () => (paths ??= edits.size === 0 ? sortedPathsOf(head) : pathsAfter(null, Infinity));
  let files: Map<string, WorkingFile> | undefined;
  return {
    branch,
    commit,
    head,
    edits,
    file,
    paths: pathsInOrder,
    pathsAfter,
    get files() {
      return (files ??= new Map(pathsInOrder().map((path) => [path, file(path)!])));
    },
  };
}

export async function workingTree(ctx: ServiceContext, repo: GitRepository, deploymentId: number, branch: string): Promise<WorkingTree> {
  const commit = await repo.requireHead(branch);
  return workingTreeOf(branch, commit, await repo.treeOf(commit), workingEdits(ctx, deploymentId, branch));
}

export async function fileText(repo: GitRepository, file: WorkingFile): Promise<string> {
  return file.source === 'edit' ? file.content : decoder.decode(await repo.readBlob(file.oid));
}

export async function fileSummary(repo: GitRepository, file: WorkingFile): Promise<FileSummary> {
  if (file.source === 'head') return { path: file.path, ...(await repo.blobInfo(file.oid)), uncommitted: false };
  const bytes = encoder.encode(file.content);
  return { path: file.path, size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex'), uncommitted: true };
}

export async function readWorkingFile(ctx: ServiceContext, repo: GitRepository, tree: WorkingTree, path: string): Promise<FileContent> {
  const file = tree.file(path);
  if (!file) throw new ApiError(404, Codes.FILE_NOT_FOUND, `Branch "${tree.branch}" has no file "${path}".`);
  const summary = await fileSummary(repo, file);
  return { branchName: tree.branch, commit: tree.commit, path, content: await fileText(repo, file), size: summary.size, sha256: summary.sha256, uncommitted: summary.uncommitted };
}

/** Uncommitted changes of a branch relative to its head commit, by path. */
export function uncommittedChanges(tree: Pick<WorkingTree, 'head' | 'edits'>): { path: string; status: ChangeStatus }[] {
  return [...tree.edits]
    .map(([path, content]) => ({ path, status: (content === null ? 'deleted' : tree.head.has(path) ? 'modified' : 'added') as ChangeStatus }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** 400 with the rule's code when `path` may not name a new file (src-shared/api/file-paths.ts). */
export function assertFilePath(path: string, pointer: string): void {
  const problem = filePathProblem(path);
  if (problem) throw new ApiError(400, Codes[problem.code], problem.detail, { errors: [{ pointer, detail: problem.detail }], paths: [path] });
}

/**
 * For paths that name an existing file (reads, deletes, the source of a rename): any path the
 * branch holds is fine — a file that predates a rule must stay reachable to be fixed — else the
 * rules of a new path apply (so `../x.yml` is a 400, not a 404).
 */
export function assertExistingPath(path: string, pointer: string, tree: Pick<WorkingTree, 'file'>): void {
  const problem = tree.file(path) ? existingPathProblem(path) : filePathProblem(path);
  if (problem) throw new ApiError(400, Codes[problem.code], problem.detail, { errors: [{ pointer, detail: problem.detail }], paths: [path] });
}

/** 400 `PATH_CASE_CONFLICT` when a new path of `changes` would be the same file as another on macOS or Windows. */
function assertNoCaseTwins(tree: WorkingTree, changes: ReadonlyMap<string, string | null>): void {
  const twins = caseTwinsOfNewPaths(tree, changes);
  if (twins.length > 0) throw pathsRefused(twins.map(caseTwinProblem), 400);
}

export function assertFileSize(path: string, bytes: number): void {
  if (bytes > MAX_FILE_BYTES) {
    throw new ApiError(413, Codes.FILE_TOO_LARGE, `"${path}" has ${bytes} bytes; a model file may have at most ${MAX_FILE_BYTES}.`);
  }
}

/**
 * Records edits over the head commit in one transaction. An edit that brings a file back to its
 * committed content drops the edit, so "uncommitted changes" stays exact.
 */
async function applyEdits(ctx: ServiceContext, deploymentId: number, principal: Principal, tree: WorkingTree, changes: Map<string, string | null>): Promise<void> {
  assertNoCaseTwins(tree, changes);
  const clashes = fileFolderClashes(tree, changes);
  if (clashes.length > 0) {
    throw new ApiError(409, Codes.PATH_CONFLICT, `A file and a folder would share a path: ${clashes.join(', ')}.`, { paths: clashes });
  }
  const plan: { path: string; content: string | null; drop: boolean }[] = [];
  for (const [path, content] of changes) {
    const committed = tree.head.get(path);
    const drop = content === null ? committed === undefined : committed !== undefined && committed.oid === (await GitRepository.blobIdOf(content));
    plan.push({ path, content, drop });
  }
  const now = ctx.clock.now().toISOString();
  const upsert = ctx.db.prepare(
    `INSERT INTO model_working_files (deployment_id, branch, path, content, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (deployment_id, branch, path) DO UPDATE SET content = excluded.content, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
  );
  const remove = ctx.db.prepare('DELETE FROM model_working_files WHERE deployment_id = ? AND branch = ? AND path = ?');
  ctx.db.transaction(() => {
    for (const step of plan) {
      if (step.drop) remove.run(deploymentId, tree.branch, step.path);
      else upsert.run(deploymentId, tree.branch, step.path, step.content, principal.userId, now);
    }
  })();
}

/** Drops edits that equal the (moved) head, e.g. after a pull brought the same change. */
export async function pruneEdits(ctx: ServiceContext, repo: GitRepository, deploymentId: number, branch: string): Promise<void> {
  const tree = await workingTree(ctx, repo, deploymentId, branch);
  const redundant: string[] = [];
  for (const [path, content] of tree.edits) {
    const committed = tree.head.get(path);
    if (content === null ? committed === undefined : committed?.oid === (await GitRepository.blobIdOf(content))) redundant.push(path);
  }
  if (redundant.length === 0) return;
  const remove = ctx.db.prepare('DELETE FROM model_working_files WHERE deployment_id = ? AND branch = ? AND path = ?');
  ctx.db.transaction(() => redundant.forEach((path) => remove.run(deploymentId, branch, path)))();
}

async function editWorkingTree(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  branch: string,
  edit: (tree: WorkingTree) => Promise<Map<string, string | null>> | Map<string, string | null>,
  expected: Map<string, Expectation> = new Map(),
): Promise<WorkingState> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  return repo.exclusive(async () => {
    assertWritable(await loadBranch(ctx, repo, deploymentId, deployBranch, branch), principal);
    const before = await workingTree(ctx, repo, deploymentId, branch);
    await assertUnchanged(branch, expected, async (path) => {
      const file = before.file(path);
      return file ? (await fileSummary(repo, file)).sha256 : null;
    });
    const changes = await edit(before);
    await applyEdits(ctx, deploymentId, principal, before, changes);
    // Other windows (and this one) learn each path's new version: a window holding it skips the reload.
    const files = [...changes].map(([path, content]) => ({ path, sha256: content === null ? null : createHash('sha256').update(content, 'utf8').digest('hex') }));
    publishEvent(ctx, { type: 'files', deploymentId, branch, files });
    // The head cannot move while the repository is held, so only the edits need reading again.
    const after = { head: before.head, edits: workingEdits(ctx, deploymentId, branch) };
    return { branchName: branch, headCommit: before.commit, uncommittedChanges: uncommittedChanges(after) };
  });
}

export function writeFiles(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  branch: string,
  files: { path: string; content: string; baseSha256?: string | null }[],
  ifMatch?: Expectation,
): Promise<WorkingState> {
  if (ifMatch !== undefined && files.length !== 1) {
    throw new ApiError(400, Codes.INVALID_IF_MATCH, 'If-Match names the version of one file; a write of several files gives each its `baseSha256`.', {
      errors: [{ pointer: '/headers/if-match', detail: 'only for a one-file write' }],
    });
  }
  const expected = new Map<string, Expectation>();
  files.forEach((file) => {
    if (file.baseSha256 !== undefined) expected.set(file.path, file.baseSha256);
  });
  if (ifMatch !== undefined) expected.set(files[0].path, ifMatch);
  const seen = new Set<string>();
  files.forEach((file, i) => {
    assertFilePath(file.path, `/body/files/${i}/path`);
    if (seen.has(file.path)) {
      throw new ApiError(400, Codes.DUPLICATE_PATH, `"${file.path}" is listed twice.`, { errors: [{ pointer: `/body/files/${i}/path`, detail: 'listed twice' }] });
    }
    seen.add(file.path);
    assertFileSize(file.path, Buffer.byteLength(file.content, 'utf8'));
  });
  return editWorkingTree(ctx, deploymentId, principal, branch, () => new Map(files.map((f) => [f.path, f.content])), expected);
}

const expectationOf = (path: string, ifMatch?: Expectation) => new Map<string, Expectation>(ifMatch === undefined ? [] : [[path, ifMatch]]);

export function deleteFile(ctx: ServiceContext, deploymentId: number, principal: Principal, branch: string, path: string, ifMatch?: Expectation): Promise<WorkingState> {
  const shape = existingPathProblem(path);
  if (shape) throw new ApiError(400, Codes[shape.code], shape.detail, { errors: [{ pointer: '/querystring/path', detail: shape.detail }] });
  return editWorkingTree(
    ctx,
    deploymentId,
    principal,
    branch,
    (tree) => {
      // Deleting works for every file the branch holds, also one whose name breaks a rule today.
      assertExistingPath(path, '/querystring/path', tree);
      if (!tree.file(path)) throw new ApiError(404, Codes.FILE_NOT_FOUND, `Branch "${branch}" has no file "${path}".`);
      return new Map([[path, null]]);
    },
    expectationOf(path, ifMatch),
  );
}

export function renameFile(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  branch: string,
  from: string,
  to: string,
  ifMatch?: Expectation,
): Promise<WorkingState> {
  const shape = existingPathProblem(from);
  if (shape) throw new ApiError(400, Codes[shape.code], shape.detail, { errors: [{ pointer: '/body/path', detail: shape.detail }] });
  assertFilePath(to, '/body/newPath');
  if (from === to) {
    throw new ApiError(400, Codes.INVALID_FILE_PATH, '`newPath` is the same as `path`.', { errors: [{ pointer: '/body/newPath', detail: 'same as path' }] });
  }
  return editWorkingTree(ctx, deploymentId, principal, branch, async (tree) => {
    // A file whose name breaks a rule today can still be renamed to a good name.
    assertExistingPath(from, '/body/path', tree);
    const file = tree.file(from);
    if (!file) throw new ApiError(404, Codes.FILE_NOT_FOUND, `Branch "${branch}" has no file "${from}".`);
    if (tree.file(to)) throw new ApiError(409, Codes.FILE_EXISTS, `Branch "${branch}" already has a file "${to}".`);
    const { repo } = await openRepository(ctx, deploymentId);
    return new Map([
      [from, null],
      [to, await fileText(repo, file)],
    ]);
  }, expectationOf(from, ifMatch));
}
