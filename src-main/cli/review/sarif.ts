// SARIF 2.1.0 report of `drydock review` (issue 26), for code scanning: one result per breaking
// use (error), per query whose numbers change (warning) and per model change that can move numbers
// or hide members (note), each located at the model change it comes from (repository paths, under
// %SRCROOT%: run it from the model repository's root).
import { SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from 'node-sarif-builder';
import type { ModelChange, ReviewResult } from '../../../src-shared/api/reviews';
import { sarifLog, SRCROOT } from '../sarif';
import { DRYDOCK_VERSION } from '../version';
import { changeLine, locationOf, rowChangeLines, totalLines } from '../../../src-shared/model/review/describe';


const RULES: Record<string, string> = {
  MODEL_CHANGE_BREAKS: 'A model change breaks something that uses the model (a widget or report query, a push, a publication)',
  MODEL_CHANGE_MOVES_NUMBERS: 'A query affected by the change returns different rows or numbers on the new model',
  MODEL_CHANGE: 'A model change that can move numbers or hide members',
};

/** The change a use came from: one whose name (or former name) is among what it reads. */
function sourceOf(result: ReviewResult, names: string[]): ModelChange | undefined {
  const wanted = new Set(names);
  const numbers = result.changes.filter((c) => c.effect !== 'metadata');
  return numbers.find((c) => wanted.has(c.name) || (c.previousName !== undefined && wanted.has(c.previousName))) ?? numbers.find((c) => c.target !== 'view' && c.target !== 'cube') ?? numbers[0] ?? result.changes[0];
}

export function sarifReport(result: ReviewResult, cwd = process.cwd()): string {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: 'drydock-review', toolDriverVersion: DRYDOCK_VERSION });
  for (const [ruleId, text] of Object.entries(RULES)) run.addRule(new SarifRuleBuilder().initSimple({ ruleId, shortDescriptionText: text }));
  const add = (ruleId: string, level: 'error' | 'warning' | 'note', message: string, change: ModelChange | undefined) => {
    const result = new SarifResultBuilder().initSimple({ level, messageText: message, ruleId });
    const at = change ? locationOf(change) : null;
    if (at) {
      result.setLocationArtifactUri({ uri: encodeURI(at.file), uriBaseId: SRCROOT });
      result.setLocationRegion({ startLine: Math.max(1, at.line), startColumn: Math.max(1, at.column) });
    }
    run.addResult(result);
  };
  const { impact } = result;
  for (const w of impact.widgets.filter((x) => x.status === 'breaks')) {
    add('MODEL_CHANGE_BREAKS', 'error', `Widget ${w.workbookName} › ${w.title ?? w.widgetId}${w.dashboard === 'draft' ? ' (draft)' : ''} breaks: ${w.message}`, sourceOf(result, w.uses));
  }
  for (const r of impact.reports.filter((x) => x.status === 'breaks')) add('MODEL_CHANGE_BREAKS', 'error', `Report ${r.name} breaks: ${r.message}`, sourceOf(result, r.uses));
  for (const p of impact.pushedViews.filter((x) => x.status === 'breaks')) {
    add('MODEL_CHANGE_BREAKS', 'error', `Semantic view ${p.semanticView}: ${p.reasons.join('; ')}`, sourceOf(result, [...p.droppedMembers, p.viewName]));
  }
  for (const p of impact.publishedViews.filter((x) => x.status === 'breaks')) {
    add('MODEL_CHANGE_BREAKS', 'error', `Metric view ${p.target}: ${p.reasons.join('; ')}`, sourceOf(result, [...p.droppedMembers, p.viewName]));
  }
  for (const q of result.dataDiff.queries.filter((x) => x.status === 'changed')) {
    const uses = q.source.kind === 'view' ? [q.source.view] : Object.keys(q.query.head);
    const members = [...new Set((q.diff?.changed.samples ?? []).flatMap((s) => s.values.map((v) => v.member)))];
    add('MODEL_CHANGE_MOVES_NUMBERS', 'warning', `${q.label}: ${[...totalLines(q), ...rowChangeLines(q, 3)].join('; ') || 'rows differ'}`, sourceOf(result, [...members, ...uses]));
  }
  for (const c of result.changes.filter((x) => x.effect !== 'metadata')) add('MODEL_CHANGE', 'note', changeLine(c), c);
  return sarifLog(run, cwd);
}
