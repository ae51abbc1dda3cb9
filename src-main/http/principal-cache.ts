import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { Db } from '../platform/db/connection';
import type { Principal } from './principal';

export interface CachedPrincipal {
  principal: Principal;
  /** When the credential itself expires (a token's `exp`, on the service clock), or null. */
  expiresAt: number | null;
}

interface Entry extends CachedPrincipal {
  epoch: number;
  /** `monotonicMs()` when resolved: entries are never older than `maxAgeMs`. */
  at: number;
}

/**
 * Milliseconds on a monotonic clock, as `performance.now()` counts them but without loading
 * node:perf_hooks, which nothing else a start of the service runs needs (start time, issue 10).
 */
function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1e3 + nanoseconds / 1e6;
}

/** How many credentials are remembered (least recently used dropped first). */
const MAX_ENTRIES = 1000;
/** Backstop: however the database changed, a principal is resolved again after this long. */
const MAX_AGE_MS = 1000;

/**
 * Resolved principals by credential, so a request does not look up key → user → groups →
 * policies → actions (and verify a JWT) from scratch.
 *
 * Invalidation is explicit: every write that can change a principal — deleting an API key,
 * revoking a token, deactivating or deleting a user, a role, email or action change, a policy, a
 * group membership or a policy attachment — bumps `auth_epoch.version` in its own transaction
 * (triggers of migration 13, so no writer can forget it, whichever connection or process writes).
 * Each request reads that counter once (a one-row read of a prepared statement) and an entry
 * resolved under another value is dropped, so the very next request after a revoke is refused. An
 * entry also expires after {@link MAX_AGE_MS} whatever happened, as a backstop.
 *
 * Keys are the credential's SHA-256 (as stored for API keys), never the credential itself.
 * Principals are frozen: requests share them.
 */
export class PrincipalCache {
  private readonly entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES });
  private readonly epochStatement: Database.Statement;

  constructor(db: Db) {
    this.epochStatement = db.prepare('SELECT version FROM auth_epoch WHERE id = 1');
  }

  /** The authentication epoch now. Read it before resolving a credential, and pass it to `get`/`set`. */
  epoch(): number {
    const row = this.epochStatement.get() as { version: number } | undefined;
    return row?.version ?? 0;
  }

  get(key: string, epoch: number): CachedPrincipal | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.epoch !== epoch || monotonicMs() - entry.at > MAX_AGE_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** `epoch` is the value read before the principal was resolved, so a write in between is never masked. */
  set(key: string, epoch: number, value: CachedPrincipal): Principal {
    const principal = freezePrincipal(value.principal);
    this.entries.set(key, { principal, expiresAt: value.expiresAt, epoch, at: monotonicMs() });
    return principal;
  }
}

function freezePrincipal(principal: Principal): Principal {
  Object.freeze(principal.actions);
  if (principal.scopes) Object.freeze(principal.scopes);
  Object.freeze(principal.claims);
  return Object.freeze(principal);
}
