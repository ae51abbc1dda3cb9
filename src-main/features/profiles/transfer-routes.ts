import * as contract from '../../../src-shared/api/remote-transfers';
import { TransferErrorCodes as Codes } from '../../../src-shared/api/remote-transfers';
import { ApiError } from '../../http/problem';
import type { Api } from '../../http/route';
import { getJobRunner } from '../../platform/jobs';
import { requireWorkbook } from '../workbooks';
import { assertProfileAccess } from './access';
import { listOrigins, recordOrigin } from './origins';
import { previewRemotePromotion, registerPromotionJob, startRemotePromotion } from './promote';
import { previewRemotePublish, registerPublishJob, startRemotePublish } from './publish';
import { listTransfers, requireTransferRow, transferView } from './transfers';

export function registerTransferRoutes(api: Api): void {
  const { ctx } = api;
  registerPromotionJob(ctx);
  registerPublishJob(ctx);

  // Sending needs a profile (admin) and read access to what is sent; the remote checks its side.
  const send = { access: ['admin' as const, 'deploymentRead' as const] };
  const admin = { access: ['admin' as const] };

  api.route(contract.previewRemoteWorkbookPromotion, send, ({ params, body, principal }) => {
    assertProfileAccess(principal);
    return previewRemotePromotion(ctx, principal, params.deploymentId, params.workbookId, body);
  });
  api.route(contract.startRemoteWorkbookPromotion, send, ({ params, body, principal }) => {
    assertProfileAccess(principal);
    return startRemotePromotion(ctx, principal, params.deploymentId, params.workbookId, body);
  });
  api.route(contract.listRemoteWorkbookPromotions, send, ({ params, query, principal }) => {
    assertProfileAccess(principal);
    requireWorkbook(ctx, principal, params.deploymentId, params.workbookId);
    return listTransfers(ctx, { kind: 'workbook-promotion', workbookId: params.workbookId, deploymentId: params.deploymentId }, query);
  });

  api.route(contract.previewRemoteModelPublish, { access: ['admin', 'schemaRead'] }, ({ params, body, principal }) => {
    assertProfileAccess(principal);
    return previewRemotePublish(ctx, params.deploymentId, body);
  });
  api.route(contract.startRemoteModelPublish, { access: ['admin', 'schemaRead'] }, ({ params, body, principal }) => {
    assertProfileAccess(principal);
    return startRemotePublish(ctx, principal, params.deploymentId, body);
  });

  api.route(contract.listRemoteTransfers, admin, ({ query, principal }) => {
    assertProfileAccess(principal);
    const { kind, deploymentId, profileName, ...page } = query;
    return listTransfers(ctx, { kind, deploymentId, profileName }, page);
  });
  api.route(contract.getRemoteTransfer, admin, ({ params, principal }) => {
    assertProfileAccess(principal);
    return transferView(ctx, requireTransferRow(ctx, params.transferId));
  });
  api.route(contract.cancelRemoteTransfer, admin, ({ params, principal }) => {
    assertProfileAccess(principal);
    const row = requireTransferRow(ctx, params.transferId);
    const view = transferView(ctx, row);
    if (view.status === 'COMPLETED' || view.status === 'FAILED' || view.status === 'CANCELLED') {
      throw new ApiError(409, Codes.TRANSFER_FINISHED, `Transfer ${row.id} already ended ${view.status}; there is nothing to cancel.`);
    }
    getJobRunner(ctx).requestCancel(row.id);
    return transferView(ctx, requireTransferRow(ctx, row.id));
  });

  // The receiving side: a workbook's origins on another service (any caller who may manage it).
  api.route(contract.recordWorkbookRemoteOrigin, { access: ['deploymentEdit'] }, ({ params, body, principal }) =>
    recordOrigin(ctx, principal, params.deploymentId, params.workbookId, body),
  );
  api.route(contract.listWorkbookRemoteOrigins, { access: ['deploymentRead'] }, ({ params, query, principal }) =>
    listOrigins(ctx, principal, params.deploymentId, params.workbookId, query),
  );
}
