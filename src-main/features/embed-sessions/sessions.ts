import {
  AI_SURFACE_SETTINGS,
  DEFAULT_EMBED_SESSION_SETTINGS,
  type EmbedSessionSettings,
  type EmbedSessionSettingsInput,
  type GenerateEmbedSessionInput,
} from '../../../src-shared/api/embed';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError, forbidden, invalidField } from '../../http/problem';
import { randomToken, sha256 } from '../../platform/tokens/tokens';
import { getAppConfig, getAppSettings } from '../app';
import { getBranchHead } from '../data-model';
import { getBuildState, getDeployBranch } from '../deployments';
import { groupNamesOf, setUserGroups, upsertEmbedUser, upsertGroupDefinitions, upsertTenantProfile } from '../embed-tenants';

/** An unexchanged session id must be redeemed within this time. */
export const SESSION_ID_TTL_MS = 10 * 60 * 1000;
/** Embed tokens expire within 24 hours (spec, Authentication 5). */
export const EMBED_TOKEN_TTL_SECONDS = 24 * 60 * 60;

type SessionStatus = 'unexchanged' | 'exchanged' | 'revoked';

interface SessionRow {
  session_hash: string;
  tenant_name: string;
  embed_user_id: number;
  deployment_id: number;
  branch: string;
  settings: string;
  status: SessionStatus;
  token_sid: string | null;
  created_at: string;
  expires_at: string;
  token_expires_at: string | null;
}

export function assertEmbeddingEnabled(ctx: ServiceContext): void {
  if (!getAppSettings(ctx).embeddingEnabled) {
    throw forbidden('Embedding is not enabled for this tenant; an admin turns it on in the tenant settings (embeddingEnabled).', 'EMBEDDING_DISABLED');
  }
}

function assertLocale(locale: string | null | undefined): void {
  if (locale === undefined || locale === null) return;
  try {
    Intl.getCanonicalLocales(locale);
  } catch {
    throw invalidField('/body/settings/locale', `"${locale}" is not a BCP 47 language tag.`);
  }
}

function assertTimeZone(zone: string | null | undefined): void {
  if (zone === undefined || zone === null) return;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw invalidField('/body/settings/timezone', `"${zone}" is not an IANA time zone.`);
  }
}

/**
 * The settings a session runs with: requested values over defaults. Without AI (`allowAi: false`,
 * or a tenant where AI is paywalled) every AI surface is off, whatever was asked for.
 */
export function effectiveSessionSettings(ctx: ServiceContext, requested: EmbedSessionSettingsInput): EmbedSessionSettings {
  const settings: EmbedSessionSettings = { ...DEFAULT_EMBED_SESSION_SETTINGS };
  for (const [key, value] of Object.entries(requested)) {
    if (value !== undefined && key in settings) (settings as Record<string, unknown>)[key] = value;
  }
  if (getAppConfig(ctx).aiPaywalled) settings.allowAi = false;
  if (!settings.allowAi) for (const key of AI_SURFACE_SETTINGS) settings[key] = false;
  return settings;
}

/**
 * The branch a session opens: production when omitted or named; another branch must exist (404
 * `BRANCH_NOT_FOUND`) and have something running (400 `EMBED_BRANCH_NOT_RUNNING`).
 */
async function sessionBranch(ctx: ServiceContext, deploymentId: number, requested: string | undefined): Promise<string> {
  const production = getDeployBranch(ctx, deploymentId);
  if (requested === undefined || requested === production) return production;
  await getBranchHead(ctx, deploymentId, requested);
  if (getBuildState(ctx, deploymentId, requested).deployStatus !== 'deployed') {
    throw new ApiError(
      400,
      'EMBED_BRANCH_NOT_RUNNING',
      `Branch "${requested}" of deployment ${deploymentId} has nothing running, so an embed session cannot open it. Deploy the branch first, or omit branchName for production.`,
      { errors: [{ pointer: '/body/branchName', detail: 'nothing running on this branch' }] },
    );
  }
  return requested;
}

export interface GeneratedSession {
  sessionId: string;
  expiresAt: string;
  embedTenantName: string;
  deploymentId: number;
  branchName: string;
  embedUserId: number;
}

