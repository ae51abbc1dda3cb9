// JUnit XML report of `drydock validate`, for CI systems that show test reports (Jenkins, GitLab,
// Azure Pipelines…). One test case per model file: it fails when the file has errors, or has
// warnings while the run fails on --max-warnings, so the report's failures match the exit code.
// Every finding of a file is listed in its test case (failure text, or system-out when it passes).
import junit from 'junit-report-builder';
import type { Diagnostic } from '../../../src-shared/model';
import { displayPath, type ValidationReport } from './project';

const describe = (report: ValidationReport, d: Diagnostic) =>
  `${displayPath(report, d.file)}:${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`;

export function junitReport(report: ValidationReport): string {
  const builder = junit.newBuilder().name('drydock validate');
  const suite = builder.testSuite().name(`drydock validate ${displayPath(report, '')}`).time(report.durationMs / 1000);
  const byFile = new Map<string, Diagnostic[]>();
  for (const path of report.files) byFile.set(path, []);
  for (const d of report.diagnostics) {
    if (!byFile.has(d.file)) byFile.set(d.file, []);
    byFile.get(d.file)!.push(d);
  }
  const warningsFail = report.maxWarnings !== undefined && report.warningCount > report.maxWarnings;
  for (const [file, diagnostics] of byFile) {
    const testCase = suite.testCase().className('drydock.validate').name(file ? displayPath(report, file) : '(project)').file(displayPath(report, file));
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const warnings = diagnostics.filter((d) => d.severity === 'warning');
    const text = diagnostics.map((d) => describe(report, d)).join('\n');
    if (errors.length > 0 || (warningsFail && warnings.length > 0)) {
      const first = errors[0] ?? warnings[0]!;
      const counts = `${errors.length} error${errors.length === 1 ? '' : 's'}, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
      testCase.failure(`${counts}: ${first.message}`, first.code).stacktrace(text);
    } else if (text) {
      testCase.standardOutput(text);
    }
  }
  return builder.build();
}
