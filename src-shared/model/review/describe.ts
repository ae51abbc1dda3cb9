// Words and numbers of a change review (issue 26), shared by the text, Markdown and SARIF reports
// of `drydock review` and the app's merge dialog and Review view: "Sales overview › Orders by
// status: completed 8,150 → 7,902".
import type { ModelChange, QueryDiff, ReviewResult } from '../../api/reviews';

/** What a review's outcome is, for the exit code and the headline. */
export interface ReviewVerdict {
  breaking: number;
  changedQueries: number;
  failedQueries: number;
}

export const verdictOf = (result: ReviewResult): ReviewVerdict => ({
  breaking: result.impact.breaking.length,
  changedQueries: result.dataDiff.queries.filter((q) => q.status === 'changed').length,
  failedQueries: result.dataDiff.queries.filter((q) => q.status === 'failed').length,
});

export const plural = (n: number, word: string, many = `${word}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? word : many}`;

export const short = (commit: string) => commit.slice(0, 12);

/** A number as people read it: thousands separated, at most two decimals. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value.trim()) ? Number(value) : null;
  if (n === null || !Number.isFinite(n)) return String(value);
  return n.toLocaleString('en-US', { maximumFractionDigits: Number.isInteger(n) ? 0 : 2, minimumFractionDigits: 0 });
}

/** `orders_overview.total_amount` → `total_amount` (the label already names the view). */
export const memberPart = (name: string) => name.split('.').slice(1).join('.') || name;

export function changeLine(c: ModelChange): string {
  const what = c.target.replace('_', ' ');
  switch (c.kind) {
    case 'added':
      return `${what} ${c.name} added`;
    case 'removed':
      return `${what} ${c.name} removed`;
    case 'renamed':
      return `${what} ${c.previousName} renamed to ${c.name}${c.attributes.length ? ` (and ${c.attributes.map((a) => a.attribute).join(', ')} changed)` : ''}`;
    case 'changed':
      return `${what} ${c.name}: ${c.attributes.map((a) => a.attribute).join(', ')} changed`;
  }
}

/** Where a change is: its head side, or its base side when it is gone. */
export function locationOf(c: ModelChange): { file: string; line: number; column: number } | null {
  return c.head ?? c.base;
}

/** `returned: total_amount 12,345.67 → 0` lines of a query's changed rows (samples). */
export function rowChangeLines(q: QueryDiff, limit = 5): string[] {
  const diff = q.diff;
  if (!diff) return [];
  const lines: string[] = [];
  for (const row of diff.changed.samples.slice(0, limit)) {
    const key = Object.values(row.key).map(formatValue).join(', ') || 'total';
    lines.push(`${key}: ${row.values.map((v) => `${memberPart(v.member)} ${formatValue(v.before)} → ${formatValue(v.after)}`).join(', ')}`);
  }
  const rowText = (r: Record<string, unknown>) => Object.values(r).map(formatValue).join(', ');
  for (const row of diff.onlyBase.samples.slice(0, Math.max(0, limit - lines.length))) lines.push(`only before: ${rowText(row)}`);
  for (const row of diff.onlyHead.samples.slice(0, Math.max(0, limit - lines.length))) lines.push(`only after: ${rowText(row)}`);
  const shown = lines.length;
  const total = diff.changed.count + diff.onlyBase.count + diff.onlyHead.count;
  if (total > shown) lines.push(`… and ${plural(total - shown, 'more row')}`);
  return lines;
}

/** `total_amount 1,234 → 1,100 (−10.9 %)` for each measure whose total moved. */
export function totalLines(q: QueryDiff): string[] {
  return (q.diff?.totals ?? [])
    .filter((t) => t.delta !== null && t.delta !== 0)
    .map((t) => {
      const pct = t.before ? ` (${t.delta! > 0 ? '+' : '−'}${Math.abs((100 * t.delta!) / t.before).toLocaleString('en-US', { maximumFractionDigits: 1 })} %)` : '';
      return `${memberPart(t.member)} total ${formatValue(t.before)} → ${formatValue(t.after)}${pct}`;
    });
}

export function headline(result: ReviewResult): string {
  const v = verdictOf(result);
  const parts = [plural(result.changes.length, 'change')];
  if (v.breaking) parts.push(plural(v.breaking, 'breaking change'));
  parts.push(`${plural(result.impact.widgets.length, 'widget')} affected`);
  if (result.dataDiff.enabled) parts.push(`${plural(v.changedQueries, 'query', 'queries')} with changed numbers`);
  return parts.join(', ');
}

/** The first moved number of a changed query: `returned: total_amount 12,345 → 0`, or its first moved total. */
function firstMove(q: QueryDiff): string | null {
  return rowChangeLines(q, 1)[0] ?? totalLines(q)[0] ?? null;
}

/**
 * The review in one line, for the merge dialog: what breaks, else whose numbers move (dashboards
 * first, with the first number that moves), else that no number moves.
 * "2 dashboard widgets change: Sales overview › Orders by status, returned: total_amount 1,234 → 0".
 */
export function verdictLine(result: ReviewResult): { tone: 'breaks' | 'changes' | 'same'; text: string } {
  const v = verdictOf(result);
  const failed = v.failedQueries ? ` (${plural(v.failedQueries, 'query', 'queries')} failed)` : '';
  if (v.breaking) {
    const first = result.impact.breaking[0]!;
    return { tone: 'breaks', text: `${plural(v.breaking, 'thing breaks', 'things break')}: ${first.kind} ${first.subject}, ${first.message}${failed}` };
  }
  const changed = result.dataDiff.queries.filter((q) => q.status === 'changed');
  if (changed.length) {
    const widgets = changed.filter((q) => q.source.kind === 'widget');
    const shown = widgets[0] ?? changed[0]!;
    const move = firstMove(shown);
    // A widget counts once, though its published dashboard and its draft both hold it.
    const widgetCount = new Set(widgets.flatMap((q) => (q.source.kind === 'widget' ? q.source.widgets.map((w) => `${w.workbookId}/${w.widgetId}`) : []))).size;
    const count = widgetCount ? `${plural(widgetCount, 'dashboard widget')} ${widgetCount === 1 ? 'changes' : 'change'}` : `Numbers change in ${plural(changed.length, 'query', 'queries')}`;
    return { tone: 'changes', text: `${count}: ${shown.label}${move ? `, ${move}` : ''}${failed}` };
  }
  if (result.changes.length === 0) return { tone: 'same', text: `No change to the model${failed}.` };
  const ran = result.dataDiff.enabled ? `; ${plural(result.dataDiff.queries.length, 'affected query', 'affected queries')} give the same numbers` : '';
  return { tone: 'same', text: `${plural(result.changes.length, 'change')}, no number moves${ran}${failed}.` };
}
