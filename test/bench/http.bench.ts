// `npm run bench -- http`: the HTTP service as a client meets it (issue "Responsive", items 5–7).
//   - Start: `drydock serve` spawned on an existing data directory (100k+ reports) until its first
//     answer (wall time and the process's CPU time), and its idle RSS; a bare node:http process is
//     measured the same way as the floor.
//   - Rate: requests/s and latency p50/p99 of authenticated GET routes (`users/me`, the users list,
//     the first page of a report list at 100, 1k, 10k and 100k rows, a later page by cursor) with
//     keep-alive connections, each against a bare node:http process answering the very same bytes
//     for the same path, measured in the same run right after it (the ratio is the figure to read;
//     absolute rates depend on how loaded the machine is).
// Targets: authenticated small GET ≥ 40 % of bare node:http; first page at 100k rows within 1.5×
// of the time at 1k rows; first answer ≤ 400 ms after spawn; idle RSS ≤ 120 MB.
//
// Both servers run in their own process, the load comes from this one. Needs the build: it is
// brought up to date first (scripts/ensure-built.js), so the figures are of the current sources.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createService, silentLogger } from '../../src-main/service';
import { cpuOf, freePort, rssMb } from './process-stats';
import { median } from './stats';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'dd_bench_http_key_abcdefghijklmnopqrstuvwxyz0123456789';
const LIST_SIZES = [100, 1_000, 10_000, 100_000];
const CONNECTIONS = 8;
const WARMUP_MS = 300;
/** Each peer is loaded for ROUNDS × SLICE_MS per route, the two alternating. */
const ROUNDS = 8;
const SLICE_MS = 500;
const START_RUNS = 5;
const IDLE_WAIT_MS = 3_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Data: a data directory with an admin API key, a few users and one deployment per list size.

interface Seeded {
  dataDir: string;
  /** Report list deployments by row count. */
  deployments: Map<number, number>;
}

async function seed(): Promise<Seeded> {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-bench-http-'));
  // The same secret store `drydock serve --secrets file` reads, so both see one tenant.
  const service = await createService({ dataDir, secrets: 'file', log: silentLogger, bootstrapApiKey: KEY });
  const deployments = new Map<number, number>();
  try {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Api-Key ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    for (let i = 0; i < 50; i++) {
      await call('POST', '/api/v1/users/', { email: `user${i}@bench.local`, name: `User ${i}`, role: i % 3 === 0 ? 'developer' : 'viewer' });
    }
    const db = service.ctx.db;
    const owner = (db.prepare('SELECT id FROM users ORDER BY id LIMIT 1').get() as { id: number }).id;
    const insert = db.prepare(
      `INSERT INTO reports (deployment_id, public_id, name, title, description, folder_id, owner_user_id, query,
         current_query_checksum, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, NULL, ?, ?, NULL, ?, ?)`,
    );
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (const size of LIST_SIZES) {
      const created = await call('POST', '/build/api/v1/deployments/', {
        name: `reports-${size}`,
        cloudProvider: 'aws',
        creationMethod: 'upload',
        deployMode: 'cli',
        storageProvider: { type: 'local' },
      });
      const deploymentId = created.id as number;
      // Straight into the table (the list-count triggers run as for any insert): creating 100k
      // reports one request at a time would take minutes and measures nothing this bench is about.
      db.transaction(() => {
        for (let i = 0; i < size; i++) {
          const at = new Date(base + ((i * 7919) % size) * 1000).toISOString();
          const name = `Report ${String((i * 104729) % size).padStart(6, '0')}`;
          insert.run(deploymentId, `r${i}`, name, `${name} title`, owner, JSON.stringify({ measures: ['orders.count'] }), at, at);
        }
      })();
      deployments.set(size, deploymentId);
    }
  } finally {
    await service.close();
  }
  return { dataDir, deployments };
}

// ---------------------------------------------------------------------------------------------
// Processes: `drydock serve` and the bare node:http peer.

