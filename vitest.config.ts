import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { sourceWorkers } from './scripts/source-workers.js';

/** Unit test files that need a process of their own (module mocks, fake timers, the Electron shell's scans). */
const OWN_PROCESS = ['test/unit/app/**/*.test.ts', 'test/unit/jobs/wake-timer.test.ts', 'test/unit/renderer/models-data-sources.test.ts'];

export default defineConfig({
  // Worker entries (`?modulePath` imports) are bundled on first use, as the build does.
  plugins: [sourceWorkers({ root: import.meta.dirname })],
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One file per core, not vitest's default of one fewer: API tests spend about half their time
    // waiting on child processes, sockets and timers (a 2-core run: 391 s with one worker, 288 s with two).
    maxWorkers: Math.max(2, availableParallelism()),
    // One retry: a test that fails only under a loaded machine must not sink the whole run, but it
    // is not hidden either — `npm test` lists every test that needed its retry (scripts/flaky-reporter.js).
    retry: 1,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        // Unit tests hold no service, no environment and no module state between files: they share
        // their worker processes (a fresh process and module graph per file cost ~40 % of their time).
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: OWN_PROCESS, isolate: false },
      },
      {
        extends: true,
        // API and conformance tests start services of their own, each on its own data directory, port
        // and secret store, and stop them; what the service's modules keep between services is keyed by
        // the service (WeakMaps of its context) or by content, and the environment variables a file
        // sets end with it (restore-env.ts). They share worker processes: a fresh process and module
        // graph per file cost more than half of their CPU time (issue 25: 20 files, 38 s of CPU with a
        // process each, 17 s shared).
        test: { name: 'api', include: ['test/api/**/*.test.ts', 'test/conformance/**/*.test.ts'], setupFiles: ['test/support/restore-env.ts'], isolate: false },
      },
      {
        extends: true,
        // A process of their own per file: the keychain tests (the OS keychain's session), and the unit
        // tests that replace modules or timers, or leave work behind (Electronegativity's own lookups).
        test: { name: 'own-process', include: ['test/keychain/**/*.test.ts', ...OWN_PROCESS] },
      },
    ],
  },
});
