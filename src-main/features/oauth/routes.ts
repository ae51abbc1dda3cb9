import type { FastifyRequest } from 'fastify';
import * as api from '../../../src-shared/api/oauth';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { REPLY_SENT, type Api, type ReplySent } from '../../http/route';
import { completeAuthorization, initiateAuthorization } from './authorization';
import { CALLBACK_PAGE_CSP, callbackPage } from './callback-page';
import { createIntegration, getIntegration, listIntegrations, updateIntegration } from './integrations';
import { createOidcConfig, deleteOidcConfig, getOidcConfig, listOidcConfigs, updateOidcConfig } from './oidc';
import { mintOidcToken, oidcDiscovery, oidcJwks } from './oidc-tokens';
import { deleteIntegration, deleteUserToken, listUserTokens, refreshUserToken } from './user-tokens';

/** OAuth connections belong to a workspace user. */
function userOf(principal: Principal): number {
  if (principal.userId === null) throw new ApiError(403, 'USER_REQUIRED', 'OAuth connections belong to a workspace user; this credential names none.');
  return principal.userId;
}

/** The port this request reached the service on (the service listens on 127.0.0.1 only). */
const portOf = (request: FastifyRequest): number => request.socket.localPort ?? 0;

/** A browser navigating to the callback asks for HTML; scripts and CLIs get problem+json. */
const wantsHtml = (request: FastifyRequest): boolean => /\btext\/html\b/i.test(request.headers.accept ?? '');

export function registerOAuthRoutes({ route, ctx }: Api): void {
  const admin = { access: ['admin' as const] };
  route(api.listOAuthIntegrations, {}, ({ query }) => listIntegrations(ctx, query));
  route(api.createOAuthIntegration, admin, ({ body, request }) => createIntegration(ctx, { ...body }, portOf(request)));
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
  // Any workspace user mints tokens for themselves; the keys that verify them are public.
  route(api.mintOidcToken, {}, ({ params, principal, request }) => mintOidcToken(ctx, params.id, userOf(principal), portOf(request)));
  route(api.getOidcJwks, {}, () => oidcJwks(ctx));
  route(api.getOidcDiscovery, {}, ({ request }) => oidcDiscovery(portOf(request)));

  route(api.listUserOAuthTokens, {}, ({ query, principal }) => listUserTokens(ctx, userOf(principal), query));
  route(api.deleteUserOAuthToken, {}, async ({ params, principal }) => {
    await deleteUserToken(ctx, userOf(principal), params.integrationId);
    return null;
  });
  route(api.initiateUserOAuth, {}, ({ params, principal, request }) =>
    initiateAuthorization(ctx, userOf(principal), params.integrationId, portOf(request)),
  );
  route(api.refreshUserOAuth, {}, ({ params, principal }) => refreshUserToken(ctx, userOf(principal), params.integrationId));

  // The browser comes back here from the provider: no credential, the one-time state stands in for it.
  route(api.oauthCallback, {}, async ({ query, request, reply }): Promise<ReplySent> => {
    let page: string;
    try {
      const { token } = await completeAuthorization(ctx, query);
      page = callbackPage({ ok: true, integrationName: token.integrationName });
    } catch (error) {
      if (!(error instanceof ApiError) || !wantsHtml(request)) throw error;
      reply.code(error.status);
      page = callbackPage({ ok: false, code: error.code, detail: error.detail });
    }
    await reply.header('Content-Security-Policy', CALLBACK_PAGE_CSP).type('text/html; charset=utf-8').send(page);
    return REPLY_SENT;
  });
}
