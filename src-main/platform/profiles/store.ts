import type { Db } from '../db/connection';
import { systemClock, isoNow, type Clock } from '../clock';
import type { SecretStore } from '../secrets';
import { LOCAL_PROFILE, PROFILE_NAME_PATTERN as NAME_PATTERN } from '../../../src-shared/api/profiles';

/*
 * Remote profiles: another Drydock service or a hosted platform tenant, addressed by a name.
 *
 * SHARED WITH THE CLI. This store is used both by the service (the profiles area: routes, proxy,
 * cross-instance promotion) and by the `drydock` command line (`drydock login`, `--profile NAME`),
 * which opens the data dir directly, without a running HTTP service. So it depends only on the
 * database handle and the SecretStore, never on the HTTP layer or a ServiceContext; failures are
 * `ProfileError`s with a stable `code` that each caller maps to its own output (problem+json or an
 * exit code). Keep it that way.
 *
 * The credential (an API key or a bearer token) is kept in the SecretStore (OS keychain) under
 * `profile:<name>:credential`, never in SQLite and never in a log line or an error message.
 */

export type CredentialKind = 'api-key' | 'bearer';
export const CREDENTIAL_KINDS: readonly CredentialKind[] = ['api-key', 'bearer'];

/** The name of the local service in the renderer's switcher; no stored profile may take it. */
export const LOCAL_PROFILE_NAME = LOCAL_PROFILE;

/** Lowercase letters, digits, `-` and `_`, up to 40: safe as a URL path segment and a keychain key part. */
export const PROFILE_NAME_PATTERN = new RegExp(NAME_PATTERN);
const MAX_CREDENTIAL_LENGTH = 8192;
const MAX_DESCRIPTION_LENGTH = 500;

export type ProfileErrorCode =
  | 'PROFILE_NAME_INVALID'
  | 'PROFILE_NAME_RESERVED'
  | 'PROFILE_URL_INVALID'
  | 'PROFILE_URL_INSECURE'
  | 'PROFILE_CREDENTIAL_INVALID'
  | 'PROFILE_CREDENTIAL_REQUIRED'
  | 'PROFILE_CREDENTIAL_MISSING'
  | 'PROFILE_DESCRIPTION_INVALID'
  | 'PROFILE_NOT_FOUND';

export class ProfileError extends Error {
  constructor(
    readonly code: ProfileErrorCode,
    message: string,
    /** The input field at fault, when there is one (`name`, `baseUrl`, `credential`, …). */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ProfileError';
  }
}

/** What the last connection test read from the remote's `GET /api/v1/spec`. */
export interface ProfileCheck {
  checkedAt: string;
  ok: boolean;
  /** Why the test failed (never contains the credential). */
  error: string | null;
  specTitle: string | null;
  /** The remote's `info.version` (the interface version). */
  specVersion: string | null;
  /** The remote's OpenAPI version (`openapi`, e.g. 3.1.0). */
  apiVersion: string | null;
  /** Every operationId the remote's document lists. */
  operationIds: string[];
}

export interface Profile {
  name: string;
  /** Normalised: scheme + host (+ port) + optional path prefix, no trailing slash, no `/api/v1`. */
  baseUrl: string;
  credentialKind: CredentialKind;
  description: string;
  createdAt: string;
  updatedAt: string;
  lastCheck: ProfileCheck | null;
}

export interface ProfileInput {
  name: string;
  baseUrl: string;
  /** Default `api-key`. */
  credentialKind?: CredentialKind;
  /** Required when creating; omitted on update keeps the stored one. */
  credential?: string;
  description?: string;
}

export interface ResolvedCredential {
  kind: CredentialKind;
  secret: string;
  /** The `Authorization` header value the remote expects. */
  authorization: string;
}

/** The keychain key of a profile's credential. */
export const credentialKey = (name: string): string => `profile:${name}:credential`;

