/** What other areas may use of the embed-access area. */
export { effectiveEmbedAccess } from './access';
export { deleteEmbedTenant, EMBED_TENANT_NOT_FOUND, ensureEmbedTenant, findEmbedTenant, listEmbedTenants, requireEmbedTenant, type EmbedTenantRow } from './tenants';
