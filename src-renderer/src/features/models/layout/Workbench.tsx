// The Models workbench (issue 24), in the way of VS Code: a context bar, the views (activity bar on
// the left: Files, Data, Lineage, Review), a status bar. Notices are toasts and errors float over the work
// area: nothing pushes the editor down.
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useNavRail } from '../../../app/navRail';
import { navigate } from '../../../app/router';
import { useSession } from '../../../app/session';
import { showToast } from '../../../lib/toast';
import { Spinner } from '../../../lib/ui';
import { useStartTourOnce } from '../../tour/GuidedTour';
import { BranchOperationDialog, type BranchOperation } from '../BranchOperationDialog';
import { DataPreview } from '../data/DataPreview';
import { DeleteFileDialog, NewFileDialog, RenameFileDialog } from '../FileDialogs';
import { LineageView } from '../lineage/LineageView';
import { ReviewView } from '../review/ReviewView';
import { StaleWriteDialog } from '../StaleWriteDialog';
import { currentBranch, dirtyPaths, isEditable, myDevBranch, useModels } from '../store';
import { ActivityBar, type ModelsView } from './ActivityBar';
import { setScreenCommands } from './commands';
import { ContextBar } from './ContextBar';
import { FilesView } from './FilesView';
import { useLayoutKey, useWorkbenchLayout } from './layout-store';
import { StatusBar } from './StatusBar';
import { UnsavedChangesDialog } from './UnsavedChangesDialog';
import { WorkbenchNotices } from './WorkbenchNotices';

export function Workbench({ deploymentId, deployments, view, lineageOf }: { deploymentId: number; deployments: { id: number; name: string }[]; view: ModelsView; lineageOf?: string }) {
  const s = useModels(
    useShallow((state) => ({
      branches: state.branches,
      branchName: state.branchName,
      busy: state.busy,
      notice: state.notice,
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
      guardUnsaved: state.guardUnsaved,
      setNotice: state.setNotice,
      validateOnServer: state.validateOnServer,
    })),
  );
  const branch = useModels((state) => currentBranch(state));
  const editable = isEditable(branch);
  const dirtyCount = useModels((state) => dirtyPaths(state).length);
  const me = useSession((state) => state.user);
  const devBranch = myDevBranch(s.branches);
  const deployBranch = s.branches.find((b) => b.isDeployBranch)?.branchName ?? 'main';

  // The panes as this user left them on this service.
  const layoutKey = useLayoutKey();
  const loadLayout = useWorkbenchLayout((state) => state.load);
  const layoutReady = useWorkbenchLayout((state) => state.key === layoutKey);
  useEffect(() => loadLayout(layoutKey), [layoutKey, loadLayout]);

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
  useEffect(() => {
    if (dirtyCount === 0) return;
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirtyCount]);

  // A notice (committed, merged, pulled…) is a toast: it fades by itself and never moves the editor.
  useEffect(() => {
    if (!s.notice) return;
    showToast({ title: s.notice, tone: 'good' });
    actions.setNotice(null);
  }, [s.notice, actions]);

  const base = `/models/${deploymentId}`;
  const lineagePath = lineageOf ? `/lineage/${encodeURIComponent(lineageOf)}` : '/lineage';

  // Quick open's `>` commands beyond the pane toggles.
  useEffect(
    () =>
      setScreenCommands([
        { id: 'models.validate', title: 'Validate on the service', run: () => void useModels.getState().validateOnServer() },
        // The app's own key (app/navRail.ts), listed here so it can be found.
        { id: 'app.navRail', title: 'View: Collapse or expand the app navigation', binding: { key: 'b', mod: true, alt: true }, run: () => useNavRail.getState().toggle() },
        { id: 'models.files', title: 'Go to the Files view', run: () => navigate(base) },
        { id: 'models.data', title: 'Go to the Data view', run: () => navigate(`${base}/data`) },
        { id: 'models.lineage', title: 'Go to the Lineage view', run: () => navigate(`${base}${lineagePath}`) },
        { id: 'models.review', title: 'Go to the Review view: what the branch changes, and its model tests', run: () => navigate(`${base}/review`) },
      ]),
    [base, lineagePath],
  );

  const switchDeployment = (id: number) => actions.guardUnsaved('switch deployment', async () => navigate(`/models/${id}${view === 'files' ? '' : `/${view}`}`));
  const switchBranch = (name: string) => actions.guardUnsaved(`switch to ${name}`, () => actions.openBranch(name));
  const toggleDevMode = () => {
    if (devBranch) actions.guardUnsaved('leave dev mode', () => actions.leaveDevMode());
    else void actions.enterDevMode();
  };

  return (
    <section className="models-page wb" aria-label="Models workbench">
      <ContextBar
        deploymentId={deploymentId}
        deployments={deployments}
        branches={s.branches}
        branch={branch}
        branchName={s.branchName}
        myId={me?.id}
        devBranch={devBranch}
        deployBranch={deployBranch}
        editable={editable}
        canCommit={Boolean(branch?.hasUncommittedChanges) || dirtyCount > 0}
        busy={s.busy}
        validating={s.validating}
        onDeployment={switchDeployment}
        onBranch={switchBranch}
        onDevMode={toggleDevMode}
        onValidate={() => {
          // The verdict shows in the panel's Service check tab (and in the status bar in every view).
          if (view === 'files') useWorkbenchLayout.getState().showPanel('server');
          void actions.validateOnServer();
        }}
        onOperation={setOperation}
      />
      <div className="wb-body">
        <ActivityBar base={base} current={view} lineagePath={lineagePath} />
        <div className="wb-main">
          {view === 'review' ? (
            <ReviewView deploymentId={deploymentId} />
          ) : view === 'lineage' ? (
            <LineageView deploymentId={deploymentId} name={lineageOf ? decodeURIComponent(lineageOf) : undefined} />
          ) : view === 'data' ? (
            branch ? (
              <DataPreview
                key={`${deploymentId}:${branch.branchName}`}
                deploymentId={deploymentId}
                branch={branch.branchName}
                isDeployBranch={branch.isDeployBranch}
                canLoadTables={me?.role === 'admin' || me?.role === 'developer'}
              />
            ) : (
              <Spinner label="Loading the branch…" />
            )
          ) : layoutReady ? (
            <FilesView onNew={() => setCreating(true)} onRename={setRenaming} onDelete={setDeleting} />
          ) : null}
        </div>
        <WorkbenchNotices />
      </div>
      <StatusBar files={view === 'files'} />

      <BranchOperationDialog operation={operation} branch={branch} deployBranch={deployBranch} onClose={() => setOperation(null)} onSwitch={setOperation} />
      <NewFileDialog open={creating} onClose={() => setCreating(false)} />
      <RenameFileDialog path={renaming} onClose={() => setRenaming(null)} />
      <DeleteFileDialog path={deleting} onClose={() => setDeleting(null)} />
      <StaleWriteDialog />
      <UnsavedChangesDialog editable={editable} />
    </section>
  );
}
