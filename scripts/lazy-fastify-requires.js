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
//     node:http, median of 5).
// What these modules do when they are used is unchanged. The build fails if the sources no longer
// have these lines (an upgrade must look at this again).
import { sourceRewrites } from './source-rewrites.js';

const LAZY = (name) =>
  `(() => { let loaded = null; return new Proxy({}, { get: (_target, key) => (loaded ??= require('node:${name}'))[key] }) })()`;

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
  '@fastify/static/index.js': [
    ["const { glob } = require('glob')\n", "const glob = (...args) => require('glob').glob(...args) // drydock: loaded on first use (scripts/lazy-fastify-requires.js)\n"],
  ],
};

/** Rolldown/Vite plugin: Fastify and @fastify/static load what only unused features need on first use. */
export function lazyFastifyRequires() {
  return sourceRewrites('lazy-fastify-requires', REWRITES, 'the package');
}
