import { createHash } from 'node:crypto';
import { OAUTH_CALLBACK_PATH, OAuthErrorCodes, type UserOAuthToken } from '../../../src-shared/api/oauth';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { randomToken, sha256 } from '../../platform/tokens/tokens';
import { integrationRow, LOOPBACK_HOSTS } from './integrations';
import { verifierKey } from './secret-keys';
import { requestTokens, type FetchLike } from './token-endpoint';
import { storeGrantedTokens } from './user-tokens';

/** An authorization started by `initiate` must come back within this time. */
export const AUTHORIZATION_TTL_MS = 10 * 60 * 1000;

/** RFC 7636 S256: BASE64URL(SHA256(verifier)). */
export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/**
 * The redirect URI an authorization uses. A loopback URI of this service's own callback follows the
 * port the service serves on now (RFC 8252 §7.3: loopback redirects may use any port), so an
 * integration keeps working after the service moved to another port.
 */
export function effectiveRedirectUri(configured: string, servicePort: number | null): string {
  const url = new URL(configured);
  if (servicePort !== null && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.pathname === OAUTH_CALLBACK_PATH) {
    url.port = String(servicePort);
  }
  return url.toString();
}

/**
 * Starts an authorization-code flow with PKCE for a user: a single-use `state` (stored hashed, with
 * the redirect URI) and a code verifier kept in the SecretStore until the callback uses it.
 */
export async function initiateAuthorization(
  ctx: ServiceContext,
  userId: number,
  integrationId: number,
  servicePort: number | null,
): Promise<{ authorizationUrl: string; state: string; expiresAt: string; redirectUri: string }> {
  const integration = integrationRow(ctx, integrationId);
  const redirectUri = effectiveRedirectUri(integration.redirect_uri, servicePort);
  const state = randomToken(24);
  const verifier = randomToken(48); // 64 characters of [A-Za-z0-9_-], within RFC 7636's 43–128
  const stateHash = sha256(state);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + AUTHORIZATION_TTL_MS).toISOString();
  await ctx.secrets.set(verifierKey(stateHash), verifier);
  const stale = ctx.db.transaction(() => {
    // Authorizations past their time (used or not) are of no further use, not even to tell a replay apart.
    const expired = (
      ctx.db.prepare('DELETE FROM oauth_authorizations WHERE expires_at <= ? RETURNING state_hash, used_at').all(now.toISOString()) as {
        state_hash: string;
        used_at: string | null;
      }[]
    )
      .filter((r) => r.used_at === null)
      .map((r) => r.state_hash);
    ctx.db
      .prepare('INSERT INTO oauth_authorizations (state_hash, user_id, integration_id, created_at, expires_at, redirect_uri) VALUES (?, ?, ?, ?, ?, ?)')
      .run(stateHash, userId, integrationId, now.toISOString(), expiresAt, redirectUri);
    return expired;
  })();
  for (const hash of stale) await ctx.secrets.delete(verifierKey(hash));
  const url = new URL(integration.authorization_url);
  const scopes = JSON.parse(integration.scopes) as string[];
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', integration.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', pkceChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return { authorizationUrl: url.toString(), state, expiresAt, redirectUri };
}

interface Authorization {
  userId: number;
  integrationId: number;
  redirectUri: string;
  verifier: string;
}

/**
 * Uses up a state, once: the row is marked used in the same statement that finds it, so two
 * callbacks racing with one state cannot both pass. The verifier leaves the keychain either way.
 */
