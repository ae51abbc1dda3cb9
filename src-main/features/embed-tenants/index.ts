/** What other areas may call on embed tenants, their users and groups. */
export {
  embedTenantSettings,
  findEmbedUser,
  getTenant,
  groupNamesOf,
  searchTenantUsers,
  setUserGroups,
  upsertEmbedUser,
  upsertGroupDefinitions,
  upsertTenantProfile,
  type TenantProfileInput,
} from './tenants';
