// `npm run bench -- responsive`: how the HTTP thread copes with heavy work (issue "Responsive").
// Event-loop delay of the service's thread (perf_hooks.monitorEventLoopDelay, 1 ms resolution)
// and the slowest health probe while each load runs alone, then all four at once:
//   - validate of 1,000 cubes + 250 views (first validate of the branch: a full compile),
//   - a lakehouse run publishing 128 metric views to the local emulator,
//   - a commit of 1,250 files (dev-mode edits),
//   - an upload of 20 MB (4 files of 5 MB, 4 MB chunks; its client runs on a worker thread, so
//     encoding and sending 20 MB is not counted as the service's delay).
// Then one-file edit → validate latency through the API at that size. Targets: event-loop delay
// p99 ≤ 20 ms and max ≤ 50 ms during every load; edit → validate ≤ 30 ms median.
// Peers, printed as ratios: the same compile run on the HTTP thread itself (what the service did
// before compiles moved to worker threads), and a full, non-incremental compile of the same model
// (what every validate cost before the shards kept compiled models). Last, how long a cancel of a
// 128-view lakehouse run takes to end it.
//
// The service runs in this process (its event loop is the one measured); every request body is
// prepared before measuring so the client's own work stays small. Each load also prints the GC
// pauses seen meanwhile (count, total, longest; major collections apart).
//
// Options: `--only=upload,all` measures only the named loads (validate, lakehouse, commit, upload,
// all) and skips the peers, edit and cancel; `--repeat=N` measures each N times; `--cpu-prof=DIR`
// writes a CPU profile of this thread per measured load into DIR (open it in Chrome DevTools).

import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver, constants as perfConstants, type PerformanceEntry } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { commitFiles } from '../../src-main/features/data-model';
import { createService, silentLogger, type Service } from '../../src-main/service';
import { MemorySecretStore } from '../../src-main/platform/secrets';
import { compileModel } from '../../src-shared/model';
import { bigProject, editedCube, lakehouseViews } from '../support/big-models';
import { cubeFile } from './model.bench';
import { median } from './stats';

const KEY = 'dd_bench_responsive_key_abcdefghijklmnopqrstuvwxyz0123';
const AUTHOR = { name: 'Bench', email: 'bench@localhost' };
const EDIT_RUNS = 21;
const TERMINAL = ['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'];

type Json = Record<string, unknown>;
type Call = (method: string, path: string, body?: string | Json) => Promise<{ status: number; body: Json }>;

function caller(service: Service): Call {
  return async (method, path, body) => {
    const text = typeof body === 'string' ? body : body ? JSON.stringify(body) : undefined;
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: `Api-Key ${KEY}`, ...(text ? { 'content-type': 'application/json' } : {}) },
      body: text,
    });
    const raw = await res.text();
    return { status: res.status, body: raw ? (JSON.parse(raw) as Json) : {} };
  };
}

const D = (id: number) => `/api/v1/deployments/${id}`;
/** The data-model routes live under /build/api/v1. */
const B = (id: number) => `/build/api/v1/deployments/${id}`;

async function expectStatus(what: string, status: number, res: { status: number; body: Json }): Promise<Json> {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  return res.body;
}

async function newDeployment(call: Call, name: string): Promise<number> {
  const body = await expectStatus(
    'create deployment',
    201,
    await call('POST', '/build/api/v1/deployments/', { name, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } }),
  );
  return body.id as number;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// ---- the four loads, each prepared first and returned as "run it now" ----------------------------

/** A dev-mode branch holding the 1,000-cube project; the load is its first validate. */
async function prepareValidate(service: Service, call: Call, name: string) {
  const id = await newDeployment(call, name);
  await commitFiles(service.ctx, id, 'main', bigProject(), 'big model', AUTHOR);
  const dev = await expectStatus('dev mode', 200, await call('POST', `${B(id)}/dev-mode`));
  const branch = (dev.branch as Json).branchName as string;
  const validate = () => call('GET', `${B(id)}/data-model/validate?branchName=${encodeURIComponent(branch)}`);
  return {
    id,
    branch,
    validate,
    run: async () => {
      const body = await expectStatus('validate', 200, await validate());
      if (body.fileCount !== 1250) throw new Error(`validate saw ${String(body.fileCount)} files`);
      return `${String(body.fileCount)} files, ${String(body.errorCount)} errors`;
    },
  };
}

