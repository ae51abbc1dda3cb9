// Running model tests (issue 26): each test's query (and its reference queries) planned against the
// compiled model, run on its data through an executor (a throwaway DuckDB of fixture tables, or a
// data source), its rows shaped as the data API returns them and held to its expectations. What a
// test reads from is the executor's business: the command line and the service bring their own.

import { duckdbDialect, planQuery, QueryError, type Dialect, type PlannedQuery, type PlannedSql } from '../query';
import { shapeRows, type EngineRows } from '../query/shape';
import type { CompiledModel, Diagnostic } from '../types';
import { ModelTestCodes as C } from './codes';
import { evaluate, type Failure, type Row } from './expect';
import type { ModelTest, ParsedTestFile, TestData } from './parse';

export interface TestExecutor {
  /** The dialect queries on this data are planned in. */
  dialect(data: TestData): Dialect;
  /** Runs one statement on the data. */
  run(data: TestData, sql: PlannedSql, signal?: AbortSignal): Promise<EngineRows>;
}

export type TestStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface TestResult {
  file: string;
  name: string;
  line: number;
  column: number;
  status: TestStatus;
  durationMs: number;
  /** Expectations that did not hold, each on its line. */
  failures: { message: string; line: number; column: number }[];
  /** Why the test errored or was skipped. */
  message: string | null;
}

export interface TestSummary {
  total: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  durationMs: number;
}

export interface RunOptions {
  now?: Date;
  signal?: AbortSignal;
  /** Tests run at once (default 4). */
  concurrency?: number;
  /** Why a test cannot run here (it is then skipped), or null. */
  skip?: (test: ModelTest) => string | null;
}

const plan = (model: CompiledModel, query: unknown, dialect: Dialect, now?: Date): PlannedQuery => planQuery(model, query, { dialect, security: null, now });

export function summarize(results: TestResult[], durationMs: number): TestSummary {
  const count = (status: TestStatus) => results.filter((r) => r.status === status).length;
  return { total: results.length, passed: count('passed'), failed: count('failed'), errors: count('error'), skipped: count('skipped'), durationMs };
}

async function runOne(model: CompiledModel, test: ModelTest, executor: TestExecutor, options: RunOptions): Promise<TestResult> {
  const started = performance.now();
  const base = { file: test.file, name: test.name, line: test.pos.line, column: test.pos.column };
  const done = (status: TestStatus, failures: Failure[], message: string | null): TestResult => ({
    ...base,
    status,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    failures: failures.map((f) => ({ message: f.message, line: f.pos.line, column: f.pos.column })),
    message,
  });
  const reason = options.skip?.(test) ?? null;
  if (reason) return done('skipped', [], reason);
  if (!test.data) return done('error', [], 'The test has no data: give `data` (fixtures or a data source) in the test or its file.');
  const data = test.data;
  let dialect: Dialect;
  try {
    dialect = executor.dialect(data);
  } catch (error) {
    return done('error', [], error instanceof Error ? error.message : String(error));
  }
  const queries: { what: string; query: unknown }[] = [
    { what: 'the query', query: test.query },
    ...test.expect.values.map((v, i) => ({ what: `the reference query of values[${i}]`, query: v.of?.query })),
    ...test.expect.totals.map((t, i) => ({ what: `the query of totals_equal[${i}]`, query: t.query })),
  ];
  const plans: (PlannedQuery | null)[] = [];
  for (const q of queries) {
    if (q.query === undefined) {
      plans.push(null);
      continue;
    }
    try {
      plans.push(plan(model, q.query, dialect, options.now));
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      return done('error', [], `The model refuses ${q.what}: ${error.message}`);
    }
  }
  let rows: (Row[] | null)[];
  try {
    rows = await Promise.all(plans.map(async (p) => (p ? shapeRows(p, await executor.run(data, p.main, options.signal)) : null)));
  } catch (error) {
    options.signal?.throwIfAborted();
    return done('error', [], error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
  const n = test.expect.values.length;
  const failures = evaluate(test.expect, rows[0]!, { values: rows.slice(1, 1 + n), totals: rows.slice(1 + n) });
  return done(failures.length ? 'failed' : 'passed', failures, null);
}

/** Runs every test, a few at a time, in file order. */
export async function runModelTests(model: CompiledModel, tests: ModelTest[], executor: TestExecutor, options: RunOptions = {}): Promise<TestResult[]> {
  const results = new Array<TestResult>(tests.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < tests.length; i = next++) {
      options.signal?.throwIfAborted();
      results[i] = await runOne(model, tests[i]!, executor, options);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, tests.length)) }, worker));
  return results;
}

/**
 * What can be known about test files without running them: their own problems, and every query the
 * model refuses (on its line), or a test without data.
 */
export function checkModelTests(model: CompiledModel, files: ParsedTestFile[], now?: Date): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    diagnostics.push(...file.diagnostics);
    for (const test of file.tests) {
      const at = (pos: { line: number; column: number }, code: string, message: string) =>
        diagnostics.push({ severity: 'error', code, message, file: test.file, line: pos.line, column: pos.column, member: test.name });
      if (!test.data) at(test.pos, C.MODEL_TEST_NO_DATA, `Test "${test.name}" has no data: give \`data\` (fixtures or a data source) in the test or its file.`);
      const queries: [unknown, { line: number; column: number }, string][] = [
        [test.query, test.queryPos, 'query'],
        ...test.expect.values.filter((v) => v.of).map((v): [unknown, { line: number; column: number }, string] => [v.of!.query, v.of!.pos, 'reference query']),
        ...test.expect.totals.map((t): [unknown, { line: number; column: number }, string] => [t.query, t.pos, 'totals_equal query']),
      ];
      for (const [query, pos, what] of queries) {
        try {
          plan(model, query, duckdbDialect, now);
        } catch (error) {
          if (!(error instanceof QueryError)) throw error;
          at(pos, C.MODEL_TEST_QUERY_REFUSED, `Test "${test.name}": the model refuses its ${what}: ${error.message}`);
        }
      }
    }
  }
  return diagnostics;
}

/** Failing and erroring tests as diagnostics on their test file (the Problems panel, the merge gate). */
export function testResultDiagnostics(results: TestResult[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const r of results) {
    if (r.status === 'failed') {
      for (const f of r.failures) out.push({ severity: 'error', code: C.MODEL_TEST_FAILED, message: `Test "${r.name}" failed: ${f.message}`, file: r.file, line: f.line, column: f.column, member: r.name });
    } else if (r.status === 'error') {
      out.push({ severity: 'error', code: C.MODEL_TEST_ERROR, message: `Test "${r.name}" could not run: ${r.message}`, file: r.file, line: r.line, column: r.column, member: r.name });
    }
  }
  return out;
}
