// JUnit XML report of `drydock test` (issue 26): one suite per test file, one test case per test;
// failing expectations are the case's failure, a test that could not run its error.
import junit from 'junit-report-builder';
import { displayPath, type TestReport } from './project';

export function junitReport(report: TestReport): string {
  const builder = junit.newBuilder().name('drydock test');
  const byFile = new Map<string, TestReport['results']>();
  for (const file of report.files) byFile.set(file, []);
  for (const r of report.results) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  for (const [file, results] of byFile) {
    const suite = builder.testSuite().name(displayPath(report, file)).time(results.reduce((t, r) => t + r.durationMs, 0) / 1000);
    for (const d of report.diagnostics.filter((x) => x.file === file)) {
      suite.testCase().className(displayPath(report, file)).name(`${d.code} at line ${d.line}`).file(displayPath(report, file)).error(d.message, d.code);
    }
    for (const r of results) {
      const testCase = suite.testCase().className(displayPath(report, file)).name(r.name).file(displayPath(report, file)).time(r.durationMs / 1000);
      if (r.status === 'failed') {
        testCase.failure(r.failures.map((f) => f.message).join('; '), 'MODEL_TEST_FAILED').stacktrace(r.failures.map((f) => `${displayPath(report, file)}:${f.line}:${f.column} ${f.message}`).join('\n'));
      } else if (r.status === 'error') testCase.error(r.message ?? 'could not run', 'MODEL_TEST_ERROR');
      else if (r.status === 'skipped') testCase.skipped();
    }
  }
  // Model errors outside the test files fail the run too.
  const others = report.diagnostics.filter((d) => !byFile.has(d.file));
  if (others.length > 0) {
    const suite = builder.testSuite().name('model');
    for (const d of others) suite.testCase().className('model').name(`${displayPath(report, d.file)}:${d.line}`).error(d.message, d.code);
  }
  return builder.build();
}
