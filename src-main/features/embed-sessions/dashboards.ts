import type { Static } from 'typebox';
import type { EmbedDashboard } from '../../../src-shared/api/embed';
import type { ServiceContext } from '../../context';
import { assertAccess, type Principal } from '../../http/auth';
import { ApiError, forbidden, notFound } from '../../http/problem';
import { effectiveEmbedAccess } from '../embed';
import { parseDashboard } from '../workbooks';
import { findWorkbookByPublicId, type WorkbookRow } from '../workbooks';
import { embedSessionOf } from './sessions';

export const DASHBOARD_NOT_FOUND = 'DASHBOARD_NOT_FOUND';

export function requireDashboard(ctx: ServiceContext, publicId: string): WorkbookRow {
  const row = findWorkbookByPublicId(ctx, publicId);
  if (!row) throw notFound(`Dashboard ${publicId}`, DASHBOARD_NOT_FOUND);
  return row;
}

/** Signed embedding is off until an admin turns it on for the dashboard. */
export function isSignedEmbeddingEnabled(ctx: ServiceContext, workbookId: number): boolean {
  const row = ctx.db.prepare('SELECT signed_embedding_enabled FROM embed_dashboards WHERE workbook_id = ?').get(workbookId) as
    | { signed_embedding_enabled: number }
    | undefined;
  return row?.signed_embedding_enabled === 1;
}

function toDashboard(ctx: ServiceContext, row: WorkbookRow): Static<typeof EmbedDashboard> {
  const state = ctx.db.prepare('SELECT signed_embedding_enabled, updated_at FROM embed_dashboards WHERE workbook_id = ?').get(row.id) as
    | { signed_embedding_enabled: number; updated_at: string }
    | undefined;
  return {
    publicId: row.public_id,
    workbookId: row.id,
    deploymentId: row.deployment_id,
    signedEmbeddingEnabled: state?.signed_embedding_enabled === 1,
    updatedAt: state?.updated_at ?? null,
  };
}

export function setSignedEmbedding(ctx: ServiceContext, principal: Principal, publicId: string, enabled: boolean): Static<typeof EmbedDashboard> {
  const row = requireDashboard(ctx, publicId);
  ctx.db
    .prepare(
      `INSERT INTO embed_dashboards (workbook_id, signed_embedding_enabled, updated_by_user_id, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (workbook_id) DO UPDATE SET signed_embedding_enabled = excluded.signed_embedding_enabled,
         updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`,
    )
    .run(row.id, enabled ? 1 : 0, principal.userId, ctx.clock.now().toISOString());
  return toDashboard(ctx, row);
}

/**
 * What an embed session may open: a dashboard of the session's deployment, with signed embedding
 * on, that the session's tenant has read access to (Dashboard Embed Access).
 */
export function assertEmbedCanOpen(ctx: ServiceContext, principal: Principal, row: WorkbookRow): void {
  const session = embedSessionOf(principal);
  if (!session) throw forbidden('This needs a signed embed session (a token from POST /api/v1/embed/session/token).', 'EMBED_SESSION_REQUIRED');
  if (row.deployment_id !== session.deploymentId) throw notFound(`Dashboard ${row.public_id}`, DASHBOARD_NOT_FOUND);
  if (!isSignedEmbeddingEnabled(ctx, row.id)) {
    throw forbidden(`Signed embedding is not enabled for dashboard ${row.public_id}.`, 'SIGNED_EMBEDDING_DISABLED');
  }
  if (effectiveEmbedAccess(ctx, session.embedTenant, row).action !== 'read') {
    throw forbidden(`Embed tenant "${session.embedTenant}" has no read access to dashboard ${row.public_id}.`, 'EMBED_ACCESS_DENIED');
  }
}

/**
 * A filtered Python run of a dashboard widget. Access and the widget are checked as for a real
 * run; then, since this service has no Python runtime, it answers 501 rather than invent a result.
 */
export function runPython(ctx: ServiceContext, principal: Principal, publicId: string, widgetId: string): never {
  const row = requireDashboard(ctx, publicId);
  if (principal.via === 'embed') assertEmbedCanOpen(ctx, principal, row);
  else assertAccess(principal, ['deploymentRead'], row.deployment_id);
  const published = parseDashboard(row.dashboard_published);
  if (!published) throw notFound(`A published dashboard of ${publicId}`, 'DASHBOARD_NOT_PUBLISHED');
  if (!(published.widgets ?? []).some((w) => w.id === widgetId)) throw notFound(`Widget "${widgetId}" of dashboard ${publicId}`, 'WIDGET_NOT_FOUND');
  throw new ApiError(
    501,
    'PYTHON_RUNTIME_UNAVAILABLE',
    'This local service has no Python runtime, so it cannot run the widget’s Python code. Run the dashboard on the hosted platform to get its result.',
  );
}
