/** What other areas may call on deployments (they never read this area's tables). */
export {
  getDeployment,
  getDeployBranch,
  isDdlEnabled,
  getCurrentVersion,
  getStorageCredentials,
  onDeploymentCreated,
  onDeploymentDeleted,
  onDeploymentDeleting,
  actorLabel,
  type DeploymentCreatedHook,
  type DeploymentDeletedHook,
} from './deployments';
export { appendDeploymentLog, type DeploymentLogEntry } from './logs';
export { recordBuildState, getBuildState, type BuildStateUpdate } from './build-state';
export { listDataSources, getDataSource, getDataSourceSecret, envVarNameFor, type DataSource, type DataSourceKind } from './data-sources';
export { readEnvVars, lastEnvVarChange, type StoredEnvVar } from './env-vars';
