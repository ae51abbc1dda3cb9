import { useEffect, useState } from 'react';
import { ApiProblem } from '../../../../src-shared/api/client';
import { commitBranch, mergeBranch, mergeBranchToDefault, pullBranch, type Branch, type BranchOperationResult } from '../../../../src-shared/api/data-model';
import { navigate } from '../../app/router';
import { api } from '../../app/session';
import { toShownError, type ShownError } from '../../lib/errors';
import { Button, Dialog, ProblemBanner, Spinner } from '../../lib/ui';
import { DiffView } from './DiffView';
import { MergeValidation, useBranchValidation, useMergeOutcome } from './MergeCheck';
import { useBranchReview, useTestRun } from './review/jobs';
import { MergeReview } from './review/MergeReview';
import { TestOutcome } from './review/TestOutcome';
import { pushLine } from './upstream/conflict';
import { dirtyPaths, useModels } from './store';
import { goTo } from './navigation';
import { plural, verb } from '../../lib/plural';

export type BranchOperation = 'commit' | 'pull' | 'merge' | 'merge-to-default';

const ROUTES = { commit: commitBranch, pull: pullBranch, merge: mergeBranch, 'merge-to-default': mergeBranchToDefault } as const;

export function operationTitle(operation: BranchOperation, branch: Branch, deployBranch: string): string {
  switch (operation) {
    case 'commit':
      return `Commit changes on ${branch.branchName}`;
    case 'pull':
      return `Pull ${branch.parentBranch ?? deployBranch} into ${branch.branchName}`;
    case 'merge':
      return `Merge ${branch.branchName} into ${branch.parentBranch ?? deployBranch}`;
    case 'merge-to-default':
      return `Merge ${branch.branchName} into the deploy branch ${deployBranch}`;
  }
}

const APPLY_LABEL = { commit: 'Commit', pull: 'Pull', merge: 'Merge', 'merge-to-default': 'Merge to deploy branch' } as const;

const NOTHING = { commit: 'There is nothing to commit: the branch has no saved, uncommitted edits.', pull: 'Already up to date with the parent branch.', merge: 'Nothing to merge: the parent already has every commit of this branch.', 'merge-to-default': 'Nothing to merge: the deploy branch already has every commit of this branch.' } as const;

function conflictsOf(error: unknown): string[] | null {
  if (!(error instanceof ApiProblem) || error.code !== 'MERGE_CONFLICT') return null;
  const conflicts = error.problem?.conflicts;
  return Array.isArray(conflicts) ? conflicts.filter((c): c is string => typeof c === 'string') : [];
}

function describeResult(operation: BranchOperation, result: BranchOperationResult): string {
  const done = describeChange(operation, result);
  return result.push ? `${done} ${pushLine(result.push.status, result.push.upstream)}` : done;
}

function describeChange(operation: BranchOperation, result: BranchOperationResult): string {
  const commit = result.commit ? ` (${result.commit.slice(0, 10)})` : '';
  const files = plural(result.changes.length, 'file');
  switch (result.outcome) {
    case 'committed':
      return `Committed ${files} on ${result.branchName}${commit}.`;
    case 'fast-forward':
    case 'merged':
      return operation === 'pull' ? `Pulled ${files} from ${result.targetBranch === result.branchName ? 'the parent' : result.targetBranch} into ${result.branchName}${commit}.` : `Merged ${result.branchName} into ${result.targetBranch}: ${files}${commit}.`;
    default:
      return NOTHING[operation];
  }
}

/**
 * Commit, pull and merge dialogs: a dry run first shows what would change on the target branch (a diff
 * per file), then the user applies it. Conflicts are shown with their paths; nothing changes then.
 */
