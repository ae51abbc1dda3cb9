import * as api from '../../../src-shared/api/oauth';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import type { Api } from '../../http/route';
import { createIntegration, getIntegration, listIntegrations, updateIntegration } from './integrations';
import { createOidcConfig, deleteOidcConfig, getOidcConfig, listOidcConfigs, updateOidcConfig } from './oidc';
import { deleteIntegration, deleteUserToken, initiateAuthorization, listUserTokens } from './user-tokens';

/** OAuth connections belong to a workspace user. */
function userOf(principal: Principal): number {
  if (principal.userId === null) throw new ApiError(403, 'USER_REQUIRED', 'OAuth connections belong to a workspace user; this credential names none.');
  return principal.userId;
}

export function registerOAuthRoutes({ route, ctx }: Api): void {
  const admin = { access: ['admin' as const] };
  route(api.listOAuthIntegrations, {}, ({ query }) => listIntegrations(ctx, query));
  route(api.createOAuthIntegration, admin, ({ body }) => createIntegration(ctx, { ...body }));
  route(api.getOAuthIntegration, {}, ({ params }) => getIntegration(ctx, params.id));
  route(api.updateOAuthIntegration, admin, ({ params, body }) => updateIntegration(ctx, params.id, body));
  route(api.deleteOAuthIntegration, admin, async ({ params }) => {
    await deleteIntegration(ctx, params.id);
    return null;
  });

  route(api.listOidcTokenConfigs, admin, ({ query }) => listOidcConfigs(ctx, query));
  route(api.createOidcTokenConfig, admin, ({ body }) => createOidcConfig(ctx, body));
  route(api.getOidcTokenConfig, admin, ({ params }) => getOidcConfig(ctx, params.id));
  route(api.updateOidcTokenConfig, admin, ({ params, body }) => updateOidcConfig(ctx, params.id, body));
  route(api.deleteOidcTokenConfig, admin, ({ params }) => {
    deleteOidcConfig(ctx, params.id);
    return null;
  });

  route(api.listUserOAuthTokens, {}, ({ query, principal }) => listUserTokens(ctx, userOf(principal), query));
  route(api.deleteUserOAuthToken, {}, async ({ params, principal }) => {
    await deleteUserToken(ctx, userOf(principal), params.integrationId);
    return null;
  });
  route(api.initiateUserOAuth, {}, ({ params, principal }) => initiateAuthorization(ctx, userOf(principal), params.integrationId));
}