interface Peer {
  proc: ChildProcess;
  port: number;
  /** Spawn → first answer to GET /api/v1/health (any status), in ms. */
  firstAnswerMs: number;
  /** User + system CPU of the process up to its first answer, in ms (Linux /proc). */
  cpuMs: number | null;
  stop(): Promise<void>;
}

/** The bare peer: answers each known path with the bytes the service gave for it, 404 otherwise. */
const BARE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const answers = process.env.BENCH_ANSWERS ? JSON.parse(fs.readFileSync(process.env.BENCH_ANSWERS, 'utf8')) : {};
const server = http.createServer((req, res) => {
  const answer = answers[req.url] ?? { status: req.url === '/api/v1/health' ? 200 : 404, body: '{"status":"ok"}' };
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer.body) });
  res.end(answer.body);
});
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

function probe(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/v1/health', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(true));
    });
    req.on('error', () => resolve(false));
  });
}

async function spawnPeer(kind: 'drydock' | 'bare', env: Record<string, string> = {}, dataDir = ''): Promise<Peer> {
  const port = await freePort();
  const started = performance.now();
  const proc =
    kind === 'drydock'
      ? spawn(process.execPath, [join(ROOT, 'bin', 'drydock.js'), 'serve', '--data-dir', dataDir, '--secrets', 'file', '--port', String(port), '--no-login-link'], {
          stdio: ['ignore', 'ignore', 'pipe'],
        })
      : spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env, BENCH_PORT: String(port) } });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  while (!(await probe(port))) {
    if (proc.exitCode !== null) throw new Error(`${kind} exited before answering:\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`${kind} did not answer within 120 s:\n${stderr}`);
    await sleep(5);
  }
  const firstAnswerMs = performance.now() - started;
  return {
    proc,
    port,
    firstAnswerMs,
    cpuMs: cpuOf(proc.pid!),
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Load: keep-alive connections each sending the next request when the previous answer ended.

interface Load {
  rate: number;
  /** Requests answered per second of the server process's CPU time (user + system). */
  perCpuSecond: number | null;
  p50: number;
  p99: number;
  failed: number;
}

function request(agent: http.Agent, port: number, path: string, headers: http.OutgoingHttpHeaders): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

interface Tally {
  latencies: number[];
  failed: number;
  ms: number;
  cpuMs: number;
  cpuKnown: boolean;
}

/** `CONNECTIONS` keep-alive connections for `ms`, each sending the next request when the previous answer ended. */
async function slice(agent: http.Agent, peer: Peer, path: string, headers: http.OutgoingHttpHeaders, ms: number, tally?: Tally): Promise<void> {
  const cpuBefore = cpuOf(peer.proc.pid!);
  const started = performance.now();
  const end = started + ms;
  const connection = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const res = await request(agent, peer.port, path, headers).catch(() => ({ status: 0 }));
      if (!tally) continue;
      if (res.status === 200) tally.latencies.push(performance.now() - t);
      else tally.failed++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  if (!tally) return;
  tally.ms += performance.now() - started;
  const cpuAfter = cpuOf(peer.proc.pid!);
  if (cpuBefore === null || cpuAfter === null) tally.cpuKnown = false;
  else tally.cpuMs += cpuAfter - cpuBefore;
}

function summarize(tally: Tally): Load {
  const sorted = tally.latencies.sort((a, b) => a - b);
  return {
    rate: sorted.length / (tally.ms / 1000),
    perCpuSecond: tally.cpuKnown && tally.cpuMs > 0 ? sorted.length / (tally.cpuMs / 1000) : null,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    failed: tally.failed,
  };
}

/**
 * The service and the bare peer on one path, in alternating short slices (the machine's load
 * changes from second to second; alternating puts both under the same conditions).
 */
async function compare(service: Peer, bare: Peer, path: string, headers: http.OutgoingHttpHeaders): Promise<{ ours: Load; theirs: Load }> {
  const agents = [new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS }), new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })] as const;
  const tallies: [Tally, Tally] = [
    { latencies: [], failed: 0, ms: 0, cpuMs: 0, cpuKnown: true },
    { latencies: [], failed: 0, ms: 0, cpuMs: 0, cpuKnown: true },
  ];
  await slice(agents[0], service, path, headers, WARMUP_MS);
  await slice(agents[1], bare, path, {}, WARMUP_MS);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    for (const i of order) await slice(agents[i], i === 0 ? service : bare, path, i === 0 ? headers : {}, SLICE_MS, tallies[i]);
  }
  for (const agent of agents) agent.destroy();
  return { ours: summarize(tallies[0]), theirs: summarize(tallies[1]) };
}

// ---------------------------------------------------------------------------------------------

const fmtLoad = (l: Load) =>
  `${l.rate.toFixed(0).padStart(6)} req/s  ${l.perCpuSecond === null ? '' : `${l.perCpuSecond.toFixed(0).padStart(6)} req/CPU-s  `}` +
  `p50 ${l.p50.toFixed(2).padStart(6)} ms  p99 ${l.p99.toFixed(2).padStart(6)} ms${l.failed ? `  (${l.failed} failed)` : ''}`;
const pct = (ours: number | null, theirs: number | null) => (ours === null || theirs === null ? 'n/a' : `${((ours / theirs) * 100).toFixed(0)} %`);

async function measureStart(dataDir: string): Promise<void> {
  console.log(`\nStart (spawn → first answer, median of ${START_RUNS}; idle RSS ${IDLE_WAIT_MS / 1000} s after it)   target ≤ 400 ms, ≤ 120 MB`);
  for (const kind of ['drydock', 'bare'] as const) {
    const runs: { wall: number; cpu: number | null; rss: number | null }[] = [];
    for (let i = 0; i < START_RUNS; i++) {
      const peer = await spawnPeer(kind, {}, dataDir);
      await sleep(IDLE_WAIT_MS);
      runs.push({ wall: peer.firstAnswerMs, cpu: peer.cpuMs, rss: rssMb(peer.proc.pid!) });
      await peer.stop();
    }
    const cpu = runs.every((r) => r.cpu !== null) ? `${median(runs.map((r) => r.cpu!)).toFixed(0)} ms cpu` : 'cpu n/a';
    const rss = runs.every((r) => r.rss !== null) ? `idle RSS ${median(runs.map((r) => r.rss!)).toFixed(0)} MB` : 'RSS n/a';
    const label = kind === 'drydock' ? 'drydock serve (existing data dir)' : 'bare node:http';
    console.log(
      `  ${label.padEnd(34)} first answer ${median(runs.map((r) => r.wall)).toFixed(0).padStart(5)} ms (${cpu}), ${rss}   runs: ${runs.map((r) => r.wall.toFixed(0)).join(', ')} ms`,
    );
  }
}

export async function run(): Promise<void> {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.js')], { stdio: 'inherit' });
  if (built.status !== 0) {
    console.log('skipped: the build failed (npm run build)');
    return;
  }
  // Wall times follow the machine's load (the CPU time to first answer much less): print it with the figures.
  const load1 = () => `load average ${loadavg()[0]!.toFixed(1)}`;
  console.log(`${load1()} before`);
  const t = performance.now();
  const seeded = await seed();
  console.log(`seeded ${[...seeded.deployments.keys()].join(' / ')} reports in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const answersFile = join(seeded.dataDir, 'bare-answers.json');
  try {
    await measureStart(seeded.dataDir);

    const auth = { authorization: `Api-Key ${KEY}` };
    const reports = (size: number, query = 'first=20') => `/api/v1/deployments/${seeded.deployments.get(size)}/reports?${query}`;
    const routes: { label: string; path: string; small?: boolean }[] = [
      { label: 'GET users/me (small)', path: '/api/v1/users/me', small: true },
      { label: 'GET users list (first=20 of 51)', path: '/api/v1/users/?first=20' },
      ...LIST_SIZES.map((size) => ({ label: `GET reports first page, ${size.toLocaleString('en')} rows`, path: reports(size) })),
      { label: 'GET reports by name, 100,000 rows', path: reports(100_000, 'first=20&sortBy=name') },
    ];

    const service = await spawnPeer('drydock', {}, seeded.dataDir);
    const answers: Record<string, { status: number; body: string }> = {};
    try {
      // A later page by cursor (the cursor is sealed by the service, so it is taken from page one).
      const page1 = await request(new http.Agent(), service.port, reports(100_000, 'first=20&sortBy=name'), auth);
      const cursor = (JSON.parse(page1.body) as { pageInfo: { endCursor: string } }).pageInfo.endCursor;
      routes.push({ label: 'GET reports by name, page 2, 100,000', path: reports(100_000, `first=20&sortBy=name&after=${encodeURIComponent(cursor)}`) });
      for (const route of routes) {
        const res = await request(new http.Agent(), service.port, route.path, auth);
        if (res.status !== 200) throw new Error(`${route.path}: ${res.status} ${res.body}`);
        answers[route.path] = res;
      }
    } catch (error) {
      await service.stop();
      throw error;
    }
    writeFileSync(answersFile, JSON.stringify(answers));
    const bare = await spawnPeer('bare', { BENCH_ANSWERS: answersFile });

    console.log(`\nAuthenticated GET (API key) vs bare node:http answering the same bytes, ${CONNECTIONS} keep-alive connections, ${(ROUNDS * SLICE_MS) / 1000} s each in alternating ${SLICE_MS} ms slices`);
    const firstPage = new Map<string, Load>();
    try {
      for (const route of routes) {
        const { ours, theirs } = await compare(service, bare, route.path, auth);
        firstPage.set(route.label, ours);
        console.log(`  ${route.label.padEnd(40)} ${(answers[route.path]!.body.length / 1024).toFixed(1).padStart(5)} KB`);
        console.log(`    drydock ${fmtLoad(ours)}`);
        console.log(`    bare    ${fmtLoad(theirs)}`);
        console.log(
          `    drydock at ${pct(ours.rate, theirs.rate)} of bare's rate, ${pct(ours.perCpuSecond, theirs.perCpuSecond)} of its requests per CPU-second${route.small ? ' (target ≥ 40 %)' : ''}`,
        );
      }
      const at = (size: number) => firstPage.get(`GET reports first page, ${size.toLocaleString('en')} rows`)!;
      const cpuPerRequest = (l: Load) => (l.perCpuSecond ? 1000 / l.perCpuSecond : null);
      const fmtCpu = (l: Load) => (cpuPerRequest(l) === null ? 'n/a' : `${cpuPerRequest(l)!.toFixed(2)} ms CPU`);
      console.log(
        `\nReport list first page, p50 / server CPU per request: ` +
          `${LIST_SIZES.map((s) => `${s.toLocaleString('en')} rows ${at(s).p50.toFixed(2)} ms / ${fmtCpu(at(s))}`).join('; ')}`,
      );
      const big = cpuPerRequest(at(100_000));
      const small = cpuPerRequest(at(1_000));
      console.log(
        `100k / 1k rows: p50 ${(at(100_000).p50 / at(1_000).p50).toFixed(2)}×, CPU per request ${big && small ? `${(big / small).toFixed(2)}×` : 'n/a'} (target ≤ 1.5×)`,
      );
      console.log(`drydock serve RSS after the load: ${rssMb(service.proc.pid!)?.toFixed(0) ?? 'n/a'} MB; ${load1()} after`);
    } finally {
      await Promise.all([service.stop(), bare.stop()]);
    }
  } finally {
    rmSync(seeded.dataDir, { recursive: true, force: true });
  }
}
