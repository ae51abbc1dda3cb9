#!/usr/bin/env node
// Makes the V8 code cache of out/main/vendor.cjs (see scripts/vendor-code-cache.js). A cache holds
// every function compiled when it is taken, and V8 deserialises all of it when the bundle loads: the
// cache should hold what a start runs, no more. So this starts the built `drydock serve` in this
// process, without a vendor cache, on a data directory a first start made (the case a cache is for),
// waits for its first authenticated answer, sends one request whose body is validated (Ajv compiles
// its first schema: the background warm-up of schemas and any first write need that code soon after
// the start), and takes the cache then: 790 KB against 1,056 KB when a synthetic warm-up also ran
// @fastify/static, errors and closing (deserialised ~15 against ~20 ms). @fastify/static's functions
// are compiled on the first UI file. A second process checks that V8 accepts the cache.
// Usage: warm-vendor-cache.js <out/main> [--seed <data dir> | --check].
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SELF = process.argv[1];
const outDir = resolve(process.argv[2] ?? 'out/main');
const mode = process.argv[3];
const require = createRequire(join(outDir, 'cli.js'));
const runtime = require('./vendor-runtime.js');

if (mode === '--check') {
  process.exit(runtime.vendorCodeCacheUsed() ? 0 : 3);
}

// A cache left there would be loaded by the start below, and every function it holds would be in the
// new one (the build removes it first; the name is vendor-runtime's cacheFileOf).
rmSync(join(outDir, `vendor.cjs.${process.arch}-v8-${process.versions.v8}.cache`), { force: true });

const KEY = 'dd_warm_vendor_cache_key_abcdefghijklmnopqrstuvwxyz0123456789';
const data = mode === '--seed' ? process.argv[4] : mkdtempSync(join(tmpdir(), 'drydock-warm-vendor-'));
if (mode !== '--seed') {
  const seed = spawnSync(process.execPath, [SELF, outDir, '--seed', data], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (seed.status !== 0) throw new Error(`warm-vendor-cache: the first start failed (exit ${seed.status})`);
}

const port = await new Promise((done) => {
  const server = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => done(port));
  });
});
const send = (method, path, body) =>
  new Promise((done) => {
    const headers = { authorization: `Api-Key ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) };
    const request = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode));
    });
    request.on('error', () => done(null));
    request.end(body);
  });

process.env.DRYDOCK_BOOTSTRAP_API_KEY = KEY;
process.argv = [process.argv[0], join(outDir, 'cli.js'), 'serve', '--data-dir', data, '--secrets', 'file', '--port', String(port), '--no-login-link'];
require('./cli.js');
const started = Date.now();
let status;
while (!(status = await send('GET', '/api/v1/users/me'))) {
  if (Date.now() - started > 60_000) throw new Error('warm-vendor-cache: the service did not answer within 60 s');
  await new Promise((done) => setTimeout(done, 20));
}
if (status !== 200) throw new Error(`warm-vendor-cache: the service answered ${status}`);
if (mode === '--seed') process.exit(0);

// A body the contract refuses (a name must be a string): Ajv compiles the route's validator and
// reports the error, as for any first validated request.
const refused = await send('POST', '/api/v1/api-keys', '{"name":5}');
if (refused !== 400) throw new Error(`warm-vendor-cache: POST /api/v1/api-keys with an invalid body answered ${refused}, not 400`);

const cacheFile = runtime.writeVendorCodeCache();

// The bundle is minified with function and class names kept (scripts/vendor-code-cache.js): avvio and
// Fastify name plugins and hooks by `fn.name`. A minifier that dropped them fails the build here.
// (after the cache is taken: @fastify/static is loaded here, not by the start)
const { Ajv } = runtime.vendor('ajv');
for (const [fn, name] of [[runtime.vendor('fastify'), 'fastify'], [Ajv, 'Ajv'], [runtime.vendor('@fastify/static').fastifyStatic, 'fastifyStatic'], [runtime.vendor('@fastify/fast-json-stringify-compiler'), 'SerializerSelector']]) {
  if (fn.name !== name) throw new Error(`warm-vendor-cache: vendor.cjs lost the name of ${name} (got ${JSON.stringify(fn.name)}): keep names when minifying.`);
}

rmSync(data, { recursive: true, force: true });
const check = spawnSync(process.execPath, [SELF, outDir, '--check'], { stdio: 'inherit' });
// Not a build failure: the service works without the cache, it only starts slower.
if (check.status !== 0) console.error(`warm-vendor-cache: V8 did not accept ${cacheFile}; the service will compile vendor.cjs at start.`);
process.exit(0);