export function validateProfileName(name: unknown): string {
  if (typeof name !== 'string' || !PROFILE_NAME_PATTERN.test(name)) {
    throw new ProfileError(
      'PROFILE_NAME_INVALID',
      'A profile name is 1 to 40 lowercase letters, digits, "-" or "_", starting with a letter or digit.',
      'name',
    );
  }
  if (name === LOCAL_PROFILE_NAME) {
    throw new ProfileError('PROFILE_NAME_RESERVED', `"${LOCAL_PROFILE_NAME}" is the local service; choose another name.`, 'name');
  }
  return name;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Parses and normalises a base URL. HTTPS is required except for loopback hosts: the credential
 * travels in a header, and plain HTTP over a network would hand it to anyone on the path. A pasted
 * `…/api/v1` or `…/build/api/v1` suffix is dropped, since every client path starts with it.
 */
export function normalizeBaseUrl(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new ProfileError('PROFILE_URL_INVALID', 'The base URL is required, e.g. https://tenant.example.com.', 'baseUrl');
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ProfileError('PROFILE_URL_INVALID', 'The base URL is not a valid absolute URL.', 'baseUrl');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ProfileError('PROFILE_URL_INVALID', 'The base URL must use https (or http on this machine).', 'baseUrl');
  }
  if (url.username || url.password) {
    throw new ProfileError('PROFILE_URL_INVALID', 'Put the credential in the credential field, not in the URL.', 'baseUrl');
  }
  if (url.search || url.hash) {
    throw new ProfileError('PROFILE_URL_INVALID', 'The base URL takes no query string or fragment.', 'baseUrl');
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new ProfileError(
      'PROFILE_URL_INSECURE',
      'Plain http is allowed only for this machine (127.0.0.1, localhost); use https for other hosts so the credential is not sent in clear text.',
      'baseUrl',
    );
  }
  let path = url.pathname.replace(/\/+$/, '');
  path = path.replace(/\/build\/api\/v1$/, '').replace(/\/api\/v1$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

function validateCredential(credential: unknown): string {
  if (typeof credential !== 'string' || credential.trim() === '') {
    throw new ProfileError('PROFILE_CREDENTIAL_INVALID', 'The credential must be a non-empty API key or token.', 'credential');
  }
  const value = credential.trim();
  // It goes into an HTTP header: refuse anything that could split or corrupt it.
  if (value.length > MAX_CREDENTIAL_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ProfileError(
      'PROFILE_CREDENTIAL_INVALID',
      `The credential must be printable ASCII without spaces, at most ${MAX_CREDENTIAL_LENGTH} characters.`,
      'credential',
    );
  }
  // A pasted "Bearer xyz" / "Api-Key xyz" header value would fail the check above on its space.
  return value;
}

function validateKind(kind: unknown): CredentialKind {
  if (kind === undefined) return 'api-key';
  if (!CREDENTIAL_KINDS.includes(kind as CredentialKind)) {
    throw new ProfileError('PROFILE_CREDENTIAL_INVALID', 'credentialKind must be "api-key" or "bearer".', 'credentialKind');
  }
  return kind as CredentialKind;
}

function validateDescription(description: unknown): string {
  if (description === undefined || description === null) return '';
  if (typeof description !== 'string' || description.length > MAX_DESCRIPTION_LENGTH) {
    throw new ProfileError('PROFILE_DESCRIPTION_INVALID', `The description is text of at most ${MAX_DESCRIPTION_LENGTH} characters.`, 'description');
  }
  return description;
}

export const authorizationFor = (kind: CredentialKind, secret: string): string =>
  kind === 'bearer' ? `Bearer ${secret}` : `Api-Key ${secret}`;

interface ProfileRow {
  name: string;
  base_url: string;
  credential_kind: CredentialKind;
  description: string;
  created_at: string;
  updated_at: string;
  checked_at: string | null;
  check_ok: number | null;
  check_error: string | null;
  spec_title: string | null;
  spec_version: string | null;
  api_version: string | null;
  operation_ids: string | null;
}

function toProfile(row: ProfileRow): Profile {
  return {
    name: row.name,
    baseUrl: row.base_url,
    credentialKind: row.credential_kind,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastCheck:
      row.checked_at === null
        ? null
        : {
            checkedAt: row.checked_at,
            ok: row.check_ok === 1,
            error: row.check_error,
            specTitle: row.spec_title,
            specVersion: row.spec_version,
            apiVersion: row.api_version,
            operationIds: row.operation_ids ? (JSON.parse(row.operation_ids) as string[]) : [],
          },
  };
}

export class ProfileStore {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Every profile, by name. */
  list(): Profile[] {
    return (this.db.prepare('SELECT * FROM profiles ORDER BY name').all() as ProfileRow[]).map(toProfile);
  }

  get(name: string): Profile | null {
    const row = this.db.prepare('SELECT * FROM profiles WHERE name = ?').get(name) as ProfileRow | undefined;
    return row ? toProfile(row) : null;
  }

  /** Like `get`, but a missing profile is a `PROFILE_NOT_FOUND` error. */
  require(name: string): Profile {
    const profile = this.get(name);
    if (!profile) throw new ProfileError('PROFILE_NOT_FOUND', `There is no profile named "${name}".`, 'name');
    return profile;
  }

  /**
   * Creates the profile, or updates the one of that name (a changed URL or credential clears the
   * last check, which described the old target). The keychain is written first and restored if
   * the row cannot be written, so a failure leaves neither a profile without its credential nor a
   * credential replaced under an unchanged profile.
   */
  async upsert(input: ProfileInput): Promise<{ profile: Profile; created: boolean }> {
    const name = validateProfileName(input.name);
    const baseUrl = normalizeBaseUrl(input.baseUrl);
    const kind = validateKind(input.credentialKind);
    const description = validateDescription(input.description);
    const credential = input.credential === undefined ? undefined : validateCredential(input.credential);
    const existing = this.get(name);
    if (!existing && credential === undefined) {
      throw new ProfileError('PROFILE_CREDENTIAL_REQUIRED', 'A new profile needs a credential (an API key or a bearer token).', 'credential');
    }
    const key = credentialKey(name);
    const previousSecret = credential === undefined ? null : await this.secrets.get(key);
    if (credential !== undefined) await this.secrets.set(key, credential);
    try {
      const now = isoNow(this.clock);
      const targetChanged =
        existing !== null && (existing.baseUrl !== baseUrl || existing.credentialKind !== kind || credential !== undefined);
      this.db.transaction(() => {
        if (!existing) {
          this.db
            .prepare(
              `INSERT INTO profiles (name, base_url, credential_kind, description, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?)`,
            )
            .run(name, baseUrl, kind, description, now, now);
        } else {
          this.db
            .prepare('UPDATE profiles SET base_url = ?, credential_kind = ?, description = ?, updated_at = ? WHERE name = ?')
            .run(baseUrl, kind, input.description === undefined ? existing.description : description, now, name);
          if (targetChanged) this.clearCheck(name);
        }
      })();
    } catch (error) {
      if (credential !== undefined) {
        if (previousSecret === null) await this.secrets.delete(key);
        else await this.secrets.set(key, previousSecret);
      }
      throw error;
    }
    return { profile: this.require(name), created: existing === null };
  }

  /** Removes the profile and its keychain entry; false when there was none. */
  async remove(name: string): Promise<boolean> {
    const removed = this.db.transaction(() => this.db.prepare('DELETE FROM profiles WHERE name = ?').run(name).changes > 0)();
    // Deleted even when no row existed: clears a credential orphaned by an earlier crash.
    await this.secrets.delete(credentialKey(name));
    return removed;
  }

  /**
   * The profile's credential and the `Authorization` header for it. `PROFILE_NOT_FOUND` for an
   * unknown profile; `PROFILE_CREDENTIAL_MISSING` when the keychain lost it (another machine's
   * data dir, a reset keychain): the user has to enter it again.
   */
  async resolveCredential(name: string): Promise<ResolvedCredential> {
    const profile = this.require(name);
    const secret = await this.secrets.get(credentialKey(name));
    if (secret === null) {
      throw new ProfileError(
        'PROFILE_CREDENTIAL_MISSING',
        `The keychain holds no credential for profile "${name}"; enter it again (edit the profile, or drydock login).`,
        'credential',
      );
    }
    return { kind: profile.credentialKind, secret, authorization: authorizationFor(profile.credentialKind, secret) };
  }

  /** Records what a connection test found (the profiles area calls this after reading the remote spec). */
  recordCheck(name: string, check: Omit<ProfileCheck, 'checkedAt'> & { checkedAt?: string }): Profile {
    this.require(name);
    this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE profiles SET checked_at = ?, check_ok = ?, check_error = ?, spec_title = ?, spec_version = ?,
             api_version = ?, operation_ids = ? WHERE name = ?`,
        )
        .run(
          check.checkedAt ?? isoNow(this.clock),
          check.ok ? 1 : 0,
          check.error,
          check.specTitle,
          check.specVersion,
          check.apiVersion,
          JSON.stringify(check.operationIds),
          name,
        );
    })();
    return this.require(name);
  }

  private clearCheck(name: string): void {
    this.db
      .prepare(
        `UPDATE profiles SET checked_at = NULL, check_ok = NULL, check_error = NULL, spec_title = NULL,
           spec_version = NULL, api_version = NULL, operation_ids = NULL WHERE name = ?`,
      )
      .run(name);
  }
}
