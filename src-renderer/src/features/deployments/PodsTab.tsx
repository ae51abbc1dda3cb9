import { listDeploymentPods } from '../../../../src-shared/api/deployments';
import { api } from '../../app/session';
import { DataTable } from '../../lib/DataTable';
import { fetchAllPages } from '../../lib/paging';
import { Badge, Button, EmptyState, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';

const PHASE_TONES = { Running: 'good', Pending: 'warn', Failed: 'bad' } as const;
const STATE_TONES = { running: 'good', waiting: 'warn', terminated: 'neutral' } as const;

/** One pod per environment whose branch is deployed or deploying, with its containers. */
export function PodsTab({ deploymentId }: { deploymentId: number }) {
  const pods = useQuery(
    (signal) => fetchAllPages((after) => api.call(listDeploymentPods, { params: { deploymentId }, query: { first: 100, ...(after ? { after } : {}) }, signal })),
    [deploymentId],
    'Loading pods',
  );
  return (
    <section aria-label="Pods">
      <div className="toolbar">
        <span className="muted toolbar-note">A pod runs for each environment whose branch is deployed or deploying.</span>
        <Button className="btn-small" onClick={pods.reload} busy={pods.loading && pods.data !== null}>
          Refresh
        </Button>
      </div>
      <ProblemBanner error={pods.error} />
      {!pods.data ? (
        pods.loading && <Spinner label="Loading pods…" />
      ) : pods.data.length === 0 ? (
        <EmptyState title="No pods">No environment of this deployment is deployed.</EmptyState>
      ) : (
        <div className="pod-list">
          {pods.data.map((pod) => (
            <article key={pod.name} className="panel pod" aria-label={`Pod ${pod.name}`}>
              <header className="pod-head">
                <code className="strong">{pod.name}</code>
                <Badge tone={PHASE_TONES[pod.phase]}>{pod.phase}</Badge>
                {pod.ready ? <Badge tone="good">ready</Badge> : <Badge tone="warn">not ready</Badge>}
                <span className="grow" />
                <span className="muted small">
                  started <Time value={pod.startedAt} />
                </span>
              </header>
              <dl className="facts facts-inline">
                <dt>Environment</dt>
                <dd>{pod.environmentName}</dd>
                <dt>Branch</dt>
                <dd>
                  <code>{pod.branch}</code>
                </dd>
                <dt>Version</dt>
                <dd>
                  <code>{pod.version}</code>
                </dd>
              </dl>
              <DataTable
                label={`Containers of ${pod.name}`}
                rows={pod.containers}
                rowKey={(c) => c.name}
                columns={[
                  { header: 'Container', cell: (c) => <code>{c.name}</code> },
                  { header: 'State', cell: (c) => <Badge tone={STATE_TONES[c.state]}>{c.state}</Badge> },
                  { header: 'Ready', cell: (c) => (c.ready ? 'yes' : <span className="muted">no</span>) },
                  { header: 'Restarts', className: 'num', cell: (c) => c.restartCount },
                  { header: 'Reason', className: 'wrap-cell', cell: (c) => c.reason ?? <span className="muted">—</span> },
                ]}
              />
            </article>
          ))}
        </div>
      )}
    </section>
  );
}