/** 128 publishable views on the deploy branch, built; the load is one publication run. */
async function prepareLakehouseRun(service: Service, call: Call, name: string) {
  const id = await newDeployment(call, name);
  const { commit } = await commitFiles(
    service.ctx,
    id,
    'main',
    Object.entries(lakehouseViews(128)).map(([path, content]) => ({ path, content })),
    '128 views',
    AUTHOR,
  );
  await until('the build', async () => {
    const res = await call('GET', `${D(id)}/build-status`);
    return res.body.commit === commit && res.body.buildStatus === 'succeeded' ? true : undefined;
  });
  const integration = `${D(id)}/lakehouse-metric-view-integrations/lake`;
  const saved = await expectStatus(
    'lakehouse settings',
    200,
    await call('PUT', integration, {
      expectedConfigurationVersion: 0,
      configuration: { enabled: true, selectionMode: 'all', targetCatalog: 'main', targetSchema: 'default', targetNamePrefix: `mv${id}_` },
    }),
  );
  return {
    /** Starts a run, cancels it once two views are published; the time from the DELETE to the run's end. */
    cancelMidRun: async () => {
      const start = await expectStatus('start run', 202, await call('POST', `${integration}/syncs`, { configurationVersion: saved.configurationVersion }));
      await until('two published views', async () => {
        const res = await call('GET', start.statusUrl as string);
        return res.body.status === 'RUNNING' && (res.body.views as unknown[]).length >= 2 ? true : undefined;
      });
      const t0 = performance.now();
      await expectStatus('cancel', 202, await call('DELETE', start.statusUrl as string));
      const run = await until('the cancelled run', async () => {
        const res = await call('GET', start.statusUrl as string);
        return TERMINAL.includes(res.body.status as string) ? res.body : undefined;
      });
      return { ms: performance.now() - t0, status: run.status as string, views: (run.views as unknown[]).length };
    },
    run: async () => {
      const start = await expectStatus('start run', 202, await call('POST', `${integration}/syncs`, { configurationVersion: saved.configurationVersion }));
      const run = await until('the run', async () => {
        const res = await call('GET', start.statusUrl as string);
        return TERMINAL.includes(res.body.status as string) ? res.body : undefined;
      });
      return `${String(run.status)}, ${JSON.stringify(run.outcomeCounts)}`;
    },
  };
}

/** 1,250 uncommitted files on a dev-mode branch; the load is the commit. */
async function prepareCommit(call: Call, name: string) {
  const id = await newDeployment(call, name);
  await expectStatus('dev mode', 200, await call('POST', `${B(id)}/dev-mode`));
  const files = Array.from({ length: 1250 }, (_, i) => ({ ...cubeFile(i), path: `model/many/cube_${i}.yml` }));
  for (let i = 0; i < files.length; i += 500) {
    await expectStatus('write files', 200, await call('PUT', `${B(id)}/data-model/files`, { files: files.slice(i, i + 500) }));
  }
  const body = JSON.stringify({ message: '1,250 files' });
  return {
    run: async () => {
      const result = await expectStatus('commit', 200, await call('POST', `${B(id)}/commit`, body));
      return `${(result.changes as unknown[]).length} files committed`;
    },
  };
}

/**
 * The upload's client, on a worker thread: encoding and sending 20 MB of JSON bodies is the client's
 * work, and on this thread it would count as the service's event-loop delay.
 */
