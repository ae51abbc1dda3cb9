import { createHash } from 'node:crypto';
import type { UserOAuthToken } from '../../../src-shared/api/oauth';
import type { ServiceContext } from '../../context';
import { ApiError, notFound } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { randomToken, sha256 } from '../../platform/tokens/tokens';
import { clientSecretKey, integrationRow } from './integrations';

/** An authorization started by `initiate` must come back within this time. */
export const AUTHORIZATION_TTL_MS = 10 * 60 * 1000;

const accessTokenKey = (userId: number, integrationId: number) => `user-oauth:${userId}:${integrationId}:access-token`;
const refreshTokenKey = (userId: number, integrationId: number) => `user-oauth:${userId}:${integrationId}:refresh-token`;
const verifierKey = (stateHash: string) => `oauth-pkce:${stateHash}`;

interface TokenRow {
  integration_id: number;
  name: string;
  provider: string;
  scopes: string;
  has_refresh_token: number;
  connected_at: string;
  expires_at: string | null;
}

const toToken = (row: TokenRow): UserOAuthToken => ({
  integrationId: row.integration_id,
  integrationName: row.name,
  provider: row.provider,
  scopes: JSON.parse(row.scopes) as string[],
  hasRefreshToken: row.has_refresh_token === 1,
  connectedAt: row.connected_at,
  expiresAt: row.expires_at,
});

const TOKEN_COLUMNS = `t.integration_id, i.name, i.provider, t.scopes, t.has_refresh_token, t.connected_at, t.expires_at
  FROM user_oauth_tokens t JOIN oauth_integrations i ON i.id = t.integration_id`;

export function listUserTokens(ctx: ServiceContext, userId: number, page: PageRequest): PageResult<UserOAuthToken> {
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db
    .prepare(`SELECT ${TOKEN_COLUMNS} WHERE t.user_id = ? AND t.integration_id > ? ORDER BY t.integration_id LIMIT ?`)
    .all(userId, after ?? 0, limit) as TokenRow[];
  return toPage(rows, page, (r) => r.integration_id, toToken);
}

async function forgetTokens(ctx: ServiceContext, userId: number, integrationId: number): Promise<void> {
  await ctx.secrets.delete(accessTokenKey(userId, integrationId));
  await ctx.secrets.delete(refreshTokenKey(userId, integrationId));
}

/** Disconnects a user: the row goes first, so a failed secret delete never leaves a listed connection without tokens. */
export async function deleteUserToken(ctx: ServiceContext, userId: number, integrationId: number): Promise<void> {
  const result = ctx.db.prepare('DELETE FROM user_oauth_tokens WHERE user_id = ? AND integration_id = ?').run(userId, integrationId);
  if (result.changes === 0) throw notFound(`An OAuth token of yours for integration ${integrationId}`, 'USER_OAUTH_TOKEN_NOT_FOUND');
  await forgetTokens(ctx, userId, integrationId);
}

