import { ApiProblem } from '../../../../src-shared/api/client';
import { listWorkbookRemoteOrigins, type WorkbookRemoteOrigin } from '../../../../src-shared/api/remote-transfers';
import { api } from '../../app/session';
import { Badge, ProblemBanner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import './remote-transfers.css';

/**
 * The receiving side of a promotion from another service: where this workbook came from. Shown
 * only when there is something to show (and the service records it at all).
 */
export function RemoteOrigins({ deploymentId, workbookId, version }: { deploymentId: number; workbookId: number; version: number }) {
  const origins = useQuery(
    async (signal): Promise<WorkbookRemoteOrigin[]> => {
      try {
        return (await api.call(listWorkbookRemoteOrigins, { params: { deploymentId, workbookId }, query: { first: 20 }, signal })).items;
      } catch (error) {
        // A platform that does not keep cross-service origins: nothing to show.
        if (error instanceof ApiProblem && error.status === 404 && error.code === 'ROUTE_NOT_FOUND') return [];
        throw error;
      }
    },
    [deploymentId, workbookId, version],
    'Loading origins from other services',
  );
  if (origins.error) return <ProblemBanner error={origins.error} />;
  if (!origins.data || origins.data.length === 0) return null;
  return (
    <section className="panel" aria-label="Promoted from other services">
      <h2>Promoted from other services</h2>
      <ul className="remote-origins">
        {origins.data.map((o) => (
          <li key={o.id}>
            <span className="strong">{o.sourceName}</span> <span className="muted">({o.sourceSlug}, deployment {o.sourceDeploymentId})</span> from {o.sourceService} ·{' '}
            <Time value={o.recordedAt} /> {o.modifiedSince ? <Badge tone="warn">edited here since</Badge> : <Badge tone="good">unchanged since</Badge>}
          </li>
        ))}
      </ul>
    </section>
  );
}
