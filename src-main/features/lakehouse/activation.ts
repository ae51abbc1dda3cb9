import { LakehouseErrorCodes as Codes } from '../../../src-shared/api/lakehouse';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';

/**
 * Lakehouse publication is a preview feature support activates per deployment (active unless
 * switched off). Deactivating it stops saving, previews, access tests and runs; it deletes nothing.
 */
export function isPublicationActive(ctx: ServiceContext, deploymentId: number): boolean {
  const row = ctx.db.prepare('SELECT active FROM lakehouse_preview_activation WHERE deployment_id = ?').get(deploymentId) as
    | { active: number }
    | undefined;
  return row === undefined || row.active === 1;
}

/** Support's switch for the preview feature (no HTTP route: customers cannot flip it). */
export function setPublicationActive(ctx: ServiceContext, deploymentId: number, active: boolean): void {
  ctx.db
    .prepare(
      `INSERT INTO lakehouse_preview_activation (deployment_id, active, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (deployment_id) DO UPDATE SET active = excluded.active, updated_at = excluded.updated_at`,
    )
    .run(deploymentId, active ? 1 : 0, ctx.clock.now().toISOString());
}

export function assertPublicationActive(ctx: ServiceContext, deploymentId: number): void {
  if (!isPublicationActive(ctx, deploymentId)) {
    throw new ApiError(
      403,
      Codes.FEATURE_NOT_ACTIVE,
      `Lakehouse metric view publication is not activated for deployment ${deploymentId}; support activates this preview feature. Published metric views were left in place.`,
    );
  }
}
