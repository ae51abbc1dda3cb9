import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { contractSnapshot } from './scripts/contract-snapshot.js';

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

/**
 * out/main is CommonJS, which a package.json there says (the repository's says "type": "module").
 * An ES module that imports a Node built-in makes Node read every export of it, and node:http's
 * `WebSocket` getter then loads Node's bundled undici: about 40 ms of CPU at every start of the
 * service, which `require()` of node:http does not spend (measured on Node 24.22).
 */
const commonJsOutput: Plugin = {
  name: 'drydock:commonjs-output',
  apply: 'build',
  generateBundle(_options, bundle) {
    // Only the build of the entries (not the nested builds of worker entries, which land in chunks/).
    if (bundle['cli.js']) this.emitFile({ type: 'asset', fileName: 'package.json', source: '{ "type": "commonjs" }\n' });
  },
};

export default defineConfig({
  // Electron entry (package.json `main`) and the headless CLI share one Node build: Node 24, the
  // project's runtime and the Node of Electron's utility process.
  main: {
    plugins: [
      // The contract's schemas as data, built once by the build (start time; see scripts/contract-snapshot.js).
      contractSnapshot({ root, dir: at('src-shared/api') }),
      commonJsOutput,
    ],
    build: {
      outDir: at('out/main'),
      target: 'node24',
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
        },
        // The build's own timing report (rolldown prints one when plugins take a while) is not for users.
        checks: { bundlerTimings: false },
        output: {
          format: 'cjs',
          entryFileNames: '[name].js',
          chunkFileNames: 'chunks/[name]-[hash].js',
          // Written in ASCII without comments (strings keep their meaning as `\u` escapes): Node reads a
          // module as UTF-8, and one non-ASCII character (a `—` in a comment) made the whole chunk a
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
        checks: { bundlerTimings: false },
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
      rolldownOptions: { input: { index: at('src-renderer/index.html') }, checks: { bundlerTimings: false } },
    },
  },
});
