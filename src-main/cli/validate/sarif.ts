// SARIF 2.1.0 report of `drydock validate`, for code-scanning tools (GitHub code scanning, Azure
// DevOps, IDE viewers). Every result has a rule id (the diagnostic code), a level, a message and a
// location: a URI relative to the working directory (the repository root in CI) under %SRCROOT%,
// plus the 1-based line and column.
import { SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from 'node-sarif-builder';
import { DiagnosticCodes, type Diagnostic } from '../../../src-shared/model';
import { sarifLog, SRCROOT } from '../sarif';
import { DRYDOCK_VERSION } from '../version';
import { displayPath, type ValidationReport } from './project';
import { describeCode } from './rules';

const LEVEL: Record<Diagnostic['severity'], 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

export function sarifReport(report: ValidationReport): string {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: 'drydock', toolDriverVersion: DRYDOCK_VERSION });
  // Every code the compiler can report is a rule, so rule indexes stay stable between runs.
  const codes = new Set<string>(Object.values(DiagnosticCodes));
  for (const d of report.diagnostics) codes.add(d.code);
  for (const code of [...codes].sort()) {
    run.addRule(new SarifRuleBuilder().initSimple({ ruleId: code, shortDescriptionText: describeCode(code) }));
  }
  for (const d of report.diagnostics) {
    const result = new SarifResultBuilder().initSimple({ level: LEVEL[d.severity], messageText: d.message, ruleId: d.code });
    // Set the location directly: initSimple would add endColumn 1, an empty region before the start.
    result.setLocationArtifactUri({ uri: encodeURI(displayPath(report, d.file)), uriBaseId: SRCROOT });
    result.setLocationRegion({ startLine: Math.max(1, d.line), startColumn: Math.max(1, d.column) });
    run.addResult(result);
  }
  return sarifLog(run, report.cwd, report.failed ? 1 : 0);
}
