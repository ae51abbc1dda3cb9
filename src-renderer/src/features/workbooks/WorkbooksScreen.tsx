import { useEffect, useState } from 'react';
import type { Workbook } from '../../../../src-shared/api/workbooks';
import type { Deployment } from '../../../../src-shared/api/deployments';
import { navigate } from '../../app/router';
import type { ScreenProps } from '../../app/screen-props';
import { DataTable } from '../../lib/DataTable';
import { Badge, Button, EmptyState, Field, NameOptions, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { deploymentLabel, useDebounced, useDeploymentList, useWorkbookList } from './data';
import { AppLink, idOf, promotionPath, workbookPath, workbooksPath } from './links';
import { PromotionSummary } from './PromotionSummary';
import { WorkbookView } from './WorkbookView';
import { DashboardEditor } from './DashboardEditor';
import { NewWorkbookDialog } from './WorkbookDialogs';
import './workbooks.css';

/**
 * `/workbooks[/:deploymentId]` lists workbooks; `/workbooks/:deploymentId/:workbookId[/published|draft]` shows one;
 * `…/:workbookId/edit` edits its dashboard.
 */
export default function WorkbooksScreen({ subpath }: ScreenProps) {
  const [depText, wbText, versionText] = subpath;
  const deploymentId = idOf(depText);
  const workbookId = idOf(wbText);
  const deployments = useDeploymentList();

  if ((depText !== undefined && deploymentId === null) || (wbText !== undefined && workbookId === null)) {
    return <ProblemBanner error={{ title: 'Not found', detail: `“${subpath.join('/')}” is not a workbook address.`, code: null, status: null, fields: [] }} />;
  }
  if (deploymentId !== null && workbookId !== null) {
    if (versionText === 'edit') return <DashboardEditor deploymentId={deploymentId} workbookId={workbookId} deployments={deployments.data} />;
    const version = versionText === 'draft' || versionText === 'published' ? versionText : null;
    return <WorkbookView deploymentId={deploymentId} workbookId={workbookId} version={version} deployments={deployments.data} />;
  }
  return <WorkbookList deploymentId={deploymentId} deployments={deployments.data} deploymentsLoading={deployments.loading} />;
}

function WorkbookList({ deploymentId, deployments, deploymentsLoading }: { deploymentId: number | null; deployments: Deployment[] | null; deploymentsLoading: boolean }) {
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const settled = useDebounced(search);
  const workbooks = useWorkbookList(deploymentId, settled);

  // Without a deployment in the address, show the first one's workbooks.
  useEffect(() => {
    if (deploymentId === null && deployments && deployments.length > 0) navigate(workbooksPath(deployments[0].id), { replace: true });
  }, [deploymentId, deployments]);

  return (
    <section className="page">
      <header className="page-head">
        <h1>Workbooks {workbooks.data && deploymentId !== null && <span className="count">{workbooks.data.length}</span>}</h1>
        <div className="actions">
          <Button onClick={workbooks.reload} busy={workbooks.loading && workbooks.data !== null} disabled={deploymentId === null}>
            Refresh
          </Button>
          <Button variant="primary" onClick={() => setCreating(true)} disabled={deploymentId === null}>
            New workbook…
          </Button>
        </div>
      </header>
      <div className="wb-toolbar">
        <Field label="Deployment" htmlFor="wb-deployment">
          <select id="wb-deployment" value={deploymentId ?? ''} onChange={(e) => navigate(workbooksPath(Number(e.target.value)))} disabled={!deployments?.length}>
            {deploymentId === null && <option value="">{deploymentsLoading ? 'Loading…' : 'Choose a deployment'}</option>}
            {deploymentId !== null && !deployments?.some((d) => d.id === deploymentId) && <option value={deploymentId}>{deploymentLabel(deployments, deploymentId)}</option>}
            <NameOptions items={deployments} />
          </select>
        </Field>
        <Field label="Search" htmlFor="wb-search">
          <input id="wb-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Name or slug" autoComplete="off" />
        </Field>
      </div>
      <ProblemBanner error={workbooks.error} />
      {deployments && deployments.length === 0 ? (
        <EmptyState title="No deployments yet">
          Workbooks live in a deployment. <AppLink to="/deployments">Create a deployment first.</AppLink>
        </EmptyState>
      ) : deploymentId === null || (!workbooks.data && workbooks.loading) ? (
        <Spinner label="Loading workbooks…" />
      ) : workbooks.data && workbooks.data.length === 0 ? (
        <EmptyState title={settled.trim() ? `No workbook matches “${settled.trim()}”` : 'No workbooks in this deployment'}>
          {settled.trim() ? 'Try another name or slug.' : 'Create one with “New workbook…”, or promote one here from another deployment.'}
        </EmptyState>
      ) : (
        workbooks.data && <WorkbookTable deploymentId={deploymentId} workbooks={workbooks.data} deployments={deployments} />
      )}
      {deploymentId !== null && (
        <NewWorkbookDialog
          open={creating}
          deploymentId={deploymentId}
          onClose={() => setCreating(false)}
          onCreated={(workbook) => {
            setCreating(false);
            navigate(workbookPath(deploymentId, workbook.id));
          }}
        />
      )}
    </section>
  );
}

function WorkbookTable({ deploymentId, workbooks, deployments }: { deploymentId: number; workbooks: Workbook[]; deployments: Deployment[] | null }) {
  return (
    <DataTable
      label="Workbooks"
      className="table-hover"
      rows={workbooks}
      rowKey={(wb) => wb.id}
      onRowClick={(wb) => navigate(workbookPath(deploymentId, wb.id))}
      columns={[
        {
          header: 'Name',
          cell: (wb) => (
            <div className="wb-name">
              <AppLink to={workbookPath(deploymentId, wb.id)} className="strong">
                {wb.name}
              </AppLink>
              <small>{wb.slug}</small>
            </div>
          ),
        },
        { header: 'Folder', priority: 2, cell: (wb) => <code>{wb.folderPath}</code> },
        { header: 'Owner', priority: 3, cell: (wb) => wb.user?.name ?? <span className="muted">—</span> },
        { header: 'Dashboard', cell: (wb) => (wb.publishedAt ? <Badge tone="good">published</Badge> : <Badge>draft only</Badge>) },
        { header: 'Promotion', cell: (wb) => <PromotionSummary workbook={wb} deployments={deployments} /> },
        { header: 'Updated', priority: 1, cell: (wb) => <Time value={wb.updatedAt} /> },
        {
          header: '',
          label: 'Actions',
          className: 'actions-col',
          cell: (wb) => (
            <AppLink to={promotionPath(deploymentId, wb.id)} className="btn btn-ghost btn-small" ariaLabel={`Promote ${wb.name}`}>
              Promote…
            </AppLink>
          ),
        },
      ]}
    />
  );
}