const UPLOAD_CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, key, base, startBody, chunks } = workerData;
async function post(path, body) {
  const res = await fetch(url + path, { method: 'POST', headers: { authorization: 'Api-Key ' + key, 'content-type': 'application/json' }, body: Buffer.from(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(path + ': ' + res.status + ' ' + text.slice(0, 500));
  return JSON.parse(text);
}
parentPort.once('message', () => (async () => {
  const start = await post(base + '/start', startBody);
  for (const chunk of chunks) await post(base + '/file', JSON.stringify({ uploadId: start.uploadId, ...chunk }));
  const finish = await post(base + '/finish', JSON.stringify({ uploadId: start.uploadId }));
  parentPort.postMessage({ changes: finish.changes.length });
})().catch((error) => parentPort.postMessage({ error: String(error) })));
parentPort.postMessage('ready');
`;

/** Four 5 MB text files for a shared branch; the load is start + 4 MB chunks + finish (sent from a worker thread). */
async function prepareUpload(service: Service, call: Call, name: string) {
  const id = await newDeployment(call, name);
  await expectStatus('branch', 201, await call('POST', `${B(id)}/branches`, { branchName: 'uploads' }));
  const line = '- a line of documentation text, repeated to make a big file\n';
  const files = Array.from({ length: 4 }, (_, i) => {
    const content = Buffer.from(`# file ${i}\n${line.repeat(Math.ceil(5_000_000 / line.length))}`.slice(0, 5_000_000));
    return { path: `docs/big_${i}.md`, content, sha256: createHash('sha256').update(content).digest('hex') };
  });
  const base = `/build/api/v1/deployments/${id}/data-model/upload`;
  const startBody = JSON.stringify({ branchName: 'uploads', files: files.map((f) => ({ path: f.path, size: f.content.byteLength, sha256: f.sha256 })) });
  const CHUNK = 4 * 1024 * 1024;
  const chunks = files.flatMap((f) =>
    Array.from({ length: Math.ceil(f.content.byteLength / CHUNK) }, (_, c) => ({
      path: f.path,
      offset: c * CHUNK,
      data: f.content.subarray(c * CHUNK, (c + 1) * CHUNK).toString('base64'),
    })),
  );
  // The client thread starts (and receives the 28 MB of chunks) before the measuring does.
  const client = new Worker(UPLOAD_CLIENT, { eval: true, workerData: { url: service.url, key: KEY, base, startBody, chunks } });
  await once(client, 'message');
  return {
    run: async () => {
      try {
        client.postMessage('go');
        const [result] = (await once(client, 'message')) as [{ changes?: number; error?: string }];
        if (result.error) throw new Error(`upload: ${result.error}`);
        return `${String(result.changes)} files, 20 MB`;
      } finally {
        await client.terminate();
      }
    },
  };
}

// ---- measuring ------------------------------------------------------------------------------------

interface Measured {
  name: string;
  wallMs: number;
  p99Ms: number;
  maxMs: number;
  healthMaxMs: number;
  healthProbes: number;
  /** The longest stretch on a CPU between two 1 ms ticks (see onCpuTurns). */
  onCpuMaxMs: number;
  gc: { count: number; totalMs: number; maxMs: number; major: number };
  /** One-minute load average of the machine when the load ended. */
  load: number;
  note: string;
}

const options = {
  only: process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(','),
  repeat: Number(process.argv.find((a) => a.startsWith('--repeat='))?.slice('--repeat='.length) ?? 1),
  cpuProf: process.argv.find((a) => a.startsWith('--cpu-prof='))?.slice('--cpu-prof='.length),
};
const wanted = (load: string) => !options.only || options.only.includes(load);

/**
 * The longest stretch the HTTP thread spent on a CPU between two 1 ms timer ticks, from the
 * kernel's per-thread run time (/proc/self/task/<tid>/schedstat, Linux). Unlike the event-loop
 * delay it leaves out the time the thread waited for a CPU, so on a loaded machine it still shows
 * the service's own longest turn (what the max would be on a quiet machine). 0 where not available.
 */
function onCpuTurns() {
  const file = `/proc/self/task/${process.pid}/schedstat`;
  const runNs = (): number => {
    try {
      return Number(readFileSync(file, 'utf8').split(' ')[0]);
    } catch {
      return Number.NaN;
    }
  };
  let lastRun = runNs();
  let maxMs = 0;
  const timer = setInterval(() => {
    const run = runNs();
    maxMs = Math.max(maxMs, (run - lastRun) / 1e6);
    lastRun = run;
  }, 1);
  return {
    stop: () => {
      clearInterval(timer);
      return Number.isNaN(maxMs) ? 0 : maxMs;
    },
  };
}

