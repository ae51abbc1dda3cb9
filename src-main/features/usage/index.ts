export { registerUsageRoutes } from './routes';
