import * as api from '../../../src-shared/api/embed';
import type { Api } from '../../http/route';
import { notFound } from '../../http/problem';
import { deleteEmbedTenant, EMBED_TENANT_NOT_FOUND, findEmbedTenant } from '../embed';
import { revokeTenantSessions } from '../embed-sessions';
import { addGroupUsers, createGroup, deleteGroup, getGroup, getTenant, listGroups, listGroupUsers, listTenants, listTenantUsers, updateGroup } from './tenants';

export function registerEmbedTenantRoutes({ route, ctx }: Api): void {
  const admin = { access: ['admin' as const] };
  route(api.listEmbedTenants, admin, ({ query }) => listTenants(ctx, query));
  route(api.getEmbedTenant, admin, ({ params }) => getTenant(ctx, params.embedTenantName));
  route(api.deleteEmbedTenant, admin, ({ params }) => {
    const name = params.embedTenantName;
    ctx.db.transaction(() => {
      if (!findEmbedTenant(ctx, name)) throw notFound(`Embed tenant "${name}"`, EMBED_TENANT_NOT_FOUND);
      // Before the rows go: a deleted tenant's tokens must stop working at once.
      revokeTenantSessions(ctx, name);
      deleteEmbedTenant(ctx, name);
    })();
    return null;
  });
  route(api.listEmbedTenantUsers, admin, ({ params, query }) => listTenantUsers(ctx, params.embedTenantName, query));
  route(api.createEmbedGroup, admin, ({ params, body }) => createGroup(ctx, params.embedTenantName, body));
  route(api.listEmbedGroups, admin, ({ params, query }) => listGroups(ctx, params.embedTenantName, query));
  route(api.getEmbedGroup, admin, ({ params }) => getGroup(ctx, params.embedTenantName, params.id));
  route(api.updateEmbedGroup, admin, ({ params, body }) => updateGroup(ctx, params.embedTenantName, params.id, body));
  route(api.deleteEmbedGroup, admin, ({ params }) => {
    deleteGroup(ctx, params.embedTenantName, params.id);
    return null;
  });
  route(api.listEmbedGroupUsers, admin, ({ params, query }) => listGroupUsers(ctx, params.embedTenantName, params.id, query));
  route(api.addEmbedGroupUsers, admin, ({ params, body }) => addGroupUsers(ctx, params.embedTenantName, params.id, body));
}
