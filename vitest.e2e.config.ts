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
    reporters: ['default'],
  },
});
