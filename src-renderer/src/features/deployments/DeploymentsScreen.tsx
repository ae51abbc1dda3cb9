import { useEffect, useState, type MouseEvent } from 'react';
import type { ScreenProps } from '../../app/screen-props';
import { navigate } from '../../app/router';
import { DataTable } from '../../lib/DataTable';
import { Badge, Button, EmptyState, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { CreateDeploymentDialog } from './CreateDeploymentDialog';
import { DeploymentDetail } from './DeploymentDetail';
import { CLOUD_LABELS, CREATION_METHOD_LABELS, DEPLOY_MODE_LABELS, labelOf } from './labels';
import { useDeployments } from './store';

/** `/deployments` lists them; `/deployments/:id[/tab[/…]]` shows one (a tab may read the rest, e.g. a run to mark). */
export default function DeploymentsScreen({ subpath }: ScreenProps) {
  const [idText, tab, ...rest] = subpath;
  const id = idText !== undefined && /^\d+$/.test(idText) ? Number(idText) : null;
  if (idText !== undefined && id === null) {
    return <ProblemBanner error={{ title: 'Not found', detail: `“${idText}” is not a deployment id.`, code: null, status: null, fields: [] }} />;
  }
  if (id !== null) return <DeploymentDetail id={id} tab={tab ?? 'general'} rest={rest} />;
  return <DeploymentList />;
}

function DeploymentList() {
  const { items, loading, loaded, error, hasNextPage, load, loadMore } = useDeployments();
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    void load();
  }, [load]);

  const open = (event: MouseEvent, id: number) => {
    if (event.metaKey || event.ctrlKey) return;
    event.preventDefault();
    navigate(`/deployments/${id}`);
  };

  return (
    <section className="page">
      <header className="page-head">
        <h1>
          Deployments {loaded && <span className="count">{items.length}{hasNextPage ? '+' : ''}</span>}
        </h1>
        <div className="actions">
          <Button onClick={() => void load()} busy={loading} aria-label="Refresh deployments">
            Refresh
          </Button>
          <Button variant="primary" onClick={() => setCreating(true)}>
            New deployment
          </Button>
        </div>
      </header>
      <ProblemBanner error={error} onDismiss={() => useDeployments.setState({ error: null })} />
      {!loaded && loading ? (
        <Spinner label="Loading deployments…" />
      ) : loaded && items.length === 0 ? (
        <EmptyState title="No deployments yet">
          A deployment holds a data model, its environments and env variables. <button type="button" className="link" onClick={() => setCreating(true)}>Create the first one.</button>
        </EmptyState>
      ) : (
        items.length > 0 && (
          <DataTable
            label="Deployments"
            className="table-hover"
            rows={items}
            rowKey={(d) => d.id}
            onRowClick={(d, e) => open(e, d.id)}
            columns={[
              { header: 'ID', className: 'num', cellClassName: 'muted', cell: (d) => d.id },
              {
                header: 'Name',
                cell: (d) => (
                  <a href={`/deployments/${d.id}`} onClick={(e) => open(e, d.id)} className="strong">
                    {d.name}
                  </a>
                ),
              },
              { header: 'Cloud', priority: 3, cell: (d) => labelOf(CLOUD_LABELS, d.cloudProvider) },
              { header: 'Region', priority: 4, cell: (d) => <code>{d.region}</code> },
              { header: 'Created via', priority: 6, cell: (d) => labelOf(CREATION_METHOD_LABELS, d.creationMethod) },
              { header: 'Deploy mode', priority: 5, cell: (d) => labelOf(DEPLOY_MODE_LABELS, d.deployMode).split(' — ')[0] },
              { header: 'Version', priority: 2, cell: (d) => <code>{d.currentVersion}</code> },
              {
                header: 'Setup',
                cell: (d) =>
                  d.creationStep.completed ? (
                    <Badge tone="good">complete</Badge>
                  ) : (
                    <Badge tone="warn">
                      step {d.creationStep.index + 1} of {d.creationStep.steps.length}
                    </Badge>
                  ),
              },
              { header: 'Updated', priority: 1, cell: (d) => <Time value={d.updatedAt} /> },
            ]}
          />
        )
      )}
      {hasNextPage && (
        <div className="more">
          <Button onClick={() => void loadMore()} busy={loading}>
            Load more
          </Button>
        </div>
      )}
      <CreateDeploymentDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(d) => {
          setCreating(false);
          navigate(`/deployments/${d.id}`);
        }}
      />
    </section>
  );
}
