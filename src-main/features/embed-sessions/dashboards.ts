import type { Static } from 'typebox';
import type { EmbedDashboard } from '../../../src-shared/api/embed';
import type { ServiceContext } from '../../context';
import { assertAccess, type Principal } from '../../http/auth';
import { ApiError, forbidden, notFound } from '../../http/problem';
import type { DashboardFilter } from '../../../src-shared/api/notifications';
import { RESULT_CAP } from '../../workers/python-protocol';
import { pythonSandbox } from './python-sandbox';
import { effectiveEmbedAccess } from '../embed';
import { checkDashboardFilters, findWorkbookByPublicId, parseDashboard, type WorkbookRow } from '../workbooks';
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

/** The Python code of a widget: `config.python`. */
function widgetPython(widget: { config?: Record<string, unknown> | null }): string | null {
  const code = widget.config?.python;
  return typeof code === 'string' && code.trim() !== '' ? code : null;
}

/**
 * A filtered Python run of a dashboard widget: access and the widget are checked, the filters
 * validated, and the widget's `config.python` runs in the Pyodide sandbox (a process of its own bound
 * to this dashboard, with a time and a memory limit; python-sandbox.ts) with `filters` (the request's dashboard filters) and `widget` bound.
 * What the script assigns to `result` (JSON) is the answer, with what it printed.
 */
export async function runPython(ctx: ServiceContext, principal: Principal, publicId: string, body: { widgetId: string; filters?: DashboardFilter[] }) {
  const row = requireDashboard(ctx, publicId);
  if (principal.via === 'embed') assertEmbedCanOpen(ctx, principal, row);
  else assertAccess(principal, ['deploymentRead'], row.deployment_id);
  const published = parseDashboard(row.dashboard_published);
  if (!published) throw notFound(`A published dashboard of ${publicId}`, 'DASHBOARD_NOT_PUBLISHED');
  const widget = (published.widgets ?? []).find((w) => w.id === body.widgetId);
  if (!widget) throw notFound(`Widget "${body.widgetId}" of dashboard ${publicId}`, 'WIDGET_NOT_FOUND');
  const code = widgetPython(widget as { config?: Record<string, unknown> | null });
  if (code === null) {
    throw new ApiError(422, 'WIDGET_HAS_NO_PYTHON', `Widget "${body.widgetId}" of dashboard ${publicId} has no Python code (config.python).`);
  }
  const filters = checkDashboardFilters(body.filters ?? []);
  const sandbox = pythonSandbox(ctx);
  const { limits } = sandbox;
  // The trust domain of a runner is the workbook: its owner and the admins edit all of its widgets'
  // code (and a promotion onto it writes all of them), so its scripts may share a warm runner; another
  // workbook's editors may differ, and a hook of theirs must never see this one's filters.
  const outcome = await sandbox.run(row.public_id, code, { filters, widget: { id: widget.id, type: widget.type, config: widget.config ?? null } });
  switch (outcome.kind) {
    case 'ok':
      return { widgetId: body.widgetId, result: outcome.result, stdout: outcome.stdout, filters, durationMs: outcome.durationMs };
    case 'timeout':
      throw new ApiError(422, 'PYTHON_TIME_LIMIT', `The widget's Python code ran longer than ${limits.timeoutMs / 1000} s and was stopped.`, {
        limitMs: limits.timeoutMs,
      });
    case 'memory':
      throw new ApiError(422, 'PYTHON_MEMORY_LIMIT', `The widget's Python code needed more than ${limits.memoryLimitBytes / 1024 / 1024} MB and was stopped (${outcome.message}).`, {
        limitBytes: limits.memoryLimitBytes,
      });
    case 'error':
      if (outcome.errorType === 'ResultTooLarge') {
        throw new ApiError(422, 'PYTHON_RESULT_TOO_LARGE', `The widget's \`result\` is too large: ${outcome.message}`, { limitChars: RESULT_CAP });
      }
      if (outcome.errorType === 'TypeError' && /JSON serializable/.test(outcome.message)) {
        throw new ApiError(422, 'PYTHON_RESULT_NOT_JSON', `The widget's \`result\` is not JSON: ${outcome.message}`);
      }
      throw new ApiError(422, 'PYTHON_ERROR', `The widget's Python code raised ${outcome.message}`, {
        pythonError: { type: outcome.errorType, message: outcome.message, traceback: outcome.traceback },
        stdout: outcome.stdout,
      });
    case 'unavailable':
      throw new ApiError(503, 'PYTHON_RUNTIME_UNAVAILABLE', outcome.message);
  }
}
