// SARIF 2.1.0 report of `drydock test` (issue 26), for code scanning: each failing expectation on
// its line, each test that could not run, each problem of a test file.
import { SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from 'node-sarif-builder';
import { MODEL_TEST_CODE_DESCRIPTIONS, ModelTestCodes } from '../../../src-shared/model/tests';
import { sarifLog, SRCROOT } from '../sarif';
import { DRYDOCK_VERSION } from '../version';
import { displayPath, type TestReport } from './project';


export function sarifReport(report: TestReport): string {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: 'drydock-test', toolDriverVersion: DRYDOCK_VERSION });
  const codes = new Set<string>(Object.values(ModelTestCodes));
  for (const d of report.diagnostics) codes.add(d.code);
  for (const code of [...codes].sort()) {
    run.addRule(new SarifRuleBuilder().initSimple({ ruleId: code, shortDescriptionText: (MODEL_TEST_CODE_DESCRIPTIONS as Record<string, string>)[code] ?? code }));
  }
  const add = (ruleId: string, level: 'error' | 'warning' | 'note', message: string, file: string, line: number, column: number) => {
    const result = new SarifResultBuilder().initSimple({ level, messageText: message, ruleId });
    result.setLocationArtifactUri({ uri: encodeURI(displayPath(report, file)), uriBaseId: SRCROOT });
    result.setLocationRegion({ startLine: Math.max(1, line), startColumn: Math.max(1, column) });
    run.addResult(result);
  };
  for (const d of report.diagnostics) add(d.code, d.severity === 'info' ? 'note' : d.severity, d.message, d.file, d.line, d.column);
  for (const r of report.results) {
    if (r.status === 'failed') for (const f of r.failures) add(ModelTestCodes.MODEL_TEST_FAILED, 'error', `Test "${r.name}" failed: ${f.message}`, r.file, f.line, f.column);
    if (r.status === 'error') add(ModelTestCodes.MODEL_TEST_ERROR, 'error', `Test "${r.name}" could not run: ${r.message}`, r.file, r.line, r.column);
  }
  return sarifLog(run, report.cwd, report.failed ? 1 : 0);
}
