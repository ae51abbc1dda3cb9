import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The e2e files that take longest, longest first (`npm test` prints each file's time at its end).
 * They start first: a long file started last runs alone while the other worker sits idle. On a
 * fresh clone vitest has no timings of its own and starts the largest files first, which put
 * accessibility (then 160 s) last but five and left it running alone for the last 34 s (issue 25).
 */
const LONGEST = ['accessibility', 'layout', 'stale-settings', 'desktop', 'stale-writes'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((name) => file.moduleId.endsWith(`/${name}.e2e.test.ts`));
      return index === -1 ? LONGEST.length : index;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// End-to-end tests: a real `drydock serve` per file (its own data directory and port) and a browser
// context of its own in its worker's one Debian chromium, so files share no state. Three files at a
// time on any machine: most of an e2e test is waiting on the service or the browser (with two files
// at a time on 2 cores the stage used under one core: 171 s of CPU, chromium's about 40 s more, in
// 273 s), which the other files' work fills: 272 s with two, 213 s with three (issue 25).
// `E2E_WORKERS` overrides it. One test at a time in a file, with room for a cold build and a cold
// browser on a loaded machine.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    // A failed test prints what the screen showed and what the service said (failure-report.ts).
    setupFiles: ['test/e2e/failure-report.ts'],
    fileParallelism: true,
    maxWorkers: Number(process.env.E2E_WORKERS) || 3,
    sequence: { concurrent: false, sequencer: LongestFirst },
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Each file starts and stops its own service and browser and sets no environment: the files share
    // their two worker processes rather than a fresh process and module graph each (issue 25: 10 small
    // files, 76 s of CPU with a process each, 70 s shared).
    isolate: false,
    // One retry: a test that fails only under a loaded machine must not sink the whole run, but it
    // is not hidden either — `npm test` lists every test that needed its retry (scripts/flaky-reporter.js).
    retry: 1,
    reporters: ['default'],
  },
});
