import * as api from '../../../src-shared/api/user-attributes';
import { forbidden } from '../../http/problem';
import type { Api } from '../../http/route';
import { hasAccess } from '../../http/auth';
import {
  createUserAttribute,
  getUserAttribute,
  getUserAttributeValues,
  listUserAttributes,
  setUserAttributeValues,
  updateUserAttribute,
} from './attributes';

export function registerUserAttributeRoutes({ route, ctx }: Api): void {
  const admin = { access: ['admin' as const] };
  route(api.listUserAttributes, admin, ({ query }) => listUserAttributes(ctx, query));
  route(api.createUserAttribute, admin, ({ body }) => createUserAttribute(ctx, body));
  route(api.getUserAttribute, admin, ({ params }) => getUserAttribute(ctx, params.id));
  route(api.updateUserAttribute, admin, ({ params, body }) => updateUserAttribute(ctx, params.id, body));
  route(api.getUserAttributeValues, {}, ({ params, principal }) => {
    if (principal.userId !== params.userId && !hasAccess(principal, 'admin')) {
      throw forbidden('Only an admin can read another user’s attribute values.');
    }
    return getUserAttributeValues(ctx, params.userId);
  });
  route(api.setUserAttributeValues, admin, ({ body }) => setUserAttributeValues(ctx, body.userId, body.values));
}
