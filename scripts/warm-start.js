// What the build's two warm starts share (warm-vendor-cache.js, warm-own-cache.js, and the plugins that
// run them: warmCodeCache at the end): each runs the
// built `drydock serve` in its own process on a data directory a first start made (the case a code
// cache is for: an existing data directory), waits for the first authenticated answer and talks to
// the service over HTTP, then takes its cache.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

/**
 * The command line of a warm-up script, `<script> <out/main> [--seed <data dir> | --check]`, and a
 * `require` that loads the build's files as the service does.
 */
export function warmArguments() {
  const outDir = resolve(process.argv[2] ?? 'out/main');
  return { self: process.argv[1], outDir, mode: process.argv[3], require: createRequire(join(outDir, 'cli.js')) };
}

/**
 * The data directory to start on: with `--seed <dir>` (the first start, run by the script as a child
 * process of itself) that directory; otherwise a new one, seeded by such a child first.
 */
export function seededDataDir({ self, outDir, mode, label }) {
  if (mode === '--seed') return process.argv[4];
  const data = mkdtempSync(join(tmpdir(), `drydock-${label}-`));
  const seed = spawnSync(process.execPath, [self, outDir, '--seed', data], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (seed.status !== 0) throw new Error(`${label}: the first start failed (exit ${seed.status})`);
  return data;
}

/** A port free on the loopback now. */
export function freePort() {
  return new Promise((done) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** A request to the service with the API key: { status, text }; status null while the port refuses. */
export function caller(port, key) {
  return (method, path, body) =>
    new Promise((done) => {
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const headers = { authorization: `Api-Key ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) };
      const request = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers }, (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => done({ status: response.statusCode, text }));
      });
      request.on('error', () => done({ status: null, text: '' }));
      request.end(payload);
    });
}

/**
 * Starts the built `drydock serve` in this process (`require` is one made in out/main) with `key`
 * as its bootstrap API key, and resolves at its first authenticated answer with the time it started.
 */
export async function serveInProcess({ require, outDir, data, port, key, label }) {
  process.env.DRYDOCK_BOOTSTRAP_API_KEY = key;
  process.argv = [process.argv[0], join(outDir, 'cli.js'), 'serve', '--data-dir', data, '--secrets', 'file', '--port', String(port), '--no-login-link'];
  require('./cli.js');
  const call = caller(port, key);
  const started = Date.now();
  let status;
  while (!(status = (await call('GET', '/api/v1/users/me')).status)) {
    if (Date.now() - started > 60_000) throw new Error(`${label}: the service did not answer within 60 s`);
    await new Promise((done) => setTimeout(done, 20));
  }
  if (status !== 200) throw new Error(`${label}: the service answered ${status}`);
  return started;
}

/**
 * The build side of a warm start, as the vendor-code-cache and own-code-cache plugins run it after
 * writing the bundle to `dir`: removes the caches `stale` matches (V8 checks only a source's length,
 * so an older build's cache could be taken for this one's), then, unless this is `electron-vite dev`
 * (a start of the service at each rebuild), runs `script` on `dir`. A failure only warns: without
 * the cache, `what` compiles at start as before (a start that fails here, e.g. SQLite's addon rebuilt
 * for Electron, fails the same way at run time).
 */
export function warmCodeCache(plugin, { dir, script, stale, what, cwd }) {
  for (const name of readdirSync(dir)) if (stale.test(name)) rmSync(join(dir, name));
  if (plugin.meta.watchMode) return;
  const result = spawnSync(process.execPath, [script, dir], { ...(cwd ? { cwd } : {}), stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) plugin.warn(`${basename(script)} failed (exit ${result.status}): ${what} has no code cache; the service will start slower.`);
}
