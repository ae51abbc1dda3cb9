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
    reporters: ['default'],
  },
});
