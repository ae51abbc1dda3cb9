// What other areas may use of the model tests area (issue 26).
export { registerModelTestRoutes } from './routes';
export { TEST_RUN_KIND } from './runs';
