import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import type { SecretStore } from '../secrets';

const SIGNING_KEY = 'jwt-signing-key';
const ISSUER = 'drydock';

/** What kind of credential a bearer token is; decides which routes accept it. */
export type TokenKind = 'workspace' | 'deployment' | 'embed' | 'oauth' | 'environment' | 'usage-analytics';

export interface IssueOptions {
  userId: number | null;
  kind: TokenKind;
  ttlSeconds: number;
  /** Extra claims to sign (scopes, deployment id, security context…). Never `sid`/`sub`/`exp`. */
  claims?: Record<string, unknown>;
  /** Stored beside the session row for later listing (never secrets). */
  meta?: Record<string, unknown>;
  /** Tokens without a session row cannot be revoked; only embed legacy tokens do that. */
  revocable?: boolean;
}

export interface IssuedToken {
  token: string;
  sid: string;
  issuedAt: Date;
  expiresAt: Date;
}

export interface VerifiedToken {
  payload: JWTPayload & Record<string, unknown>;
  sid: string | null;
  userId: number | null;
  kind: TokenKind;
}

export class TokenError extends Error {
  constructor(
    readonly reason: 'invalid' | 'expired' | 'revoked',
    message: string,
  ) {
    super(message);
  }
}

export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/**
 * Signs and verifies the service's JWTs (HS256). The key lives in the SecretStore; every token
 * carries `sid`, the id of a `sessions` row, so it can be revoked before it expires.
 */
export class TokenService {
  private constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly key: Uint8Array,
  ) {}

  static async open(db: Db, secrets: SecretStore, clock: Clock): Promise<TokenService> {
    let encoded = await secrets.get(SIGNING_KEY);
    if (!encoded) {
      encoded = randomBytes(32).toString('base64');
      await secrets.set(SIGNING_KEY, encoded);
    }
    return new TokenService(db, clock, new Uint8Array(Buffer.from(encoded, 'base64')));
  }

  /** A key for another purpose (e.g. sealing list cursors), derived from the signing key: stable across restarts. */
  deriveKey(purpose: string): Uint8Array {
    return new Uint8Array(createHmac('sha256', this.key).update(`drydock:${purpose}`).digest());
  }

  async issue(options: IssueOptions): Promise<IssuedToken> {
    const sid = randomUUID();
    const issuedAt = this.clock.now();
    const expiresAt = new Date(issuedAt.getTime() + options.ttlSeconds * 1000);
    const { sid: _s, sub: _u, exp: _e, iat: _i, ...claims } = options.claims ?? {};
    const jwt = new SignJWT({ ...claims, kind: options.kind, ...(options.revocable === false ? {} : { sid }) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .setJti(sid);
    if (options.userId !== null) jwt.setSubject(String(options.userId));
    const token = await jwt.sign(this.key);
    if (options.revocable !== false) {
      this.db
        .prepare('INSERT INTO sessions (sid, user_id, kind, meta, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(sid, options.userId, options.kind, JSON.stringify(options.meta ?? {}), issuedAt.toISOString(), expiresAt.toISOString());
    }
    return { token, sid, issuedAt, expiresAt };
  }

  async verify(token: string): Promise<VerifiedToken> {
    let payload: JWTPayload & Record<string, unknown>;
    try {
      const result = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ['HS256'],
        currentDate: this.clock.now(),
      });
      payload = result.payload as JWTPayload & Record<string, unknown>;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new TokenError('expired', 'The token has expired.');
      throw new TokenError('invalid', 'The token is not valid.');
    }
    const sid = typeof payload.sid === 'string' ? payload.sid : null;
    if (sid) {
      const row = this.db.prepare('SELECT revoked_at FROM sessions WHERE sid = ?').get(sid) as { revoked_at: string | null } | undefined;
      if (!row) throw new TokenError('revoked', 'The token’s session no longer exists.');
      if (row.revoked_at) throw new TokenError('revoked', 'The token has been revoked.');
    }
    const userId = payload.sub !== undefined ? Number(payload.sub) : null;
    return { payload, sid, userId: Number.isFinite(userId) ? userId : null, kind: payload.kind as TokenKind };
  }

  revoke(sid: string): boolean {
    const result = this.db
      .prepare('UPDATE sessions SET revoked_at = ? WHERE sid = ? AND revoked_at IS NULL')
      .run(this.clock.now().toISOString(), sid);
    return result.changes > 0;
  }
}
