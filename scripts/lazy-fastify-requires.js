// Build plugin (start time, issue 10): modules the service's HTTP framework loads at start only to
// use in cases the service never meets, loaded on first use instead:
//   - Fastify's lib/server.js loads node:https, node:http2 and node:dns, used only to create an
//     HTTPS or HTTP/2 server or to resolve a host name in listen() — the service hands Fastify the
//     node:http server it already listens on, on 127.0.0.1 (loading the three: about 25 ms of CPU
//     measured alone at load 15; loading Fastify from the bundle 108 → 102 ms, median of 7);
//   - @fastify/static loads `glob`, used only to list the files of `root` when it serves them by
//     routes of their own — the service registers it with `serve: false` (glob alone: about 60 ms
//     of CPU to load from node_modules at load 12);
//   - commander (bundled into the CLI) imports node:child_process, used only to run a command given
//     as an executable file of its own, which Drydock's commands are not (loading it: 1.3–5 ms after
//     node:http, median of 5);
//   - Fastify's plugin-utils and find-my-way load node:assert only to assert what always holds for
//     the service's routes and plugins (a failed assertion still throws node:assert's AssertionError);
//     Fastify's logger-factory loads node:perf_hooks for `performance.now()`, of which Fastify only
//     takes differences (a reply's elapsed time), the same from process.hrtime; @fastify/static's
//     dirList asks os.cpus() (reads /proc) at load for a queue that lists folders, which the service
//     never does (the three: 1–1.5 ms each after node:http, median of 3); lru-cache reads the global
//     `performance` at load (which loads node:perf_hooks) for a clock it uses only with TTLs, which
//     the service's caches do not set: it gets the same clock from process.hrtime.
// What these modules do when they are used is unchanged. The build fails if the sources no longer
// have these lines (an upgrade must look at this again).
import { sourceRewrites } from './source-rewrites.js';

const LAZY = (name) =>
  `(() => { let loaded = null; return new Proxy({}, { get: (_target, key) => (loaded ??= require('node:${name}'))[key] }) })()`;

/** A call of node:assert's `assert(value, message)` that loads node:assert only when the assertion fails. */
const LAZY_ASSERT = [
  "const assert = require('node:assert')\n",
  "const assert = (value, message) => { if (!value) require('node:assert')(value, message) } // drydock: node:assert loaded on failure (scripts/lazy-fastify-requires.js)\n",
];

const REWRITES = {
  'fastify/lib/server.js': [
    ["const https = require('node:https')\n", `const https = ${LAZY('https')} // drydock: loaded on first use (scripts/lazy-fastify-requires.js)\n`],
    ["const http2 = require('node:http2')\n", `const http2 = ${LAZY('http2')}\n`],
    ["const dns = require('node:dns')\n", `const dns = ${LAZY('dns')}\n`],
  ],
  'commander/lib/command.js': [
    [
      "import childProcess from 'node:child_process';\n",
      "import { createRequire as drydockCreateRequire } from 'node:module';\nconst childProcess = new Proxy({}, { get: (_target, key) => drydockCreateRequire(import.meta.url)('node:child_process')[key] }); // drydock: loaded on first use (scripts/lazy-fastify-requires.js)\n",
    ],
  ],
  'fastify/lib/plugin-utils.js': [LAZY_ASSERT],
  'find-my-way/index.js': [LAZY_ASSERT],
  'find-my-way/lib/constrainer.js': [LAZY_ASSERT],
  'find-my-way/lib/strategies/accept-version.js': [LAZY_ASSERT],
  'find-my-way/lib/strategies/accept-host.js': [LAZY_ASSERT],
  'fastify/lib/logger-factory.js': [
    [
      "const { performance } = require('node:perf_hooks')\n",
      "const performance = { now: () => { const [s, ns] = process.hrtime(); return s * 1e3 + ns / 1e6 } } // drydock: no node:perf_hooks at start (scripts/lazy-fastify-requires.js)\n",
    ],
  ],
  '@fastify/static/lib/dirList.js': [
    [
      'const fastqConcurrency = Math.max(1, os.cpus().length - 1)\n',
      'let concurrency = 0 // drydock: os.cpus() on first use (scripts/lazy-fastify-requires.js)\nconst fastqConcurrency = () => (concurrency ||= Math.max(1, os.cpus().length - 1))\n',
    ],
    ['fastq.promise(worker, fastqConcurrency)', 'fastq.promise(worker, fastqConcurrency())'],
    ['fastq.promise(worker, fastqConcurrency)', 'fastq.promise(worker, fastqConcurrency())'],
  ],
  'lru-cache/dist/esm/node/index.min.js': [
    [
      'var L=typeof performance=="object"&&performance&&typeof performance.now=="function"?performance:Date;',
      'var L={now:()=>{const[s,n]=process.hrtime();return s*1e3+n/1e6}};/* drydock: no node:perf_hooks at start (scripts/lazy-fastify-requires.js) */',
    ],
  ],
  '@fastify/static/index.js': [
    ["const { glob } = require('glob')\n", "const glob = (...args) => require('glob').glob(...args) // drydock: loaded on first use (scripts/lazy-fastify-requires.js)\n"],
  ],
};

/** Rolldown/Vite plugin: Fastify, @fastify/static, find-my-way and lru-cache load what only unused features need on first use. */
export function lazyFastifyRequires() {
  return sourceRewrites('lazy-fastify-requires', REWRITES, 'the package');
}
