import { useEffect, useState, type MouseEvent } from 'react';
import type { ScreenProps } from '../../app/screen-props';
import { navigate } from '../../app/router';
import { Badge, Button, EmptyState, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { CreateDeploymentDialog } from './CreateDeploymentDialog';
import { DeploymentDetail } from './DeploymentDetail';
import { CLOUD_LABELS, CREATION_METHOD_LABELS, DEPLOY_MODE_LABELS, labelOf } from './labels';
import { useDeployments } from './store';

/** `/deployments` lists them; `/deployments/:id[/tab]` shows one. */
export default function DeploymentsScreen({ subpath }: ScreenProps) {
  const [idText, tab] = subpath;
  const id = idText !== undefined && /^\d+$/.test(idText) ? Number(idText) : null;
  if (idText !== undefined && id === null) {
    return <ProblemBanner error={{ title: 'Not found', detail: `“${idText}” is not a deployment id.`, code: null, status: null, fields: [] }} />;
  }
  if (id !== null) return <DeploymentDetail id={id} tab={tab ?? 'general'} />;
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
          <table className="table table-hover" aria-label="Deployments">
            <thead>
              <tr>
                <th className="num">ID</th>
                <th>Name</th>
                <th>Cloud</th>
                <th>Region</th>
                <th>Created via</th>
                <th>Deploy mode</th>
                <th>Version</th>
                <th>Setup</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {items.map((d) => (
                <tr key={d.id} onClick={(e) => open(e, d.id)} className="clickable">
                  <td className="num muted">{d.id}</td>
                  <td>
                    <a href={`/deployments/${d.id}`} onClick={(e) => open(e, d.id)} className="strong">
                      {d.name}
                    </a>
                  </td>
                  <td>{labelOf(CLOUD_LABELS, d.cloudProvider)}</td>
                  <td>
                    <code>{d.region}</code>
                  </td>
                  <td>{labelOf(CREATION_METHOD_LABELS, d.creationMethod)}</td>
                  <td>{labelOf(DEPLOY_MODE_LABELS, d.deployMode).split(' — ')[0]}</td>
                  <td>
                    <code>{d.currentVersion}</code>
                  </td>
                  <td>
                    {d.creationStep.completed ? (
                      <Badge tone="good">complete</Badge>
                    ) : (
                      <Badge tone="warn">
                        step {d.creationStep.index + 1} of {d.creationStep.steps.length}
                      </Badge>
                    )}
                  </td>
                  <td>
                    <Time value={d.updatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
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
