// What other areas may use of the queries area (dashboard exports draw widget queries with it).
export { registerQueryRoutes } from './routes';
export { runWidgetQuery } from './widgets';
export { queryTarget, queryFailure, QueryCancelledError, type QueryTarget, type RowSet } from './execute';
export { querySecurityOf } from './security';
export { dataSourceDialects } from './dialects';
