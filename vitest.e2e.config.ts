import { defineConfig } from 'vitest/config';

// End-to-end tests: a real `drydock serve` and Debian's chromium per file (its own data directory,
// port and browser profile, so files share no state). Two files at a time: much of an e2e test is
// waiting on the service or the browser, which the other file's work fills. One test at a time in a
// file, with room for a cold build and a cold browser on a loaded machine.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    fileParallelism: true,
    maxWorkers: 2,
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
