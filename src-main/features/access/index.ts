/** What other areas may call on groups and policies. */
export { getGroup, getPolicy, groupNamesOf } from './groups';
export { registerAccessRoutes } from './routes';