/** Creates the tenant, its groups and the user as needed, and a one-time session id (stored hashed). */
export async function generateSession(ctx: ServiceContext, principal: Principal, input: GenerateEmbedSessionInput): Promise<GeneratedSession> {
  assertEmbeddingEnabled(ctx);
  const branch = await sessionBranch(ctx, input.deploymentId, input.branchName);
  assertLocale(input.settings?.locale);
  assertTimeZone(input.settings?.timezone);
  const sessionId = `es_${randomToken(32)}`;
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_ID_TTL_MS).toISOString();
  const tenant = input.embedTenantName;
  const embedUserId = ctx.db.transaction(() => {
    upsertTenantProfile(ctx, tenant, input.embedTenantProfile ?? {});
    upsertGroupDefinitions(ctx, tenant, input.tenantGroupDefinitions ?? []);
    const userId = upsertEmbedUser(ctx, tenant, { externalId: input.externalId, email: input.email, name: input.name });
    if (input.tenantGroups) setUserGroups(ctx, tenant, userId, input.tenantGroups, '/body/tenantGroups');
    ctx.db
      .prepare(
        `INSERT INTO embed_sessions (session_hash, tenant_name, embed_user_id, deployment_id, branch, settings, status, created_by_user_id, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, 'unexchanged', ?, ?, ?)`,
      )
      .run(sha256(sessionId), tenant, userId, input.deploymentId, branch, JSON.stringify(input.settings ?? {}), principal.userId, now.toISOString(), expiresAt);
    return userId;
  })();
  return { sessionId, expiresAt, embedTenantName: tenant, deploymentId: input.deploymentId, branchName: branch, embedUserId };
}

export interface ExchangedSession {
  token: string;
  expiresAt: string;
  embedTenantName: string;
  deploymentId: number;
  branchName: string;
  settings: EmbedSessionSettings;
}

const invalidSession = (detail: string) => new ApiError(401, 'EMBED_SESSION_INVALID', detail);

/**
 * Redeems an unexchanged session id, once, for an embed token carrying the tenant, user, deployment,
 * branch and effective settings. `revocable: false` issues a legacy token without the revocation
 * claim (only tests do that: such a token outlives a revoke until it expires).
 */
export async function exchangeSession(ctx: ServiceContext, sessionId: string, options: { revocable?: boolean } = {}): Promise<ExchangedSession> {
  assertEmbeddingEnabled(ctx);
  const hash = sha256(sessionId);
  const now = ctx.clock.now().toISOString();
  const claimed = ctx.db
    .prepare(
      `UPDATE embed_sessions SET status = 'exchanged', exchanged_at = ? WHERE session_hash = ? AND status = 'unexchanged' AND expires_at > ? RETURNING *`,
    )
    .get(now, hash, now) as SessionRow | undefined;
  if (!claimed) {
    const row = ctx.db.prepare('SELECT status, expires_at FROM embed_sessions WHERE session_hash = ?').get(hash) as
      | Pick<SessionRow, 'status' | 'expires_at'>
      | undefined;
    if (row?.status === 'exchanged') throw invalidSession('This embed session id was already exchanged; generate a new session.');
    if (row?.status === 'revoked') throw invalidSession('This embed session was revoked.');
    throw invalidSession('This embed session id is unknown or has expired; generate a new session.');
  }
  const settings = effectiveSessionSettings(ctx, JSON.parse(claimed.settings) as EmbedSessionSettingsInput);
  const user = ctx.db.prepare('SELECT external_id FROM embed_users WHERE id = ?').get(claimed.embed_user_id) as { external_id: string };
  const revocable = options.revocable !== false;
  let issued;
  try {
    issued = await ctx.tokens.issue({
      userId: null,
      kind: 'embed',
      ttlSeconds: EMBED_TOKEN_TTL_SECONDS,
      revocable,
      claims: {
        embedTenant: claimed.tenant_name,
        embedUserId: claimed.embed_user_id,
        externalId: user.external_id,
        deploymentId: claimed.deployment_id,
        branch: claimed.branch,
        groups: groupNamesOf(ctx, claimed.embed_user_id),
        allowAi: settings.allowAi,
        settings,
      },
      meta: { embedTenant: claimed.tenant_name, embedUserId: claimed.embed_user_id },
    });
  } catch (error) {
    ctx.db.prepare(`UPDATE embed_sessions SET status = 'unexchanged', exchanged_at = NULL WHERE session_hash = ? AND status = 'exchanged'`).run(hash);
    throw error;
  }
  const recorded = ctx.db
    .prepare(`UPDATE embed_sessions SET token_sid = ?, token_expires_at = ? WHERE session_hash = ? AND status = 'exchanged'`)
    .run(revocable ? issued.sid : null, issued.expiresAt.toISOString(), hash);
  if (recorded.changes === 0) {
    // Revoked while the token was being signed: the token must not work.
    if (revocable) ctx.tokens.revoke(issued.sid);
    throw invalidSession('This embed session was revoked.');
  }
  return {
    token: issued.token,
    expiresAt: issued.expiresAt.toISOString(),
    embedTenantName: claimed.tenant_name,
    deploymentId: claimed.deployment_id,
    branchName: claimed.branch,
    settings,
  };
}

