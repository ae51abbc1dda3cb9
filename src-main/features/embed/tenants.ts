import type { ServiceContext } from '../../context';
import { notFound } from '../../http/problem';

/**
 * Embed tenants, minimal: a name (and display name) that embed access entries refer to. Full
 * tenant administration (groups, users, settings) builds on these functions.
 */
export interface EmbedTenantRow {
  name: string;
  display_name: string | null;
  created_at: string;
}

export const EMBED_TENANT_NOT_FOUND = 'EMBED_TENANT_NOT_FOUND';

export function findEmbedTenant(ctx: ServiceContext, name: string): EmbedTenantRow | undefined {
  return ctx.db.prepare('SELECT * FROM embed_tenants WHERE name = ?').get(name) as EmbedTenantRow | undefined;
}

export function requireEmbedTenant(ctx: ServiceContext, name: string): EmbedTenantRow {
  const row = findEmbedTenant(ctx, name);
  if (!row) throw notFound(`Embed tenant "${name}"`, EMBED_TENANT_NOT_FOUND);
  return row;
}

/** The tenant with this name, created if it does not exist yet (e.g. on its first embed session). */
export function ensureEmbedTenant(ctx: ServiceContext, name: string, displayName: string | null = null): EmbedTenantRow {
  ctx.db
    .prepare('INSERT INTO embed_tenants (name, display_name, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING')
    .run(name, displayName, ctx.clock.now().toISOString());
  return findEmbedTenant(ctx, name) as EmbedTenantRow;
}

/** Tenants by name after `afterName` (keyset over the primary key), at most `limit` of them. */
export function listEmbedTenants(ctx: ServiceContext, afterName: string | null = null, limit = -1): EmbedTenantRow[] {
  return ctx.db.prepare('SELECT * FROM embed_tenants WHERE name > ? ORDER BY name LIMIT ?').all(afterName ?? '', limit) as EmbedTenantRow[];
}

/** Deletes a tenant and every embed access entry naming it; false when it did not exist. */
export function deleteEmbedTenant(ctx: ServiceContext, name: string): boolean {
  return ctx.db.transaction(() => {
    ctx.db.prepare("DELETE FROM workbook_embed_access WHERE scope = 'tenant' AND embed_tenant_name = ?").run(name);
    ctx.db.prepare("DELETE FROM folder_embed_access WHERE scope = 'tenant' AND embed_tenant_name = ?").run(name);
    return ctx.db.prepare('DELETE FROM embed_tenants WHERE name = ?').run(name).changes > 0;
  })();
}
