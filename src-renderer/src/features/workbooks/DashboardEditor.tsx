/**
 * Editing a workbook's dashboard: widgets laid out on the grid (drag, resize, keys), each widget's
 * settings and query in the side panel, then save the draft (`PUT …/dashboard`) and publish it
 * (`POST …/publish`). Leaving with unsaved changes asks first.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  getWorkbook,
  publishWorkbookDashboard,
  updateWorkbookDashboard,
  type DashboardConfig,
  type WorkbookDetail,
} from '../../../../src-shared/api/workbooks';
import type { Deployment } from '../../../../src-shared/api/deployments';
import { api } from '../../app/session';
import { ConfirmDialog } from '../../lib/confirm';
import { Badge, Button, EmptyState, ProblemBanner, Spinner } from '../../lib/ui';
import { UnsavedChangesDialog, useUnsavedGuard } from '../../lib/unsaved';
import { liveWorkbookWrite, useLiveRefresh } from '../../lib/live';
import { asDocument, staleOf } from '../../lib/stale';
import { StaleCompareDialog, type StaleCompare } from '../../lib/StaleCompareDialog';
import { useAction } from '../../lib/useAction';
import { useQuery } from '../../lib/useQuery';
import { plural } from '../../lib/plural';
import { loadCatalog } from '../models/data/catalog';
import { columnsOf, topLevelWidgets, widgetTitle } from './dashboard';
import { deploymentLabel } from './data';
import { EditableGrid } from './EditableGrid';
import { addWidget, asDraftInput, asInput, emptyDashboard, isDirty, moveWidget, NEW_WIDGETS, removeWidget, setWidgetConfig, stableJson, type NewWidgetType } from './editing';
import { AppLink, promotionPath, workbookPath, workbooksPath } from './links';
import { WidgetInspector } from './WidgetInspector';

export function DashboardEditor({ deploymentId, workbookId, deployments }: { deploymentId: number; workbookId: number; deployments: Deployment[] | null }) {
  const query = useQuery((signal) => api.callVersioned(getWorkbook, { params: { deploymentId, workbookId }, signal }), [deploymentId, workbookId], 'Loading the workbook');
  const workbook = query.data?.data;
  return (
    <section className="page wb-editor-page">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <AppLink to={workbooksPath()}>Workbooks</AppLink>
        <span aria-hidden="true">/</span>
        <AppLink to={workbooksPath(deploymentId)}>{deploymentLabel(deployments, deploymentId)}</AppLink>
        <span aria-hidden="true">/</span>
        <AppLink to={workbookPath(deploymentId, workbookId)}>{workbook?.name ?? `#${workbookId}`}</AppLink>
        <span aria-hidden="true">/</span>
        <span>Edit dashboard</span>
      </nav>
      <ProblemBanner error={query.error} />
      {!workbook ? (
        query.loading && <Spinner label="Loading the workbook…" />
      ) : !workbook.canManage ? (
        <EmptyState title="You cannot edit this dashboard">Only its owner or an admin can change it. You can duplicate the workbook and edit the copy.</EmptyState>
      ) : (workbook.dashboardDraft ?? workbook.dashboardPublished)?.kind === 'APP' ? (
        <EmptyState title="An app dashboard">This dashboard is made of authored files (kind APP), which the grid editor does not edit.</EmptyState>
      ) : (
        <Editor key={workbook.id} workbook={workbook} version={query.data?.version ?? null} deploymentId={deploymentId} />
      )}
    </section>
  );
}

/** A save the service refused because the workbook changed meanwhile, and what it holds now. */
interface Conflict {
  action: 'save' | 'publish';
  compare: StaleCompare;
  current: WorkbookDetail | null;
  version: string | null;
}

