// Text and JSON reports of `drydock validate`. Text lines start with `path:line:column` (relative
// to the working directory), the form terminals, editors and CI log viewers turn into links.
import { diagnosticJson, type Diagnostic } from '../../../src-shared/model';
import { displayPath, type ValidationReport } from './project';

const ANSI = { red: 31, yellow: 33, cyan: 36, dim: 2, bold: 1, green: 32 } as const;
type Style = keyof typeof ANSI;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function textReport(report: ValidationReport, color = false): string {
  const paint = (style: Style, text: string) => (color ? `\u001b[${ANSI[style]}m${text}\u001b[0m` : text);
  const severityStyle: Record<Diagnostic['severity'], Style> = { error: 'red', warning: 'yellow', info: 'cyan' };
  const lines: string[] = [];
  for (const d of report.diagnostics) {
    const where = `${displayPath(report, d.file)}:${d.line}:${d.column}`;
    lines.push(`${paint('bold', where)}  ${paint(severityStyle[d.severity], d.severity)}  ${d.message}  ${paint('dim', d.code)}`);
    if (d.frame) lines.push(...d.frame.split('\n').map((l) => `    ${paint('dim', l)}`));
  }
  const where = displayPath(report, '');
  const counts = [plural(report.errorCount, 'error'), plural(report.warningCount, 'warning')];
  if (report.infoCount) counts.push(plural(report.infoCount, 'note'));
  const limit =
    report.maxWarnings !== undefined && report.warningCount > report.maxWarnings ? ` (more than --max-warnings ${report.maxWarnings})` : '';
  const summary = `${counts.join(', ')}${limit} in ${plural(report.files.length, 'model file')} (${where}, ${Math.round(report.durationMs)} ms)`;
  if (lines.length) lines.push('');
  lines.push(report.failed ? paint('red', `✖ ${summary}`) : paint('green', `✔ ${summary}`));
  return lines.join('\n');
}

/** The service's validate response shape (`valid`, counts, `diagnostics` with project-relative `file`), plus the folder. */
export function jsonReport(report: ValidationReport): string {
  return JSON.stringify(
    {
      directory: displayPath(report, ''),
      valid: report.errorCount === 0,
      passed: !report.failed,
      fileCount: report.files.length,
      errorCount: report.errorCount,
      warningCount: report.warningCount,
      infoCount: report.infoCount,
      maxWarnings: report.maxWarnings ?? null,
      diagnostics: report.diagnostics.map(diagnosticJson),
    },
    null,
    2,
  );
}
