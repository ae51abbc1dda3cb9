import {
  ENVIRONMENT_TOKEN_LIST_LIMIT,
  ENVIRONMENT_TOKEN_MAX_SECONDS,
  ENVIRONMENT_TOKEN_SCOPES,
  SQL_RUNNER_NO_DDL_SCOPE,
  type EnvironmentTokenInput,
} from '../../../src-shared/api/environments';
import type { ServiceContext } from '../../context';
import { hasAccess, type Principal } from '../../http/auth';
import { ApiError, forbidden, invalidField } from '../../http/problem';
import { pageWindow, toPage, type PageRequest } from '../../http/pagination';
import { actorLabel, isDdlEnabled } from '../deployments';
import { appendDeploymentLog } from '../deployments';
import { getEnvironment } from './environments';

export type EnvironmentTokenPurpose = 'data' | 'meta-sync';

/** security_context keys that are never signed: they would read as scope grants or dev tokens. */
const NEVER_SIGNED_CONTEXT_KEYS = new Set(['scope', 'scopes', 'dev-token']);
const MAX_SECURITY_CONTEXT_BYTES = 16 * 1024;

export interface SignedEnvironmentToken {
  id: number;
  token: string;
  created_at: string;
  expires_at: string;
  scopes: string[];
  security_context: Record<string, unknown>;
  dropped_scopes: string[];
  dropped_security_context_keys: string[];
}

interface Decision {
  scopes: string[];
  securityContext: Record<string, unknown>;
  droppedScopes: string[];
  droppedKeys: string[];
}

/** Applies every rule of the spec's "Environment tokens" table to a request. */
export function decideClaims(
  principal: Principal,
  input: EnvironmentTokenInput,
  ddlEnabled: boolean,
  purpose: EnvironmentTokenPurpose,
): Decision {
  const requested = input.scopes ?? [];
  const context = input.security_context ?? {};
  const canEdit = hasAccess(principal, 'deploymentEdit');
  const scopes: string[] = [];
  const droppedScopes: string[] = [];
  const droppedKeys: string[] = [];
  const securityContext: Record<string, unknown> = {};

  if (!canEdit) {
    // Without deployment edit access the caller shapes nothing: no context keys, no scopes.
    droppedScopes.push(...requested);
    droppedKeys.push(...Object.keys(context));
  } else {
    const canUseSqlRunner = hasAccess(principal, 'sqlRunnerRead');
    for (const scope of requested) {
      const allowlisted = (ENVIRONMENT_TOKEN_SCOPES as readonly string[]).includes(scope);
      // `sql-runner-permissions:*` entries are the server's to add; `dev-token` is never signed.
      if (!allowlisted || (scope === 'sql-runner' && !canUseSqlRunner)) droppedScopes.push(scope);
      else if (!scopes.includes(scope)) scopes.push(scope);
    }
    for (const [key, value] of Object.entries(context)) {
      if (NEVER_SIGNED_CONTEXT_KEYS.has(key)) droppedKeys.push(key);
      else securityContext[key] = value;
    }
  }
  if (purpose === 'meta-sync' && !scopes.includes('meta')) scopes.unshift('meta');
  if (scopes.includes('sql-runner') && !ddlEnabled) scopes.push(SQL_RUNNER_NO_DDL_SCOPE);
  return { scopes, securityContext, droppedScopes, droppedKeys };
}

/**
 * Mints a data API token for an environment. The JWT (kind `environment`) carries `deploymentId`,
 * `environmentId`, `scopes` and `securityContext`, exactly as echoed in the response.
 */
