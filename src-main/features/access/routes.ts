import * as api from '../../../src-shared/api/access';
import type { Api } from '../../http/route';
import {
  createGroup,
  createPolicy,
  deleteGroup,
  deletePolicy,
  getGroup,
  getPolicy,
  listGroups,
  listPolicies,
  updateGroup,
  updatePolicy,
} from './groups';

export function registerAccessRoutes({ route, ctx }: Api): void {
  const admin = { access: ['admin' as const] };
  route(api.listGroups, admin, ({ query }) => listGroups(ctx, query));
  route(api.createGroup, admin, ({ body }) => createGroup(ctx, body));
  route(api.getGroup, admin, ({ params }) => getGroup(ctx, params.id));
  route(api.updateGroup, admin, ({ params, body }) => updateGroup(ctx, params.id, body));
  route(api.deleteGroup, admin, ({ params }) => {
    deleteGroup(ctx, params.id);
    return null;
  });
  route(api.listPolicies, admin, ({ query }) => listPolicies(ctx, query));
  route(api.createPolicy, admin, ({ body }) => createPolicy(ctx, body));
  route(api.getPolicy, admin, ({ params }) => getPolicy(ctx, params.id));
  route(api.updatePolicy, admin, ({ params, body }) => updatePolicy(ctx, params.id, body));
  route(api.deletePolicy, admin, ({ params }) => {
    deletePolicy(ctx, params.id);
    return null;
  });
}
