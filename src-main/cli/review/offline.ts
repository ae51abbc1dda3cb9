// `drydock review --repo DIR` (issue 26): a change review without a service, over a local git
// repository — both commits read from git, compiled, diffed, the views they reach found, and the
// affected views' numbers compared on the fixture tables the project's tests use (loaded into a
// throwaway DuckDB from the working tree). What only a service knows (dashboards, reports, pushes,
// publications) is not part of it.
import fs, { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import git from 'isomorphic-git';
import type { ReviewResult } from '../../../src-shared/api/reviews';
import { compileModel, isModelSourcePath, type ModelFile } from '../../../src-shared/model';
import { compareRows, DEFAULT_DATA_DIFF_LIMITS, DEFAULT_TOLERANCE, NO_REVIEW_FACTS, prepareReview, type PlannedSide } from '../../../src-shared/model/review';
import { parseTestFile, type TestData } from '../../../src-shared/model/tests';
import { CliError, ExitCodes } from '../output';
import { readTestFiles } from '../model-tests/files';

/**
 * What isomorphic-git keeps of the packs it reads, shared by this command's reads: a repository
 * cloned from a server keeps its objects in packs, and without it each call read and indexed the
 * whole pack again. The command is one process, and what it holds goes with it.
 */
const cache = {};

export interface OfflineReviewOptions {
  repo: string;
  base?: string;
  head?: string;
  dataDiff: boolean;
  rowLimit?: number;
  maxQueries?: number;
  tolerance?: number;
}

/** The `.git` folder of the repository holding `dir`, and the project's path inside the repository. */
function findRepository(dir: string): { gitdir: string; prefix: string; root: string } {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new CliError('PROJECT_NOT_FOUND', `${dir} is not a folder.`, ExitCodes.UNREADABLE);
  for (let at = root; ; at = dirname(at)) {
    const gitdir = join(at, '.git');
    if (existsSync(gitdir) && statSync(gitdir).isDirectory()) {
      const prefix = relative(at, root).split(sep).join('/');
      return { gitdir, prefix: prefix ? `${prefix}/` : '', root };
    }
    if (dirname(at) === at) throw new CliError('NOT_A_GIT_REPOSITORY', `${dir} is not inside a git repository (no .git folder above it).`, ExitCodes.UNREADABLE);
  }
}

/**
 * A branch, tag, remote-tracking branch, HEAD or (short) commit id, optionally `~N`; `named` when it
 * is a ref name alone (no commit id, no `~N`).
 */
async function resolveCommit(gitdir: string, ref: string): Promise<{ commit: string; named: boolean }> {
  const match = /^(.*?)(?:~(\d{1,4}))?$/.exec(ref)!;
  const name = match[1]!;
  let commit: string | null = null;
  let named = false;
  try {
    commit = await git.resolveRef({ fs, gitdir, ref: name });
    named = match[2] === undefined;
  } catch {
    if (/^[0-9a-f]{4,40}$/i.test(name)) commit = await git.expandOid({ fs, gitdir, oid: name.toLowerCase(), cache }).catch(() => null);
  }
  if (!commit) throw new CliError('REF_NOT_FOUND', `"${ref}" names no branch, tag or commit of the repository.`);
  for (let i = 0; i < Number(match[2] ?? 0); i++) {
    const parent: string | undefined = (await git.readCommit({ fs, gitdir, oid: commit, cache })).commit.parent[0];
    if (!parent) throw new CliError('REF_NOT_FOUND', `"${ref}" goes back past the first commit.`);
    commit = parent;
  }
  return { commit, named };
}

/**
 * The base named by `--base`: a ref name is compared from where HEAD left it (their merge base, as a
 * pull request into it shows; its tip would show what it gained since as undone), a commit id or
 * `ref~N` as it is (`origin/main~0`: the tip).
 */
async function namedBase(gitdir: string, ref: string, head: string): Promise<{ ref: string; commit: string }> {
  const { commit, named } = await resolveCommit(gitdir, ref);
  if (!named || commit === head) return { ref, commit };
  const [base] = (await git.findMergeBase({ fs, gitdir, oids: [commit, head], cache })) as string[];
  return { ref, commit: base ?? commit };
}

/** Where HEAD left the repository's main line: the merge base with the first of main, master (or their remote copies). */
async function defaultBase(gitdir: string, head: string): Promise<{ ref: string; commit: string }> {
  for (const ref of ['main', 'master', 'origin/main', 'origin/master']) {
    const commit = await git.resolveRef({ fs, gitdir, ref }).catch(() => null);
    if (!commit || commit === head) continue;
    const [base] = (await git.findMergeBase({ fs, gitdir, oids: [commit, head], cache })) as string[];
    if (base) return { ref, commit: base };
  }
  const parent = (await git.readCommit({ fs, gitdir, oid: head, cache })).commit.parent[0];
  return { ref: 'HEAD~1', commit: parent ?? head };
}

async function modelFilesAt(gitdir: string, commit: string, prefix: string): Promise<ModelFile[]> {
  const files: ModelFile[] = [];
  await git.walk({
    fs,
    gitdir,
    cache,
    trees: [git.TREE({ ref: commit })],
    map: async (path, [entry]) => {
      if (!entry) return null;
      if (path === '.') return true;
      // Only the project's folder (and the folders above it) are walked.
      if ((await entry.type()) === 'tree') return prefix === '' || path.startsWith(prefix) || prefix.startsWith(`${path}/`) ? true : null;
      if (!path.startsWith(prefix)) return undefined;
      const inProject = path.slice(prefix.length);
      if (isModelSourcePath(inProject)) files.push({ path: inProject, content: new TextDecoder().decode((await entry.content()) ?? new Uint8Array()) });
      return undefined;
    },
  });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every fixture table the project's tests name (the first file named for a table wins). */
function fixtureTables(root: string): Extract<TestData, { kind: 'fixtures' }> | null {
  const tables = new Map<string, { table: string; file: string; pos: { line: number; column: number } }>();
  for (const file of readTestFiles(root)) {
    for (const test of parseTestFile(file, { exists: (p) => existsSync(join(root, p)) }).tests) {
      if (test.data?.kind !== 'fixtures') continue;
      for (const t of test.data.tables) if (!tables.has(t.table.toLowerCase())) tables.set(t.table.toLowerCase(), t);
    }
  }
  return tables.size ? { kind: 'fixtures', tables: [...tables.values()] } : null;
}

export async function offlineReview(options: OfflineReviewOptions): Promise<ReviewResult> {
  const started = performance.now();
  const { gitdir, prefix, root } = findRepository(options.repo);
  const headRef = options.head ?? 'HEAD';
  const { commit: headCommit } = await resolveCommit(gitdir, headRef);
  const base = options.base ? await namedBase(gitdir, options.base, headCommit) : await defaultBase(gitdir, headCommit);
  const [baseFiles, headFiles] = await Promise.all([modelFilesAt(gitdir, base.commit, prefix), modelFilesAt(gitdir, headCommit, prefix)]);
  const data = options.dataDiff ? fixtureTables(root) : null;
  const limits = { ...DEFAULT_DATA_DIFF_LIMITS, ...(options.rowLimit ? { rowLimit: options.rowLimit } : {}), ...(options.maxQueries !== undefined ? { maxQueries: options.maxQueries } : {}) };
  const review = prepareReview(compileModel(baseFiles), compileModel(headFiles), NO_REVIEW_FACTS, { security: null, dialects: {}, limits, dataDiff: data !== null });
  const tolerance = options.tolerance !== undefined ? { absolute: DEFAULT_TOLERANCE.absolute, relative: options.tolerance } : DEFAULT_TOLERANCE;
  const queries: ReviewResult['dataDiff']['queries'] = [];
  const dataStarted = performance.now();
  if (data) {
    const { FixtureExecutor } = await import('../../connectors/duckdb/fixtures');
    const executor = new FixtureExecutor((path) => join(root, path));
    const ran = new Map<string, Promise<{ rows: unknown[][]; ms: number } | { error: string }>>();
    const run = (side: Extract<PlannedSide, { ok: true }>) => {
      let result = ran.get(side.runKey);
      if (!result) {
        const t0 = performance.now();
        result = executor.run(data, side).then(
          (rows) => ({ rows: rows.rows, ms: performance.now() - t0 }),
          (error: Error) => ({ error: error.message.split('\n')[0]! }),
        );
        ran.set(side.runKey, result);
      }
      return result;
    };
    try {
      for (const q of review.queries) {
        const common = { id: q.id, label: q.label, source: q.source, query: q.query as unknown as ReviewResult['dataDiff']['queries'][number]['query'], dataSource: null };
        if (!q.base.ok || !q.head.ok) {
          const side = !q.base.ok && !q.head.ok ? 'both' : !q.base.ok ? 'base' : 'head';
          queries.push({ ...common, status: 'failed', durationMs: null, truncated: false, error: { side, message: !q.head.ok ? q.head.message : !q.base.ok ? q.base.message : '' }, diff: null });
          continue;
        }
        if (q.sameSql) {
          queries.push({ ...common, status: 'identical', durationMs: null, truncated: false, error: null, diff: null });
          continue;
        }
        const [b, h] = await Promise.all([run(q.base), run(q.head)]);
        if ('error' in b || 'error' in h) {
          const side = 'error' in b && 'error' in h ? 'both' : 'error' in b ? 'base' : 'head';
          queries.push({ ...common, status: 'failed', durationMs: null, truncated: false, error: { side, message: 'error' in b ? b.error : (h as { error: string }).error }, diff: null });
          continue;
        }
        const diff = compareRows({ columns: q.base.columns, rows: b.rows }, { columns: q.head.columns, rows: h.rows }, { tolerance });
        const truncated = b.rows.length >= limits.rowLimit || h.rows.length >= limits.rowLimit;
        queries.push({ ...common, status: diff.same ? 'same' : 'changed', durationMs: { base: Math.round(b.ms), head: Math.round(h.ms) }, truncated, error: null, diff });
      }
    } finally {
      await executor.close();
    }
  }
  const { changes, impact, problems } = review;
  return {
    base,
    head: { ref: headRef, commit: headCommit },
    summary: {
      changes: changes.length,
      numberChanges: changes.filter((c) => c.effect === 'numbers').length,
      affectedMembers: impact.members.length,
      affectedViews: impact.views.length,
      affectedWidgets: 0,
      affectedReports: 0,
      breaking: impact.breaking.length,
      queries: queries.length,
      queriesChanged: queries.filter((q) => q.status === 'changed').length,
      queriesFailed: queries.filter((q) => q.status === 'failed').length,
      queriesSkipped: 0,
    },
    changes,
    impact,
    problems,
    dataDiff: { enabled: data !== null, budgetExhausted: false, durationMs: Math.round(performance.now() - (data ? dataStarted : started)), queries },
  };
}