export async function mintEnvironmentToken(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  environmentId: number,
  input: EnvironmentTokenInput,
  purpose: EnvironmentTokenPurpose,
): Promise<SignedEnvironmentToken> {
  const environment = getEnvironment(ctx, deploymentId, environmentId);
  if (principal.userId === null) throw forbidden('Environment tokens are minted for a user; this credential names none.');
  if (input.security_context !== undefined && Buffer.byteLength(JSON.stringify(input.security_context), 'utf8') > MAX_SECURITY_CONTEXT_BYTES) {
    throw invalidField('/body/security_context', `The security context may take at most ${MAX_SECURITY_CONTEXT_BYTES} bytes of JSON.`);
  }
  const decision = decideClaims(principal, input, isDdlEnabled(ctx, deploymentId), purpose);
  const ttlSeconds = Math.min(input.expires_in ?? ENVIRONMENT_TOKEN_MAX_SECONDS, ENVIRONMENT_TOKEN_MAX_SECONDS);
  const issued = await ctx.tokens.issue({
    userId: principal.userId,
    kind: 'environment',
    ttlSeconds,
    claims: { deploymentId, environmentId, scopes: decision.scopes, securityContext: decision.securityContext },
    meta: { deploymentId, environmentId, purpose },
  });
  const createdAt = issued.issuedAt.toISOString();
  const expiresAt = issued.expiresAt.toISOString();
  let id: number;
  try {
    id = ctx.db.transaction(() => {
      const tokenId = Number(
        ctx.db
          .prepare(
            'INSERT INTO environment_tokens (environment_id, user_id, purpose, scopes, security_context, sid, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          )
          .run(environmentId, principal.userId, purpose, JSON.stringify(decision.scopes), JSON.stringify(decision.securityContext), issued.sid, createdAt, expiresAt)
          .lastInsertRowid,
      );
      const keys = Object.keys(decision.securityContext);
      appendDeploymentLog(ctx, deploymentId, {
        source: environment.kind === 'production' ? 'production' : 'dev',
        container: 'api-proxy',
        message:
          `${purpose === 'meta-sync' ? 'Meta sync token' : 'Environment token'} ${tokenId} issued to ${actorLabel(principal)} for environment ${environment.name}: ` +
          `scopes [${decision.scopes.join(', ')}], security context keys [${keys.join(', ')}], valid ${ttlSeconds} s until ${expiresAt}` +
          (decision.droppedScopes.length ? `; dropped scopes [${decision.droppedScopes.join(', ')}]` : '') +
          '.',
      });
      return tokenId;
    })();
  } catch (error) {
    ctx.tokens.revoke(issued.sid);
    throw error;
  }
  return {
    id,
    token: issued.token,
    created_at: createdAt,
    expires_at: expiresAt,
    scopes: decision.scopes,
    security_context: decision.securityContext,
    dropped_scopes: decision.droppedScopes,
    dropped_security_context_keys: decision.droppedKeys,
  };
}

interface TokenRow {
  id: number;
  purpose: EnvironmentTokenPurpose;
  scopes: string;
  security_context: string;
  created_at: string;
  expires_at: string;
}

/**
 * The caller's own live tokens for an environment, newest first, never beyond the latest 1000
 * live ones; the token strings are not kept and never listed.
 */
export function listEnvironmentTokens(ctx: ServiceContext, principal: Principal, deploymentId: number, environmentId: number, page: PageRequest) {
  getEnvironment(ctx, deploymentId, environmentId);
  if (principal.userId === null) throw forbidden('Environment tokens are listed per user; this credential names none.');
  const { limit, after } = pageWindow<number>(page);
  if (after !== null && !Number.isInteger(after)) throw new ApiError(400, 'INVALID_CURSOR', 'The `after` cursor is not one this service issued.');
  const now = ctx.clock.now().toISOString();
  const live = `t.environment_id = ? AND t.user_id = ? AND t.expires_at > ? AND NOT EXISTS (
      SELECT 1 FROM sessions s WHERE s.sid = t.sid AND s.revoked_at IS NOT NULL)`;
  // The oldest token still inside the latest-1000 window; older live tokens are not listed.
  const floor = ctx.db
    .prepare(`SELECT t.id FROM environment_tokens t WHERE ${live} ORDER BY t.id DESC LIMIT 1 OFFSET ?`)
    .get(environmentId, principal.userId, now, ENVIRONMENT_TOKEN_LIST_LIMIT - 1) as { id: number } | undefined;
  const rows = ctx.db
    .prepare(
      `SELECT t.id, t.purpose, t.scopes, t.security_context, t.created_at, t.expires_at FROM environment_tokens t
       WHERE ${live} AND t.id >= ? AND t.id < ? ORDER BY t.id DESC LIMIT ?`,
    )
    .all(environmentId, principal.userId, now, floor?.id ?? 0, after ?? Number.MAX_SAFE_INTEGER, limit) as TokenRow[];
  return toPage(
    rows,
    page,
    (row) => row.id,
    (row) => ({
      id: row.id,
      purpose: row.purpose,
      created_at: row.created_at,
      expires_at: row.expires_at,
      scopes: JSON.parse(row.scopes) as string[],
      security_context: JSON.parse(row.security_context) as Record<string, unknown>,
    }),
  );
}
