// Merging safely: the merge dialog shows the source branch's validation first and asks before merging a
// model with errors; after a merge into the deploy branch, the build's result appears right there in
// Models (not only under Deployments › Build status), with a way to the errors.
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import { getDeploymentBuildStatus, type BuildState } from '../../../../src-shared/api/deployments';
import { validateDataModel, type ModelDiagnostic, type ValidationResult } from '../../../../src-shared/api/data-model';
import { navigate } from '../../app/router';
import { api } from '../../app/session';
import { toShownError, type ShownError } from '../../lib/errors';
import { plural } from '../../lib/plural';
import { ProblemBanner, Spinner } from '../../lib/ui';
import { ModelsIcon } from './icons';
import { goTo } from './navigation';

const SHOWN_ERRORS = 5;
const BUILD_POLL_MS = 1500;

/** The service's verdict on a branch's model, fetched when the merge dialog opens. */
export function useBranchValidation(deploymentId: number | null, branchName: string | undefined, headCommit: string | undefined, enabled: boolean) {
  const [result, setResult] = useState<ValidationResult | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  useEffect(() => {
    setResult(null);
    setError(null);
    if (!enabled || deploymentId === null || !branchName) return;
    let cancelled = false;
    api.call(validateDataModel, { params: { deploymentId }, query: { branchName } }).then(
      (r) => !cancelled && setResult(r),
      (e: unknown) => !cancelled && setError(toShownError(e, 'Validating the branch')),
    );
    return () => {
      cancelled = true;
    };
  }, [deploymentId, branchName, headCommit, enabled]);
  return { result, error, loading: enabled && result === null && error === null };
}

const where = (d: ModelDiagnostic) => `${d.file}:${d.line}:${d.column}`;

/** Validation of the branch being merged; with errors, the merge needs `acknowledged`. */
export function MergeValidation({
  branchName,
  target,
  validation,
  acknowledged,
  onAcknowledge,
  onReveal,
}: {
  branchName: string;
  target: string;
  validation: ReturnType<typeof useBranchValidation>;
  acknowledged: boolean;
  onAcknowledge: (value: boolean) => void;
  onReveal: (d: ModelDiagnostic) => void;
}) {
  const { result, error, loading } = validation;
  if (loading) return <Spinner label={`Validating ${branchName}…`} />;
  if (error) return <ProblemBanner error={error} />;
  if (!result) return null;
  if (result.valid) {
    return (
      <div className="merge-check merge-check-ok" role="status" aria-label="Validation">
        <ModelsIcon name="check" /> <strong>Valid:</strong> {plural(result.fileCount, 'file')} compiled, no errors
        {result.warningCount > 0 ? `, ${plural(result.warningCount, 'warning')}` : ''}.
      </div>
    );
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  return (
    <div className="merge-check merge-check-bad" role="alert" aria-label="Validation">
      <strong>
        {branchName} has {plural(result.errorCount, 'error')}.
      </strong>{' '}
      If you merge it, the build of <code>{target}</code> fails and the deployment keeps serving its last good build.
      <ul className="merge-check-list">
        {errors.slice(0, SHOWN_ERRORS).map((d, i) => (
          <li key={i}>
            <button type="button" className="link" onClick={() => onReveal(d)} title={`Open ${where(d)}`}>
              {where(d)}
            </button>{' '}
            {d.message}
          </li>
        ))}
        {errors.length > SHOWN_ERRORS && <li className="muted">…and {plural(errors.length - SHOWN_ERRORS, 'more error')}</li>}
      </ul>
      <label className="merge-check-ack">
        <input type="checkbox" checked={acknowledged} onChange={(e) => onAcknowledge(e.target.checked)} /> Merge anyway, knowing the build of {target} will fail
      </label>
    </div>
  );
}

// ---- after the merge -----------------------------------------------------------------------------

export interface MergeOutcomeState {
  outcome: { deploymentId: number; source: string; target: string; commit: string | null; errors: ModelDiagnostic[] } | null;
  show(outcome: MergeOutcomeState['outcome']): void;
  clear(): void;
}

export const useMergeOutcome = create<MergeOutcomeState>((set) => ({
  outcome: null,
  show: (outcome) => set({ outcome }),
  clear: () => set({ outcome: null }),
}));

const finished = (state: BuildState, commit: string | null) => (commit === null || state.commit === commit) && (state.buildStatus === 'succeeded' || state.buildStatus === 'failed');

/** The build of the merge commit, followed until it ends; shown on the Models screen where the user merged. */
export function MergeOutcome() {
  const outcome = useMergeOutcome((s) => s.outcome);
  const clear = useMergeOutcome((s) => s.clear);
  const openFile = goTo;
  const [build, setBuild] = useState<BuildState | null>(null);
  const [error, setError] = useState<ShownError | null>(null);

  useEffect(() => {
    setBuild(null);
    setError(null);
    if (!outcome) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const state = await api.call(getDeploymentBuildStatus, { params: { deploymentId: outcome.deploymentId }, query: { branch: outcome.target } });
        if (stopped) return;
        setBuild(state);
        if (finished(state, outcome.commit)) return;
      } catch (e) {
        if (stopped) return;
        setError(toShownError(e, 'Reading the build status'));
        return;
      }
      timer = setTimeout(() => void poll(), BUILD_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [outcome]);

  if (!outcome) return null;
  const current = build && (outcome.commit === null || build.commit === outcome.commit) ? build : null;
  const status = current?.buildStatus ?? 'queued';
  const failed = status === 'failed';
  const first = outcome.errors[0];
  return (
    <div className={`merge-outcome merge-outcome-${failed ? 'bad' : status === 'succeeded' ? 'good' : 'busy'}`} role={failed ? 'alert' : 'status'} aria-label="Merge result">
      <div className="merge-outcome-text">
        <strong>
          Merged {outcome.source} into {outcome.target}
          {outcome.commit ? ` (${outcome.commit.slice(0, 7)})` : ''}.
        </strong>{' '}
        {status === 'succeeded' && <span>The build succeeded and the deployment serves the new model.</span>}
        {failed && (
          <span>
            The build failed{current?.detail ? `: ${current.detail}` : '.'} The deployment keeps serving its last good build.{' '}
            {first && (
              <button type="button" className="link" onClick={() => openFile(first.file, { line: first.line, column: first.column })}>
                Show the {outcome.errors.length === 1 ? 'error' : plural(outcome.errors.length, 'error')}
              </button>
            )}
          </span>
        )}
        {!failed && status !== 'succeeded' && (
          <span>
            <span className="spinner" aria-hidden="true" /> Building {outcome.target}…
          </span>
        )}{' '}
        <span aria-hidden="true">· </span>
        <a
          href={`/deployments/${outcome.deploymentId}/build`}
          onClick={(e) => {
            e.preventDefault();
            navigate(`/deployments/${outcome.deploymentId}/build`);
          }}
        >
          Build status
        </a>
      </div>
      <ProblemBanner error={error} />
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={clear}>
        ×
      </button>
    </div>
  );
}
