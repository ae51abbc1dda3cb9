import * as api from '../../../src-shared/api/embed-access';
import type { Api } from '../../http/route';
import { getFolderEmbedAccess, getWorkbookEmbedAccess, listEmbedTenantWorkbooks, setFolderEmbedAccess, setWorkbookEmbedAccess } from './access';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

export function registerEmbedAccessRoutes(server: Api): void {
  const { ctx } = server;
  const { route } = server;
  const read = { access: ['deploymentRead' as const], credentials: DEPLOYMENT_READ_CREDENTIALS };
  const edit = { access: ['deploymentEdit' as const], credentials: DEPLOYMENT_WRITE_CREDENTIALS };
  route(api.getWorkbookEmbedAccess, read, ({ params, principal }) =>
    getWorkbookEmbedAccess(ctx, principal, params.deploymentId, params.workbookId),
  );
  route(api.setWorkbookEmbedAccess, edit, ({ params, body, principal }) =>
    setWorkbookEmbedAccess(ctx, principal, params.deploymentId, params.workbookId, body),
  );
  route(api.getFolderEmbedAccess, read, ({ params }) => getFolderEmbedAccess(ctx, params.deploymentId, params.folderId));
  route(api.setFolderEmbedAccess, edit, ({ params, body, principal }) =>
    setFolderEmbedAccess(ctx, principal, params.deploymentId, params.folderId, body),
  );
  route(api.listEmbedTenantWorkbooks, { access: ['deploymentRead', 'admin'], credentials: DEPLOYMENT_READ_CREDENTIALS }, ({ params, query }) =>
    listEmbedTenantWorkbooks(ctx, params.deploymentId, params.embedTenantName, query),
  );
}
