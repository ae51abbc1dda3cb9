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
// prepared before measuring so the client's own work stays small.

import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { commitFiles } from '../../src-main/features/data-model';
import { createService, silentLogger, type Service } from '../../src-main/service';
import { MemorySecretStore } from '../../src-main/platform/secrets';
import { compileModel } from '../../src-shared/model';
import { bigProject, editedCube, lakehouseViews } from '../support/big-models';
import { cubeFile } from './model.bench';

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
  note: string;
}

/** Runs `work` while sampling the event-loop delay and probing health every 10 ms. */
async function measure(name: string, call: Call, work: () => Promise<string>): Promise<Measured> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
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
  const t0 = performance.now();
  const note = await work();
  const wallMs = performance.now() - t0;
  histogram.disable();
  probing = false;
  await prober;
  return { name, wallMs, p99Ms: histogram.percentile(99) / 1e6, maxMs: histogram.max / 1e6, healthMaxMs, healthProbes, note };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const f = (n: number) => n.toFixed(n < 10 ? 1 : 0).padStart(6);

export async function run(): Promise<void> {
  process.env.DRYDOCK_SAMPLE_PROJECT = mkdtempSync(join(tmpdir(), 'drydock-bench-empty-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-bench-responsive-'));
  const service = await createService({ dataDir, secrets: new MemorySecretStore(), log: silentLogger, bootstrapApiKey: KEY });
  const call = caller(service);
  try {
    console.log('preparing: 2 × (1,000-cube branch, 128-view lakehouse deployment, 1,250 uncommitted files, 20 MB upload) …');
    const solo = {
      validate: await prepareValidate(service, call, 'validate-a'),
      lakehouse: await prepareLakehouseRun(service, call, 'lake-a'),
      commit: await prepareCommit(call, 'commit-a'),
      upload: await prepareUpload(service, call, 'upload-a'),
    };
    const together = {
      validate: await prepareValidate(service, call, 'validate-b'),
      lakehouse: await prepareLakehouseRun(service, call, 'lake-b'),
      commit: await prepareCommit(call, 'commit-b'),
      upload: await prepareUpload(service, call, 'upload-b'),
    };

    const cancelled = await prepareLakehouseRun(service, call, 'lake-cancel');

    const results: Measured[] = [];
    results.push(await measure('validate 1,000 cubes + 250 views', call, solo.validate.run));
    // The peer: the same compile on the HTTP thread, as before compiles moved to worker threads.
    const files = bigProject();
    const sameThread = await measure('  peer: same compile on HTTP thread', call, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const result = compileModel(files);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return `${files.length} files, ${result.diagnostics.filter((d) => d.severity === 'error').length} errors`;
    });
    results.push(sameThread);
    results.push(await measure('lakehouse run, 128 views', call, solo.lakehouse.run));
    results.push(await measure('commit of 1,250 files', call, solo.commit.run));
    results.push(await measure('upload of 20 MB', call, solo.upload.run));
    results.push(
      await measure('all four at once', call, async () => {
        const notes = await Promise.all([together.validate.run(), together.lakehouse.run(), together.commit.run(), together.upload.run()]);
        return notes.join('; ');
      }),
    );

    const worker = results[0]!;
    console.log('\nevent-loop delay of the HTTP thread while each load runs (goal p99 ≤ 20 ms, max ≤ 50 ms)');
    console.log(`${'load'.padEnd(34)} ${'wall ms'.padStart(8)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'health max ms'.padStart(14)}  result`);
    for (const r of results) {
      console.log(`${r.name.padEnd(34)} ${f(r.wallMs).padStart(8)} ${f(r.p99Ms).padStart(7)} ${f(r.maxMs).padStart(7)} ${f(r.healthMaxMs).padStart(14)}  ${r.note} (${r.healthProbes} probes)`);
    }

    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
    console.log(
      `validate on worker threads vs on the HTTP thread: p99 ${ratio(worker.p99Ms, sameThread.p99Ms)}×, max ${ratio(worker.maxMs, sameThread.maxMs)}×, ` +
        `slowest health probe ${ratio(worker.healthMaxMs, sameThread.healthMaxMs)}× (lower is better)`,
    );

    // One-file edit → validate, on the branch validated above (its compiled model is kept).
    const { id, branch, validate } = solo.validate;
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
    const full: number[] = [];
    for (let r = 0; r < 5; r++) {
      const edited = files.map((file, i) => (i === 500 ? editedCube(500, r + 1) : file));
      const t0 = performance.now();
      compileModel(edited);
      full.push(performance.now() - t0);
    }
    console.log(`peer: full compile (non-incremental, in-process, no HTTP): median ${f(median(full))} ms`);
    console.log(`incremental validate through the API vs full compile: ${ratio(median(validateOnly), median(full))}× (lower is better)`);

    const cancel = await cancelled.cancelMidRun();
    console.log(`\ncancel of a 128-view lakehouse run mid-run: ended ${cancel.status} ${f(cancel.ms)} ms after the DELETE, ${cancel.views} views published (goal ≤ 1,000 ms)`);
  } finally {
    await service.close();
  }
}
