// Text report of `drydock review` (issue 26): what changed (with `file:line`), what breaks, what it
// reaches, and the numbers that moved, for a terminal or a CI log.
import type { ReviewResult } from '../../../src-shared/api/reviews';
import { changeLine, formatValue, headline, locationOf, plural, rowChangeLines, short, totalLines } from '../../../src-shared/model/review/describe';

export function textReport(result: ReviewResult): string {
  const lines: string[] = [];
  lines.push(`Review of ${result.head.ref} (${short(result.head.commit)}) against ${result.base.ref} (${short(result.base.commit)}): ${headline(result)}`);
  for (const [side, problems] of [['base', result.problems.base], ['head', result.problems.head]] as const) {
    if (!problems) continue;
    lines.push('', `The ${side} side has ${plural(problems.errorCount, 'compile error')}; not reviewed: ${problems.entities.join(', ') || '(no cube or view)'}`);
    for (const e of problems.errors.slice(0, 5)) lines.push(`  ${e.file}:${e.line}:${e.column}  ${e.message}  ${e.code}`);
  }
  if (result.changes.length > 0) {
    lines.push('', 'Changes:');
    for (const c of result.changes) {
      const at = locationOf(c);
      lines.push(`  ${at ? `${at.file}:${at.line}:${at.column}  ` : ''}${changeLine(c)}  [${c.effect}]`);
    }
  }
  const { impact } = result;
  if (impact.breaking.length > 0) {
    lines.push('', 'Breaks:');
    for (const b of impact.breaking) lines.push(`  ✖ ${b.kind} ${b.subject}: ${b.message}`);
  }
  const reached: string[] = [];
  if (impact.views.length) reached.push(`  views: ${impact.views.map((v) => v.name).join(', ')}`);
  if (impact.pushedViews.length) reached.push(`  pushed semantic views: ${impact.pushedViews.map((p) => `${p.semanticView} (${p.status})`).join(', ')}`);
  if (impact.publishedViews.length) reached.push(`  published metric views: ${impact.publishedViews.map((p) => `${p.target} (${p.status})`).join(', ')}`);
  if (impact.widgets.length) reached.push(`  widgets: ${impact.widgets.map((w) => `${w.workbookName} › ${w.title ?? w.widgetId}${w.dashboard === 'draft' ? ' (draft)' : ''} (${w.status})`).join(', ')}`);
  if (impact.reports.length) reached.push(`  reports: ${impact.reports.map((r) => `${r.name} (${r.status})`).join(', ')}`);
  if (impact.notifications.length) reached.push(`  notifications: ${impact.notifications.map((n) => n.name).join(', ')}`);
  if (impact.scheduledTasks.length) reached.push(`  scheduled tasks: ${impact.scheduledTasks.map((t) => `${t.name} (mentions ${t.mentions.join(', ')})`).join(', ')}`);
  if (reached.length) lines.push('', 'Reaches:', ...reached);
  if (result.dataDiff.enabled) {
    const queries = result.dataDiff.queries;
    lines.push('', `Data diff: ${plural(queries.length, 'query', 'queries')} in ${formatValue(result.dataDiff.durationMs)} ms${result.dataDiff.budgetExhausted ? ' (time budget ran out)' : ''}`);
    for (const q of queries) {
      if (q.status === 'changed') {
        lines.push(`  ≠ ${q.label}${q.truncated ? ' (first rows only)' : ''}`);
        for (const l of [...totalLines(q), ...rowChangeLines(q)]) lines.push(`      ${l}`);
      } else if (q.status === 'failed' || q.status === 'skipped') {
        lines.push(`  ! ${q.label}: ${q.status} on ${q.error?.side ?? 'a'} side${q.error ? `: ${q.error.message}` : ''}`);
      }
    }
    const same = queries.filter((q) => q.status === 'same' || q.status === 'identical').length;
    if (same) lines.push(`  = ${plural(same, 'query', 'queries')} unchanged`);
  }
  return lines.join('\n');
}
