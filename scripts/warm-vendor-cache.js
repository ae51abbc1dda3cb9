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
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { caller, freePort, seededDataDir, serveInProcess, warmArguments } from './warm-start.js';

const { self: SELF, outDir, mode, require } = warmArguments();
const runtime = require('./vendor-runtime.js');

if (mode === '--check') {
  process.exit(runtime.vendorCodeCacheUsed() ? 0 : 3);
}

// A cache left there would be loaded by the start below, and every function it holds would be in the
// new one (the build removes it first; the name is vendor-runtime's cacheFileOf).
rmSync(join(outDir, `vendor.cjs.${process.arch}-v8-${process.versions.v8}.cache`), { force: true });

const KEY = 'dd_warm_vendor_cache_key_abcdefghijklmnopqrstuvwxyz0123456789';
const data = seededDataDir({ self: SELF, outDir, mode, label: 'warm-vendor-cache' });
const port = await freePort();
await serveInProcess({ require, outDir, data, port, key: KEY, label: 'warm-vendor-cache' });
if (mode === '--seed') process.exit(0);

// A body the contract refuses (a name must be a string): Ajv compiles the route's validator and
// reports the error, as for any first validated request.
const { status: refused } = await caller(port, KEY)('POST', '/api/v1/api-keys', '{"name":5}');
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
