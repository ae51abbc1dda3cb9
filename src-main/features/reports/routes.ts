import * as api from '../../../src-shared/api/reports';
import type { Api } from '../../http/route';
import { connectPlacement, disconnectPlacement, listDocumentPlacements, refreshPlacement } from './placements';
import { deleteReport, listReports, reportVersion, toReport, upsertReportByPublicId, viewReport } from './reports';
import { ifMatchOf, sendVersion } from '../../http/preconditions';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

export function registerReportRoutes(server: Api): void {
  const { ctx } = server;
  const { route } = server;
  const read = { access: ['deploymentRead' as const], credentials: DEPLOYMENT_READ_CREDENTIALS };
  const edit = { access: ['deploymentEdit' as const], credentials: DEPLOYMENT_WRITE_CREDENTIALS };
  route(api.listReports, read, ({ params, query, principal }) => listReports(ctx, principal, params.deploymentId, query));
  route(api.getReport, read, ({ params, principal, reply }) => {
    const row = viewReport(ctx, params.deploymentId, params.reportId);
    sendVersion(reply, reportVersion(row));
    return toReport(ctx, principal, row);
  });
  route(api.deleteReport, edit, ({ params, principal, request }) => {
    deleteReport(ctx, principal, params.deploymentId, params.reportId, ifMatchOf(request));
    return null;
  });
  route(api.upsertReportByPublicId, edit, ({ params, body, principal, request, reply }) => {
    const { row, created } = upsertReportByPublicId(ctx, principal, params.deploymentId, params.publicId, body, ifMatchOf(request));
    sendVersion(reply, reportVersion(row));
    return { ...toReport(ctx, principal, row), created };
  });
  // Placing a report in a spreadsheet only needs to read it (but is a write for scoped credentials).
  const place = { access: ['deploymentRead' as const], credentials: DEPLOYMENT_WRITE_CREDENTIALS };
  route(api.connectReportWorkbook, place, ({ params, body, principal }) =>
    connectPlacement(ctx, principal, params.deploymentId, params.reportId, body),
  );
  route(api.disconnectReportWorkbook, place, ({ params, query }) => {
    disconnectPlacement(ctx, params.deploymentId, params.reportId, query);
    return null;
  });
  route(api.refreshReportPlacement, place, ({ params, body, principal }) =>
    refreshPlacement(ctx, principal, params.deploymentId, params.reportId, body),
  );
  // Tenant-wide (every deployment's placements): full user credentials only.
  route(api.listExternalDocumentPlacements, {}, ({ params, query, principal }) =>
    listDocumentPlacements(ctx, principal, params.externalWorkbookId, query),
  );
}
