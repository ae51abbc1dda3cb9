// The test files of a commit (issue 26), read inside a worker thread: `tests/*.yml` and the fixture
// files they name, with a branch's uncommitted edits laid over the commit. Git objects are
// immutable, so reading them beside the HTTP thread's writers is safe.
import { LRUCache } from 'lru-cache';
import { isModelSourcePath, type ModelFile } from '../../../src-shared/model';
import { isModelTestPath, parseTestFile, type ParsedTestFile } from '../../../src-shared/model/tests';
import { GitRepository } from '../../platform/repo';
import { readBlobs } from '../../workers/model-source';

/** Every path of a recent commit → blob id (a commit names its tree for good, so entries never go stale). */
const trees = new LRUCache<string, ReadonlyMap<string, string>>({ max: 16 });

async function treeOf(gitdir: string, commit: string): Promise<ReadonlyMap<string, string>> {
  const key = `${gitdir}\0${commit}`;
  let tree = trees.get(key);
  if (!tree) {
    const flat = await GitRepository.at(gitdir).treeOf(commit);
    tree = new Map([...flat].map(([path, entry]) => [path, entry.oid]));
    trees.set(key, tree);
  }
  return tree;
}

export interface SourceInput {
  gitdir: string;
  commit: string;
  /** Uncommitted edits: path → content, or null for a deleted file. */
  edits: [string, string | null][];
}

/** The commit's files as the branch sees them: blob ids, or the edited text. */
async function filesOf(input: SourceInput): Promise<Map<string, { oid: string } | { content: string }>> {
  const files = new Map<string, { oid: string } | { content: string }>([...(await treeOf(input.gitdir, input.commit))].map(([path, oid]) => [path, { oid }]));
  for (const [path, content] of input.edits) {
    if (content === null) files.delete(path);
    else files.set(path, { content });
  }
  return files;
}

async function texts(gitdir: string, files: Map<string, { oid: string } | { content: string }>, paths: string[]): Promise<ModelFile[]> {
  const fromGit = paths.filter((p) => 'oid' in files.get(p)!);
  const read = await readBlobs(
    gitdir,
    fromGit.map((p) => (files.get(p) as { oid: string }).oid),
  );
  const byPath = new Map(fromGit.map((p, i) => [p, read[i]!]));
  return paths.map((path) => {
    const file = files.get(path)!;
    return { path, content: 'content' in file ? file.content : byPath.get(path)! };
  });
}

const sorted = (paths: Iterable<string>) => [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export interface TestSources {
  modelFiles: ModelFile[];
  testFiles: ParsedTestFile[];
  /** Files of the repository the branch sees (to check fixture paths). */
  has(path: string): boolean;
  /** Bytes of repository files (fixtures). */
  read(paths: string[]): Promise<Uint8Array[]>;
}

/** The parsed test files of a commit (none read when it has no `tests/*.yml`), and optionally its model files. */
export async function testSources(input: SourceInput, options: { model: boolean }): Promise<TestSources> {
  const files = await filesOf(input);
  const testPaths = sorted([...files.keys()].filter(isModelTestPath));
  const parsed = testPaths.length ? (await texts(input.gitdir, files, testPaths)).map((f) => parseTestFile(f, { exists: (p) => files.has(p) })) : [];
  const modelFiles = options.model && testPaths.length ? await texts(input.gitdir, files, sorted([...files.keys()].filter(isModelSourcePath))) : [];
  const repo = GitRepository.at(input.gitdir);
  return {
    modelFiles,
    testFiles: parsed,
    has: (path) => files.has(path),
    read: (paths) =>
      Promise.all(
        paths.map(async (path) => {
          const file = files.get(path);
          if (!file) throw new Error(`${path} is not in the repository.`);
          return 'content' in file ? new TextEncoder().encode(file.content) : repo.readBlob(file.oid);
        }),
      ),
  };
}
