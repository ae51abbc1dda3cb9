// What other areas may use of the queries area (dashboard exports draw widget queries with it).
export { registerQueryRoutes } from './routes';
export { runWidgetQuery } from './widgets';