/** Runs `work` while sampling the event-loop delay, observing GC and probing health every 10 ms. */
async function measure(name: string, call: Call, work: () => Promise<string>): Promise<Measured> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const gcs: PerformanceEntry[] = [];
  const gcObserver = new PerformanceObserver((list) => gcs.push(...list.getEntries()));
  gcObserver.observe({ entryTypes: ['gc'] });
  let session: Session | undefined;
  if (options.cpuProf) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  let probing = true;
  let healthMaxMs = 0;
  let healthProbes = 0;
  const prober = (async () => {
    while (probing) {
      const t = performance.now();
      await call('GET', '/api/v1/health');
      healthMaxMs = Math.max(healthMaxMs, performance.now() - t);
      healthProbes++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  histogram.enable();
  const turns = onCpuTurns();
  const t0 = performance.now();
  const note = await work();
  const wallMs = performance.now() - t0;
  histogram.disable();
  const onCpuMaxMs = turns.stop();
  probing = false;
  await prober;
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    const file = join(options.cpuProf!, `${name.trim().replace(/[^a-z0-9]+/gi, '-')}-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const { profile: heap } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(file.replace(/cpuprofile$/, 'heapprofile'), JSON.stringify(heap));
    session.disconnect();
    console.log(`cpu profile: ${file}`);
  }
  gcObserver.disconnect();
  const durations = gcs.map((e) => e.duration);
  const gc = {
    count: gcs.length,
    totalMs: durations.reduce((a, b) => a + b, 0),
    maxMs: Math.max(0, ...durations),
    major: gcs.filter((e) => ((e as { detail?: { kind?: number } }).detail)?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR).length,
  };
  return { name, wallMs, p99Ms: histogram.percentile(99) / 1e6, maxMs: histogram.max / 1e6, healthMaxMs, healthProbes, onCpuMaxMs, gc, load: loadavg()[0]!, note };
}

const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const f = (n: number) => n.toFixed(n < 10 ? 1 : 0).padStart(6);

export async function run(): Promise<void> {
  process.env.DRYDOCK_SAMPLE_PROJECT = mkdtempSync(join(tmpdir(), 'drydock-bench-empty-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-bench-responsive-'));
  const service = await createService({ dataDir, secrets: new MemorySecretStore(), log: silentLogger, bootstrapApiKey: KEY });
  const call = caller(service);
  try {
    console.log(`preparing: ${options.only ? options.only.join(', ') : 'validate, lakehouse, commit, upload, all'} × ${options.repeat} …`);
    type Load = { run: () => Promise<string> };
    const prepare = async (suffix: string) => ({
      validate: wanted('validate') || wanted('all') ? await prepareValidate(service, call, `validate-${suffix}`) : undefined,
      lakehouse: wanted('lakehouse') || wanted('all') ? await prepareLakehouseRun(service, call, `lake-${suffix}`) : undefined,
      commit: wanted('commit') || wanted('all') ? await prepareCommit(call, `commit-${suffix}`) : undefined,
      upload: wanted('upload') || wanted('all') ? await prepareUpload(service, call, `upload-${suffix}`) : undefined,
    });
    const full = !options.only;
    const files = bigProject();
    const results: Measured[] = [];
    let firstValidate: Awaited<ReturnType<typeof prepareValidate>> | undefined;
    for (let r = 0; r < options.repeat; r++) {
      const solo = await prepare(`a${r}`);
      const together = wanted('all') ? await prepare(`b${r}`) : undefined;
      firstValidate ??= solo.validate;
      const loads: [string, string, Load | undefined][] = [
        ['validate', 'validate 1,000 cubes + 250 views', solo.validate],
        ['lakehouse', 'lakehouse run, 128 views', solo.lakehouse],
        ['commit', 'commit of 1,250 files', solo.commit],
        ['upload', 'upload of 20 MB', solo.upload],
      ];
      for (const [key, name, load] of loads) {
        if (!wanted(key) || !load) continue;
        results.push(await measure(name, call, load.run));
        // The peer: the same compile on the HTTP thread, as before compiles moved to worker threads.
        if (key === 'validate' && full && r === 0) {
          results.push(
            await measure('  peer: same compile on HTTP thread', call, async () => {
              await new Promise((resolve) => setTimeout(resolve, 20));
              const result = compileModel(files);
              await new Promise((resolve) => setTimeout(resolve, 20));
              return `${files.length} files, ${result.diagnostics.filter((d) => d.severity === 'error').length} errors`;
            }),
          );
        }
      }
      if (together) {
        const all = [together.validate!, together.lakehouse!, together.commit!, together.upload!];
        results.push(await measure('all four at once', call, async () => (await Promise.all(all.map((load) => load.run()))).join('; ')));
      }
    }

    console.log('\nevent-loop delay of the HTTP thread while each load runs (goal p99 ≤ 20 ms, max ≤ 50 ms); GC pauses meanwhile; load average at its end');
    console.log(
      `${'load'.padEnd(34)} ${'wall ms'.padStart(8)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'health max ms'.padStart(14)} ${'on-CPU max ms'.padStart(14)} ${'GC n/major/total/max ms'.padStart(24)} ${'loadavg'.padStart(7)}  result`,
    );
    for (const r of results) {
      const gc = `${r.gc.count}/${r.gc.major}/${r.gc.totalMs.toFixed(0)}/${r.gc.maxMs.toFixed(1)}`;
      console.log(
        `${r.name.padEnd(34)} ${f(r.wallMs).padStart(8)} ${f(r.p99Ms).padStart(7)} ${f(r.maxMs).padStart(7)} ${f(r.healthMaxMs).padStart(14)} ${f(r.onCpuMaxMs).padStart(14)} ${gc.padStart(24)} ${r.load.toFixed(1).padStart(7)}  ${r.note} (${r.healthProbes} probes)`,
      );
    }
    if (!full || !firstValidate) return;

    const worker = results[0]!;
    const sameThread = results[1]!;
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
    console.log(
      `validate on worker threads vs on the HTTP thread: p99 ${ratio(worker.p99Ms, sameThread.p99Ms)}×, max ${ratio(worker.maxMs, sameThread.maxMs)}×, ` +
        `slowest health probe ${ratio(worker.healthMaxMs, sameThread.healthMaxMs)}× (lower is better)`,
    );

    // One-file edit → validate, on the branch validated above (its compiled model is kept).
    const { id, branch, validate } = firstValidate;
    const validateOnly: number[] = [];
    const editAndValidate: number[] = [];
    for (let r = 0; r < EDIT_RUNS; r++) {
      const body = JSON.stringify({ files: [editedCube(500, (r % 2) + 1)] });
      const t0 = performance.now();
      await expectStatus('edit', 200, await call('PUT', `${B(id)}/data-model/files?branchName=${encodeURIComponent(branch)}`, body));
      const t1 = performance.now();
      const result = await expectStatus('validate', 200, await validate());
      const t2 = performance.now();
      if (result.fileCount !== 1250) throw new Error('validate after edit saw the wrong files');
      validateOnly.push(t2 - t1);
      editAndValidate.push(t2 - t0);
    }
    console.log(`\none-file edit → validate at 1,000 cubes + 250 views (${EDIT_RUNS} edits; goal ≤ 30 ms median)`);
    console.log(`validate after the edit:  median ${f(median(validateOnly))} ms, p90 ${f(pct(validateOnly, 0.9))} ms`);
    console.log(`edit (PUT) + validate:    median ${f(median(editAndValidate))} ms, p90 ${f(pct(editAndValidate, 0.9))} ms`);
    // The peer: a full compile of the same model, what a validate cost without the kept model.
    const fullCompile: number[] = [];
    for (let r = 0; r < 5; r++) {
      const edited = files.map((file, i) => (i === 500 ? editedCube(500, r + 1) : file));
      const t0 = performance.now();
      compileModel(edited);
      fullCompile.push(performance.now() - t0);
    }
    console.log(`peer: full compile (non-incremental, in-process, no HTTP): median ${f(median(fullCompile))} ms`);
    console.log(`incremental validate through the API vs full compile: ${ratio(median(validateOnly), median(fullCompile))}× (lower is better)`);

    const cancel = await (await prepareLakehouseRun(service, call, 'lake-cancel')).cancelMidRun();
    console.log(`\ncancel of a 128-view lakehouse run mid-run: ended ${cancel.status} ${f(cancel.ms)} ms after the DELETE, ${cancel.views} views published (goal ≤ 1,000 ms)`);
  } finally {
    await service.close();
  }
}
