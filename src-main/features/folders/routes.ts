import * as api from '../../../src-shared/api/folders';
import type { Api } from '../../http/route';
import { createFolder, deleteFolder, listFolders, requireFolder, toFolder, updateFolder } from './folders';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

export function registerFolderRoutes(server: Api): void {
  const { ctx } = server;
  const { route } = server;
  const read = { access: ['deploymentRead' as const], credentials: DEPLOYMENT_READ_CREDENTIALS };
  const edit = { access: ['deploymentEdit' as const], credentials: DEPLOYMENT_WRITE_CREDENTIALS };
  route(api.listFolders, read, ({ params, query, principal }) => listFolders(ctx, principal, params.deploymentId, query));
  route(api.createFolder, edit, ({ params, body, principal }) =>
    toFolder(ctx, principal, createFolder(ctx, principal, params.deploymentId, body)),
  );
  route(api.getFolder, read, ({ params, principal }) => toFolder(ctx, principal, requireFolder(ctx, params.deploymentId, params.folderId)));
  route(api.updateFolder, edit, ({ params, body, principal }) =>
    toFolder(ctx, principal, updateFolder(ctx, principal, params.deploymentId, params.folderId, body)),
  );
  route(api.deleteFolder, edit, ({ params, principal }) => {
    deleteFolder(ctx, principal, params.deploymentId, params.folderId);
    return null;
  });
}
