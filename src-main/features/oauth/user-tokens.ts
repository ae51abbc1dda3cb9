import { OAuthErrorCodes, type UserOAuthToken } from '../../../src-shared/api/oauth';
import type { ServiceContext } from '../../context';
import { ApiError, notFound } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { clientSecretKey, integrationRow } from './integrations';
import { accessTokenKey, refreshTokenKey, userTokenRef, verifierKey } from './secret-keys';
import { requestTokens, type FetchLike, type GrantedTokens } from './token-endpoint';

/** An access token this close to its expiry is refreshed before use (clock skew, request time). */
export const REFRESH_MARGIN_MS = 60 * 1000;

interface TokenRow {
  integration_id: number;
  name: string;
  provider: string;
  scopes: string;
  has_refresh_token: number;
  connected_at: string;
  expires_at: string | null;
  refreshed_at: string | null;
  secret_ref: string | null;
}

const toToken = (row: TokenRow): UserOAuthToken => ({
  integrationId: row.integration_id,
  integrationName: row.name,
  provider: row.provider,
  scopes: JSON.parse(row.scopes) as string[],
  hasRefreshToken: row.has_refresh_token === 1,
  connectedAt: row.connected_at,
  expiresAt: row.expires_at,
  refreshedAt: row.refreshed_at,
});

const TOKEN_COLUMNS = `t.integration_id, i.name, i.provider, t.scopes, t.has_refresh_token, t.connected_at, t.expires_at, t.refreshed_at,
  t.secret_ref FROM user_oauth_tokens t JOIN oauth_integrations i ON i.id = t.integration_id`;

function tokenRow(ctx: ServiceContext, userId: number, integrationId: number): TokenRow | undefined {
  return ctx.db.prepare(`SELECT ${TOKEN_COLUMNS} WHERE t.user_id = ? AND t.integration_id = ?`).get(userId, integrationId) as TokenRow | undefined;
}

const notConnected = (integrationId: number) => notFound(`An OAuth token of yours for integration ${integrationId}`, 'USER_OAUTH_TOKEN_NOT_FOUND');

/** Rows written before the keychain reference was recorded use the same names. */
const refOf = (row: { secret_ref: string | null }, userId: number, integrationId: number) => row.secret_ref ?? userTokenRef(userId, integrationId);

export function listUserTokens(ctx: ServiceContext, userId: number, page: PageRequest): PageResult<UserOAuthToken> {
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db
    .prepare(`SELECT ${TOKEN_COLUMNS} WHERE t.user_id = ? AND t.integration_id > ? ORDER BY t.integration_id LIMIT ?`)
    .all(userId, after ?? 0, limit) as TokenRow[];
  return toPage(rows, page, (r) => r.integration_id, toToken);
}

async function forgetTokens(ctx: ServiceContext, ref: string): Promise<void> {
  await ctx.secrets.delete(accessTokenKey(ref));
  await ctx.secrets.delete(refreshTokenKey(ref));
}

/** Disconnects a user: the row goes first, so a failed secret delete never leaves a listed connection without tokens. */
export async function deleteUserToken(ctx: ServiceContext, userId: number, integrationId: number): Promise<void> {
  const row = ctx.db
    .prepare('DELETE FROM user_oauth_tokens WHERE user_id = ? AND integration_id = ? RETURNING secret_ref')
    .get(userId, integrationId) as { secret_ref: string | null } | undefined;
  if (!row) throw notConnected(integrationId);
  await forgetTokens(ctx, refOf(row, userId, integrationId));
}

/** Deletes an integration with its client secret, every user's tokens and pending authorizations. */
export async function deleteIntegration(ctx: ServiceContext, integrationId: number): Promise<void> {
  const { refs, states } = ctx.db.transaction(() => {
    integrationRow(ctx, integrationId);
    const refs = (
      ctx.db.prepare('SELECT user_id, secret_ref FROM user_oauth_tokens WHERE integration_id = ?').all(integrationId) as {
        user_id: number;
        secret_ref: string | null;
      }[]
    ).map((r) => refOf(r, r.user_id, integrationId));
    const states = (
      ctx.db.prepare('SELECT state_hash FROM oauth_authorizations WHERE integration_id = ?').all(integrationId) as { state_hash: string }[]
    ).map((r) => r.state_hash);
    ctx.db.prepare('DELETE FROM oauth_integrations WHERE id = ?').run(integrationId);
    return { refs, states };
  })();
  await ctx.secrets.delete(clientSecretKey(integrationId));
  for (const ref of refs) await forgetTokens(ctx, ref);
  for (const state of states) await ctx.secrets.delete(verifierKey(state));
}

const expiryOf = (ctx: ServiceContext, tokens: GrantedTokens): string | null =>
  tokens.expiresIn === null ? null : new Date(ctx.clock.now().getTime() + tokens.expiresIn * 1000).toISOString();

/**
 * Keeps what an authorization-code exchange granted: the token values in the keychain, then the
 * metadata row (scopes, expiry, keychain reference). A row that cannot be written takes the fresh
 * secrets away again, so nothing is half-stored.
 */