/** Deletes an integration with its client secret, every user's tokens and pending authorizations. */
export async function deleteIntegration(ctx: ServiceContext, integrationId: number): Promise<void> {
  const { users, states } = ctx.db.transaction(() => {
    integrationRow(ctx, integrationId);
    const users = (ctx.db.prepare('SELECT user_id FROM user_oauth_tokens WHERE integration_id = ?').all(integrationId) as { user_id: number }[]).map(
      (r) => r.user_id,
    );
    const states = (
      ctx.db.prepare('SELECT state_hash FROM oauth_authorizations WHERE integration_id = ?').all(integrationId) as { state_hash: string }[]
    ).map((r) => r.state_hash);
    ctx.db.prepare('DELETE FROM oauth_integrations WHERE id = ?').run(integrationId);
    return { users, states };
  })();
  await ctx.secrets.delete(clientSecretKey(integrationId));
  for (const userId of users) await forgetTokens(ctx, userId, integrationId);
  for (const state of states) await ctx.secrets.delete(verifierKey(state));
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** RFC 7636 S256: BASE64URL(SHA256(verifier)). */
export const pkceChallenge = (verifier: string): string => base64url(createHash('sha256').update(verifier, 'ascii').digest());

/**
 * Starts an authorization code flow with PKCE for a user: a single-use `state` (stored hashed)
 * and a code verifier (kept in the SecretStore) for `completeUserOAuthAuthorization`.
 */
export async function initiateAuthorization(
  ctx: ServiceContext,
  userId: number,
  integrationId: number,
): Promise<{ authorizationUrl: string; state: string; expiresAt: string }> {
  const integration = integrationRow(ctx, integrationId);
  const state = randomToken(24);
  const verifier = randomToken(48);
  const stateHash = sha256(state);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + AUTHORIZATION_TTL_MS).toISOString();
  await ctx.secrets.set(verifierKey(stateHash), verifier);
  const stale = ctx.db.transaction(() => {
    const expired = (
      ctx.db.prepare('SELECT state_hash FROM oauth_authorizations WHERE user_id = ? AND expires_at <= ?').all(userId, now.toISOString()) as {
        state_hash: string;
      }[]
    ).map((r) => r.state_hash);
    ctx.db.prepare('DELETE FROM oauth_authorizations WHERE user_id = ? AND expires_at <= ?').run(userId, now.toISOString());
    ctx.db
      .prepare('INSERT INTO oauth_authorizations (state_hash, user_id, integration_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(stateHash, userId, integrationId, now.toISOString(), expiresAt);
    return expired;
  })();
  for (const hash of stale) await ctx.secrets.delete(verifierKey(hash));
  const url = new URL(integration.authorization_url);
  const scopes = JSON.parse(integration.scopes) as string[];
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', integration.client_id);
  url.searchParams.set('redirect_uri', integration.redirect_uri);
  if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', pkceChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return { authorizationUrl: url.toString(), state, expiresAt };
}

interface TokenEndpointResponse {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  scope?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/**
 * Finishes an authorization the provider redirected back with: the state is used up, the code is
 * exchanged at the integration's token endpoint (with the PKCE verifier and the client secret),
 * and the tokens go to the SecretStore. 400 `OAUTH_STATE_INVALID` for an unknown, used or
 * expired state; 502 `OAUTH_TOKEN_EXCHANGE_FAILED` when the provider refuses.
 */
export async function completeUserOAuthAuthorization(
  ctx: ServiceContext,
  input: { state: string; code: string },
  fetchImpl: typeof fetch = fetch,
): Promise<UserOAuthToken> {
  const stateHash = sha256(input.state);
  const now = ctx.clock.now().toISOString();
  const pending = ctx.db
    .prepare('DELETE FROM oauth_authorizations WHERE state_hash = ? RETURNING user_id, integration_id, expires_at')
    .get(stateHash) as { user_id: number; integration_id: number; expires_at: string } | undefined;
  const verifier = await ctx.secrets.get(verifierKey(stateHash));
  await ctx.secrets.delete(verifierKey(stateHash));
  if (!pending || pending.expires_at <= now || verifier === null) {
    throw new ApiError(400, 'OAUTH_STATE_INVALID', 'This authorization was already completed, has expired or was never started. Start it again.');
  }
  const { user_id: userId, integration_id: integrationId } = pending;
  const integration = integrationRow(ctx, integrationId);
  const clientSecret = await ctx.secrets.get(clientSecretKey(integrationId));
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: integration.redirect_uri,
    client_id: integration.client_id,
    code_verifier: verifier,
  });
  if (clientSecret !== null) form.set('client_secret', clientSecret);
  let body: TokenEndpointResponse;
  let status: number;
  try {
    const res = await fetchImpl(integration.token_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(15_000),
    });
    status = res.status;
    body = (await res.json().catch(() => ({}))) as TokenEndpointResponse;
  } catch (error) {
    throw new ApiError(502, 'OAUTH_TOKEN_EXCHANGE_FAILED', `The token endpoint of "${integration.name}" could not be reached: ${(error as Error).message}.`);
  }
  if (status >= 400 || typeof body.access_token !== 'string') {
    const reason = typeof body.error === 'string' ? `${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}` : `HTTP ${status}`;
    throw new ApiError(502, 'OAUTH_TOKEN_EXCHANGE_FAILED', `"${integration.name}" refused the authorization code (${reason}).`);
  }
  const refreshToken = typeof body.refresh_token === 'string' ? body.refresh_token : null;
  const expiresAt =
    typeof body.expires_in === 'number' && body.expires_in > 0 ? new Date(ctx.clock.now().getTime() + body.expires_in * 1000).toISOString() : null;
  const scopes = typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : (JSON.parse(integration.scopes) as string[]);
  await ctx.secrets.set(accessTokenKey(userId, integrationId), body.access_token);
  if (refreshToken !== null) await ctx.secrets.set(refreshTokenKey(userId, integrationId), refreshToken);
  else await ctx.secrets.delete(refreshTokenKey(userId, integrationId));
  ctx.db
    .prepare(
      `INSERT INTO user_oauth_tokens (user_id, integration_id, scopes, has_refresh_token, connected_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, integration_id) DO UPDATE SET scopes = excluded.scopes, has_refresh_token = excluded.has_refresh_token,
         connected_at = excluded.connected_at, expires_at = excluded.expires_at`,
    )
    .run(userId, integrationId, JSON.stringify(scopes), refreshToken !== null ? 1 : 0, ctx.clock.now().toISOString(), expiresAt);
  const row = ctx.db.prepare(`SELECT ${TOKEN_COLUMNS} WHERE t.user_id = ? AND t.integration_id = ?`).get(userId, integrationId) as TokenRow;
  return toToken(row);
}

/** A user's access token for an integration (for connectors acting as the user); null when not connected. */
export async function getUserAccessToken(ctx: ServiceContext, userId: number, integrationId: number): Promise<string | null> {
  const row = ctx.db.prepare('SELECT 1 FROM user_oauth_tokens WHERE user_id = ? AND integration_id = ?').get(userId, integrationId);
  if (!row) return null;
  return ctx.secrets.get(accessTokenKey(userId, integrationId));
}

