import { sha256, randomToken } from '../../src-main/platform/tokens/tokens';
import type { TestService } from './service';

export interface TestUser {
  id: number;
  apiKey: string;
  /** `Api-Key …` header value for `svc.call(…, { auth })`. */
  auth: string;
}

/** Creates a user with a role and optional policy actions (`SchemaUpdate`, `-SqlRunnerRead`) and an API key for it. */
export function createUser(
  svc: TestService,
  role: 'admin' | 'developer' | 'viewer',
  options: { email?: string; name?: string; actions?: string[] } = {},
): TestUser {
  const now = new Date().toISOString();
  const email = options.email ?? `${role}-${randomToken(4)}@example.com`;
  const db = svc.ctx.db;
  const id = Number(
    db
      .prepare('INSERT INTO users (email, name, role, actions, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(email, options.name ?? `${role} user`, role, JSON.stringify(options.actions ?? []), now, now).lastInsertRowid,
  );
  const apiKey = `dd_${randomToken(24)}`;
  db.prepare('INSERT INTO api_keys (user_id, name, key_hash, key_prefix, created_at) VALUES (?, ?, ?, ?, ?)').run(
    id,
    'test key',
    sha256(apiKey),
    apiKey.slice(0, 8),
    now,
  );
  return { id, apiKey, auth: `Api-Key ${apiKey}` };
}

/** A bearer token of a given kind for a user (workspace session, OAuth token with scopes, embed session…). */
export async function bearerFor(
  svc: TestService,
  userId: number | null,
  kind: 'workspace' | 'deployment' | 'embed' | 'oauth',
  claims: Record<string, unknown> = {},
): Promise<string> {
  const issued = await svc.ctx.tokens.issue({ userId, kind, ttlSeconds: 3600, claims });
  return `Bearer ${issued.token}`;
}
