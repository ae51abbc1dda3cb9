import type { ServiceContext } from '../../context';
import { randomToken, sha256 } from '../../platform/tokens/tokens';

export interface BootstrapResult {
  /** True when this start created the tenant. */
  created: boolean;
  adminUserId: number;
  /** The admin API key, present only on the start that created it and only if it was generated here. */
  generatedApiKey: string | null;
}

export const API_KEY_PREFIX = 'dd_';
export const newApiKey = (): string => `${API_KEY_PREFIX}${randomToken(32)}`;

/** On an empty data dir: the tenant, an admin user, and an admin API key stored only as a SHA-256 hash. */
export function bootstrapTenant(ctx: ServiceContext, bootstrapApiKey?: string): BootstrapResult {
  const { db } = ctx;
  const existing = db.prepare("SELECT id FROM users WHERE role = 'admin' ORDER BY id LIMIT 1").get() as { id: number } | undefined;
  const tenant = db.prepare('SELECT id FROM tenant').get();
  if (tenant && existing) {
    ensureBootstrapKey(ctx, existing.id, bootstrapApiKey);
    return { created: false, adminUserId: existing.id, generatedApiKey: null };
  }
  const now = ctx.clock.now().toISOString();
  const key = bootstrapApiKey ?? newApiKey();
  const adminUserId = db.transaction(() => {
    db.prepare('INSERT INTO tenant (id, name, created_at) VALUES (1, ?, ?)').run('Local tenant', now);
    const user = db
      .prepare("INSERT INTO users (email, name, role, created_at, updated_at) VALUES ('admin@localhost', 'Admin', 'admin', ?, ?)")
      .run(now, now);
    const userId = Number(user.lastInsertRowid);
    db.prepare('INSERT INTO api_keys (user_id, name, key_hash, key_prefix, created_at) VALUES (?, ?, ?, ?, ?)').run(
      userId,
      'bootstrap admin key',
      sha256(key),
      key.slice(0, 8),
      now,
    );
    return userId;
  })();
  return { created: true, adminUserId, generatedApiKey: bootstrapApiKey ? null : key };
}

/** Scripts and CI pin the admin key with DRYDOCK_BOOTSTRAP_API_KEY; honour it on later starts too. */
function ensureBootstrapKey(ctx: ServiceContext, adminUserId: number, key: string | undefined): void {
  if (!key) return;
  const hash = sha256(key);
  if (ctx.db.prepare('SELECT 1 FROM api_keys WHERE key_hash = ?').get(hash)) return;
  ctx.db
    .prepare('INSERT INTO api_keys (user_id, name, key_hash, key_prefix, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(adminUserId, 'bootstrap admin key', hash, key.slice(0, 8), ctx.clock.now().toISOString());
}