export function BranchOperationDialog({ operation, branch, deployBranch, onClose, onSwitch }: { operation: BranchOperation | null; branch: Branch | undefined; deployBranch: string; onClose: () => void; onSwitch: (operation: BranchOperation) => void }) {
  const deploymentId = useModels((s) => s.deploymentId);
  const unsaved = useModels((s) => dirtyPaths(s).length);
  const saveAll = useModels((s) => s.save);
  const refresh = useModels((s) => s.refresh);
  const setNotice = useModels((s) => s.setNotice);
  const openFile = goTo;
  const showOutcome = useMergeOutcome((s) => s.show);
  const [acknowledged, setAcknowledged] = useState(false);
  const [preview, setPreview] = useState<BranchOperationResult | null>(null);
  const [loading, setLoading] = useState(false);
  const [applying, setApplying] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [conflicts, setConflicts] = useState<string[] | null>(null);
  const [message, setMessage] = useState('');
  const [generation, setGeneration] = useState(0);

  const open = operation !== null && branch !== undefined && deploymentId !== null;
  const isMerge = operation === 'merge' || operation === 'merge-to-default';
  const validation = useBranchValidation(deploymentId, branch?.branchName, branch?.headCommit, open && isMerge);
  // What the merge does to the numbers: the branch against where it left its parent, or against where
  // it left the deploy branch when it skips its parent (the service takes a named base branch so).
  const reviewBase = operation === 'merge-to-default' ? deployBranch : undefined;
  const review = useBranchReview(deploymentId, branch?.branchName, reviewBase, branch?.headCommit, open && isMerge);
  const tests = useTestRun(open && isMerge ? deploymentId : null, branch?.branchName);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setPreview(null);
    setError(null);
    setConflicts(null);
    setLoading(true);
    api
      .call(ROUTES[operation], { params: { deploymentId }, body: { branchName: branch.branchName, dryRun: true } })
      .then(
        (result) => !cancelled && setPreview(result),
        (failure: unknown) => {
          if (cancelled) return;
          setConflicts(conflictsOf(failure));
          setError(toShownError(failure, 'Preview'));
        },
      )
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [open, operation, branch?.branchName, branch?.headCommit, deploymentId, generation]);

  useEffect(() => {
    if (!open) setMessage('');
    setAcknowledged(false);
  }, [open, operation]);

  if (!open) return null;

  const nothingToDo = preview !== null && (preview.outcome === 'nothing-to-commit' || preview.outcome === 'up-to-date' || preview.changes.length === 0);
  const needsMessage = operation === 'commit';
  const withErrors = isMerge && validation.result !== null && !validation.result.valid;
  // A merge waits for the validation, and a model with errors merges only once the user said so.
  const mergeHeld = isMerge && (validation.loading || (withErrors && !acknowledged));
  const canApply = preview !== null && !nothingToDo && !loading && !mergeHeld && (!needsMessage || message.trim().length > 0);

  const apply = async () => {
    setApplying(true);
    setError(null);
    try {
      const result = await api.call(ROUTES[operation], {
        params: { deploymentId },
        body: { branchName: branch.branchName, ...(message.trim() ? { message: message.trim() } : {}) },
      });
      if (isMerge && result.targetBranch === deployBranch && result.commit) {
        // The deploy branch builds: its result shows here, where the user merged.
        const errors = validation.result?.diagnostics.filter((d) => d.severity === 'error') ?? [];
        showOutcome({ deploymentId, source: result.branchName, target: result.targetBranch, commit: result.commit, errors });
      } else setNotice(describeResult(operation, result));
      onClose();
      await refresh();
    } catch (failure) {
      setConflicts(conflictsOf(failure));
      setError(toShownError(failure, APPLY_LABEL[operation]));
    } finally {
      setApplying(false);
    }
  };

  const uncommittedMerge = error?.code === 'UNCOMMITTED_CHANGES';

  return (
    <Dialog
      title={operationTitle(operation, branch, deployBranch)}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          {uncommittedMerge && <Button onClick={() => onSwitch('commit')}>Commit first…</Button>}
          <Button variant={withErrors ? 'danger' : 'primary'} busy={applying} disabled={!canApply} onClick={() => void apply()}>
            {withErrors ? `${APPLY_LABEL[operation]} with errors` : APPLY_LABEL[operation]}
          </Button>
        </>
      }
    >
      <div className="branch-op">
        {unsaved > 0 && (
          <div className="notice op-unsaved">
            {plural(unsaved, 'file')} {verb(unsaved, 'has', 'have')} unsaved edits, which {operation === 'commit' ? 'this commit would not include' : 'are not part of the branch yet'}.{' '}
            <button
              type="button"
              className="link"
              onClick={() =>
                void saveAll().then((ok) => {
                  if (ok) setGeneration((g) => g + 1);
                })
              }
            >
              Save all and preview again
            </button>
          </div>
        )}
        {conflicts !== null ? (
          <div className="conflicts" role="alert">
            <strong>Merge conflict — nothing was changed.</strong>
            <p>
              Both branches changed {conflicts.length === 1 ? 'this file' : 'these files'} differently. Make them agree on one side (for example, pull and edit the file on your dev
              branch), then try again.
            </p>
            <ul className="conflict-paths">
              {conflicts.map((path) => (
                <li key={path}>
                  <code>{path}</code>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <ProblemBanner error={error} />
        )}
        {isMerge && conflicts === null && (
          <MergeValidation
            branchName={branch.branchName}
            target={branch.parentBranch && operation === 'merge' ? branch.parentBranch : deployBranch}
            validation={validation}
            acknowledged={acknowledged}
            onAcknowledge={setAcknowledged}
            onReveal={(d) => {
              onClose();
              openFile(d.file, { line: d.line, column: d.column });
            }}
          />
        )}
        {isMerge && conflicts === null && (
          <>
            <MergeReview
              review={review}
              onOpen={() => {
                onClose();
                navigate(`/models/${deploymentId}/review`);
              }}
            />
            <TestOutcome
              tests={tests}
              onReveal={(at) => {
                onClose();
                openFile(at.file, { line: at.line, column: at.column });
              }}
            />
          </>
        )}
        {loading ? (
          <Spinner label="Preparing the preview…" />
        ) : preview ? (
          nothingToDo ? (
            <p className="muted">{NOTHING[operation]}</p>
          ) : (
            <>
              <p className="op-summary">
                Changes to {plural(preview.changes.length, 'file')} on <code>{preview.targetBranch}</code>
                {preview.outcome === 'fast-forward' ? ' (fast-forward)' : ''}:
              </p>
              <DiffView changes={preview.changes} />
            </>
          )
        ) : null}
        {/* A fast-forward makes no commit of its own, so it has no message. */}
        {(needsMessage || (preview && !nothingToDo && preview.outcome !== 'fast-forward')) && (
          <div className="field op-message">
            <label htmlFor="op-message">{needsMessage ? 'Commit message' : 'Message (optional)'}</label>
            <textarea id="op-message" rows={2} value={message} onChange={(e) => setMessage(e.target.value)} placeholder={needsMessage ? 'Describe the change' : `${APPLY_LABEL[operation]} ${branch.branchName}`} maxLength={5000} />
          </div>
        )}
      </div>
    </Dialog>
  );
}
