import { defineConfig } from 'vitest/config';
import { sourceWorkers } from './scripts/source-workers.js';

export default defineConfig({
  // Worker entries (`?modulePath` imports) are bundled on first use, as the build does.
  plugins: [sourceWorkers({ root: import.meta.dirname })],
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One retry: a test that fails only under a loaded machine must not sink the whole run, but it
    // is not hidden either — `npm test` lists every test that needed its retry (scripts/flaky-reporter.js).
    retry: 1,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        // Unit tests hold no service, no environment and no module state between files: they share
        // their worker processes (a fresh process and module graph per file cost ~40 % of their time).
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        // API, conformance and keychain tests start services, set environment variables and hold
        // module state (pools, caches): a process of their own per file.
        test: { name: 'api', include: ['test/**/*.test.ts'], exclude: ['test/unit/**', 'test/e2e/**', 'node_modules/**'] },
      },
    ],
  },
});
