// The Models status bar (issue 24): the branch and its state on the left, the problem counts (they open
// the Problems panel), the service check's verdict (fresh or stale), the editor's compile time; the
// cursor, the file's language and the pane toggles on the right.
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { plural } from '../../../lib/plural';
import { ModelsIcon } from '../icons';
import { languageName } from '../languages';
import { currentBranch, dirtyPaths, isEditable, useModels } from '../store';
import { TOGGLE_PANEL, TOGGLE_TREE, withKey, SHOW_PROBLEMS } from './commands';
import { useWorkbenchLayout } from './layout-store';
import { verdictState } from './verdict';

function ProblemCounts() {
  const diagnostics = useModels((s) => s.analysis.diagnostics);
  const ready = useModels((s) => s.analysis.ready);
  const showPanel = useWorkbenchLayout((s) => s.showPanel);
  const counts = useMemo(() => {
    const c = { error: 0, warning: 0 };
    for (const d of diagnostics) if (d.severity !== 'info') c[d.severity]++;
    return c;
  }, [diagnostics]);
  const text = `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}`;
  return (
    <button type="button" className="sb-item sb-button" onClick={() => showPanel('problems')} title={withKey(`The editor finds ${ready ? text : '…'} — show them`, SHOW_PROBLEMS)}>
      <ModelsIcon name="error" size={13} className={counts.error ? 'sev-error' : undefined} />
      <span className="sr-only">Errors:</span> {counts.error}
      <ModelsIcon name="warning" size={13} className={counts.warning ? 'sev-warning' : undefined} />
      <span className="sr-only">Warnings:</span> {counts.warning}
    </button>
  );
}

function ServiceCheck() {
  const state = useModels(useShallow(verdictState));
  const validating = useModels((s) => s.validating);
  const showPanel = useWorkbenchLayout((s) => s.showPanel);
  const label = validating ? 'Validating…' : state.label;
  return (
    <button type="button" className={`sb-item sb-button sb-check sb-check-${validating ? 'busy' : state.tone}`} onClick={() => showPanel('server')} title={`Service check: ${state.detail}`}>
      {validating ? <span className="spinner" aria-hidden="true" /> : <ModelsIcon name={state.tone === 'good' ? 'check' : state.tone === 'bad' ? 'error' : 'info'} size={13} />}
      <span>{label}</span>
    </button>
  );
}

function CompileStatus() {
  const analysis = useModels((s) => s.analysis);
  const held = useModels((s) => s.analyzersHeld);
  const text = analysis.failure
    ? 'Compiler failed'
    : !analysis.ready
      ? 'Compiling…'
      : analysis.pending
        ? 'Checking…'
        : `${plural(analysis.fileCount, 'file')} · ${analysis.elapsedMs < 10 ? analysis.elapsedMs.toFixed(1) : Math.round(analysis.elapsedMs)} ms`;
  const title = analysis.failure
    ? `The editor's compiler failed: ${analysis.failure}`
    : analysis.ready
      ? `The editor's compiler checked ${plural(analysis.fileCount, 'model file')} (re-checking ${plural(analysis.recheckedEntities, 'cube or view', 'cubes and views')}) in ${analysis.elapsedMs.toFixed(1)} ms`
      : 'The editor compiles the branch';
  const heldText =
    held === 'reading'
      ? 'Push and publish checks wait for the deployment’s data sources (reading them again).'
      : held === 'unavailable'
        ? 'Push and publish checks are off: the deployment’s data sources could not be read. Reload the branch to try again.'
        : null;
  return (
    <span className={`sb-item sb-compile ${analysis.failure ? 'sb-bad' : ''}`} role="status" aria-live="polite" aria-label="Editor compile status" title={heldText ? `${title}. ${heldText}` : title}>
      {analysis.pending && <span className="spinner" aria-hidden="true" />}
      {text}
      {heldText && <span> · push/publish checks {held === 'reading' ? 'waiting' : 'off'}</span>}
    </span>
  );
}

function BranchItem() {
  const branch = useModels((s) => currentBranch(s));
  const editable = useModels((s) => isEditable(currentBranch(s)));
  const unsaved = useModels((s) => dirtyPaths(s).length);
  if (!branch) return null;
  const state = [editable ? 'editing' : 'read-only', unsaved ? `${plural(unsaved, 'unsaved file')}` : null, branch.hasUncommittedChanges ? 'uncommitted changes' : null].filter(Boolean).join(' · ');
  return (
    <span className="sb-item sb-branch" title={`${branch.branchName} at ${branch.headCommit.slice(0, 7)}${branch.parentBranch ? `, forked from ${branch.parentBranch}` : ''}`}>
      <ModelsIcon name="branch" size={13} />
      <span className="sb-branch-name">{branch.branchName}</span>
      <span className="sb-muted">{state}</span>
    </span>
  );
}

function Cursor() {
  const cursor = useWorkbenchLayout((s) => s.cursor);
  const openPath = useModels((s) => s.openPath);
  if (!cursor || !openPath) return null;
  return (
    <>
      <span className="sb-item" title="Line and column of the cursor">
        Ln {cursor.line}, Col {cursor.column}
      </span>
      <span className="sb-item">{languageName(openPath)}</span>
    </>
  );
}

function PaneToggles() {
  const treeOpen = useWorkbenchLayout((s) => s.treeOpen);
  const panelOpen = useWorkbenchLayout((s) => s.panelOpen);
  const toggleTree = useWorkbenchLayout((s) => s.toggleTree);
  const togglePanel = useWorkbenchLayout((s) => s.togglePanel);
  return (
    <>
      <button type="button" className="sb-item sb-button sb-toggle" aria-pressed={treeOpen} onClick={toggleTree} title={withKey(treeOpen ? 'Hide the file tree' : 'Show the file tree', TOGGLE_TREE)}>
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
          <rect x="1.5" y="2.5" width="13" height="11" rx="1" fill="none" stroke="currentColor" />
          <rect x="1.5" y="2.5" width="4.5" height="11" fill={treeOpen ? 'currentColor' : 'none'} stroke="currentColor" />
        </svg>
        <span className="sr-only">File tree</span>
      </button>
      <button type="button" className="sb-item sb-button sb-toggle" aria-pressed={panelOpen} onClick={togglePanel} title={withKey(panelOpen ? 'Hide the bottom panel' : 'Show the bottom panel', TOGGLE_PANEL)}>
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
          <rect x="1.5" y="2.5" width="13" height="11" rx="1" fill="none" stroke="currentColor" />
          <rect x="1.5" y="9" width="13" height="4.5" fill={panelOpen ? 'currentColor' : 'none'} stroke="currentColor" />
        </svg>
        <span className="sr-only">Bottom panel</span>
      </button>
    </>
  );
}

export function StatusBar({ files }: { files: boolean }) {
  return (
    <footer className="wb-status" role="group" aria-label="Status bar">
      <BranchItem />
      <ProblemCounts />
      <ServiceCheck />
      <CompileStatus />
      <span className="sb-grow" />
      {files && <Cursor />}
      {files && <PaneToggles />}
    </footer>
  );
}
