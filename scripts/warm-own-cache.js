#!/usr/bin/env node
// Makes the V8 code cache of out/main's own files (see scripts/own-code-cache.js): starts the built
// `drydock serve` in this process on a data directory a first start made (the case a cache is for:
// an existing data directory), waits for its first authenticated answer, then writes the cache of
// every file of out/main compiled so far, with the functions that start ran. A fresh process then
// checks that V8 accepts it. Usage: warm-own-cache.js <out/main> [--seed <data dir> | --check].
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
const hook = require('./code-cache.js');

if (mode === '--check') {
  const rejected = hook.rejectedFiles();
  if (rejected.length) console.error(`warm-own-cache: V8 rejected the code cache of ${rejected.join(', ')}; the service will compile them at start.`);
  process.exit(0);
}

const KEY = 'dd_warm_own_cache_key_abcdefghijklmnopqrstuvwxyz0123456789';
const data = mode === '--seed' ? process.argv[4] : mkdtempSync(join(tmpdir(), 'drydock-warm-own-'));
if (mode !== '--seed') {
  const seed = spawnSync(process.execPath, [SELF, outDir, '--seed', data], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (seed.status !== 0) throw new Error(`warm-own-cache: the first start failed (exit ${seed.status})`);
}

const port = await new Promise((done) => {
  const server = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => done(port));
  });
});
const get = () =>
  new Promise((done) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/api/v1/users/me', agent: false, headers: { authorization: `Api-Key ${KEY}` } }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode));
    });
    request.on('error', () => done(null));
  });

process.env.DRYDOCK_BOOTSTRAP_API_KEY = KEY;
process.argv = [process.argv[0], join(outDir, 'cli.js'), 'serve', '--data-dir', data, '--secrets', 'file', '--port', String(port), '--no-login-link'];
if (mode !== '--seed') hook.installCodeCache(true);
require('./cli.js');
const started = Date.now();
let status;
while (!(status = await get())) {
  if (Date.now() - started > 60_000) throw new Error('warm-own-cache: the service did not answer within 60 s');
  await new Promise((done) => setTimeout(done, 20));
}
if (status !== 200) throw new Error(`warm-own-cache: the service answered ${status}`);
if (mode !== '--seed') {
  hook.freezeCodeCache();
  // The areas not needed for the first answer load in the background just after it (about 2 MB of
  // chunks, src-main/features/areas.ts): wait until no more files load, so that they have a cache too.
  for (let count = -1; count !== hook.recordedCount() && Date.now() - started < 60_000; ) {
    count = hook.recordedCount();
    await new Promise((done) => setTimeout(done, 500));
  }
  const file = hook.writeCodeCache();
  rmSync(data, { recursive: true, force: true });
  spawnSync(process.execPath, [SELF, outDir, '--check'], { stdio: 'inherit' });
  console.error(`warm-own-cache: wrote ${file}`);
}
process.exit(0);
