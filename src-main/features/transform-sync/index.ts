// What other areas may use of the transform-sync area.
export { registerTransformSyncRoutes } from './routes';
export { TRANSFORM_SYNC_KIND, type TransformJobInputs, type TransformJobResult } from './sync';
export { generateCubes, checkManifest, ManifestError, type GenerationResult, type GenerationStats } from './dbt';
