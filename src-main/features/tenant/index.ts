/** What other areas may call on tenant settings. */
export { getTenantSettings, updateTenantSettings, DEFAULT_AI_TOKENS_AUTO_PURCHASE_THRESHOLD } from './settings';
export { registerTenantRoutes } from './routes';