function Editor({ workbook, version: loadedVersion, deploymentId }: { workbook: WorkbookDetail; version: string | null; deploymentId: number }) {
  const workbookId = workbook.id;
  // The workbook's version the editor is based on: every save sends it, so a save over a change made
  // meanwhile (another window, a script) is refused and compared instead of overwriting it.
  const versionRef = useRef(loadedVersion);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [remote, setRemote] = useState<'reloaded' | 'changed' | null>(null);
  // What the service holds as the draft (null: no draft yet), and what the editor shows.
  const [saved, setSaved] = useState<DashboardConfig | null>(workbook.dashboardDraft);
  const [config, setConfig] = useState<DashboardConfig>(() => workbook.dashboardDraft ?? workbook.dashboardPublished ?? emptyDashboard(workbook.name));
  const [initial] = useState(config);
  const [selectedId, setSelectedId] = useState<string | null>(() => topLevelWidgets(config)[0]?.id ?? null);
  const [deleting, setDeleting] = useState<string | null>(null);
  // What the service publishes (to tell whether the saved draft still waits to be published).
  const [live, setLive] = useState<DashboardConfig | null>(workbook.dashboardPublished);
  const [published, setPublished] = useState(false);
  const catalog = useQuery((signal) => loadCatalog(deploymentId, null, true, signal), [deploymentId], 'Loading the model');
  const save = useAction('Saving the draft');
  const publish = useAction('Publishing the dashboard');

  // Unsaved: differs from the saved draft, or (no draft yet) from what the editor started with.
  const dirty = isDirty(config, saved ?? initial);
  const noDraft = saved === null;
  const waitsToPublish = dirty || noDraft || isDirty(saved, live);
  const guard = useUnsavedGuard(dirty, `The dashboard of “${workbook.name}”`);

  const change = (next: DashboardConfig) => {
    setConfig(next);
    setPublished(false);
  };

  const ifMatch = () => (versionRef.current ? { ifMatch: versionRef.current } : {});
  /** A refused save: retried at once when the change made meanwhile left the draft alone (a rename, a publish), else compared. */
  const onStale = (error: unknown, action: Conflict['action'], mine: DashboardConfig, retry: () => Promise<boolean>): Promise<boolean> | false => {
    const stale = staleOf<WorkbookDetail>(error);
    if (!stale) throw error;
    if (stale.current && stableJson(stale.current.dashboardDraft) === stableJson(saved) && action === 'save') {
      versionRef.current = stale.version;
      return retry();
    }
    setConflict({
      action,
      current: stale.current,
      version: stale.version,
      compare: { what: `The dashboard of “${workbook.name}”`, path: `${workbook.slug}/dashboard.json`, language: 'json', theirs: stale.current ? asDocument(stale.current.dashboardDraft ?? stale.current.dashboardPublished) : null, mine: asDocument(mine) },
    });
    return false;
  };

  const saveDraft = useCallback(
    async (draft: DashboardConfig = config): Promise<boolean> => {
      const attempt = async (): Promise<boolean> => {
        try {
          const result = await api.callVersioned(updateWorkbookDashboard, { params: { deploymentId, workbookId }, body: { dashboardDraft: asDraftInput(draft) }, ...ifMatch() });
          versionRef.current = result.version;
          setSaved(result.data.dashboardDraft);
          if (result.data.dashboardDraft) setConfig(result.data.dashboardDraft);
          setRemote(null);
          return true;
        } catch (error) {
          return onStale(error, 'save', draft, attempt);
        }
      };
      return (await save.run(attempt)) ?? false;
    },
    [save, deploymentId, workbookId, config, saved],
  );

  // Publishing an edited dashboard sends it along: the service saves it as the draft and publishes it in one step.
  const publishNow = async (draft: DashboardConfig = config, edited = dirty || noDraft) => {
    const body = edited ? { config: asInput(draft) } : undefined;
    const attempt = async (): Promise<boolean> => {
      try {
        const result = await api.callVersioned(publishWorkbookDashboard, { params: { deploymentId, workbookId }, ...(body ? { body } : {}), ...ifMatch() });
        versionRef.current = result.version;
        setSaved(result.data.dashboardDraft);
        setLive(result.data.dashboardPublished);
        if (result.data.dashboardDraft) setConfig(result.data.dashboardDraft);
        setPublished(true);
        setRemote(null);
        return true;
      } catch (error) {
        return onStale(error, 'publish', draft, attempt);
      }
    };
    await publish.run(attempt);
  };

  // The compare view's three ways out. Keeping mine (or the merge) saves over the version just seen.
  const redo = (action: Conflict['action'], draft: DashboardConfig) => (action === 'save' ? saveDraft(draft) : publishNow(draft, true));
  const keepMine = () => {
    if (!conflict) return;
    versionRef.current = conflict.version;
    setConflict(null);
    void redo(conflict.action, config);
  };
  const takeTheirs = () => {
    if (!conflict) return;
    const current = conflict.current;
    versionRef.current = conflict.version;
    setConflict(null);
    setRemote(null);
    if (!current) return;
    setSaved(current.dashboardDraft);
    setLive(current.dashboardPublished);
    setConfig(current.dashboardDraft ?? current.dashboardPublished ?? emptyDashboard(current.name));
  };
  const saveMerged = (text: string): string | null => {
    if (!conflict) return null;
    let merged: DashboardConfig;
    try {
      merged = JSON.parse(text) as DashboardConfig;
    } catch (error) {
      return `The merged version is not valid JSON: ${error instanceof Error ? error.message : String(error)}. Fix it on the right, or keep yours or theirs.`;
    }
    if (merged === null || typeof merged !== 'object' || Array.isArray(merged)) return 'The merged version must be a dashboard (a JSON object).';
    versionRef.current = conflict.version;
    setConflict(null);
    setConfig(merged);
    void redo(conflict.action, merged);
    return null;
  };

  // Another window (or a script) saved this workbook: without unsaved edits the editor shows it at
  // once; with some, they stay, and the next save compares both versions instead of dropping either.
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useLiveRefresh(liveWorkbookWrite(deploymentId, workbookId), () => {
    void api.callVersioned(getWorkbook, { params: { deploymentId, workbookId } }).then(
      ({ data, version }) => {
        if (version === versionRef.current) return;
        if (dirtyRef.current) {
          setRemote('changed');
          return;
        }
        versionRef.current = version;
        setSaved(data.dashboardDraft);
        setLive(data.dashboardPublished);
        setConfig(data.dashboardDraft ?? data.dashboardPublished ?? emptyDashboard(data.name));
        setRemote('reloaded');
      },
      () => undefined,
    );
  });

  // Ctrl/Cmd+S saves the draft.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void saveDraft();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [saveDraft]);

  const add = (type: NewWidgetType) => {
    const next = addWidget(config, type);
    change(next.config);
    setSelectedId(next.id);
  };
  const selected = config.widgets?.find((w) => w.id === selectedId) ?? null;
  const focusSettings = () => document.getElementById('wb-widget-title')?.focus() ?? document.getElementById('wb-chart-type')?.focus();
  const deletingWidget = config.widgets?.find((w) => w.id === deleting) ?? null;
  const widgetCount = topLevelWidgets(config).length;

  return (
    <>
      <header className="page-head wb-editor-head">
        <div className="wb-editor-titles">
          <input className="wb-title-input" aria-label="Dashboard title" value={config.title ?? ''} placeholder="Dashboard title" onChange={(e) => change({ ...config, title: e.target.value })} />
          <input className="wb-desc-input" aria-label="Dashboard description" value={config.description ?? ''} placeholder="Description (optional)" onChange={(e) => change({ ...config, description: e.target.value || null })} />
        </div>
        <div className="actions">
          <span role="status" className="wb-save-state">
            {dirty || noDraft ? (
              <Badge tone="warn">{noDraft && !dirty ? 'no draft saved' : 'unsaved changes'}</Badge>
            ) : waitsToPublish ? (
              <Badge tone="info">draft saved</Badge>
            ) : (
              <Badge tone="good">published</Badge>
            )}
          </span>
          <Button onClick={() => void saveDraft()} busy={save.busy} disabled={!dirty && !noDraft} title="Save the draft (Ctrl+S)">
            Save draft
          </Button>
          <Button variant="primary" onClick={() => void publishNow()} busy={publish.busy} disabled={!waitsToPublish} title={waitsToPublish ? 'Publish what the editor shows' : 'The published dashboard is what the editor shows'}>
            Publish
          </Button>
          <AppLink to={workbookPath(deploymentId, workbookId)} className="btn btn-ghost">
            Done
          </AppLink>
        </div>
      </header>
      <ProblemBanner error={save.error} onDismiss={() => save.setError(null)} />
      <ProblemBanner error={publish.error} onDismiss={() => publish.setError(null)} />
      {remote === 'changed' && (
        <div className="report report-warn" role="status" data-testid="wb-remote-change">
          Someone saved this workbook in another window meanwhile. Your unsaved changes are kept; saving shows both versions to compare.
        </div>
      )}
      {remote === 'reloaded' && (
        <div className="report report-good" role="status" data-testid="wb-remote-change">
          Updated with the version saved in another window.
        </div>
      )}
      {published && (
        <div className="report report-good wb-published" role="status">
          Published. <AppLink to={workbookPath(deploymentId, workbookId, 'published')}>See the published dashboard</AppLink> or{' '}
          <AppLink to={promotionPath(deploymentId, workbookId)}>promote it to another deployment…</AppLink>
        </div>
      )}
      <div className="toolbar wb-add" role="group" aria-label="Add a widget">
        <span className="muted small">{plural(widgetCount, 'widget')} · add:</span>
        {(Object.keys(NEW_WIDGETS) as NewWidgetType[]).map((type) => (
          <Button key={type} className="btn-small" onClick={() => add(type)}>
            + {NEW_WIDGETS[type].label}
          </Button>
        ))}
      </div>
      <div className="wb-editor">
        <div className="wb-editor-grid">
          {widgetCount === 0 ? (
            <EmptyState title="No widgets yet">Add a chart, a text or a divider above; then drag it into place.</EmptyState>
          ) : (
            <EditableGrid config={config} deploymentId={deploymentId} selectedId={selectedId} onSelect={setSelectedId} onChange={change} onEdit={(id) => (setSelectedId(id), setTimeout(focusSettings))} onDelete={setDeleting} />
          )}
        </div>
        <aside className="wb-editor-side">
          <ProblemBanner error={catalog.error} />
          {selected ? (
            <WidgetInspector
              key={selected.id}
              widget={selected}
              entities={catalog.data?.entities ?? null}
              cols={columnsOf(config.layout)}
              onConfig={(widgetConfig) => change(setWidgetConfig(config, selected.id, widgetConfig))}
              onPosition={(position) => change(moveWidget(config, selected.id, position))}
              onDelete={() => setDeleting(selected.id)}
            />
          ) : (
            <div className="panel muted small">Select a widget to change its title, chart type and query.</div>
          )}
        </aside>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete widget"
        confirmLabel="Delete widget"
        action="Deleting the widget"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (deleting === null) return;
          change(removeWidget(config, deleting));
          if (selectedId === deleting) setSelectedId(null);
        }}
      >
        <p>
          Delete <strong>{deletingWidget ? (widgetTitle(deletingWidget) ?? deletingWidget.id) : ''}</strong> from the dashboard? It is gone from the draft once you save; the published dashboard keeps it until you publish.
        </p>
      </ConfirmDialog>
      <UnsavedChangesDialog guard={guard} what={`The dashboard of “${workbook.name}”`} onSave={() => saveDraft()} />
      <StaleCompareDialog stale={conflict?.compare ?? null} busy={save.busy || publish.busy} onKeepMine={keepMine} onTakeTheirs={takeTheirs} onSaveMerged={saveMerged} onClose={() => setConflict(null)} />
    </>
  );
}
