// Markdown report of `drydock review` (issue 26), for a pull-request comment: the verdict first,
// then what breaks, the numbers that moved and the changes, with long lists folded in <details>.
import type { ReviewResult } from '../../../src-shared/api/reviews';
import { changeLine, headline, locationOf, plural, rowChangeLines, short, totalLines, verdictOf } from '../../../src-shared/model/review/describe';

/** Text inside a table cell or a line: pipes and newlines would break the table. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const code = (text: string) => `\`${text.replace(/`/g, 'ˋ')}\``;

function details(summary: string, body: string[]): string[] {
  return ['<details>', `<summary>${summary}</summary>`, '', ...body, '', '</details>'];
}

export function markdownReport(result: ReviewResult): string {
  const v = verdictOf(result);
  const out: string[] = [];
  const status = v.breaking > 0 ? '❌' : v.changedQueries > 0 ? '⚠️' : '✅';
  out.push(`### ${status} Drydock review: ${headline(result)}`);
  out.push('', `${code(result.head.ref)} (${short(result.head.commit)}) against ${code(result.base.ref)} (${short(result.base.commit)})`);

  for (const [side, problems] of [['base', result.problems.base], ['head', result.problems.head]] as const) {
    if (!problems) continue;
    out.push('', `> **The ${side} side does not compile** (${plural(problems.errorCount, 'error')}); left out: ${problems.entities.map(code).join(', ') || 'no cube or view'}.`);
    for (const e of problems.errors.slice(0, 5)) out.push(`> - ${code(`${e.file}:${e.line}`)} ${cell(e.message)}`);
  }

  if (result.impact.breaking.length > 0) {
    out.push('', '#### Breaks', '', '| What | | Why |', '|---|---|---|');
    for (const b of result.impact.breaking) out.push(`| ${b.kind} | ${cell(b.subject)} | ${cell(b.message)} |`);
  }

  const changed = result.dataDiff.queries.filter((q) => q.status === 'changed');
  if (changed.length > 0) {
    out.push('', '#### Numbers that change', '', '| Query | Before → after |', '|---|---|');
    for (const q of changed) {
      const moves = [...totalLines(q), ...rowChangeLines(q, 3)];
      out.push(`| ${cell(q.label)}${q.truncated ? ' (first rows)' : ''} | ${moves.map(cell).join('<br>') || 'rows differ'} |`);
    }
  }
  const failed = result.dataDiff.queries.filter((q) => q.status === 'failed' || q.status === 'skipped');
  if (failed.length > 0) {
    out.push('', ...details(`${plural(failed.length, 'query', 'queries')} not compared`, failed.map((q) => `- ${cell(q.label)}: ${q.status}${q.error ? ` (${q.error.side}: ${cell(q.error.message)})` : ''}`)));
  }

  if (result.changes.length > 0) {
    const rows = result.changes.map((c) => {
      const at = locationOf(c);
      return `| ${cell(changeLine(c))} | ${c.effect} | ${at ? code(`${at.file}:${at.line}`) : ''} |`;
    });
    out.push('', ...details(`${plural(result.changes.length, 'model change')}`, ['| Change | Effect | Where |', '|---|---|---|', ...rows]));
  }

  const i = result.impact;
  const reached: string[] = [];
  if (i.views.length) reached.push(`- Views: ${i.views.map((x) => code(x.name)).join(', ')}`);
  if (i.pushedViews.length) reached.push(`- Pushed semantic views: ${i.pushedViews.map((x) => `${code(x.semanticView)} (${x.status})`).join(', ')}`);
  if (i.publishedViews.length) reached.push(`- Published metric views: ${i.publishedViews.map((x) => `${code(x.target)} (${x.status})`).join(', ')}`);
  if (i.widgets.length) reached.push(`- Dashboard widgets: ${i.widgets.map((w) => `${cell(w.workbookName)} › ${cell(w.title ?? w.widgetId)}${w.dashboard === 'draft' ? ' (draft)' : ''} (${w.status})`).join(', ')}`);
  if (i.reports.length) reached.push(`- Reports: ${i.reports.map((r) => `${cell(r.name)} (${r.status})`).join(', ')}`);
  if (i.notifications.length) reached.push(`- Notifications: ${i.notifications.map((n) => cell(n.name)).join(', ')}`);
  if (i.scheduledTasks.length) reached.push(`- Scheduled tasks: ${i.scheduledTasks.map((t) => cell(t.name)).join(', ')}`);
  if (reached.length) out.push('', ...details(`What it reaches (${plural(i.members.length, 'member')})`, reached));
  return out.join('\n');
}
