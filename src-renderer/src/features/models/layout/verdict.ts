// What the service check's verdict means now (issue 24): whether the files changed since it ran (it is
// stale then), and how its counts relate to the editor's — the service compiles the saved files only,
// without the push/publish checks, so the two are told apart rather than shown side by side as if
// they disagreed.
import type { ModelDiagnostic } from '../../../../../src-shared/api/data-model';
import { plural } from '../../../lib/plural';
import { analyzerOf } from '../diagnostics';
import type { ModelsState } from '../state';

const currentBranch = (s: Pick<ModelsState, 'branches' | 'branchName'>) => s.branches.find((b) => b.branchName === s.branchName);

export type VerdictTone = 'none' | 'good' | 'bad' | 'stale';

export interface VerdictState {
  tone: VerdictTone;
  /** A few words for the status bar. */
  label: string;
  /** One sentence: what was checked and whether it still holds. */
  detail: string;
}

/** Paths whose saved content differs between two version maps (added, removed or changed). */
export function changedPaths(before: Record<string, string>, now: Record<string, string>): string[] {
  const paths = new Set([...Object.keys(before), ...Object.keys(now)]);
  return [...paths].filter((p) => before[p] !== now[p]).sort();
}

/** Why the verdict no longer describes the branch's files, or null while it does. */
export function staleReason(s: Pick<ModelsState, 'server' | 'versions' | 'branches' | 'branchName'>): string | null {
  const verdict = s.server;
  if (!verdict) return null;
  const changed = changedPaths(verdict.versionsAtCheck, s.versions);
  const head = currentBranch(s)?.headCommit;
  const moved = head !== undefined && head !== verdict.result.commit;
  if (changed.length > 0) {
    const what = changed.length === 1 ? changed[0]!.slice(changed[0]!.lastIndexOf('/') + 1) : plural(changed.length, 'file');
    return `${what} changed since this check${moved ? ` (the branch moved from ${verdict.result.commit.slice(0, 7)} to ${head.slice(0, 7)})` : ''}`;
  }
  return null;
}

export function verdictState(s: Pick<ModelsState, 'server' | 'versions' | 'branches' | 'branchName'>): VerdictState {
  const verdict = s.server;
  if (!verdict) return { tone: 'none', label: 'Not validated', detail: 'not run yet — Validate compiles the saved files of this branch on the service, as a deploy would.' };
  const { result } = verdict;
  const stale = staleReason(s);
  const counts = `${plural(result.errorCount, 'error')}, ${plural(result.warningCount, 'warning')}`;
  const at = `${result.commit.slice(0, 7)}`;
  if (stale) return { tone: 'stale', label: 'Validation stale', detail: `${result.valid ? 'valid' : 'invalid'} (${counts}) at ${at}, but ${stale}. Validate again.` };
  const head = currentBranch(s)?.headCommit;
  const committed = head !== undefined && head !== result.commit ? ` The same files are now committed as ${head.slice(0, 7)}.` : '';
  return result.valid
    ? { tone: 'good', label: 'Valid on the service', detail: `valid (${counts}) at ${at}.${committed}` }
    : { tone: 'bad', label: `Service: ${plural(result.errorCount, 'error')}`, detail: `invalid (${counts}) at ${at}.${committed}` };
}

/** Diagnostics the service's compiler also reports: the editor adds the push and publish checks. */
export const compilerOnly = (diagnostics: ModelDiagnostic[]) => diagnostics.filter((d) => analyzerOf(d) === null);

const key = (d: ModelDiagnostic) => `${d.severity}:${d.file}:${d.line}:${d.code}`;

/** Same compiler findings (severity, file, line, code) on both sides. */
export function sameFindings(local: ModelDiagnostic[], server: ModelDiagnostic[]): boolean {
  const a = compilerOnly(local).filter((d) => d.severity !== 'info').map(key).sort();
  const b = server.filter((d) => d.severity !== 'info').map(key).sort();
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/**
 * How the editor's findings relate to the verdict's, in one sentence that never contradicts either
 * count: the push/publish warnings are named as the editor's own.
 */
export function comparison(local: ModelDiagnostic[], server: ModelDiagnostic[], unsavedAtCheck: number, stale: string | null): string {
  const checks = local.filter((d) => analyzerOf(d) !== null && d.severity !== 'info').length;
  const extra = checks > 0 ? ` The editor also shows ${plural(checks, 'push or publish warning', 'push or publish warnings')}: the service checks those when you push or publish.` : '';
  if (stale) return `Stale: ${stale}. Validate again to check them.${extra}`;
  if (unsavedAtCheck > 0) return `${plural(unsavedAtCheck, 'unsaved file')} ${unsavedAtCheck === 1 ? 'was' : 'were'} not part of this check: the editor checks unsaved text too.${extra}`;
  const compiler = compilerOnly(local).filter((d) => d.severity !== 'info');
  const errors = compiler.filter((d) => d.severity === 'error').length;
  const warnings = compiler.length - errors;
  if (sameFindings(local, server)) return `The editor’s compiler finds the same: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}.${extra}`;
  return `The editor’s compiler now finds ${plural(errors, 'error')} and ${plural(warnings, 'warning')}, which differ from the service’s: it also checks unsaved text. Save and validate again.${extra}`;
}
