import * as api from '../../../src-shared/api/notifications';
import type { Api } from '../../http/route';
import { createNotification, deleteNotification, getNotification, listNotifications, updateNotification } from './notifications';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

export function registerNotificationRoutes(server: Api): void {
  const { ctx } = server;
  const { route } = server;
  const read = { access: ['deploymentRead' as const], credentials: DEPLOYMENT_READ_CREDENTIALS };
  const edit = { access: ['deploymentEdit' as const], credentials: DEPLOYMENT_WRITE_CREDENTIALS };
  route(api.listNotifications, read, ({ params, query }) => listNotifications(ctx, params.deploymentId, query));
  route(api.createNotification, edit, ({ params, body, principal }) => createNotification(ctx, principal, params.deploymentId, body));
  route(api.getNotification, read, ({ params }) => getNotification(ctx, params.deploymentId, params.notificationId));
  route(api.updateNotification, edit, ({ params, body, principal }) =>
    updateNotification(ctx, principal, params.deploymentId, params.notificationId, body),
  );
  route(api.deleteNotification, edit, ({ params, principal }) => {
    deleteNotification(ctx, principal, params.deploymentId, params.notificationId);
    return null;
  });
}
