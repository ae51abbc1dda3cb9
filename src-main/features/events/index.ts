/** Live events: the stream route and the sources feeding the bus (see `platform/events`). */
export { registerEventRoutes, isVisibleTo } from './routes';
