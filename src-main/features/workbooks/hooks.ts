// The workbooks area's app-wide hook, registered at start (Fastify takes hooks only before it is
// ready, while the area's code loads on its first request: start time, issue 10).
import * as api from '../../../src-shared/api/workbooks';
import type { Api } from '../../http/route';

/** Where each operation carries a dashboard config in its body. */
const DASHBOARD_BODY_FIELD: Record<string, string> = {
  [api.createWorkbook.operationId]: 'dashboardDraft',
  [api.upsertWorkbookBySlug.operationId]: 'dashboardDraft',
  [api.updateWorkbookDashboard.operationId]: 'dashboardDraft',
  [api.publishWorkbookDashboard.operationId]: 'config',
};

export function registerWorkbookHooks({ app }: Api): void {
  // The legacy widget type TABS_CONTAINER is no longer advertised but still accepted: heal it
  // into its CONTAINER form before the body is validated against the advertised enum.
  app.addHook('preValidation', async (request) => {
    const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
    const field = operationId ? DASHBOARD_BODY_FIELD[operationId] : undefined;
    if (!field || !request.body || typeof request.body !== 'object') return;
    const { healLegacyWidgets } = await import('./dashboard');
    healLegacyWidgets((request.body as Record<string, unknown>)[field]);
  });
}
