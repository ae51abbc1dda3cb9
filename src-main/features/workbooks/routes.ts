import * as promotions from '../../../src-shared/api/promotions';
import * as api from '../../../src-shared/api/workbooks';
import type { Api } from '../../http/route';
import { applyPromotion, getProvenance, listPromotionLinks, listPromotions, previewPromotion } from './promotion';
import { deleteWorkbook, findWorkbook, listWorkbooks, requireWorkbook, toWorkbookDetail, workbookVersion, type WorkbookRow } from './store';
import { ifMatchOf, sendVersion } from '../../http/preconditions';
import type { FastifyReply } from 'fastify';
import { createWorkbook, duplicateWorkbook, publishDashboard, updateDashboardDraft, upsertWorkbookBySlug } from './workbooks';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

export function registerWorkbookRoutes(server: Api): void {
  const { ctx } = server;
  const { route } = server;
  const read = { access: ['deploymentRead' as const], credentials: DEPLOYMENT_READ_CREDENTIALS };
  const edit = { access: ['deploymentEdit' as const], credentials: DEPLOYMENT_WRITE_CREDENTIALS };

  // Every answer that carries a workbook (or its dashboard) carries its version in `ETag`.
  const versioned = (reply: FastifyReply, row: WorkbookRow) => {
    sendVersion(reply, workbookVersion(row));
    return row;
  };
  const current = (deploymentId: number, workbookId: number) => findWorkbook(ctx, deploymentId, workbookId);

  route(api.listWorkbooks, read, ({ params, query, principal }) => listWorkbooks(ctx, principal, params.deploymentId, query));
  route(api.createWorkbook, edit, ({ params, body, principal, reply }) =>
    toWorkbookDetail(ctx, principal, versioned(reply, createWorkbook(ctx, principal, params.deploymentId, body))),
  );
  route(api.getWorkbook, read, ({ params, principal, reply }) =>
    toWorkbookDetail(ctx, principal, versioned(reply, requireWorkbook(ctx, principal, params.deploymentId, params.workbookId))),
  );
  route(api.deleteWorkbook, edit, ({ params, principal, request }) => {
    deleteWorkbook(ctx, principal, params.deploymentId, params.workbookId, ifMatchOf(request));
    return null;
  });
  route(api.upsertWorkbookBySlug, edit, ({ params, body, principal, request, reply }) => {
    const { row, created } = upsertWorkbookBySlug(ctx, principal, params.deploymentId, params.slug, body, ifMatchOf(request));
    return { ...toWorkbookDetail(ctx, principal, versioned(reply, row)), created };
  });
  route(api.duplicateWorkbook, edit, ({ params, body, principal, reply }) =>
    toWorkbookDetail(ctx, principal, versioned(reply, duplicateWorkbook(ctx, principal, params.deploymentId, params.workbookId, body ?? {}))),
  );
  route(api.updateWorkbookDashboard, edit, ({ params, body, principal, request, reply }) => {
    const result = updateDashboardDraft(ctx, principal, params.deploymentId, params.workbookId, (body ?? {}) as Record<string, unknown>, ifMatchOf(request));
    versioned(reply, current(params.deploymentId, params.workbookId)!);
    return result;
  });
  route(api.publishWorkbookDashboard, edit, ({ params, body, principal, request, reply }) => {
    const result = publishDashboard(ctx, principal, params.deploymentId, params.workbookId, body?.config, ifMatchOf(request));
    versioned(reply, current(params.deploymentId, params.workbookId)!);
    return result;
  });

  // Spec, Authentication 7: promotion needs a workspace session or an API key (it reaches a second deployment).
  const refusal = { code: 'PROMOTION_CREDENTIAL_REFUSED', detail: 'Workbook promotion needs a workspace session or an API key; this credential cannot promote.' };
  const promote = { access: ['deploymentRead' as const], credentialRefusals: { deploymentToken: refusal, oauth: refusal } };
  route(promotions.previewWorkbookPromotion, promote, ({ params, body, principal }) =>
    previewPromotion(ctx, principal, params.deploymentId, params.workbookId, body),
  );
  route(promotions.applyWorkbookPromotion, promote, ({ params, body, principal }) =>
    applyPromotion(ctx, principal, params.deploymentId, params.workbookId, body),
  );
  route(promotions.getWorkbookProvenance, read, ({ params, principal }) =>
    getProvenance(ctx, principal, params.deploymentId, params.workbookId),
  );
  route(promotions.listWorkbookPromotions, read, ({ params, query, principal }) =>
    listPromotions(ctx, principal, params.deploymentId, params.workbookId, query),
  );
  route(promotions.listWorkbookPromotionLinks, read, ({ params, query, principal }) =>
    listPromotionLinks(ctx, principal, params.deploymentId, params.workbookId, query),
  );
}
