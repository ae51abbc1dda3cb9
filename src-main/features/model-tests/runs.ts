// Model test runs (issue 26): a job per run, started through the API or by a build of the deploy
// branch. The compute thread reads, compiles and checks; this thread loads the fixture tables into a
// throwaway DuckDB (whose own threads do the work) and runs the tests there, or on the data source a
// test names, then notes the outcome on the run (and on the build that started it).
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ModelTestErrorCodes as Codes, type StartTestRunInput, type TestRun } from '../../../src-shared/api/model-tests';
import { diagnosticJson } from '../../../src-shared/model';
import { DIALECTS, type DialectName } from '../../../src-shared/model/query';
import { runModelTests, summarize, type TestExecutor, type TestResult, type TestSummary } from '../../../src-shared/model/tests';
import { FixtureExecutor } from '../../connectors/duckdb/fixtures';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { ApiError } from '../../http/problem';
import { getJobRunner, JobFailure, type Job, type JobContext } from '../../platform/jobs';
import { runCompute } from '../../workers/run';
import { recordBuildCheck } from '../builds';
import { getDeployBranch, modelRepositoryDir, modelSourceOfBranch } from '../data-model';
import { dataSourceDialects, queryTarget } from '../queries';

export const TEST_RUN_KIND = 'model-test-run';

export interface TestRunInputs {
  deploymentId: number;
  branch: string;
  commit: string;
  edits: [string, string | null][];
  trigger: 'manual' | 'build';
  buildId: string | null;
  /** "Now" of relative date ranges in test queries. */
  now: string;
}

export interface TestRunResult {
  outcome: 'passed' | 'failed' | 'none';
  summary: TestSummary;
  results: TestResult[];
  diagnostics: ReturnType<typeof diagnosticJson>[];
}

interface RunRow {
  id: string;
  deployment_id: number;
  branch: string;
  commit_sha: string;
  fingerprint: string;
  trigger: 'manual' | 'build';
  build_id: string | null;
  outcome: TestRunResult['outcome'] | null;
  summary: string | null;
  created_by: number | null;
  created_at: string;
}

/** What a run read: the commit and the uncommitted edits (validation finds the run of what it checks by this). */
export function fingerprintOf(commit: string, edits: Iterable<[string, string | null]>): string {
  const hash = createHash('sha256').update(commit).update('\0');
  for (const [path, content] of [...edits].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    hash.update(path).update('\0').update(content === null ? '\u0001deleted' : `=${content}`).update('\0');
  }
  return hash.digest('hex');
}

// ---- starting and reading -------------------------------------------------------------------------

