import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { batchedRouteSteps } from './scripts/batched-route-steps.js';
import { lazyFastifyRequires } from './scripts/lazy-fastify-requires.js';
import { lazyRouterCompiles } from './scripts/lazy-router-compiles.js';
import { vendorCodeCache } from './scripts/vendor-code-cache.js';
import { contractSnapshot } from './scripts/contract-snapshot.js';
import { ownCodeCache } from './scripts/own-code-cache.js';

const root = import.meta.dirname;
const at = (path: string) => resolve(root, path);

/**
 * The service serves the UI at `/` with a single-page fallback for client routes such as
 * `/deployments/3`, so asset URLs must be absolute. electron-vite forces `base: './'` for
 * production renderer builds (it assumes `file://` loading); this puts `/` back.
 */
const absoluteBase: Plugin = {
  name: 'drydock:absolute-base',
  enforce: 'post',
  config: () => ({ base: '/' }),
};

export default defineConfig({
  // Electron entry (package.json `main`) and the headless CLI share one Node build. The CLI runs
  // on plain Node 20, so target that rather than Electron's newer Node.
  main: {
    plugins: [
      // The contract's schemas as data, built once by the build (start time; see scripts/contract-snapshot.js).
      contractSnapshot({ root, dir: at('src-shared/api') }),
      lazyRouterCompiles(),
      batchedRouteSteps(),
      lazyFastifyRequires(),
      // The HTTP framework in one file with a V8 code cache (start time; see scripts/vendor-code-cache.js).
      vendorCodeCache({
        root,
        packages: ['fastify', 'ajv', 'ajv-formats', '@fastify/static', '@fastify/fast-json-stringify-compiler'],
        runtime: at('src-main/vendor-runtime.ts'),
      }),
      // CommonJS output and a V8 code cache of the service's own code (start time; see scripts/own-code-cache.js).
      ownCodeCache(),
    ],
    build: {
      outDir: at('out/main'),
      target: 'node20',
      // Pure-JS libraries the service loads at start are bundled: one file to read and compile
      // instead of hundreds to resolve (start time, issue 10). Native modules and the drivers that
      // load on first use (snowflake-sdk, @databricks/sql, DuckDB, Pyodide, playwright) stay external.
      externalizeDeps: {
        exclude: [
          'fastify',
          '@fastify/fast-json-stringify-compiler',
          '@fastify/swagger',
          '@fastify/static',
          'ajv',
          'ajv-formats',
          'typebox',
          'jose',
          'yaml',
          'isomorphic-git',
          'lru-cache',
          'node-cron',
          'acorn',
          'commander',
        ],
      },
      rolldownOptions: {
        input: {
          index: at('src-main/app/main.ts'),
          'service-process': at('src-main/service-process.ts'),
          cli: at('src-main/cli.ts'),
          'vendor-runtime': at('src-main/vendor-runtime.ts'),
          // Loaded first by bin/drydock.js: compiles the rest of out/main with its code cache.
          'code-cache': at('src-main/code-cache.ts'),
          // Loaded first by each worker thread of such a service: the same hook in that thread.
          'worker-boot': at('src-main/workers/thread-boot.ts'),
        },
        output: {
          format: 'cjs',
          entryFileNames: '[name].js',
          chunkFileNames: 'chunks/[name]-[hash].js',
          // Written in ASCII without comments (strings keep their meaning as `\u` escapes): Node reads an
          // ES module as UTF-8, and one non-ASCII character (a `—` in a comment) made the whole chunk a
          // two-byte string to decode and scan at every start; cli.js also shrinks 115 → 79 KB.
          comments: false,
          minify: { compress: false, mangle: false, codegen: { removeWhitespace: false, asciiOnly: true } },
        },
      },
    },
  },
  // Sandboxed preloads must be CommonJS and may require only `electron`: bundle everything else.
  preload: {
    build: {
      outDir: at('out/preload'),
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: at('src-main/app/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: at('src-renderer'),
    plugins: [react(), absoluteBase],
    worker: { format: 'es' },
    build: {
      outDir: at('out/renderer'),
      emptyOutDir: true,
      minify: true,
      // Monaco alone is a few MB; it loads lazily, only where an editor is shown.
      chunkSizeWarningLimit: 4000,
      rolldownOptions: { input: { index: at('src-renderer/index.html') } },
    },
  },
});
