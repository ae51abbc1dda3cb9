// What other areas may use of the warehouse-sync area.
export { registerWarehouseSyncRoutes } from './routes';
export { getLocalWarehouse, openWarehouseConnector, warehouseDataSource } from './warehouse';
export { PUSH_KIND, type PushJobInputs, type PushJobResult } from './push';
export { PULL_KIND, type PullJobInputs, type PullJobResult } from './pull';
export { currentPushedViews, type PushedSemanticView } from './pushed-views';
