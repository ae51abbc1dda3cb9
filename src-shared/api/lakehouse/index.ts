// The spec's lakehouse tag: limits and codes (limits.ts), the scope pattern grammar (name-pattern.ts),
// the shapes its operations share (shapes.ts: settings, previews, runs, per-view outcomes) and its
// eleven operations (routes.ts).
export * from './limits';
export * from './name-pattern';
export * from './shapes';
export * from './routes';
