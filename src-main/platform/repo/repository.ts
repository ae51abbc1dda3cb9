import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import git, { type TreeEntry } from 'isomorphic-git';
import { flushDirectories, fsyncDirectory, gitFs, isIntactLooseObject, looseObjectFile } from './durable-fs';
import { writeLooseBlob, writeLooseObject } from './loose-object';
import { commitObjectOf, treeObjectOf, type EntryToWrite } from './object-format';
import { readObjectSync } from './packed-object';
import { parseTreeObject, TREE_MODE } from './tree-object';
import { treeWithChanges } from './tree-rewrite';
import { KeyedMutex } from './mutex';
import { diffTrees, pathsShadowedByFiles, threeWayMerge, type FlatTree, type TreeChange, type TreeFile } from './tree';
import { isValidBranchName } from './branch-names';
import { caseTwinProblem, caseTwins, portablePathProblem, type CaseTwin, type PathRuleProblem } from '../../../src-shared/paths/portable-path';
import { caseTwinsOfTreeChange } from './path-index';
import { RepoError, RepositoryDamagedError, type BlobWrite, type CommitInfo, type CommitResult, type FileWrite, type MergeResult, type Signature } from './repo-types';
import { turnEvery } from '../jobs/types';

export { branchNameProblem, isValidBranchName } from './branch-names';
export { RepoError, RepositoryDamagedError, type BlobWrite, type CommitInfo, type CommitResult, type FileWrite, type MergeOutcome, type MergeResult, type RepoErrorCode, type Signature } from './repo-types';

const FILE_MODE = '100644';
const STALE_LOCK_MS = 10_000;
const ZERO_OID = '0'.repeat(40);
/** Most of a thread's time a flat tree read takes before other work gets a turn. */
const TREE_READ_SLICE_MS = 8;
/** Objects written at once by one operation (see `mapInLanes`). */
const WRITE_LANES = 4;

/**
 * The paths `after` holds that `before` did not, with what is wrong with each (src-shared/paths):
 * a name git reserves, one Windows cannot hold, no proper Unicode, a case or normalisation twin.
 * Paths already in `before` are left alone: a repository that holds one keeps working. `changes`:
 * what makes `after` from `before`, when the caller knows it (a commit): the twins are then looked
 * for among the names the new paths could clash with (path-index.ts), not among every path.
 */
export function newPathProblems(before: FlatTree, after: FlatTree, changes?: readonly TreeChange[]): PathRuleProblem[] {
  const added = changes ? changes.filter((c) => c.status === 'added').map((c) => c.path) : [...after.keys()].filter((path) => !before.has(path));
  if (added.length === 0) return [];
  const problems: PathRuleProblem[] = [];
  for (const path of added) {
    const problem = portablePathProblem(path);
    if (problem) problems.push(problem);
  }
  let twins: CaseTwin[];
  if (changes) {
    const written = new Map(changes.map((c) => [c.path, c.status === 'deleted' ? null : ''] as const));
    twins = caseTwinsOfTreeChange(before, written);
  } else {
    const addedSet = new Set(added);
    twins = caseTwins([...after.keys()].filter((path) => !addedSet.has(path)), added);
  }
  for (const twin of twins) if (!problems.some((p) => p.path === twin.path)) problems.push(caseTwinProblem(twin));
  return problems;
}

/**
 * Refuses a tree that adds a path `newPathProblems` finds fault with (the last line of defence of
 * every writer). `changes`: what makes `after` from `before`, when the caller knows it.
 */
function assertPortablePaths(before: FlatTree, after: FlatTree, changes?: readonly TreeChange[]): void {
  const problems = newPathProblems(before, after, changes);
  if (problems.length === 0) return;
  const shown = problems.slice(0, 5).map((p) => p.detail).join(' ');
  throw new RepoError('PATH_REFUSED', `${shown}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`, problems.map((p) => p.path), problems);
}

/** The tree a commit is written from: its id, its files, and what makes the new files from them. */
interface ParentTree {
  rootOid: string;
  files: FlatTree;
  changes: readonly TreeChange[];
}

