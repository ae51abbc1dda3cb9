import { defineConfig } from 'vitest/config';
import { sourceWorkers } from './scripts/source-workers.js';

export default defineConfig({
  // Worker entries (`?modulePath` imports) are bundled on first use, as the build does.
  plugins: [sourceWorkers({ root: import.meta.dirname })],
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One retry: a test that fails only under a loaded machine must not sink the whole run, but it
    // is not hidden either — `npm test` lists every test that needed its retry (scripts/flaky-reporter.js).
    retry: 1,
    reporters: ['default'],
  },
});
