import type { Deployment } from '../../../../src-shared/api/deployments';
import type { Workbook } from '../../../../src-shared/api/workbooks';
import { Badge } from '../../lib/ui';
import { deploymentLabel } from './data';
import { plural } from '../../lib/plural';

/** A workbook's promotion summary as badges: where it came from, how many targets it went to. */
export function PromotionSummary({ workbook, deployments }: { workbook: Workbook; deployments: Deployment[] | null }) {
  const summary = workbook.promotion;
  if (!summary) return <span className="muted">—</span>;
  return (
    <span className="prov-line">
      {summary.promotedFrom && <Badge tone="info">from {deploymentLabel(deployments, summary.promotedFrom.deploymentId)}</Badge>}
      {summary.destinationCount > 0 && <Badge tone="good">→ {plural(summary.destinationCount, 'target')}</Badge>}
    </span>
  );
}
