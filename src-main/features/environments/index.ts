/** What other areas may call on environments. */
export {
  getEnvironment,
  getProductionEnvironment,
  allEnvironments,
  ensureDevelopmentEnvironment,
  ensureStagingEnvironment,
  removeEnvironment,
  removeStagingEnvironment,
} from './environments';