/**
 * Revokes a session: an unexchanged id can no longer be redeemed, an exchanged session's token is
 * refused from now on. Unknown, expired and already revoked ids are left as they are.
 */
export function revokeSession(ctx: ServiceContext, sessionId: string): void {
  const now = ctx.clock.now().toISOString();
  ctx.db.transaction(() => {
    const row = ctx.db.prepare('SELECT * FROM embed_sessions WHERE session_hash = ?').get(sha256(sessionId)) as SessionRow | undefined;
    if (!row || row.status === 'revoked') return;
    if (row.status === 'unexchanged' && row.expires_at <= now) return;
    if (row.status === 'exchanged' && row.token_expires_at !== null && row.token_expires_at <= now) return;
    ctx.db.prepare(`UPDATE embed_sessions SET status = 'revoked', revoked_at = ? WHERE session_hash = ?`).run(now, row.session_hash);
    if (row.token_sid) ctx.tokens.revoke(row.token_sid);
  })();
}

/** Revokes every live session of a tenant (before the tenant is deleted). */
export function revokeTenantSessions(ctx: ServiceContext, tenantName: string): number {
  const now = ctx.clock.now().toISOString();
  return ctx.db.transaction(() => {
    const rows = ctx.db.prepare(`SELECT session_hash, token_sid FROM embed_sessions WHERE tenant_name = ? AND status != 'revoked'`).all(tenantName) as Pick<
      SessionRow,
      'session_hash' | 'token_sid'
    >[];
    for (const row of rows) {
      ctx.db.prepare(`UPDATE embed_sessions SET status = 'revoked', revoked_at = ? WHERE session_hash = ?`).run(now, row.session_hash);
      if (row.token_sid) ctx.tokens.revoke(row.token_sid);
    }
    return rows.length;
  })();
}

// ---- what an embed principal carries ------------------------------------------------------------

export interface EmbedSessionClaims {
  embedTenant: string;
  embedUserId: number;
  deploymentId: number;
  branch: string;
  allowAi: boolean;
  settings: EmbedSessionSettings;
}

/** The session claims of a signed embed session token, or null for any other credential. */
export function embedSessionOf(principal: Principal): EmbedSessionClaims | null {
  if (principal.via !== 'embed') return null;
  const c = principal.claims;
  if (typeof c.embedTenant !== 'string' || typeof c.embedUserId !== 'number' || typeof c.deploymentId !== 'number') return null;
  return {
    embedTenant: c.embedTenant,
    embedUserId: c.embedUserId,
    deploymentId: c.deploymentId,
    branch: typeof c.branch === 'string' ? c.branch : '',
    allowAi: c.allowAi === true,
    settings: { ...DEFAULT_EMBED_SESSION_SETTINGS, ...((c.settings as Partial<EmbedSessionSettings> | undefined) ?? {}) },
  };
}

/** AI surfaces (chat, AI widgets, agents) call this: an embed session without `allowAi` is refused. */
export function assertAiAllowed(principal: Principal): void {
  if (principal.via !== 'embed') return;
  if (principal.claims.allowAi !== true) {
    throw forbidden('AI is disabled for this embed session (allowAi is false).', 'EMBED_AI_DISABLED');
  }
}