/** `fn` over `items` with at most `lanes` calls under way; results in the order of `items`. */
async function mapInLanes<T, R>(items: readonly T[], lanes: number, fn: (item: T) => R | Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
  return results;
}

/** Small LRU for immutable, content-addressed objects (the same oid means the same content in any repo). */
class LruCache<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }
}

const treeCache = new LruCache<string, FlatTree>(256);
const blobInfoCache = new LruCache<string, { size: number; sha256: string }>(20_000);
const locks = new KeyedMutex();

/** What moved: a local branch (`commit` null when deleted), or the remote-tracking refs (`remote`). */
export type RefChange = { gitdir: string; branch: string; commit: string | null } | { gitdir: string; remote: true };
const refListeners = new Set<(change: RefChange) => void>();

/** Tells the listeners (the live-events bus) that a ref moved; a listener's failure never fails the write. */
export function notifyRefChange(change: RefChange): void {
  for (const listener of refListeners) {
    try {
      listener(change);
    } catch {
      // ignored: the ref already moved
    }
  }
}

const toBytes = (content: Uint8Array | string): Uint8Array =>
  typeof content === 'string' ? new TextEncoder().encode(content) : content;

const isNotFound = (error: unknown): boolean => (error as { code?: string } | null)?.code === 'NotFoundError';

/**
 * A bare git repository on disk holding one deployment's model files. Everything is read from
 * commit trees (no working copy that could drift); writes build trees and commits directly and
 * move branch refs atomically (git's own `.lock` + rename protocol), one writer at a time.
 * Plain `git` can open it (`git -C <dir> log main`).
 */
export class GitRepository {
  /**
   * What isomorphic-git keeps of the packs it reads (their indexes and bytes), shared by this
   * instance's reads: without it each call read and indexed the whole pack again, so a walk through
   * fetched history cost a pack per commit. An instance serves one operation, and what it holds goes
   * with it.
   */
  private readonly gitCache = {};

  private constructor(
    readonly gitdir: string,
    private readonly now: () => Date,
  ) {}

  static at(gitdir: string, now: () => Date = () => new Date()): GitRepository {
    return new GitRepository(gitdir, now);
  }

  /** Runs `fn` outside every repository's lock, even when called from inside one (for detached background work). */
  static detached<T>(fn: () => T): T {
    return locks.outside(fn);
  }

  /** Calls `listener` after every ref move of any repository in this process (live events). */
  static onRefChange(listener: (change: RefChange) => void): () => void {
    refListeners.add(listener);
    return () => refListeners.delete(listener);
  }

  /** Runs `fn` as this repository's only writer (re-entrant within the same async chain). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return locks.run(this.gitdir, fn);
  }

  exists(): boolean {
    return fs.existsSync(join(this.gitdir, 'HEAD')) && fs.existsSync(join(this.gitdir, 'objects'));
  }

  /**
   * Creates the bare repository (if needed) and, when `branch` has no commit yet, an initial commit
   * on it holding `files`. Idempotent. Returns the branch head.
   */
  async initialize(options: { branch: string; files: FileWrite[]; author: Signature; message: string }): Promise<string> {
    this.assertBranchName(options.branch);
    return this.exclusive(async () => {
      fs.mkdirSync(dirname(this.gitdir), { recursive: true });
      await git.init({ fs: gitFs, gitdir: this.gitdir, bare: true, defaultBranch: options.branch });
      const existing = await this.head(options.branch);
      if (existing) return existing;
      const tree = new Map<string, TreeFile>();
      for (const file of options.files) {
        if (file.content === null) continue;
        tree.set(file.path, { oid: await this.writeBlob(file.content), mode: FILE_MODE });
      }
      const commit = await this.writeCommitOf(tree, [], options.message, options.author);
      await this.moveRef(options.branch, commit, null);
      return commit;
    });
  }

  /** Deletes the repository folder. */
  async remove(): Promise<void> {
    await this.exclusive(async () => fs.rmSync(this.gitdir, { recursive: true, force: true }));
  }

  // ---- reading ------------------------------------------------------------------------------