export async function storeGrantedTokens(
  ctx: ServiceContext,
  userId: number,
  integrationId: number,
  tokens: GrantedTokens,
  requestedScopes: string[],
): Promise<UserOAuthToken> {
  const ref = userTokenRef(userId, integrationId);
  await ctx.secrets.set(accessTokenKey(ref), tokens.accessToken);
  if (tokens.refreshToken !== null) await ctx.secrets.set(refreshTokenKey(ref), tokens.refreshToken);
  else await ctx.secrets.delete(refreshTokenKey(ref));
  const now = ctx.clock.now().toISOString();
  try {
    ctx.db
      .prepare(
        `INSERT INTO user_oauth_tokens (user_id, integration_id, scopes, has_refresh_token, connected_at, expires_at, secret_ref, refreshed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT (user_id, integration_id) DO UPDATE SET scopes = excluded.scopes, has_refresh_token = excluded.has_refresh_token,
           connected_at = excluded.connected_at, expires_at = excluded.expires_at, secret_ref = excluded.secret_ref, refreshed_at = NULL`,
      )
      .run(userId, integrationId, JSON.stringify(tokens.scopes ?? requestedScopes), tokens.refreshToken !== null ? 1 : 0, now, expiryOf(ctx, tokens), ref);
  } catch (error) {
    await forgetTokens(ctx, ref);
    throw error;
  }
  return toToken(tokenRow(ctx, userId, integrationId)!);
}

/** One refresh at a time per connection: a rotated refresh token must not be spent twice. */
const refreshesInFlight = new WeakMap<ServiceContext, Map<string, Promise<UserOAuthToken>>>();

/**
 * Trades the stored refresh token for new tokens (refresh_token grant, RFC 6749 §6). The new access
 * token (and a rotated refresh token) replace the old ones in the keychain. A refusal keeps the
 * stored tokens and answers 502 `OAUTH_REFRESH_FAILED`; no refresh token answers 409.
 */
export function refreshUserToken(ctx: ServiceContext, userId: number, integrationId: number, fetchImpl?: FetchLike): Promise<UserOAuthToken> {
  let inFlight = refreshesInFlight.get(ctx);
  if (!inFlight) refreshesInFlight.set(ctx, (inFlight = new Map()));
  const key = `${userId}:${integrationId}`;
  const running = inFlight.get(key);
  if (running) return running;
  const started = doRefresh(ctx, userId, integrationId, fetchImpl).finally(() => inFlight.delete(key));
  inFlight.set(key, started);
  return started;
}

async function doRefresh(ctx: ServiceContext, userId: number, integrationId: number, fetchImpl?: FetchLike): Promise<UserOAuthToken> {
  const row = tokenRow(ctx, userId, integrationId);
  if (!row) throw notConnected(integrationId);
  const ref = refOf(row, userId, integrationId);
  const refreshToken = await ctx.secrets.get(refreshTokenKey(ref));
  if (refreshToken === null) {
    throw new ApiError(
      409,
      OAuthErrorCodes.REFRESH_TOKEN_MISSING,
      `"${row.name}" gave no refresh token, so the expired access token cannot be renewed. Connect again.`,
    );
  }
  const integration = integrationRow(ctx, integrationId);
  const tokens = await requestTokens(
    ctx,
    integration,
    { grant_type: 'refresh_token', refresh_token: refreshToken },
    { code: OAuthErrorCodes.REFRESH_FAILED, detail: `"${integration.name}" refused to refresh your access token; connect again` },
    fetchImpl,
  );
  await ctx.secrets.set(accessTokenKey(ref), tokens.accessToken);
  if (tokens.refreshToken !== null) await ctx.secrets.set(refreshTokenKey(ref), tokens.refreshToken);
  ctx.db
    .prepare(
      `UPDATE user_oauth_tokens SET scopes = COALESCE(?, scopes), expires_at = ?, refreshed_at = ?, secret_ref = ?
       WHERE user_id = ? AND integration_id = ?`,
    )
    .run(tokens.scopes ? JSON.stringify(tokens.scopes) : null, expiryOf(ctx, tokens), ctx.clock.now().toISOString(), ref, userId, integrationId);
  return toToken(tokenRow(ctx, userId, integrationId)!);
}

/**
 * A user's access token for an integration (for code acting as the user); null when not connected.
 * An access token that has expired (or is about to) is refreshed first.
 */
export async function getUserAccessToken(ctx: ServiceContext, userId: number, integrationId: number, fetchImpl?: FetchLike): Promise<string | null> {
  const row = tokenRow(ctx, userId, integrationId);
  if (!row) return null;
  if (row.expires_at !== null && Date.parse(row.expires_at) - REFRESH_MARGIN_MS <= ctx.clock.now().getTime()) {
    await refreshUserToken(ctx, userId, integrationId, fetchImpl);
  }
  return ctx.secrets.get(accessTokenKey(refOf(row, userId, integrationId)));
}
