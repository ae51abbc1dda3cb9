import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { listDeployments } from '../../../../src-shared/api/deployments';
import type { Branch } from '../../../../src-shared/api/data-model';
import { navigate } from '../../app/router';
import type { ScreenProps } from '../../app/screen-props';
import { api, useSession } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import { Badge, Button, Dialog, ProblemBanner, Spinner } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { RouteTabs } from '../../lib/tabs';
import { BranchOperationDialog, type BranchOperation } from './BranchOperationDialog';
import { DataPreview } from './data/DataPreview';
import { DeleteFileDialog, NewFileDialog, RenameFileDialog } from './FileDialogs';
import { FileTree } from './FileTree';
import { ModelsIcon } from './icons';
import { ProblemsPanel } from './ProblemsPanel';
import { HistoryButtons, QuickOpen } from './QuickOpen';
import { LineageView } from './lineage/LineageView';
import { UpstreamBar } from './upstream/UpstreamBar';
import { StaleWriteDialog } from './StaleWriteDialog';
import { MergeOutcome } from './MergeCheck';
import { FirstRun } from './FirstRun';
import { useStartTourOnce } from '../tour/GuidedTour';
import { currentBranch, dirtyPaths, isEditable, myDevBranch, useModels } from './store';
import './models.css';

const ModelEditor = lazy(() => import('./ModelEditor'));

const LAST_DEPLOYMENT = 'drydock.models.deployment';

/** `/models` picks a deployment (the last one used, else the first); `/models/:deploymentId` shows its model. */
export default function ModelsScreen({ subpath }: ScreenProps) {
  const [idText] = subpath;
  const requested = idText !== undefined && /^\d+$/.test(idText) ? Number(idText) : null;
  const deployments = useQuery((signal) => fetchAllPages((after) => api.call(listDeployments, { query: { first: 100, ...(after ? { after } : {}) }, signal }), 500), [], 'Loading deployments');

  useEffect(() => {
    if (requested !== null || !deployments.data || deployments.data.length === 0) return;
    const last = Number(window.localStorage.getItem(LAST_DEPLOYMENT));
    const pick = deployments.data.find((d) => d.id === last) ?? deployments.data[0];
    navigate(`/models/${pick.id}`, { replace: true });
  }, [requested, deployments.data]);

  useEffect(() => {
    if (requested !== null) window.localStorage.setItem(LAST_DEPLOYMENT, String(requested));
  }, [requested]);

  // A deployment made elsewhere (the CLI, a script, another window) sends no live event: while there
  // is none, look again every two seconds, so the first-run screen moves on to it by itself.
  const none = deployments.data?.length === 0;
  const reloadDeployments = deployments.reload;
  useEffect(() => {
    if (!none) return;
    const timer = window.setInterval(reloadDeployments, 2_000);
    return () => window.clearInterval(timer);
  }, [none, reloadDeployments]);

  if (idText !== undefined && requested === null) {
    return <ProblemBanner error={{ title: 'Not found', detail: `“${idText}” is not a deployment id.`, code: null, status: null, fields: [] }} />;
  }
  if (deployments.error && !deployments.data) return <ProblemBanner error={deployments.error} />;
  if (!deployments.data) return <Spinner label="Loading deployments…" />;
  if (deployments.data.length === 0) return <FirstRun onCreated={(id) => (deployments.reload(), navigate(`/models/${id}`))} />;
  if (requested === null) return <Spinner />;
  const view = subpath[1] === 'data' ? 'data' : subpath[1] === 'lineage' ? 'lineage' : 'files';
  return <Workbench deploymentId={requested} view={view} lineageOf={view === 'lineage' ? subpath[2] : undefined} deployments={deployments.data.map((d) => ({ id: d.id, name: d.name }))} />;
}

/** ` · ↑1 ↓2` for a branch that tracks the team repository and differs from it. */
function upstreamSuffix(branch: Branch): string {
  if (!branch.upstream || branch.ahead === null || branch.behind === null || (branch.ahead === 0 && branch.behind === 0)) return '';
  return ` · ${branch.ahead ? `↑${branch.ahead}` : ''}${branch.ahead && branch.behind ? ' ' : ''}${branch.behind ? `↓${branch.behind}` : ''}`;
}