async function consumeState(ctx: ServiceContext, state: string): Promise<Authorization> {
  const stateHash = sha256(state);
  const now = ctx.clock.now().toISOString();
  const claimed = ctx.db
    .prepare(
      `UPDATE oauth_authorizations SET used_at = ? WHERE state_hash = ? AND used_at IS NULL AND expires_at > ?
       RETURNING user_id, integration_id, redirect_uri`,
    )
    .get(now, stateHash, now) as { user_id: number; integration_id: number; redirect_uri: string | null } | undefined;
  const verifier = await ctx.secrets.get(verifierKey(stateHash));
  await ctx.secrets.delete(verifierKey(stateHash));
  if (!claimed) {
    const known = ctx.db.prepare('SELECT used_at, expires_at FROM oauth_authorizations WHERE state_hash = ?').get(stateHash) as
      | { used_at: string | null; expires_at: string }
      | undefined;
    if (known?.used_at) {
      throw new ApiError(400, OAuthErrorCodes.STATE_USED, 'This authorization was already completed; its state works once. Start connecting again.');
    }
    if (known) throw new ApiError(400, OAuthErrorCodes.STATE_EXPIRED, 'This authorization took longer than ten minutes and has expired. Start connecting again.');
    throw new ApiError(400, OAuthErrorCodes.STATE_INVALID, 'No authorization was started with this state. Start connecting from Drydock.');
  }
  if (verifier === null) {
    throw new ApiError(400, OAuthErrorCodes.STATE_INVALID, 'The PKCE verifier of this authorization is gone from the keychain. Start connecting again.');
  }
  const integration = integrationRow(ctx, claimed.integration_id);
  return {
    userId: claimed.user_id,
    integrationId: claimed.integration_id,
    redirectUri: claimed.redirect_uri ?? integration.redirect_uri,
    verifier,
  };
}

export interface CallbackParams {
  state?: string;
  code?: string;
  error?: string;
  error_description?: string;
}

export interface CompletedAuthorization {
  token: UserOAuthToken;
  userId: number;
}

/**
 * Finishes an authorization the provider redirected back with (RFC 6749 §4.1.2): the state is used
 * up, a provider error is reported, otherwise the code is exchanged at the integration's token
 * endpoint with the PKCE verifier and the client secret, and the tokens go to the SecretStore.
 */
export async function completeUserOAuthAuthorization(
  ctx: ServiceContext,
  params: CallbackParams,
  fetchImpl?: FetchLike,
): Promise<UserOAuthToken> {
  return (await completeAuthorization(ctx, params, fetchImpl)).token;
}

export async function completeAuthorization(ctx: ServiceContext, params: CallbackParams, fetchImpl?: FetchLike): Promise<CompletedAuthorization> {
  if (!params.state) throw new ApiError(400, OAuthErrorCodes.STATE_MISSING, 'The provider sent no state back, so this answer cannot be matched to a connection.');
  const authorization = await consumeState(ctx, params.state);
  const integration = integrationRow(ctx, authorization.integrationId);
  if (params.error !== undefined) {
    const described = params.error_description ? `: ${params.error_description}` : '';
    if (params.error === 'access_denied') {
      throw new ApiError(403, OAuthErrorCodes.ACCESS_DENIED, `Access was not granted at "${integration.name}"${described}. Nothing was stored.`, {
        providerError: params.error,
      });
    }
    throw new ApiError(502, OAuthErrorCodes.PROVIDER_ERROR, `"${integration.name}" answered with the error ${params.error}${described}.`, {
      providerError: params.error,
      providerErrorDescription: params.error_description ?? null,
    });
  }
  if (!params.code) throw new ApiError(400, OAuthErrorCodes.CODE_MISSING, `"${integration.name}" sent neither an authorization code nor an error.`);
  const tokens = await requestTokens(
    ctx,
    integration,
    { grant_type: 'authorization_code', code: params.code, redirect_uri: authorization.redirectUri, code_verifier: authorization.verifier },
    { code: OAuthErrorCodes.TOKEN_EXCHANGE_FAILED, detail: `"${integration.name}" refused the authorization code` },
    fetchImpl,
  );
  const token = await storeGrantedTokens(ctx, authorization.userId, authorization.integrationId, tokens, JSON.parse(integration.scopes) as string[]);
  return { token, userId: authorization.userId };
}
