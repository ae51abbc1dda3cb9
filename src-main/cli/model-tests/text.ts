// Text and JSON reports of `drydock test` (issue 26). Lines start with `path:line:column` where
// there is one, which terminals, editors and CI logs turn into links.
import { diagnosticJson } from '../../../src-shared/model';
import { displayPath, type TestReport } from './project';

const ANSI = { red: 31, yellow: 33, green: 32, dim: 2, bold: 1 } as const;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function textReport(report: TestReport, color = false): string {
  const paint = (style: keyof typeof ANSI, text: string) => (color ? `\u001b[${ANSI[style]}m${text}\u001b[0m` : text);
  const lines: string[] = [];
  for (const d of report.diagnostics) {
    lines.push(`${paint('bold', `${displayPath(report, d.file)}:${d.line}:${d.column}`)}  ${paint('red', d.severity)}  ${d.message}  ${paint('dim', d.code)}`);
  }
  for (const r of report.results) {
    const name = `${displayPath(report, r.file)} › ${r.name}`;
    if (r.status === 'passed') lines.push(`${paint('green', '✔')} ${name} ${paint('dim', `(${Math.round(r.durationMs)} ms)`)}`);
    else if (r.status === 'skipped') lines.push(`${paint('yellow', '-')} ${name} ${paint('dim', `skipped: ${r.message}`)}`);
    else if (r.status === 'error') lines.push(`${paint('red', '!')} ${name}`, `    ${displayPath(report, r.file)}:${r.line}:${r.column}  could not run: ${r.message}`);
    else {
      lines.push(`${paint('red', '✖')} ${name}`);
      for (const f of r.failures) lines.push(`    ${displayPath(report, r.file)}:${f.line}:${f.column}  ${f.message}`);
    }
  }
  const s = report.summary;
  const counts = [`${s.passed} passed`, `${s.failed} failed`];
  if (s.errors) counts.push(plural(s.errors, 'error'));
  if (s.skipped) counts.push(`${s.skipped} skipped`);
  if (report.diagnostics.length) counts.push(plural(report.diagnostics.length, 'problem'));
  const summary = `${counts.join(', ')} in ${plural(report.files.length, 'test file')} (${displayPath(report, '')}, ${Math.round(s.durationMs)} ms)`;
  if (report.files.length === 0) lines.push(`No test files in ${displayPath(report, 'tests')} (tests/*.yml).`);
  if (lines.length) lines.push('');
  lines.push(report.failed ? paint('red', `✖ ${summary}`) : paint('green', `✔ ${summary}`));
  return lines.join('\n');
}

export function jsonReport(report: TestReport): string {
  return JSON.stringify(
    {
      directory: displayPath(report, ''),
      passed: !report.failed,
      summary: report.summary,
      files: report.files,
      diagnostics: report.diagnostics.map(diagnosticJson),
      results: report.results,
    },
    null,
    2,
  );
}
