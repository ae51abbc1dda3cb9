#!/usr/bin/env node
// Makes the V8 code cache of out/main's own files (see scripts/own-code-cache.js): starts the built
// `drydock serve` in this process on a data directory a first start made (the case a cache is for:
// an existing data directory), waits for its first authenticated answer, then writes the cache of
// every file of out/main compiled so far, with the functions that start ran. It then validates the
// data model of a deployment the first start created (the sample project), so that the worker
// threads' entries, which record too (src-main/workers/thread-boot.ts), have their cache, with the
// functions the first validate runs. A fresh process then checks that V8 accepts it.
// Usage: warm-own-cache.js <out/main> [--seed <data dir> | --check].
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { caller, freePort, seededDataDir, serveInProcess, warmArguments } from './warm-start.js';

const { self: SELF, outDir, mode, require } = warmArguments();
const hook = require('./code-cache.js');

if (mode === '--check') {
  const rejected = hook.rejectedFiles();
  if (rejected.length) console.error(`warm-own-cache: V8 rejected the code cache of ${rejected.join(', ')}; the service will compile them at start.`);
  process.exit(0);
}

const KEY = 'dd_warm_own_cache_key_abcdefghijklmnopqrstuvwxyz0123456789';
const data = seededDataDir({ self: SELF, outDir, mode, label: 'warm-own-cache' });
const port = await freePort();
const call = caller(port, KEY);
/** The deployment the first start created, whose model the warm start validates. */
const deploymentFile = `${data}.deployment`;

if (mode !== '--seed') hook.installCodeCache(true);
const started = await serveInProcess({ require, outDir, data, port, key: KEY, label: 'warm-own-cache' });
if (mode === '--seed') {
  // New deployments start with the sample project (resources/sample-project) as their model.
  const created = await call('POST', '/build/api/v1/deployments/', { name: 'warm', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });
  if (created.status !== 201) throw new Error(`warm-own-cache: creating a deployment answered ${created.status} ${created.text}`);
  writeFileSync(deploymentFile, String(JSON.parse(created.text).id));
} else {
  hook.freezeCodeCache();
  // The areas not needed for the first answer load in the background just after it (about 2 MB of
  // chunks, src-main/features/areas.ts): wait until no more files load, so that they have a cache too.
  for (let count = -1; count !== hook.recordedCount() && Date.now() - started < 60_000; ) {
    count = hook.recordedCount();
    await new Promise((done) => setTimeout(done, 500));
  }
  // The main thread's files keep the caches of a start and what loads after it (as if no validate
  // followed); files the validate and the body below load are cached at the end.
  hook.freezeCodeCache();
  // The first validate: a model shard thread starts, loads model-worker and compiles the model.
  const id = readFileSync(deploymentFile, 'utf8').trim();
  const validated = await call('GET', `/build/api/v1/deployments/${id}/data-model/validate?branchName=main`);
  // Not fatal: without it the worker threads compile their entries as before (the check says so).
  if (validated.status !== 200) console.error(`warm-own-cache: validating answered ${validated.status} ${validated.text.slice(0, 200)}`);
  // A JSON body of 256 KB or more is read on a compute thread (http/json-parser.ts): one loads
  // compute-worker. The body is not a valid one for the route (400): nothing is written.
  await call('PUT', `/build/api/v1/deployments/${id}/data-model/files?branchName=main`, { pad: 'x'.repeat(300 * 1024) });
  const fromWorkers = await hook.collectWorkerCaches();
  if (fromWorkers < 2) console.error(`warm-own-cache: the worker threads sent the code cache of ${fromWorkers} file(s), not 2 (model-worker, compute-worker)`);
  const file = hook.writeCodeCache();
  rmSync(data, { recursive: true, force: true });
  rmSync(deploymentFile, { force: true });
  spawnSync(process.execPath, [SELF, outDir, '--check'], { stdio: 'inherit' });
  console.error(`warm-own-cache: wrote ${file}`);
}
process.exit(0);