function branchLabel(branch: Branch, myId: number | undefined): string {
  return `${roleLabel(branch, myId)}${upstreamSuffix(branch)}`;
}

function roleLabel(branch: Branch, myId: number | undefined): string {
  if (branch.isDeployBranch) return `${branch.branchName} · deploy branch`;
  if (branch.kind === 'personal') {
    const mine = myId !== undefined && branch.ownerUserId === myId;
    return `${branch.branchName} · ${mine ? 'your dev branch' : `dev branch of user ${branch.ownerUserId ?? '?'}`}`;
  }
  return `${branch.branchName} · shared`;
}

function Workbench({ deploymentId, deployments, view, lineageOf }: { deploymentId: number; deployments: { id: number; name: string }[]; view: 'files' | 'data' | 'lineage'; lineageOf?: string }) {
  const s = useModels(
    useShallow((state) => ({
      branches: state.branches,
      branchName: state.branchName,
      openPath: state.openPath,
      busy: state.busy,
      error: state.error,
      notice: state.notice,
      pending: state.pending,
      validating: state.validating,
      filesLoading: state.filesLoading,
    })),
  );
  const actions = useModels(
    useShallow((state) => ({
      selectDeployment: state.selectDeployment,
      openBranch: state.openBranch,
      enterDevMode: state.enterDevMode,
      leaveDevMode: state.leaveDevMode,
      save: state.save,
      discard: state.discard,
      guardUnsaved: state.guardUnsaved,
      resolvePending: state.resolvePending,
      setError: state.setError,
      setNotice: state.setNotice,
      validateOnServer: state.validateOnServer,
    })),
  );
  const branch = useModels((state) => currentBranch(state));
  const editable = isEditable(branch);
  const dirty = useModels(useShallow(dirtyPaths));
  const discard = actions.discard;
  const openDirty = s.openPath !== null && dirty.includes(s.openPath);
  const me = useSession((state) => state.user);
  const devBranch = myDevBranch(s.branches);
  const deployBranch = s.branches.find((b) => b.isDeployBranch)?.branchName ?? 'main';

  // The first time this user sees a loaded model, the guided tour opens (Help opens it again).
  useStartTourOnce(branch !== undefined && !s.filesLoading);

  const [operation, setOperation] = useState<BranchOperation | null>(null);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  useEffect(() => {
    void actions.selectDeployment(deploymentId);
  }, [deploymentId, actions]);

  // Ctrl/Cmd+S anywhere on the screen saves every unsaved file (in the editor it saves the open one).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        if (editable && !(event.target instanceof HTMLElement && event.target.closest('.monaco-editor'))) void actions.save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editable, actions]);

  // Closing the tab with unsaved edits asks first.
  const dirtyCount = dirty.length;
  useEffect(() => {
    if (dirtyCount === 0) return;
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirtyCount]);

  // Success notices fade after a while; errors stay until dismissed.
  useEffect(() => {
    if (!s.notice) return;
    const timer = setTimeout(() => actions.setNotice(null), 8000);
    return () => clearTimeout(timer);
  }, [s.notice, actions]);

  const switchDeployment = (id: number) => actions.guardUnsaved('switch deployment', async () => navigate(`/models/${id}${view === 'files' ? '' : `/${view}`}`));
  const switchBranch = (name: string) => actions.guardUnsaved(`switch to ${name}`, () => actions.openBranch(name));
  const toggleDevMode = () => {
    if (devBranch) actions.guardUnsaved('leave dev mode', () => actions.leaveDevMode());
    else void actions.enterDevMode();
  };

  return (
    <section className="page models-page">
      <header className="models-head">
        <h1>Models</h1>
        <div className="models-actions">
          {s.busy && (
            <span className="muted busy-label" role="status">
              <span className="spinner" aria-hidden="true" /> {s.busy}
            </span>
          )}
          <Button busy={s.validating} onClick={() => void actions.validateOnServer()} disabled={!branch} title="Compile the saved files of this branch on the service">
            Validate
          </Button>
          {branch?.parentBranch && (
            <Button onClick={() => setOperation('pull')} title={`Bring new commits of ${branch.parentBranch} into ${branch.branchName}`}>
              Pull
            </Button>
          )}
          {branch && !branch.isDeployBranch && <MergeMenu branch={branch} deployBranch={deployBranch} onPick={setOperation} />}
          {editable && (
            <Button variant="primary" onClick={() => setOperation('commit')} disabled={!branch?.hasUncommittedChanges && dirty.length === 0}>
              Commit…
            </Button>
          )}
        </div>
      </header>

      <div className="models-toolbar">
        <label className="control">
          <span className="control-label">Deployment</span>
          <select aria-label="Deployment" value={deploymentId} onChange={(e) => switchDeployment(Number(e.target.value))}>
            {deployments.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} (#{d.id})
              </option>
            ))}
          </select>
        </label>
        <label className="control">
          <span className="control-label">
            <ModelsIcon name="branch" size={12} /> Branch
          </span>
          <select aria-label="Branch" value={s.branchName ?? ''} onChange={(e) => switchBranch(e.target.value)} disabled={s.branches.length === 0}>
            {s.branches.map((b) => (
              <option key={b.branchName} value={b.branchName}>
                {branchLabel(b, me?.id)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          role="switch"
          aria-checked={devBranch !== undefined}
          className={`devmode ${devBranch ? 'on' : ''}`}
          onClick={toggleDevMode}
          disabled={s.busy !== null || s.branches.length === 0}
          title={devBranch ? `Leave dev mode (${devBranch.branchName} keeps its edits)` : 'Edit files on your personal dev branch'}
        >
          <span className="devmode-track" aria-hidden="true">
            <span className="devmode-thumb" />
          </span>
          Dev mode
        </button>
        {branch && (
          <span className="branch-facts" title={`${branch.branchName}${branch.parentBranch ? `, forked from ${branch.parentBranch}` : ''}`}>
            {editable ? <Badge tone="good">editing {branch.branchName}</Badge> : <Badge>read-only</Badge>}
            {branch.parentBranch && <span className="muted">forked from {branch.parentBranch}</span>}
            <code className="muted" title={`Head commit ${branch.headCommit}`}>
              {branch.headCommit.slice(0, 7)}
            </code>
            {branch.hasUncommittedChanges && <Badge tone="warn">uncommitted changes</Badge>}
          </span>
        )}
      </div>

      <UpstreamBar deploymentId={deploymentId} branch={branch} />

      {s.notice && (
        <div className="models-notice" role="status">
          <ModelsIcon name="check" /> <span>{s.notice}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => actions.setNotice(null)}>
            ×
          </button>
        </div>
      )}
      <ProblemBanner error={s.error} onDismiss={() => actions.setError(null)} />
      <MergeOutcome />

      <RouteTabs
        base={`/models/${deploymentId}`}
        label="Models views"
        current={view}
        tabs={[
          { id: 'files', title: 'Files', path: '' },
          { id: 'data', title: 'Data', path: '/data' },
          { id: 'lineage', title: 'Lineage', path: lineageOf ? `/lineage/${encodeURIComponent(lineageOf)}` : '/lineage' },
        ]}
      />

      {view === 'lineage' ? (
        <LineageView deploymentId={deploymentId} name={lineageOf ? decodeURIComponent(lineageOf) : undefined} />
      ) : view === 'data' ? (
        <div className="models-data">
          {branch ? (
            <DataPreview
              key={`${deploymentId}:${branch.branchName}`}
              deploymentId={deploymentId}
              branch={branch.branchName}
              isDeployBranch={branch.isDeployBranch}
              canLoadTables={me?.role === 'admin' || me?.role === 'developer'}
            />
          ) : (
            <Spinner label="Loading the branch…" />
          )}
        </div>
      ) : (
        <div className="split-box models-workbench">
          <FileTree onNew={() => setCreating(true)} onRename={setRenaming} onDelete={setDeleting} />
          <div className="models-main">
            <div className="editor-head">
              <HistoryButtons />
              {s.openPath ? (
                <>
                  <span className="editor-path" title={s.openPath}>
                    {s.openPath.split('/').map((part, i, all) => (
                      <span key={i} className={i === all.length - 1 ? 'editor-file' : 'editor-dir'}>
                        {part}
                        {i < all.length - 1 && <span className="editor-sep">/</span>}
                      </span>
                    ))}
                  </span>
                  {openDirty && <span className="dirty-label">● Unsaved</span>}
                  {!editable && <span className="muted readonly-label">Read-only — enter dev mode to edit</span>}
                  <span className="editor-head-spacer" />
                  {editable && openDirty && (
                    <Button className="btn-small" variant="ghost" disabled={s.busy !== null} onClick={() => discard([s.openPath!])} title="Drop unsaved edits of this file">
                      Discard
                    </Button>
                  )}
                  {editable && (
                    <Button className="btn-small" variant={openDirty ? 'primary' : 'default'} disabled={!openDirty || s.busy !== null} onClick={() => void actions.save([s.openPath!])} title="Save (Ctrl/Cmd+S)">
                      Save
                    </Button>
                  )}
                </>
              ) : (
                <span className="muted">{s.filesLoading ? 'Loading the branch…' : 'Open a file from the tree.'}</span>
              )}
            </div>
            <div className="editor-area">
              <Suspense fallback={<Spinner label="Loading the editor…" />}>
                <ModelEditor />
              </Suspense>
              {!s.openPath && !s.filesLoading && (
                <div className="editor-empty">
                  <ModelsIcon name="file" size={28} />
                  <p>Pick a cube or view in the file tree.</p>
                  <p className="muted">
                    {editable ? 'Diagnostics update as you type; Ctrl/Cmd+S saves.' : 'Turn on dev mode to edit files on your personal branch.'}
                  </p>
                  <p className="muted">Ctrl/Cmd+P goes to a file or member; F12 to a definition; Shift+F12 lists references; Alt+←/→ go back and forward.</p>
                </div>
              )}
            </div>
            <ProblemsPanel />
          </div>
          <QuickOpen />
        </div>
      )}

      <BranchOperationDialog operation={operation} branch={branch} deployBranch={deployBranch} onClose={() => setOperation(null)} onSwitch={setOperation} />
      <NewFileDialog open={creating} onClose={() => setCreating(false)} />
      <RenameFileDialog path={renaming} onClose={() => setRenaming(null)} />
      <DeleteFileDialog path={deleting} onClose={() => setDeleting(null)} />
      <StaleWriteDialog />
      <Dialog
        title="Unsaved changes"
        open={s.pending !== null}
        onClose={() => void actions.resolvePending('cancel')}
        footer={
          <>
            <Button onClick={() => void actions.resolvePending('cancel')}>Cancel</Button>
            <Button variant="danger" onClick={() => void actions.resolvePending('discard')}>
              Discard changes
            </Button>
            {editable && (
              <Button variant="primary" onClick={() => void actions.resolvePending('save')}>
                Save and continue
              </Button>
            )}
          </>
        }
      >
        <p>
          {dirty.length} {dirty.length === 1 ? 'file has' : 'files have'} unsaved edits. Save {dirty.length === 1 ? 'it' : 'them'} before you {s.pending?.description ?? 'continue'}?
        </p>
        <ul className="unsaved-list">
          {dirty.map((path) => (
            <li key={path}>
              <code>{path}</code>
            </li>
          ))}
        </ul>
      </Dialog>
    </section>
  );
}

function MergeMenu({ branch, deployBranch, onPick }: { branch: Branch; deployBranch: string; onPick: (operation: BranchOperation) => void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (event: globalThis.MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const pick = (operation: BranchOperation) => {
    setOpen(false);
    onPick(operation);
  };
  const parent = branch.parentBranch ?? deployBranch;
  return (
    <div className="menu" ref={root}>
      <Button className="btn-small" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        Merge <ModelsIcon name="caret" size={12} />
      </Button>
      {open && (
        <div className="menu-list" role="menu" aria-label="Merge">
          <button type="button" role="menuitem" onClick={() => pick('merge')}>
            <strong>Merge into {parent}</strong>
            <span className="muted">The parent branch gets this branch’s commits.</span>
          </button>
          {parent !== deployBranch && (
            <button type="button" role="menuitem" onClick={() => pick('merge-to-default')}>
              <strong>Merge into {deployBranch}</strong>
              <span className="muted">The deploy branch gets this branch’s commits directly.</span>
            </button>
          )}
          {parent === deployBranch && (
            <button type="button" role="menuitem" onClick={() => pick('merge-to-default')}>
              <strong>Merge to the deploy branch</strong>
              <span className="muted">Same target as the parent here ({deployBranch}).</span>
            </button>
          )}
        </div>
      )}
    </div>
  );
}