  async head(branch: string): Promise<string | null> {
    if (!isValidBranchName(branch)) return null;
    // Fast path (queries ask on every request): a loose ref file holding an object id is the
    // branch's head, as git reads it; anything else (packed refs, no file) goes to isomorphic-git.
    try {
      const loose = fs.readFileSync(join(this.gitdir, 'refs', 'heads', ...branch.split('/')), 'utf8').trim();
      if (/^[0-9a-f]{40}$/.test(loose)) return loose;
    } catch {
      // not a loose ref
    }
    try {
      return await git.resolveRef({ fs: gitFs, gitdir: this.gitdir, ref: `refs/heads/${branch}` });
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async requireHead(branch: string): Promise<string> {
    const head = await this.head(branch);
    if (!head) throw new RepoError('BRANCH_NOT_FOUND', `Branch "${branch}" does not exist.`);
    return head;
  }

  async branches(): Promise<string[]> {
    // A `.lock` file under refs/heads is a ref being written (or left by a crash), never a branch.
    return (await git.listBranches({ fs: gitFs, gitdir: this.gitdir })).filter((name) => !name.endsWith('.lock')).sort();
  }

  async readCommit(oid: string): Promise<CommitInfo> {
    const { commit } = await this.reading(oid, 'commit', () => git.readCommit({ fs: gitFs, gitdir: this.gitdir, oid, cache: this.gitCache }));
    return {
      oid,
      message: commit.message,
      author: { name: commit.author.name, email: commit.author.email },
      committedAt: new Date(commit.committer.timestamp * 1000).toISOString(),
      parents: commit.parent,
    };
  }

  /** History of a branch, newest first. */
  async log(branch: string, depth = 50): Promise<CommitInfo[]> {
    const head = await this.requireHead(branch);
    const entries = await this.reading(head, 'history', () => git.log({ fs: gitFs, gitdir: this.gitdir, ref: head, depth, cache: this.gitCache }));
    return entries.map((e) => ({
      oid: e.oid,
      message: e.commit.message,
      author: { name: e.commit.author.name, email: e.commit.author.email },
      committedAt: new Date(e.commit.committer.timestamp * 1000).toISOString(),
      parents: e.commit.parent,
    }));
  }

  /** The files of a commit, flattened (path → blob). */
  async treeOf(commit: string): Promise<FlatTree> {
    return this.flattenTree(await this.treeIdOf(commit));
  }

  /** The id of a commit's tree: its first line (`tree <id>`), read natively when the commit reads whole. */
  private async treeIdOf(commit: string): Promise<string> {
    const text = readObjectSync(this.gitdir, commit, 'commit')?.subarray(0, 46).toString('latin1');
    if (text && /^tree [0-9a-f]{40}\n/.test(text)) return text.slice(5, 45);
    const { commit: object } = await this.reading(commit, 'commit', () => git.readCommit({ fs: gitFs, gitdir: this.gitdir, oid: commit, cache: this.gitCache }));
    return object.tree;
  }

  /** Head commit and files of a branch. */
  async branchTree(branch: string): Promise<{ commit: string; tree: FlatTree }> {
    const commit = await this.requireHead(branch);
    return { commit, tree: await this.treeOf(commit) };
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    return readObjectSync(this.gitdir, oid, 'blob') ?? (await this.reading(oid, 'file', () => git.readBlob({ fs: gitFs, gitdir: this.gitdir, oid, cache: this.gitCache }))).blob;
  }

  /** Size and SHA-256 of a blob when they are known already (read or told before), without reading it. */
  knownBlobInfo(oid: string): { size: number; sha256: string } | undefined {
    return blobInfoCache.get(oid);
  }

  /** Keeps the size and SHA-256 of a blob that were worked out elsewhere (a worker thread read it). */
  rememberBlobInfo(oid: string, info: { size: number; sha256: string }): void {
    blobInfoCache.set(oid, info);
  }

  /** Size and SHA-256 of a blob's content (cached by blob id). */
  async blobInfo(oid: string): Promise<{ size: number; sha256: string }> {
    const cached = blobInfoCache.get(oid);
    if (cached) return cached;
    const bytes = await this.readBlob(oid);
    const info = { size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
    blobInfoCache.set(oid, info);
    return info;
  }

  /** Content of `path` at the head of `branch`, or null when the branch has no such file. */
  async readFile(branch: string, path: string): Promise<Uint8Array | null> {
    const { tree } = await this.branchTree(branch);
    const entry = tree.get(path);
    return entry ? this.readBlob(entry.oid) : null;
  }

  /** `blobIdOf`, synchronously (the same SHA-1 git computes). */
  static blobIdOfSync(content: Uint8Array): string {
    return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex');
  }

  /** The git blob id `content` would have, without writing it. */
  static async blobIdOf(content: Uint8Array | string): Promise<string> {
    return git.hashBlob({ object: toBytes(content) }).then((r) => r.oid);
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    const bases = (await this.reading(a, 'history', () => git.findMergeBase({ fs: gitFs, gitdir: this.gitdir, oids: [a, b], cache: this.gitCache }))) as string[];
    return bases[0] ?? null;
  }

  /** Files that differ from commit `from` (null = empty tree) to commit `to`. */
  async diff(from: string | null, to: string): Promise<TreeChange[]> {
    const before = from ? await this.treeOf(from) : new Map<string, TreeFile>();
    return diffTrees(before, await this.treeOf(to));
  }

  // ---- writing ------------------------------------------------------------------------------

  /** Hashed and deflated without holding the thread (see loose-object.ts). */
  async writeBlob(content: Uint8Array | string): Promise<string> {
    return writeLooseBlob(this.gitdir, toBytes(content));
  }

  /**
   * One commit on `branch` with all `writes` (or nothing at all when any fails). Skips the commit
   * when the tree would not change. `expectedHead` guards against a head that moved meanwhile.
   */
  async commitChanges(
    branch: string,
    writes: (FileWrite | BlobWrite)[],
    options: { message: string; author: Signature; expectedHead?: string },
  ): Promise<CommitResult> {
    return this.exclusive(async () => {
      const head = await this.requireHead(branch);
      if (options.expectedHead !== undefined && options.expectedHead !== head) {
        throw new RepoError('HEAD_MOVED', `Branch "${branch}" moved to ${head.slice(0, 12)} meanwhile.`);
      }
      const rootTree = await this.treeIdOf(head);
      const before = await this.flattenTree(rootTree);
      const after = new Map(before);
      // Each blob is fsynced as it is written (durable-fs.ts): a few at once overlap those waits.
      const blobs = await mapInLanes(writes, WRITE_LANES, (write) =>
        'blob' in write ? write.blob : write.content === null ? null : this.writeBlob(write.content),
      );
      writes.forEach((write, i) => {
        const blob = blobs[i];
        if (blob === null) after.delete(write.path);
        else after.set(write.path, { oid: blob, mode: before.get(write.path)?.mode ?? FILE_MODE });
      });
      // Only the paths written can differ: at 10,000 files a diff of the whole trees was a third of
      // a commit's time on the HTTP thread (issue 28).
      const changes = diffTrees(before, after, writes.map((w) => w.path));
      if (changes.length === 0) return { commit: head, changed: false, changes };
      assertPortablePaths(before, after, changes);
      const tree = await this.treeOfFiles(after, { rootOid: rootTree, files: before, changes });
      const commit = await this.writeCommitObject(tree, [head], options.message, options.author);
      await this.moveRef(branch, commit, head);
      return { commit, changed: true, changes };
    });
  }

  /**
   * Writes a commit holding exactly `files` with these parents; moves no branch (see `setHead`).
   * `changes`: what makes `files` from the first parent's, when the caller has it already.
   */
  async writeCommit(files: ReadonlyMap<string, TreeFile>, parents: string[], message: string, author: Signature, changes?: readonly TreeChange[]): Promise<string> {
    return this.writeCommitOf(files, parents, message, author, changes);
  }

  /** Creates `name` pointing at the head of `from` (or at commit `from` when it is an object id). */
  async createBranch(name: string, from: string): Promise<string> {
    this.assertBranchName(name);
    return this.exclusive(async () => {
      if (await this.head(name)) throw new RepoError('BRANCH_EXISTS', `Branch "${name}" already exists.`);
      // Refs are files: "a" and "a/b" cannot both be branches.
      const clash = (await this.branches()).find((b) => b.startsWith(`${name}/`) || name.startsWith(`${b}/`));
      if (clash) throw new RepoError('BRANCH_NAME_CONFLICT', `Branch "${name}" cannot exist beside branch "${clash}" (git keeps "a" and "a/b" apart).`);
      const start = /^[0-9a-f]{40}$/.test(from) ? from : await this.requireHead(from);
      await this.moveRef(name, start, null);
      return start;
    });
  }

  async deleteBranch(name: string): Promise<void> {
    await this.exclusive(async () => {
      await this.requireHead(name);
      await git.deleteRef({ fs: gitFs, gitdir: this.gitdir, ref: `refs/heads/${name}` });
      // git drops a deleted branch's reflog too (a stale one would block a branch "name/x" later).
      fs.rmSync(join(this.gitdir, 'logs', 'refs', 'heads', ...name.split('/')), { force: true });
      notifyRefChange({ gitdir: this.gitdir, branch: name, commit: null });
    });
  }

  /** Points `branch` at `commit`, if its head is still `expectedHead`. */
  async setHead(branch: string, commit: string, expectedHead: string | null): Promise<void> {
    this.assertBranchName(branch);
    await this.exclusive(() => this.moveRef(branch, commit, expectedHead));
  }

  /**
   * Merges `source` into `target`: nothing to do when the target already contains the source,
   * fast-forward when the target has no commits of its own, else a merge commit from a tree-level
   * three-way merge. On conflict nothing is written and the conflicting paths are returned.
   */
  async merge(
    source: string,
    target: string,
    options: { message: string; author: Signature; dryRun?: boolean },
  ): Promise<MergeResult> {
    return this.exclusive(async () => {
      const theirs = await this.requireHead(source);
      const ours = await this.requireHead(target);
      const base = theirs === ours ? theirs : await this.mergeBase(ours, theirs);
      if (base === theirs) return { outcome: 'up-to-date', commit: ours, conflicts: [], changes: [] };
      const oursTree = await this.treeOf(ours);
      const theirsTree = await this.treeOf(theirs);
      if (base === ours) {
        const changes = diffTrees(oursTree, theirsTree);
        assertPortablePaths(oursTree, theirsTree, changes);
        if (!options.dryRun) await this.moveRef(target, theirs, ours);
        return { outcome: 'fast-forward', commit: theirs, conflicts: [], changes };
      }
      const baseTree = base ? await this.treeOf(base) : new Map<string, TreeFile>();
      const { merged, conflicts } = threeWayMerge(baseTree, oursTree, theirsTree);
      if (conflicts.length > 0) return { outcome: 'conflict', commit: ours, conflicts, changes: [] };
      const changes = diffTrees(oursTree, merged);
      // Each side may be fine alone and the two together not: "ok.yml" from one, "OK.yml" from the other.
      assertPortablePaths(oursTree, merged, changes);
      if (options.dryRun) return { outcome: 'merged', commit: null, conflicts: [], changes };
      const commit = await this.writeCommitOf(merged, [ours, theirs], options.message, options.author, changes);
      await this.moveRef(target, commit, ours);
      return { outcome: 'merged', commit, conflicts: [], changes };
    });
  }

  // ---- internals ----------------------------------------------------------------------------

  private assertBranchName(name: string): void {
    if (!isValidBranchName(name)) throw new RepoError('INVALID_BRANCH_NAME', `"${name}" is not a valid branch name.`);
  }

  private async flattenTree(treeOid: string): Promise<FlatTree> {
    const cached = treeCache.get(treeOid);
    if (cached) return cached;
    const files = new Map<string, TreeFile>();
    // Folders are read synchronously when they are loose or packed: a 10,000-cube branch's took 20–27
    // ms of the HTTP thread in one turn (issue 28). Other work gets a turn between folders.
    const turn = turnEvery(TREE_READ_SLICE_MS);
    const visit = async (oid: string, prefix: string): Promise<void> => {
      await turn();
      const tree = await this.readTreeEntries(oid);
      for (const entry of tree) {
        const path = prefix + entry.path;
        if (entry.type === 'tree') await visit(entry.oid, `${path}/`);
        // Submodules (`commit` entries) are not model files.
        else if (entry.type === 'blob') files.set(path, { oid: entry.oid, mode: entry.mode });
      }
    };
    await visit(treeOid, '');
    treeCache.set(treeOid, files);
    return files;
  }

  /** Writes the nested tree objects of a flat file map; returns the root tree id. */
  private async writeFlatTree(files: ReadonlyMap<string, TreeFile>): Promise<string> {
    interface Folder {
      files: Map<string, EntryToWrite>;
      folders: Map<string, Folder>;
    }
    const root: Folder = { files: new Map(), folders: new Map() };
    for (const [path, file] of files) {
      let folder = root;
      let start = 0;
      for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', start)) {
        const part = path.slice(start, slash);
        let child = folder.folders.get(part);
        if (!child) folder.folders.set(part, (child = { files: new Map(), folders: new Map() }));
        folder = child;
        start = slash + 1;
      }
      const name = path.slice(start);
      folder.files.set(name, { mode: file.mode, name, oid: file.oid });
    }
    // A name that is a file and a folder in one folder: the paths involved, found the long way.
    const shadows = (folder: Folder): boolean => [...folder.folders].some(([name, child]) => folder.files.has(name) || shadows(child));
    if (shadows(root)) {
      const clashes = pathsShadowedByFiles(files);
      throw new RepoError('PATH_CONFLICT', `A file and a folder would share a path: ${clashes.join(', ')}.`, clashes);
    }
    const write = async (folder: Folder): Promise<string> => {
      const children = [...folder.folders];
      const oids = await mapInLanes(children, WRITE_LANES, ([, child]) => write(child));
      const entries = [...folder.files.values(), ...children.map(([name], i) => ({ mode: TREE_MODE, name, oid: oids[i]! }))];
      return writeLooseObject(this.gitdir, 'tree', treeObjectOf(entries));
    };
    const oid = await write(root);
    treeCache.set(oid, new Map(files));
    return oid;
  }

  /** A commit of `files`: its tree written from its first parent's (see treeOfFiles). */
  private async writeCommitOf(files: ReadonlyMap<string, TreeFile>, parents: string[], message: string, author: Signature, changes?: readonly TreeChange[]): Promise<string> {
    let parentTree: ParentTree | undefined;
    if (parents.length > 0) {
      const rootOid = await this.treeIdOf(parents[0]!);
      const parentFiles = await this.flattenTree(rootOid);
      parentTree = { rootOid, files: parentFiles, changes: changes ?? diffTrees(parentFiles, files) };
    }
    return this.writeCommitObject(await this.treeOfFiles(files, parentTree), parents, message, author);
  }

  /**
   * The tree object holding exactly `files`: from `parent`'s tree, writing only the folders on the
   * way to what changed (tree-rewrite.ts), or whole when that cannot be done.
   */
  private async treeOfFiles(files: ReadonlyMap<string, TreeFile>, parent?: ParentTree): Promise<string> {
    const oid = parent ? await treeWithChanges(this.gitdir, parent.rootOid, parent.changes, parent.files, files) : null;
    if (oid === null) return this.writeFlatTree(files);
    // Kept as it is: every caller made `files` for this commit and changes it no more.
    treeCache.set(oid, files);
    return oid;
  }

  private async writeCommitObject(treeOid: string, parents: string[], message: string, author: Signature): Promise<string> {
    const person = { name: author.name, email: author.email, timestamp: Math.floor(this.now().getTime() / 1000) };
    return writeLooseObject(this.gitdir, 'commit', commitObjectOf({ tree: treeOid, parents, author: person, committer: person, message }));
  }

  /**
   * Moves a branch ref the way git does: create `<ref>.lock` exclusively, write the new id, rename
   * over the ref. Readers never see a half-written ref; `expectedHead` makes it a compare-and-set.
   */
  private async moveRef(branch: string, commit: string, expectedHead: string | null): Promise<void> {
    const current = await this.head(branch);
    if (current !== expectedHead) {
      throw new RepoError('HEAD_MOVED', `Branch "${branch}" is at ${current ?? 'nothing'}, expected ${expectedHead ?? 'nothing'}.`);
    }
    const refFile = join(this.gitdir, 'refs', 'heads', ...branch.split('/'));
    const lockFile = `${refFile}.lock`;
    fs.mkdirSync(dirname(refFile), { recursive: true });
    let handle: number;
    try {
      handle = fs.openSync(lockFile, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a crashed writer is stale after a while; a fresh one belongs to another git process.
      const age = Date.now() - fs.statSync(lockFile).mtimeMs;
      if (age < STALE_LOCK_MS) throw new RepoError('REPO_BUSY', `Branch "${branch}" is locked by another git process.`);
      fs.rmSync(lockFile, { force: true });
      handle = fs.openSync(lockFile, 'wx');
    }
    try {
      try {
        fs.writeSync(handle, `${commit}\n`);
        fs.fsyncSync(handle);
      } finally {
        fs.closeSync(handle);
      }
      // The objects the new head needs are durable before the ref names it (durable-fs.ts).
      await flushDirectories();
    } catch (error) {
      fs.rmSync(lockFile, { force: true });
      throw error;
    }
    this.appendReflog(branch, current, commit);
    fs.renameSync(lockFile, refFile);
    await fsyncDirectory(dirname(refFile));
    notifyRefChange({ gitdir: this.gitdir, branch, commit });
  }

  /**
   * git's reflog line for a branch move (`git reflog <branch>` shows it): what lets a start check
   * move a branch back to its last good head should a head ever be damaged (repo-check.ts).
   */
  private appendReflog(branch: string, from: string | null, to: string): void {
    const file = join(this.gitdir, 'logs', 'refs', 'heads', ...branch.split('/'));
    const seconds = Math.floor(this.now().getTime() / 1000);
    try {
      fs.mkdirSync(dirname(file), { recursive: true });
      fs.appendFileSync(file, `${from ?? ZERO_OID} ${to} Drydock <drydock@localhost> ${seconds} +0000\tupdate\n`);
    } catch {
      // A missing reflog line costs only a repair option, never the move.
    }
  }

  /** The entries of a tree object, every name included (see tree-object.ts). */
  private async readTreeEntries(oid: string): Promise<TreeEntry[]> {
    const read = readObjectSync(this.gitdir, oid, 'tree');
    if (read) return parseTreeObject(read);
    const object = await this.reading(oid, 'folder', () => git.readObject({ fs: gitFs, gitdir: this.gitdir, oid, format: 'content', cache: this.gitCache }));
    if (object.type !== 'tree') throw new RepositoryDamagedError(`object ${oid} should be a folder (tree) but is a ${object.type}.`, [oid]);
    return parseTreeObject(object.object as Uint8Array);
  }

  /**
   * Runs a read of object `oid` (or of history starting there); a missing or damaged object becomes
   * a RepositoryDamagedError (409 `REPOSITORY_DAMAGED`) instead of a zlib or SHA failure.
   */
  private async reading<T>(oid: string, what: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      const code = (error as { code?: string } | null)?.code;
      const named = code === 'NotFoundError' ? /[0-9a-f]{40}/.exec(String((error as { data?: { what?: string } }).data?.what ?? ''))?.[0] : undefined;
      const suspect = named ?? oid;
      const file = looseObjectFile(this.gitdir, suspect);
      if (/^[0-9a-f]{40}$/.test(suspect) && fs.existsSync(file) && !(await isIntactLooseObject(file, suspect))) {
        throw new RepositoryDamagedError(`object ${suspect} (${what}) is empty or unreadable on disk.`, [suspect]);
      }
      if (code === 'NotFoundError') {
        throw new RepositoryDamagedError(`object ${suspect} (${what}) is missing.`, [suspect]);
      }
      // isomorphic-git answers a pack it cannot parse with an InternalError that names nothing more.
      const message = error instanceof Error ? error.message : String(error);
      if (code === 'InternalError' || (error instanceof Error && /incorrect header check|unexpected end|invalid|SHA check failed|Decompression/i.test(`${error.name} ${message}`))) {
        throw new RepositoryDamagedError(`an object reached from ${oid} (${what}) cannot be read (${message}).`, [oid]);
      }
      throw error;
    }
  }
}
