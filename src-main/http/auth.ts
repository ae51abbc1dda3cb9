import type { FastifyRequest } from 'fastify';
import { ErrorCodes } from '../../src-shared/api/errors';
import type { Db } from '../platform/db/connection';
import type { Clock } from '../platform/clock';
import { sha256, TokenError, type TokenKind, type TokenService } from '../platform/tokens/tokens';
import type { AccessLevel, Principal, Role } from './principal';
import { PrincipalCache } from './principal-cache';
import { ApiError } from './problem';

export type { AccessLevel, Principal, Role } from './principal';

const ROLE_LEVELS: Record<Role, AccessLevel[]> = {
  admin: ['deploymentRead', 'deploymentEdit', 'schemaRead', 'schemaUpdate', 'sqlRunnerRead', 'admin'],
  developer: ['deploymentRead', 'deploymentEdit', 'schemaRead', 'schemaUpdate', 'sqlRunnerRead'],
  viewer: ['deploymentRead', 'schemaRead'],
};

/** Policy action names (as the platform's policies spell them) → access level. */
const ACTION_LEVELS: Record<string, AccessLevel> = {
  DeploymentRead: 'deploymentRead',
  DeploymentEdit: 'deploymentEdit',
  SchemaRead: 'schemaRead',
  SchemaUpdate: 'schemaUpdate',
  SqlRunnerRead: 'sqlRunnerRead',
};

export function accessLevelsOf(principal: Principal): Set<AccessLevel> {
  const levels = new Set<AccessLevel>(ROLE_LEVELS[principal.role]);
  for (const action of principal.actions) {
    const denied = action.startsWith('-');
    const level = ACTION_LEVELS[denied ? action.slice(1) : action];
    if (!level) continue;
    if (denied) levels.delete(level);
    else levels.add(level);
  }
  if (principal.via === 'embed') return new Set(['deploymentRead']);
  return levels;
}

export function hasAccess(principal: Principal, level: AccessLevel): boolean {
  return accessLevelsOf(principal).has(level);
}

const LEVEL_NAMES: Record<AccessLevel, string> = {
  deploymentRead: 'deployment read',
  deploymentEdit: 'deployment edit (admin or developer role)',
  schemaRead: 'SchemaRead',
  schemaUpdate: 'SchemaUpdate',
  sqlRunnerRead: 'SQL Runner read',
  admin: 'admin',
};

export type AccessRule = AccessLevel | { anyOf: AccessLevel[] };

/** Throws 403 unless the principal satisfies every rule (an `anyOf` rule needs one of its levels). */
export function assertAccess(principal: Principal, rules: AccessRule[], deploymentId?: number): void {
  if (deploymentId !== undefined && principal.deploymentId !== null && principal.deploymentId !== deploymentId) {
    throw new ApiError(403, ErrorCodes.FORBIDDEN, `This token only grants access to deployment ${principal.deploymentId}.`);
  }
  const levels = accessLevelsOf(principal);
  for (const rule of rules) {
    const options = typeof rule === 'string' ? [rule] : rule.anyOf;
    if (!options.some((level) => levels.has(level))) {
      throw new ApiError(
        403,
        ErrorCodes.FORBIDDEN,
        `This operation needs ${options.map((l) => LEVEL_NAMES[l]).join(' or ')} access${deploymentId ? ` on deployment ${deploymentId}` : ''}.`,
      );
    }
  }
}

interface UserRow {
  id: number;
  email: string;
  name: string;
  role: Role;
  actions: string;
  active: number;
}

function unauthenticated(detail: string, code: string = ErrorCodes.UNAUTHENTICATED): ApiError {
  return new ApiError(401, code, detail);
}

/** How stale an API key's `last_used_at` may be before a request updates it. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Every action a user holds: those of the policies attached to the user or to a group they are in
 * (tables of migration 008), then the user's own, so a user's own `-Action` still withdraws one.
 * The one place a user's policies are resolved: authentication and anything that shows them use it.
 */
export function userActions(db: Db, user: { id: number; actions: string }): string[] {
  const rows = db
    .prepare(
      `SELECT actions FROM access_policies WHERE id IN (
         SELECT policy_id FROM access_policy_attachments WHERE user_id = ?
         UNION
         SELECT a.policy_id FROM access_policy_attachments a JOIN user_group_members m ON m.group_id = a.group_id WHERE m.user_id = ?
       ) ORDER BY id`,
    )
    .all(user.id, user.id) as { actions: string }[];
  const granted = new Set(rows.flatMap((row) => JSON.parse(row.actions) as string[]));
  return [...granted, ...(JSON.parse(user.actions) as string[])];
}

/**
 * Resolves `Authorization: Bearer <JWT>` or `Authorization: Api-Key <key>` into a principal.
 * Resolved principals are cached per credential and dropped as soon as anything they were made of
 * changes (see {@link PrincipalCache}); a cache hit costs one hash and one one-row read.
 */
