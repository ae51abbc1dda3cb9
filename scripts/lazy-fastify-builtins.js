// Build plugin (start time, issue 10): Fastify's lib/server.js loads node:https, node:http2 and
// node:dns when it is loaded, though it uses them only to create an HTTPS or HTTP/2 server or to
// resolve a host name in listen() — none of which the service does (it hands Fastify the
// node:http server it already listens on, on 127.0.0.1). Loading those three builtins took about
// 25 ms of CPU at start (measured alone at load 15). This rewrite loads each on first use; what
// Fastify does with them is unchanged. The build fails if Fastify's source no longer has these
// lines (an upgrade must look at this again).

const LAZY = (name) =>
  `(() => { let loaded = null; return new Proxy({}, { get: (_target, key) => (loaded ??= require('node:${name}'))[key] }) })()`;

const REWRITES = {
  'fastify/lib/server.js': [
    ["const https = require('node:https')\n", `const https = ${LAZY('https')} // drydock: loaded on first use (scripts/lazy-fastify-builtins.js)\n`],
    ["const http2 = require('node:http2')\n", `const http2 = ${LAZY('http2')}\n`],
    ["const dns = require('node:dns')\n", `const dns = ${LAZY('dns')}\n`],
  ],
};

/** Rolldown/Vite plugin: Fastify loads node:https, node:http2 and node:dns on first use. */
export function lazyFastifyBuiltins() {
  return {
    name: 'drydock:lazy-fastify-builtins',
    transform(code, id) {
      const file = Object.keys(REWRITES).find((suffix) => id.replaceAll('\\', '/').endsWith(`/node_modules/${suffix}`));
      if (!file) return null;
      let result = code;
      for (const [from, to] of REWRITES[file]) {
        if (!result.includes(from)) throw new Error(`lazy-fastify-builtins: ${file} no longer contains\n  ${from}\n(Fastify changed; see scripts/lazy-fastify-builtins.js)`);
        result = result.replace(from, to);
      }
      return { code: result, map: null };
    },
  };
}
