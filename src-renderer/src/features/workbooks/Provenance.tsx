import type { Deployment } from '../../../../src-shared/api/deployments';
import { getWorkbookProvenance, type PromotionLink, type WorkbookProvenance } from '../../../../src-shared/api/promotions';
import { api } from '../../app/session';
import { Badge, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { deploymentLabel } from './data';
import { HashChip } from './HashChip';
import { AppLink, workbookPath } from './links';
import { liveWorkbookWrite } from '../../lib/live';
import { plural } from '../../lib/plural';

export function useProvenance(deploymentId: number, workbookId: number, version = 0) {
  return useQuery(
    (signal) => api.call(getWorkbookProvenance, { params: { deploymentId, workbookId }, signal }),
    [deploymentId, workbookId, version],
    'Loading the promotion provenance',
    liveWorkbookWrite(deploymentId, workbookId),
  );
}

/** Where a workbook came from (`promotedFrom`) and where it went (`promotedTo`), with drift flags. */
export function ProvenancePanel({
  deploymentId,
  workbookId,
  deployments,
  version = 0,
  heading = 'Provenance',
  label,
}: {
  deploymentId: number;
  workbookId: number;
  deployments: Deployment[] | null;
  version?: number;
  heading?: string;
  /** Accessible name of the panel (defaults to the heading). */
  label?: string;
}) {
  const provenance = useProvenance(deploymentId, workbookId, version);
  return (
    <section className="panel" aria-label={label ?? heading}>
      <div className="panel-head">
        <h2>{heading}</h2>
        {provenance.data && <HashChip hash={provenance.data.contentHash} label="content hash" />}
      </div>
      <ProblemBanner error={provenance.error} />
      {provenance.data ? <ProvenanceBody provenance={provenance.data} deployments={deployments} /> : provenance.loading && <Spinner label="Loading provenance…" />}
    </section>
  );
}

function ProvenanceBody({ provenance, deployments }: { provenance: WorkbookProvenance; deployments: Deployment[] | null }) {
  const origin = provenance.promotedFrom;
  return (
    <div className="prov">
      <div className="prov-block">
        <h3 className="block-title">Promoted from</h3>
        {origin ? (
          <div className="prov-origin" data-testid="promoted-from">
            <div className="prov-line">
              {origin.sourceWorkbookId !== null ? (
                <AppLink to={workbookPath(origin.sourceDeploymentId, origin.sourceWorkbookId)} className="strong">
                  {origin.sourceName}
                </AppLink>
              ) : (
                <span className="strong">{origin.sourceName}</span>
              )}
              <span className="muted">in</span>
              <span>{deploymentLabel(deployments, origin.sourceDeploymentId)}</span>
              {origin.sourceWorkbookId === null && <Badge tone="bad">source deleted</Badge>}
            </div>
            <div className="prov-meta">
              Promotion #{origin.promotionId} · <Time value={origin.promotedAt} />
              {origin.promotedBy ? ` · by ${origin.promotedBy.name}` : ''}
            </div>
            <div className="prov-line">
              {origin.modifiedSincePromotion ? <Badge tone="warn">edited here since</Badge> : <Badge tone="good">unchanged since</Badge>}
              {origin.sourceChangedSince === true && <Badge tone="info">source changed since</Badge>}
              <span className="prov-meta">source</span> <HashChip hash={origin.sourceHash} label="source hash" length={10} />
            </div>
          </div>
        ) : (
          <p className="muted">Not promoted from another workbook.</p>
        )}
      </div>
      <div className="prov-block">
        <h3 className="block-title">Promoted to {provenance.promotedTo.length > 0 && <span className="count">{provenance.promotedTo.length}</span>}</h3>
        {provenance.promotedTo.length === 0 ? (
          <p className="muted">Not promoted anywhere yet.</p>
        ) : (
          <ul className="prov-links" aria-label="Promoted to">
            {provenance.promotedTo.map((link) => (
              <PromotionLinkItem key={`${link.targetDeploymentId}-${link.targetWorkbookId ?? link.targetSlug}`} link={link} deployments={deployments} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function PromotionLinkItem({ link, deployments }: { link: PromotionLink; deployments: Deployment[] | null }) {
  const inSync = link.targetModifiedSince === false && !link.sourceChangedSince;
  return (
    <li>
      <div className="prov-line">
        {link.targetWorkbookId !== null ? (
          <AppLink to={workbookPath(link.targetDeploymentId, link.targetWorkbookId)} className="strong">
            {link.targetName}
          </AppLink>
        ) : (
          <span className="strong">{link.targetName}</span>
        )}
        <span className="muted">in</span>
        <span>{deploymentLabel(deployments, link.targetDeploymentId)}</span>
      </div>
      <div className="prov-meta">
        {plural(link.promotionCount, 'promotion')} · last #{link.lastPromotionId} <Time value={link.lastPromotedAt} />
        {link.lastPromotedBy ? ` by ${link.lastPromotedBy.name}` : ''}
      </div>
      <div className="prov-line">
        {link.targetWorkbookId === null || link.targetModifiedSince === null ? (
          <Badge tone="bad">target deleted</Badge>
        ) : inSync ? (
          <Badge tone="good">in sync</Badge>
        ) : (
          <>
            {link.targetModifiedSince && <Badge tone="warn">target edited since</Badge>}
            {link.sourceChangedSince && <Badge tone="info">source changed since</Badge>}
          </>
        )}
      </div>
    </li>
  );
}
