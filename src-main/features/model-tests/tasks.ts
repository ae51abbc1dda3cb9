// Worker-thread side of model tests (issue 26): reading and compiling a commit, parsing its test
// files and checking their queries, and reading the fixture files the tests name. Runs on a compute
// thread (workers/compute-worker.ts); the model shard checks test files of a branch it holds with
// `checkTestFiles` (workers/model-worker.ts).
import { compileModel, type CompiledModel, type Diagnostic } from '../../../src-shared/model';
import { checkModelTests, type ModelTest } from '../../../src-shared/model/tests';
import { testSources, type SourceInput } from './source';

export interface PreparedTestRun {
  model: CompiledModel;
  tests: ModelTest[];
  /** Problems of the test files (their own and refused queries), and the model's errors. */
  diagnostics: Diagnostic[];
  /** Fixture files the tests name: repository path and bytes. */
  fixtures: { path: string; bytes: Uint8Array }[];
}

export type PrepareTestRunOutput = { readable: true; run: PreparedTestRun } | { readable: false; message: string };

export async function prepareModelTestRun(input: SourceInput & { now: string }): Promise<PrepareTestRunOutput> {
  let sources;
  try {
    sources = await testSources(input, { model: true });
  } catch (error) {
    return { readable: false, message: (error as Error).message };
  }
  const compiled = compileModel(sources.modelFiles);
  const diagnostics = [...compiled.diagnostics.filter((d) => d.severity === 'error').slice(0, 50), ...checkModelTests(compiled.model, sources.testFiles, new Date(input.now))];
  const tests = sources.testFiles.flatMap((f) => f.tests);
  const paths = [...new Set(tests.flatMap((t) => (t.data?.kind === 'fixtures' ? t.data.tables.map((x) => x.file) : [])))].sort();
  const bytes = await sources.read(paths);
  return { readable: true, run: { model: compiled.model, tests, diagnostics, fixtures: paths.map((path, i) => ({ path, bytes: bytes[i]! })) } };
}

/** What validation shows of test files without running them: their problems and refused queries ([] without tests). */
export async function checkTestFiles(input: SourceInput, model: () => CompiledModel | Promise<CompiledModel>): Promise<Diagnostic[]> {
  const sources = await testSources(input, { model: false });
  if (sources.testFiles.length === 0) return [];
  return checkModelTests(await model(), sources.testFiles);
}
