import type { WorkbookPromotionSummary } from '../../../src-shared/api/workbooks';
import type { ServiceContext } from '../../context';

/** A row of `workbook_promotions`: one applied promotion, the provenance of its target. */
export interface PromotionRow {
  id: number;
  source_deployment_id: number;
  source_workbook_id: number | null;
  source_slug: string;
  source_name: string;
  target_deployment_id: number;
  target_workbook_id: number | null;
  target_slug: string;
  target_name: string;
  operation: 'CREATE' | 'UPDATE';
  source_hash: string;
  target_hash_before: string | null;
  target_hash_after: string;
  changes: string;
  idempotency_key: string | null;
  request_fingerprint: string;
  promoted_by_user_id: number | null;
  created_at: string;
}

/**
 * Where a workbook came from and where it went, shown on every workbook. Kept apart from the
 * promotion logic, which itself reads workbooks through the store.
 */
export function promotionSummary(ctx: ServiceContext, workbookId: number): WorkbookPromotionSummary | null {
  const last = ctx.db
    .prepare('SELECT MAX(created_at) AS at FROM workbook_promotions WHERE source_workbook_id = ? OR target_workbook_id = ?')
    .get(workbookId, workbookId) as { at: string | null };
  if (!last.at) return null;
  const origin = ctx.db
    .prepare('SELECT * FROM workbook_promotions WHERE target_workbook_id = ? ORDER BY id DESC LIMIT 1')
    .get(workbookId) as PromotionRow | undefined;
  const destinations = ctx.db
    .prepare('SELECT COUNT(DISTINCT target_workbook_id) AS n FROM workbook_promotions WHERE source_workbook_id = ?')
    .get(workbookId) as { n: number };
  return {
    promotedFrom: origin
      ? { deploymentId: origin.source_deployment_id, workbookId: origin.source_workbook_id, promotionId: origin.id, promotedAt: origin.created_at }
      : null,
    destinationCount: destinations.n,
    lastPromotedAt: last.at,
  };
}
