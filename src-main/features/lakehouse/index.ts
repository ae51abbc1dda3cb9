/** What other areas (and the desktop app) may call on lakehouse publication. */
export { registerLakehouseRoutes } from './routes';
export { isPublicationActive, setPublicationActive } from './activation';
export { openLakehouseConnector, type LakehouseConnectorFactory } from './connector';
export { listOwnedTargets, type OwnedTarget } from './targets';
export { RUN_JOB_KIND } from './runs';
export { PREVIEW_JOB_KIND } from './previews';
