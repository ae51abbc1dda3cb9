import * as api from '../../../src-shared/api/workspace';
import type { Api } from '../../http/route';
import { bulkDelete, bulkMove } from './bulk';
import { DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

export function registerWorkspaceRoutes(server: Api): void {
  const { ctx } = server;
  const { route } = server;
  const edit = { access: ['deploymentEdit' as const], credentials: DEPLOYMENT_WRITE_CREDENTIALS };
  route(api.bulkDeleteWorkspaceItems, edit, ({ params, body, principal }) => bulkDelete(ctx, principal, params.deploymentId, body.items));
  route(api.bulkMoveWorkspaceItems, edit, ({ params, body, principal }) =>
    bulkMove(ctx, principal, params.deploymentId, body.items, body.targetFolderId),
  );
}
