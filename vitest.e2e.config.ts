import { defineConfig } from 'vitest/config';

// End-to-end tests: a real `drydock serve` and Debian's chromium. One file at a time, one test at
// a time, with room for a cold build and a cold browser.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // One retry: a test that fails only under a loaded machine must not sink the whole run, but it
    // is not hidden either — `npm test` lists every test that needed its retry (scripts/flaky-reporter.js).
    retry: 1,
    reporters: ['default'],
  },
});
