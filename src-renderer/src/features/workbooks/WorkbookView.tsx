import { useState } from 'react';
import { getWorkbook, publishWorkbookDashboard, type DashboardConfig, type WorkbookDetail } from '../../../../src-shared/api/workbooks';
import type { Deployment } from '../../../../src-shared/api/deployments';
import { navigate } from '../../app/router';
import { api } from '../../app/session';
import { Badge, Button, EmptyState, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { useAction } from '../../lib/useAction';
import { isDirty } from './editing';
import { DashboardGrid } from './DashboardGrid';
import { columnsOf, gridMetrics } from './dashboard';
import { deploymentLabel } from './data';
import { AppLink, editPath, promotionPath, workbookPath, workbooksPath, type DashboardVersion } from './links';
import { ProvenancePanel } from './Provenance';
import { plural } from '../../lib/plural';
import { RenameWorkbookDialog } from './WorkbookDialogs';

/** One workbook: its dashboard drawn from the config (published or draft), facts and provenance. */
export function WorkbookView({
  deploymentId,
  workbookId,
  version,
  deployments,
}: {
  deploymentId: number;
  workbookId: number;
  version: DashboardVersion | null;
  deployments: Deployment[] | null;
}) {
  const query = useQuery((signal) => api.callVersioned(getWorkbook, { params: { deploymentId, workbookId }, signal }), [deploymentId, workbookId], 'Loading the workbook');
  const workbook = query.data?.data ?? null;
  const [renaming, setRenaming] = useState(false);
  const publishing = useAction('Publishing the draft');
  // A saved draft that differs from what is published can be published from here as it is.
  const unpublished = Boolean(workbook?.dashboardDraft) && isDirty(workbook?.dashboardDraft ?? null, workbook?.dashboardPublished ?? null);
  const publishDraft = async () => {
    const done = await publishing.run(() => api.call(publishWorkbookDashboard, { params: { deploymentId, workbookId } }));
    if (!done) return;
    navigate(workbookPath(deploymentId, workbookId, 'published'), { replace: true });
    query.reload();
  };
  const shown: DashboardVersion = version ?? (workbook && !workbook.dashboardPublished && workbook.dashboardDraft ? 'draft' : 'published');
  const config = workbook ? (shown === 'draft' ? workbook.dashboardDraft : workbook.dashboardPublished) : null;

  return (
    <section className="page">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <AppLink to={workbooksPath()}>Workbooks</AppLink>
        <span aria-hidden="true">/</span>
        <AppLink to={workbooksPath(deploymentId)}>{deploymentLabel(deployments, deploymentId)}</AppLink>
        <span aria-hidden="true">/</span>
        <span>{workbook?.name ?? `#${workbookId}`}</span>
      </nav>
      <ProblemBanner error={query.error} />
      <ProblemBanner error={publishing.error} onDismiss={() => publishing.setError(null)} />
      {!workbook ? (
        query.loading && <Spinner label="Loading the workbook…" />
      ) : (
        <>
          <header className="page-head">
            <h1>
              {workbook.name} <span className="count">#{workbook.id}</span>
            </h1>
            <div className="actions">
              <Button onClick={query.reload} busy={query.loading}>
                Refresh
              </Button>
              {workbook.canManage && <Button onClick={() => setRenaming(true)}>Rename…</Button>}
              {workbook.canManage && unpublished && (
                <Button busy={publishing.busy} onClick={() => void publishDraft()} title="Publish the saved draft">
                  Publish draft
                </Button>
              )}
              {workbook.canManage && (workbook.dashboardDraft || workbook.dashboardPublished) && (workbook.dashboardDraft ?? workbook.dashboardPublished)?.kind !== 'APP' && (
                <AppLink to={editPath(deploymentId, workbookId)} className="btn btn-default">
                  Edit dashboard
                </AppLink>
              )}
              <AppLink to={promotionPath(deploymentId, workbookId)} className="btn btn-primary">
                Promote…
              </AppLink>
            </div>
          </header>
          <div className="two-col">
            <div className="panel">
              <div className="dash-head">
                <div>
                  <h2>{config?.title || 'Untitled dashboard'}</h2>
                  {config?.description && <p className="muted">{config.description}</p>}
                </div>
                <div className="head-facts">
                  {config && <DashboardFacts config={config} />}
                  <div className="segmented" role="group" aria-label="Dashboard version">
                    {(['published', 'draft'] as const).map((v) => (
                      <button
                        key={v}
                        type="button"
                        aria-pressed={shown === v}
                        disabled={!(v === 'draft' ? workbook.dashboardDraft : workbook.dashboardPublished)}
                        title={!(v === 'draft' ? workbook.dashboardDraft : workbook.dashboardPublished) ? `No ${v} dashboard` : undefined}
                        onClick={() => navigate(workbookPath(deploymentId, workbookId, v), { replace: true })}
                      >
                        {v === 'published' ? 'Published' : 'Draft'}
                      </button>
                    ))}
                  </div>
                </div>
              </div>
              {!workbook.dashboardDraft && !workbook.dashboardPublished ? (
                <EmptyState title="No dashboard yet">
                  {workbook.canManage ? (
                    <>
                      <p>Lay out charts of the deployment’s model on a grid, save a draft, then publish it.</p>
                      <AppLink to={editPath(deploymentId, workbookId)} className="btn btn-primary">
                        Add dashboard
                      </AppLink>
                    </>
                  ) : (
                    'Its owner has not made one.'
                  )}
                </EmptyState>
              ) : (
                <DashboardBody config={config} version={shown} deploymentId={deploymentId} />
              )}
            </div>
            <aside className="side">
              <WorkbookFacts workbook={workbook} />
              <ProvenancePanel deploymentId={deploymentId} workbookId={workbookId} deployments={deployments} />
            </aside>
          </div>
          <RenameWorkbookDialog open={renaming} workbook={workbook} version={query.data?.version ?? null} onClose={() => setRenaming(false)} onRenamed={query.reload} />
        </>
      )}
    </section>
  );
}

function DashboardFacts({ config }: { config: DashboardConfig }) {
  const metrics = gridMetrics(config);
  return (
    <>
      {config.kind === 'APP' ? <Badge tone="info">app</Badge> : <Badge>{plural((config.widgets ?? []).length, 'widget')}</Badge>}
      {config.kind !== 'APP' && (
        <Badge>
          {columnsOf(config.layout)} cols · {metrics.rowHeight}px rows
        </Badge>
      )}
    </>
  );
}

export function DashboardBody({ config, version, deploymentId }: { config: DashboardConfig | null; version: DashboardVersion; deploymentId: number }) {
  if (!config) return <EmptyState title={`No ${version} dashboard`}>{version === 'published' ? 'The draft has not been published yet.' : 'This workbook has no saved draft.'}</EmptyState>;
  if (config.kind === 'APP') {
    const files = Object.keys(config.app?.files ?? {});
    return (
      <div className="dash-canvas">
        <dl className="facts">
          <dt>Entry</dt>
          <dd>{config.app?.entry ? <code>{config.app.entry}</code> : <span className="muted">—</span>}</dd>
          <dt>Files</dt>
          <dd>{files.length ? files.map((f) => <code key={f}>{f}</code>) : <span className="muted">none</span>}</dd>
          <dt>Dependencies</dt>
          <dd>{Object.entries(config.app?.manifest?.dependencies ?? {}).map(([name, v]) => <code key={name}>{`${name}@${v}`}</code>)}</dd>
        </dl>
      </div>
    );
  }
  return <DashboardGrid config={config} deploymentId={deploymentId} label={`${version === 'draft' ? 'Draft' : 'Published'} dashboard widgets`} />;
}

function WorkbookFacts({ workbook }: { workbook: WorkbookDetail }) {
  return (
    <div className="panel">
      <h2>Workbook</h2>
      <dl className="facts">
        <dt>Slug</dt>
        <dd>
          <code>{workbook.slug}</code>
        </dd>
        <dt>Folder</dt>
        <dd>
          <code>{workbook.folderPath}</code>
        </dd>
        <dt>Owner</dt>
        <dd>{workbook.user ? workbook.user.name : <span className="muted">—</span>}</dd>
        <dt>Sharing</dt>
        <dd>{workbook.shared ? <Badge tone="info">shared</Badge> : <Badge>private</Badge>}</dd>
        <dt>Published</dt>
        <dd>
          <Time value={workbook.publishedAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time value={workbook.updatedAt} />
        </dd>
        {workbook.description && (
          <>
            <dt>Description</dt>
            <dd>{workbook.description}</dd>
          </>
        )}
      </dl>
    </div>
  );
}
