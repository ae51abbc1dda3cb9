/**
 * Editing a workbook's dashboard: widgets laid out on the grid (drag, resize, keys), each widget's
 * settings and query in the side panel, then save the draft (`PUT …/dashboard`) and publish it
 * (`POST …/publish`). Leaving with unsaved changes asks first.
 */
import { useCallback, useEffect, useState } from 'react';
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
import { useAction } from '../../lib/useAction';
import { useQuery } from '../../lib/useQuery';
import { plural } from '../../lib/plural';
import { loadCatalog } from '../models/data/catalog';
import { columnsOf, topLevelWidgets, widgetTitle } from './dashboard';
import { deploymentLabel } from './data';
import { EditableGrid } from './EditableGrid';
import { addWidget, asDraftInput, asInput, emptyDashboard, isDirty, moveWidget, NEW_WIDGETS, removeWidget, setWidgetConfig, type NewWidgetType } from './editing';
import { AppLink, promotionPath, workbookPath, workbooksPath } from './links';
import { WidgetInspector } from './WidgetInspector';

export function DashboardEditor({ deploymentId, workbookId, deployments }: { deploymentId: number; workbookId: number; deployments: Deployment[] | null }) {
  const query = useQuery((signal) => api.call(getWorkbook, { params: { deploymentId, workbookId }, signal }), [deploymentId, workbookId], 'Loading the workbook');
  const workbook = query.data;
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
        <Editor key={workbook.id} workbook={workbook} deploymentId={deploymentId} />
      )}
    </section>
  );
}

function Editor({ workbook, deploymentId }: { workbook: WorkbookDetail; deploymentId: number }) {
  const workbookId = workbook.id;
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

  const saveDraft = useCallback(async (): Promise<boolean> => {
    const result = await save.run(() => api.call(updateWorkbookDashboard, { params: { deploymentId, workbookId }, body: { dashboardDraft: asDraftInput(config) } }));
    if (!result) return false;
    setSaved(result.dashboardDraft);
    if (result.dashboardDraft) setConfig(result.dashboardDraft);
    return true;
  }, [save, deploymentId, workbookId, config]);

  // Publishing an edited dashboard sends it along: the service saves it as the draft and publishes it in one step.
  const publishNow = async () => {
    const body = dirty || noDraft ? { config: asInput(config) } : undefined;
    const result = await publish.run(() => api.call(publishWorkbookDashboard, { params: { deploymentId, workbookId }, ...(body ? { body } : {}) }));
    if (!result) return;
    setSaved(result.dashboardDraft);
    setLive(result.dashboardPublished);
    if (result.dashboardDraft) setConfig(result.dashboardDraft);
    setPublished(true);
  };

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
      <UnsavedChangesDialog guard={guard} what={`The dashboard of “${workbook.name}”`} onSave={saveDraft} />
    </>
  );
}