export function enqueueTestRun(ctx: ServiceContext, inputs: Omit<TestRunInputs, 'now'>, createdBy: number | null): Job<TestRunInputs> {
  return ctx.db.transaction(() => {
    const job = getJobRunner(ctx).enqueue<TestRunInputs>({ kind: TEST_RUN_KIND, deploymentId: inputs.deploymentId, inputs: { ...inputs, now: ctx.clock.now().toISOString() }, createdBy });
    ctx.db
      .prepare(
        `INSERT INTO model_test_runs (id, deployment_id, branch, commit_sha, fingerprint, trigger, build_id, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(job.id, inputs.deploymentId, inputs.branch, inputs.commit, fingerprintOf(inputs.commit, inputs.edits), inputs.trigger, inputs.buildId, createdBy, job.createdAt);
    return job;
  })();
}

export async function startTestRun(ctx: ServiceContext, deploymentId: number, body: StartTestRunInput | undefined, principal: Principal): Promise<TestRun> {
  const deployBranch = await getDeployBranch(ctx, deploymentId);
  const branch = body?.branchName ?? deployBranch;
  const source = await modelSourceOfBranch(ctx, deploymentId, branch, body?.workingEdits ?? branch !== deployBranch);
  const job = enqueueTestRun(ctx, { deploymentId, branch, commit: source.commit, edits: [...source.edits], trigger: 'manual', buildId: null }, principal.userId);
  return getTestRun(ctx, deploymentId, job.id);
}

function toTestRun(row: RunRow, job: Job<TestRunInputs, TestRunResult>, withResults: boolean): TestRun {
  const result = job.status === 'COMPLETED' ? job.result : null;
  return {
    testRunId: row.id,
    status: job.status,
    progress: job.progress,
    error: job.error ? { code: job.error.code, message: job.error.message } : null,
    trigger: row.trigger,
    buildId: row.build_id,
    branchName: row.branch,
    commit: row.commit_sha,
    outcome: row.outcome,
    summary: row.summary ? (JSON.parse(row.summary) as TestSummary) : null,
    results: withResults && result ? result.results : null,
    diagnostics: withResults && result ? result.diagnostics : null,
    createdBy: row.created_by,
    createdAt: row.created_at,
    finishedAt: job.finishedAt,
    statusUrl: `/api/v1/deployments/${row.deployment_id}/data-model/test-runs/${row.id}`,
  };
}

function requireRun(ctx: ServiceContext, deploymentId: number, id: string): { row: RunRow; job: Job<TestRunInputs, TestRunResult> } {
  const row = ctx.db.prepare('SELECT * FROM model_test_runs WHERE id = ? AND deployment_id = ?').get(id, deploymentId) as RunRow | undefined;
  const job = row ? getJobRunner(ctx).get<TestRunInputs, TestRunResult>(id, { deploymentId, kinds: [TEST_RUN_KIND] }) : null;
  if (!row || !job) throw new ApiError(404, Codes.TEST_RUN_NOT_FOUND, `Deployment ${deploymentId} has no test run ${id}.`);
  return { row, job };
}

export function getTestRun(ctx: ServiceContext, deploymentId: number, id: string): TestRun {
  const { row, job } = requireRun(ctx, deploymentId, id);
  return toTestRun(row, job, true);
}

export function cancelTestRun(ctx: ServiceContext, deploymentId: number, id: string): TestRun {
  requireRun(ctx, deploymentId, id);
  getJobRunner(ctx).requestCancel(id);
  return getTestRun(ctx, deploymentId, id);
}

export function listTestRuns(
  ctx: ServiceContext,
  deploymentId: number,
  filter: { branchName?: string; commit?: string; trigger?: 'manual' | 'build' },
  page: PageRequest,
): PageResult<TestRun> {
  const { limit, after } = pageWindow<[string, string]>(page);
  const where = ['deployment_id = ?'];
  const args: unknown[] = [deploymentId];
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    args.push(...values);
  };
  if (filter.branchName) add('branch = ?', filter.branchName);
  if (filter.commit) add('commit_sha = ?', filter.commit);
  if (filter.trigger) add('trigger = ?', filter.trigger);
  if (after) add('(created_at < ? OR (created_at = ? AND id < ?))', after[0], after[0], after[1]);
  const rows = ctx.db.prepare(`SELECT * FROM model_test_runs WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`).all(...args, limit) as RunRow[];
  const runner = getJobRunner(ctx);
  return toPage(
    rows,
    page,
    (row) => [row.created_at, row.id],
    (row) => toTestRun(row, runner.get<TestRunInputs, TestRunResult>(row.id, { deploymentId, kinds: [TEST_RUN_KIND] })!, false),
  );
}

/** The newest completed run of exactly this content, with its per-test results (null when none ran). */
export function completedRunOf(ctx: ServiceContext, deploymentId: number, fingerprint: string): TestRunResult | null {
  const rows = ctx.db
    .prepare('SELECT id FROM model_test_runs WHERE deployment_id = ? AND fingerprint = ? AND outcome IS NOT NULL ORDER BY created_at DESC LIMIT 1')
    .all(deploymentId, fingerprint) as { id: string }[];
  const job = rows[0] ? getJobRunner(ctx).get<TestRunInputs, TestRunResult>(rows[0].id, { deploymentId, kinds: [TEST_RUN_KIND] }) : null;
  return job?.status === 'COMPLETED' ? job.result : null;
}

// ---- the job --------------------------------------------------------------------------------------

/** Tests on a data source run where the data API runs their queries: the emulator's DuckDB or the warehouse. */
function dataSourceExecutor(ctx: ServiceContext, deploymentId: number, dialects: Record<string, DialectName>): TestExecutor {
  return {
    dialect(data) {
      if (data.kind !== 'dataSource') throw new Error('not a data source');
      const dialect = dialects[data.name] ?? dialects[data.name.toLowerCase()];
      if (!dialect) throw new Error(`Deployment ${deploymentId} has no data source "${data.name}".`);
      return DIALECTS[dialect];
    },
    async run(data, sql, signal) {
      if (data.kind !== 'dataSource') throw new Error('not a data source');
      const target = await queryTarget(ctx, deploymentId, data.name);
      try {
        return await target.run(sql.sql, sql.params, { signal });
      } finally {
        await target.close().catch(() => undefined);
      }
    },
  };
}

export async function runTestRun(ctx: ServiceContext, job: Job<TestRunInputs, TestRunResult>, jobCtx: JobContext): Promise<TestRunResult> {
  const { deploymentId, commit, edits, now } = job.inputs;
  const started = performance.now();
  jobCtx.progress('compiling', 10);
  const prepared = await runCompute(ctx, 'prepareModelTestRun', { gitdir: await modelRepositoryDir(ctx, deploymentId), commit, edits, now }, { signal: jobCtx.signal });
  if (!prepared.readable) throw new JobFailure(Codes.TEST_SOURCE_UNREADABLE, `Could not read commit ${commit.slice(0, 12)}: ${prepared.message}`);
  const { model, tests, diagnostics, fixtures } = prepared.run;
  // Fixture files go where DuckDB can read them, for the length of the run.
  const dir = join(ctx.dataDir, 'tmp', `model-tests-${job.id}`);
  let results: TestResult[] = [];
  try {
    for (const f of fixtures) {
      const file = join(dir, f.path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, f.bytes);
    }
    const executor = new FixtureExecutor((path) => join(dir, path), dataSourceExecutor(ctx, deploymentId, dataSourceDialects(ctx, deploymentId)));
    jobCtx.progress('running', 40);
    try {
      results = await runModelTests(model, tests, executor, { now: new Date(now), signal: jobCtx.signal });
    } finally {
      await executor.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const summary = summarize(results, Math.round(performance.now() - started));
  const broken = summary.failed + summary.errors > 0 || diagnostics.some((d) => d.severity === 'error');
  const outcome: TestRunResult['outcome'] = tests.length === 0 && diagnostics.length === 0 ? 'none' : broken ? 'failed' : 'passed';
  ctx.db.prepare('UPDATE model_test_runs SET outcome = ?, summary = ? WHERE id = ?').run(outcome, JSON.stringify(summary), job.id);
  if (job.inputs.buildId) recordBuildCheck(ctx, job.inputs.buildId, 'modelTests', { testRunId: job.id, outcome, summary });
  jobCtx.progress('completed', 100);
  return { outcome, summary, results, diagnostics: diagnostics.map(diagnosticJson) };
}
