// The spec's deployment tag group (Deployments, Deployment Creation, Env Variables, Regions):
// enumerations and limits (enums.ts), shapes (shapes.ts) and operations (routes.ts).
export * from './enums';
export * from './shapes';
export * from './routes';