export class Authenticator {
  private readonly cache: PrincipalCache;

  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
  ) {
    this.cache = new PrincipalCache(db);
  }

  private loadUser(userId: number): UserRow {
    const user = this.db.prepare('SELECT id, email, name, role, actions, active FROM users WHERE id = ?').get(userId) as UserRow | undefined;
    if (!user) throw unauthenticated('The credential belongs to a user that no longer exists.');
    if (!user.active) throw unauthenticated('The credential belongs to a deactivated user.', 'USER_DEACTIVATED');
    return user;
  }

  /**
   * `dataApi`: the data API (`…/cubejs-api/v1`) also takes a bare token without a scheme, as the
   * platform's official client sends it, and environment tokens, which are minted for it.
   */
  async authenticate(request: FastifyRequest, options: { dataApi?: boolean } = {}): Promise<Principal> {
    const header = request.headers.authorization;
    if (!header) throw unauthenticated('Send `Authorization: Bearer <token>` or `Authorization: Api-Key <key>`.');
    const space = header.indexOf(' ');
    const scheme = space > 0 ? header.slice(0, space).toLowerCase() : '';
    const value = space > 0 ? header.slice(space + 1).trim() : '';
    if (options.dataApi && space < 0 && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(header.trim())) return this.fromBearer(header.trim(), true);
    if (!value) throw unauthenticated('The Authorization header has no credential.');
    if (scheme === 'api-key') return this.fromApiKey(value);
    if (scheme === 'bearer') return this.fromBearer(value, options.dataApi === true);
    throw unauthenticated(`Unsupported authorization scheme "${header.slice(0, Math.max(space, 0))}".`);
  }

  private fromApiKey(key: string): Principal {
    const keyHash = sha256(key);
    const epoch = this.cache.epoch();
    const cached = this.cache.get(`key:${keyHash}`, epoch);
    if (cached) return cached.principal;
    const row = this.db.prepare('SELECT id, user_id, last_used_at FROM api_keys WHERE key_hash = ?').get(keyHash) as
      | { id: number; user_id: number; last_used_at: string | null }
      | undefined;
    if (!row) throw unauthenticated('The API key is not valid.');
    const user = this.loadUser(row.user_id);
    // `lastUsedAt` to the minute: a GET does not write the database on every request (and a
    // cached key is looked up again at least every second, which keeps it current).
    const now = this.clock.now();
    if (row.last_used_at === null || now.getTime() - Date.parse(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
      this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now.toISOString(), row.id);
    }
    const principal: Principal = {
      userId: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      actions: userActions(this.db, user),
      via: 'apiKey',
      sid: null,
      scopes: null,
      deploymentId: null,
      embedTenant: null,
      claims: {},
    };
    return this.cache.set(`key:${keyHash}`, epoch, { principal, expiresAt: null });
  }

  private async fromBearer(token: string, dataApi = false): Promise<Principal> {
    const cacheKey = `token:${sha256(token)}`;
    const epoch = this.cache.epoch();
    const cached = this.cache.get(cacheKey, epoch);
    // A token past its `exp` goes through verification again, which refuses it as expired.
    if (cached && (cached.expiresAt === null || this.clock.now().getTime() < cached.expiresAt)) {
      assertManagementToken(cached.principal.via as TokenKind, dataApi);
      return cached.principal;
    }
    let verified;
    try {
      verified = await this.tokens.verify(token);
    } catch (error) {
      if (error instanceof TokenError) {
        throw unauthenticated(error.message, error.reason === 'revoked' ? ErrorCodes.TOKEN_REVOKED : ErrorCodes.UNAUTHENTICATED);
      }
      throw error;
    }
    const { payload } = verified;
    assertManagementToken(verified.kind, dataApi);
    const user = verified.userId !== null ? this.loadUser(verified.userId) : null;
    if (!user && verified.kind !== 'embed') throw unauthenticated('The token names no user.');
    const principal: Principal = {
      userId: user?.id ?? null,
      email: user?.email ?? null,
      name: user?.name ?? null,
      role: user?.role ?? 'viewer',
      actions: user ? userActions(this.db, user) : [],
      via: verified.kind,
      sid: verified.sid,
      scopes: Array.isArray(payload.scopes) ? (payload.scopes as string[]) : verified.kind === 'oauth' ? [] : null,
      deploymentId: typeof payload.deploymentId === 'number' ? payload.deploymentId : null,
      embedTenant: typeof payload.embedTenant === 'string' ? payload.embedTenant : null,
      claims: payload,
    };
    // Only tokens whose validity is their signature, `exp` and session row (all covered) are kept.
    if (payload.nbf !== undefined) return principal;
    return this.cache.set(cacheKey, epoch, { principal, expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : null });
  }
}

/** Environment tokens are for the data API only; usage-analytics tokens for the analytics API only. */
function assertManagementToken(kind: TokenKind, dataApi: boolean): void {
  if ((kind === 'environment' && !dataApi) || kind === 'usage-analytics') {
    throw unauthenticated('This token is for the data API, not the management API.');
  }
}
