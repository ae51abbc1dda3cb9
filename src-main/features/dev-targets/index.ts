// What other areas may use of the dev-targets area.
export { registerDevTargetRoutes } from './routes';
export { devPlacementFor, type DevPlacementRecord } from './rules';
