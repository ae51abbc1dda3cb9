// `drydock test [DIR]` (issue 26): the model and the test files of a project folder, compiled and
// run offline — fixture tables in a throwaway DuckDB, no service. Tests on a data source need the
// service and are skipped here.
import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { compileModel, type Diagnostic } from '../../../src-shared/model';
import {
  parseTestFile,
  runModelTests,
  summarize,
  type ParsedTestFile,
  type TestResult,
  type TestSummary,
} from '../../../src-shared/model/tests';
import { readProject } from '../validate/project';
import { readTestFiles } from './files';

export const TEST_FORMATS = ['text', 'json', 'junit', 'sarif'] as const;
export type TestFormat = (typeof TEST_FORMATS)[number];

export interface TestReport {
  /** The project folder, absolute. */
  root: string;
  cwd: string;
  /** Test files, project-relative. */
  files: string[];
  /** Problems of the test files (and errors of the model) that are not a test's outcome. */
  diagnostics: Diagnostic[];
  results: TestResult[];
  summary: TestSummary;
  failed: boolean;
}

export async function testProject(dir: string, options: { concurrency?: number } = {}, cwd = process.cwd()): Promise<TestReport> {
  const started = performance.now();
  const root = resolve(cwd, dir);
  const files = readProject(root);
  const compiled = compileModel(files);
  const inProject = (path: string) => {
    const full = resolve(root, path);
    return full.startsWith(root + sep) && existsSync(full) && statSync(full).isFile();
  };
  const parsed: ParsedTestFile[] = readTestFiles(root).map((f) => parseTestFile(f, { exists: inProject }));
  const diagnostics = [...compiled.diagnostics.filter((d) => d.severity === 'error'), ...parsed.flatMap((p) => p.diagnostics)];
  const tests = parsed.flatMap((p) => p.tests);
  let results: TestResult[] = [];
  if (tests.length > 0) {
    // DuckDB loads only when there is something to run.
    const { FixtureExecutor } = await import('../../connectors/duckdb/fixtures');
    const executor = new FixtureExecutor((path) => join(root, path));
    try {
      results = await runModelTests(compiled.model, tests, executor, {
        concurrency: options.concurrency,
        skip: (test) => (test.data?.kind === 'dataSource' ? `runs on data source "${test.data.name}": data source tests run on the service (drydock test is offline)` : null),
      });
    } finally {
      await executor.close();
    }
  }
  const summary = summarize(results, Math.round(performance.now() - started));
  return {
    root,
    cwd,
    files: parsed.map((p) => p.path),
    diagnostics,
    results,
    summary,
    failed: summary.failed + summary.errors > 0 || diagnostics.some((d) => d.severity === 'error'),
  };
}

/** A project path relative to the working directory, with `/`. */
export function displayPath(report: TestReport, file: string): string {
  if (!file) return relative(report.cwd, report.root).split(sep).join('/') || '.';
  return relative(report.cwd, join(report.root, file)).split(sep).join('/');
}
