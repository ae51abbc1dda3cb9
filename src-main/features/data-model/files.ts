import { createHash } from 'node:crypto';
import {
  DataModelErrorCodes as Codes,
  existingPathProblem,
  MAX_CONTENT_PAGE_BYTES,
  portablePathProblem,
  type FileContent,
  type FileList,
} from '../../../src-shared/api/data-model';
import { isModelSourcePath, type ModelFile } from '../../../src-shared/model';
import { normalizeOutputPath } from '../../../src-shared/model/generate/model-from-semantic-view';

export { isModelSourcePath };
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError, invalidField } from '../../http/problem';
import { encodeCursor, paginateKeys, type PageRequest } from '../../http/pagination';
import { yieldToEventLoop } from '../../platform/jobs/types';
import { Utf8Writer } from '../../platform/json/utf8-writer';
import type { GitRepository } from '../../platform/repo';
import { filePageWithin, type PageEntry } from '../../workers/model-source';
import { runOnModelShard } from '../../workers/run';
import { branchKey, shardOf } from './validation';
import { assertBranchName, defaultBranch, loadBranch } from './branches';
import { openRepository } from './repository';
import { assertExistingPath, fileSummary, fileText, readWorkingFile, workingEdits, workingTree, workingTreeOf, type WorkingFile, type WorkingTree } from './working';
import { bufferView } from '../../platform/files/buffer-view';


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
  if (query.path !== undefined) {
    const shape = existingPathProblem(query.path);
    if (shape) throw new ApiError(400, Codes[shape.code], shape.detail, { errors: [{ pointer: '/querystring/path', detail: shape.detail }] });
  }
  const { repo, tree } = await branchView(ctx, deploymentId, principal, query.branchName);
  if (query.path !== undefined) {
    // Any file the branch holds can be read (also one whose name breaks a rule today).
    assertExistingPath(query.path, '/querystring/path', tree);
    return readWorkingFile(ctx, repo, tree, query.path);
  }
  const page = paginateKeys(query, tree.pathsAfter);
  const listed = page.items.map((path) => tree.file(path)!);
  await learnBlobInfos(ctx, repo, listed, deploymentId, tree.branch);
  const items = await Promise.all(listed.map((file) => fileSummary(repo, file)));
  return { items, pageInfo: page.pageInfo, branchName: tree.branch, commit: tree.commit, hasUncommittedChanges: tree.edits.size > 0 };
}

/**
 * A page of `GET …/data-model/files?content=true` as JSON bytes, in chunks: the files with their
 * text, as many as fit in MAX_CONTENT_PAGE_BYTES (the first always does), keys in the contract's
 * order. A client reads a whole branch in a few pages: the workbench read a 10,000-cube branch one
 * file per request, 12,500 requests and about 6 s (issue 28). A page with many committed files is
 * read, and its JSON made, on the branch's model shard (see HASH_ON_THREAD_FROM); a few are read here.
 */
export async function fileListWithContent(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  query: { branchName?: string } & PageRequest,
  sealCursor: (cursor: string) => string,
): Promise<{ chunks: Buffer[]; release: () => void }> {
  const { repo, tree } = await branchView(ctx, deploymentId, principal, query.branchName);
  const page = paginateKeys(query, tree.pathsAfter);
  const entries: PageEntry[] = page.items.map((path) => {
    const file = tree.file(path)!;
    return file.source === 'head' ? { path, oid: file.oid } : { path, content: file.content };
  });
  let heads = 0;
  for (const entry of entries) if ('oid' in entry) heads++;
  const budget = MAX_CONTENT_PAGE_BYTES;
  const read =
    heads >= HASH_ON_THREAD_FROM
      ? await runOnModelShard(ctx, shardOf(ctx, branchKey(deploymentId, tree.branch)), 'filePage', { gitdir: repo.gitdir, entries, budget })
      : await filePageWithin(entries, budget, (oid) => repo.readBlob(oid));
  for (const [oid, info] of read.infos) repo.rememberBlobInfo(oid, info);
  const cut = read.count < entries.length;
  const endCursor = cut ? encodeCursor(entries[read.count - 1]!.path) : page.pageInfo.endCursor;
  const pageInfo = { hasNextPage: cut || page.pageInfo.hasNextPage, endCursor: endCursor === null ? null : sealCursor(endCursor) };
  const rest = `,"pageInfo":${JSON.stringify(pageInfo)},"branchName":${JSON.stringify(tree.branch)},"commit":${JSON.stringify(tree.commit)},"hasUncommittedChanges":${tree.edits.size > 0}}`;
  // Three chunks, not one buffer: a copy of the page's megabytes here, and the external memory it
  // adds, made the HTTP thread collect its heap more often.
  const items = read.items.buffer as ArrayBuffer;
  return {
    chunks: [Buffer.from('{"items":'), bufferView(read.items), Buffer.from(rest)],
    // Once the answer is handed to the OS the page's megabytes are freed at once, not at the HTTP
    // thread's next full collection: 15 pages of a 10,000-cube branch were 60 MB waiting for it.
    release: () => void items.transfer(0),
  };
}

/**
 * Committed files whose sizes and hashes are not known yet from which they are read and hashed on
 * the branch's model shard: reading 12,500 of them here took 6 s of the HTTP thread's time, a page
 * of 100 took 30 ms (issue 28); a few are read here, where no thread has to start. The shard, not a
 * compute thread, because it reads the branch's files anyway and is usually running: a compute
 * thread started for it added about 100 MB to the service at 10,000 cubes, the shard about 30.
 */
const HASH_ON_THREAD_FROM = 64;

/** Learns the size and SHA-256 of the committed files among `files` not known yet (see `fileSummary`). */
async function learnBlobInfos(ctx: ServiceContext, repo: GitRepository, files: Iterable<WorkingFile>, deploymentId: number, branch: string): Promise<void> {
  const unknown = new Set<string>();
  for (const file of files) if (file.source === 'head' && !repo.knownBlobInfo(file.oid)) unknown.add(file.oid);
  if (unknown.size < HASH_ON_THREAD_FROM) return;
  const oids = [...unknown];
  const { sizes, sha256 } = await runOnModelShard(ctx, shardOf(ctx, branchKey(deploymentId, branch)), 'blobInfos', { gitdir: repo.gitdir, oids });
  oids.forEach((oid, i) => repo.rememberBlobInfo(oid, { size: sizes[i]!, sha256: sha256.slice(i * 64, i * 64 + 64) }));
}

/** Entries of the file-hashes answer written between two turns of the event loop (a few ms). */
const HASHES_PER_TURN = 2_000;

/**
 * The answer of `GET …/file-hashes` as JSON bytes, keys in the contract's order. Built here, not
 * by the route's serializer: at 12,500 files an object with a key per path, then serialised key by
 * key, took 30–60 ms of the HTTP thread (issue 28).
 */
export async function fileHashesJson(ctx: ServiceContext, deploymentId: number, principal: Principal, branchName?: string): Promise<Buffer> {
  const { repo, tree } = await branchView(ctx, deploymentId, principal, branchName);
  // In one turn of the HTTP thread, reading the head's folders, putting the branch's paths in order
  // and writing the answer (as one string of 1.2 MB made of 12,500 young ones) hold health answers up
  // to 35 ms at 10,000 cubes (issue 28): each step is a turn of its own, and the answer is written
  // into a buffer in slices.
  await yieldToEventLoop();
  await learnBlobInfos(ctx, repo, tree.files.values(), deploymentId, tree.branch);
  await yieldToEventLoop();
  const json = new Utf8Writer(64 * 1024);
  json.write(`{"branchName":${JSON.stringify(tree.branch)},"commit":${JSON.stringify(tree.commit)},"hashes":{`);
  let written = 0;
  for (const [path, file] of tree.files) {
    if (written > 0 && written % HASHES_PER_TURN === 0) await yieldToEventLoop();
    // Known now, unless the cache of hashes is smaller than the branch.
    const known = file.source === 'head' ? repo.knownBlobInfo(file.oid) : undefined;
    json.write(`${written++ > 0 ? ',' : ''}${JSON.stringify(path)}:"${known ? known.sha256 : (await fileSummary(repo, file)).sha256}"`);
  }
  json.write('}}');
  const bytes = json.result();
  return bufferView(bytes);
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
  return modelFilesOf(repo, includeWorkingEdits ? tree : workingTreeOf(name, tree.commit, tree.head, new Map()));
}

/**
 * A branch's model sources without reading them: a fingerprint that changes whenever a model file
 * may have (the head commit, which fixes every committed file, and the text of uncommitted edits to
 * model files), and the files on demand. Callers that cache what they derive from a model key it by
 * the fingerprint, so an unchanged branch costs one ref lookup and one indexed read of its edits
 * instead of reading the commit, its tree and every blob. 404 `BRANCH_NOT_FOUND` for an unknown branch.
 */
export async function modelSourceOfBranch(
  ctx: ServiceContext,
  deploymentId: number,
  branch: string | undefined,
  includeWorkingEdits: boolean,
): Promise<{
  branch: string;
  fingerprint: string;
  files: () => Promise<ModelFile[]>;
  /** What a worker thread needs to read the same files itself: the repository, the head commit and the uncommitted edits (path → text, null: deleted). */
  gitdir: string;
  commit: string;
  edits: ReadonlyMap<string, string | null>;
}> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const name = branch ?? deployBranch;
  const commit = await repo.head(name);
  if (!commit) throw new ApiError(404, Codes.BRANCH_NOT_FOUND, `Branch "${name}" does not exist in deployment ${deploymentId}.`);
  const edits = includeWorkingEdits ? workingEdits(ctx, deploymentId, name) : new Map<string, string | null>();
  const hash = createHash('sha256').update(commit).update('\0');
  for (const [path, content] of edits) {
    if (isModelSourcePath(path)) hash.update(path).update('\0').update(content === null ? '\u0001deleted' : `=${content}`).update('\0');
  }
  // The files of exactly what was fingerprinted, even if the branch moves meanwhile.
  const files = async (): Promise<ModelFile[]> => modelFilesOf(repo, workingTreeOf(name, commit, await repo.treeOf(commit), edits));
  return { branch: name, fingerprint: hash.digest('hex'), files, gitdir: repo.gitdir, commit, edits };
}

const MODEL_ROOTS = ['model', 'schema'];

/** `outputPath` normalised; 400 for absolute paths, `..`, and folders the compiler does not read. */
export function checkOutputPath(outputPath: string): string {
  let normalized: string;
  try {
    normalized = normalizeOutputPath(outputPath);
  } catch (error) {
    throw invalidField('/body/outputPath', (error as Error).message);
  }
  // The files go under this folder: its names must be ones every system can hold (issue 23).
  const portable = portablePathProblem(normalized);
  if (portable) throw new ApiError(400, portable.code, portable.detail, { errors: [{ pointer: '/body/outputPath', detail: portable.detail }], paths: [normalized] });
  if (!MODEL_ROOTS.some((root) => normalized === root || normalized.startsWith(`${root}/`))) {
    throw invalidField(
      '/body/outputPath',
      `outputPath must be a folder under model/ (or schema/), where model files are read from; got '${outputPath}'.`,
    );
  }
  return normalized;
}
