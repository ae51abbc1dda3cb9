// `npm run bench -- start`: how soon `drydock serve` answers after it is spawned (issue "Responsive",
// item 7), on an existing data directory (a tenant with 50 users and a deployment).
//   - first health answer: `GET /api/v1/health` probed every 5 ms from the spawn on;
//   - first authenticated answer: `GET /api/v1/users/me` with an API key, sent (and re-sent while the
//     port refuses connections) from the spawn on, concurrently with the health probes;
//   - CPU time (user + system, /proc) of the process at each answer, and once it has been idle;
//   - idle RSS, a few seconds after the first authenticated answer.
// `node -e 0` and a bare node:http server are measured the same way as the floor.
// Targets (issue 25): first authenticated answer ≤ 2× the bare node:http server's first answer in
// the same run; idle RSS ≤ 100 MB. Figures are printed, not asserted.
// Needs the build: it is brought up to date first (scripts/ensure-built.js).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createService, silentLogger } from '../../src-main/service';
import { cpuOf, freePort, rssMb } from './process-stats';
import { median } from './stats';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'dd_bench_start_key_abcdefghijklmnopqrstuvwxyz0123456789';
const RUNS = Number(process.env.BENCH_START_RUNS) || 5;
const IDLE_WAIT_MS = 3_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load1 = () => `load average ${loadavg()[0]!.toFixed(1)}`;

/** One GET; null when the connection is refused (the port is not open yet). */
function get(port: number, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', () => resolve(null));
  });
}

interface Answer {
  wallMs: number;
  cpuMs: number | null;
  status: number;
}

/** Sends `path` every 5 ms until one is answered (a request the port accepted is waited for). */
async function firstAnswer(proc: ChildProcess, started: number, port: number, path: string, headers?: http.OutgoingHttpHeaders): Promise<Answer> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await get(port, path, headers);
    if (res) return { wallMs: performance.now() - started, cpuMs: cpuOf(proc.pid!), status: res.status };
    if (proc.exitCode !== null) throw new Error(`the process exited (${proc.exitCode}) before answering ${path}`);
    if (Date.now() > deadline) throw new Error(`no answer to ${path} within 120 s`);
    await sleep(5);
  }
}

interface StartRun {
  health: Answer;
  auth: Answer | null;
  idleCpuMs: number | null;
  idleRssMb: number | null;
}

const BARE_SERVER = `
const server = require('node:http').createServer((req, res) => {
  const body = '{"status":"ok"}';
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

async function startOnce(kind: 'drydock' | 'bare', dataDir: string): Promise<StartRun> {
  const port = await freePort();
  const started = performance.now();
  const proc =
    kind === 'drydock'
      ? spawn(process.execPath, [join(ROOT, 'bin', 'drydock.js'), 'serve', '--data-dir', dataDir, '--secrets', 'file', '--port', String(port), '--no-login-link'], {
          stdio: ['ignore', 'ignore', 'pipe'],
        })
      : spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, BENCH_PORT: String(port) } });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  try {
    const [health, auth] = await Promise.all([
      firstAnswer(proc, started, port, '/api/v1/health'),
      kind === 'drydock' ? firstAnswer(proc, started, port, '/api/v1/users/me', { authorization: `Api-Key ${KEY}` }) : Promise.resolve(null),
    ]);
    if (auth && auth.status !== 200) throw new Error(`GET /api/v1/users/me answered ${auth.status}`);
    await sleep(IDLE_WAIT_MS);
    return { health, auth, idleCpuMs: cpuOf(proc.pid!), idleRssMb: rssMb(proc.pid!) };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${stderr}`);
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  }
}

/** CPU and wall time of an empty Node process (`node -e 0`): the floor of any start. */
function emptyNode(): { wallMs: number; cpuMs: number } {
  const started = performance.now();
  const result = spawnSync('/bin/sh', ['-c', `"${process.execPath}" -e 0; cat /proc/$$/stat`], { encoding: 'utf8' });
  const wallMs = performance.now() - started;
  // cutime + cstime of the shell: its waited-for child, the node process.
  const fields = result.stdout.trim().split(') ')[1]!.split(' ');
  return { wallMs, cpuMs: (Number(fields[13]) + Number(fields[14])) * 10 };
}

async function seed(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-bench-start-'));
  const service = await createService({ dataDir, secrets: 'file', log: silentLogger, bootstrapApiKey: KEY });
  try {
    const call = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    };
    for (let i = 0; i < 50; i++) await call('POST', '/api/v1/users/', { email: `user${i}@bench.local`, name: `User ${i}`, role: 'viewer' });
    await call('POST', '/build/api/v1/deployments/', { name: 'start', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });
  } finally {
    await service.close();
  }
  return dataDir;
}

const ms = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(0)} ms`);
const medianOf = (values: (number | null)[]) => (values.every((v) => v !== null) ? median(values as number[]) : null);

export async function run(): Promise<void> {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.js')], { stdio: 'inherit' });
  if (built.status !== 0) {
    console.log('skipped: the build failed (npm run build)');
    return;
  }
  const dataDir = await seed();
  try {
    console.log(`${load1()} before; median of ${RUNS} starts each, idle figures ${IDLE_WAIT_MS / 1000} s after the first answer`);
    console.log('target: first authenticated answer ≤ 2× the bare node:http server\'s first answer, idle RSS ≤ 100 MB');
    // One start first, not counted: it fills Node's compile cache, which every later start finds.
    await startOnce('drydock', dataDir);
    // Interleaved (drydock, bare, drydock, …) so that both see the same load.
    const all = { drydock: [] as StartRun[], bare: [] as StartRun[] };
    for (let i = 0; i < RUNS; i++) for (const kind of ['drydock', 'bare'] as const) all[kind].push(await startOnce(kind, dataDir));
    for (const kind of ['drydock', 'bare'] as const) {
      const runs = all[kind];
      const label = kind === 'drydock' ? 'drydock serve (existing data dir)' : 'bare node:http';
      console.log(`  ${label}`);
      console.log(
        `    first health answer         wall ${ms(median(runs.map((r) => r.health.wallMs)))}, cpu ${ms(medianOf(runs.map((r) => r.health.cpuMs)))}` +
          `   (walls: ${runs.map((r) => r.health.wallMs.toFixed(0)).join(', ')})`,
      );
      if (kind === 'drydock') {
        console.log(
          `    first authenticated answer  wall ${ms(median(runs.map((r) => r.auth!.wallMs)))}, cpu ${ms(medianOf(runs.map((r) => r.auth!.cpuMs)))}` +
            `   (walls: ${runs.map((r) => r.auth!.wallMs.toFixed(0)).join(', ')})`,
        );
      }
      const rss = medianOf(runs.map((r) => r.idleRssMb));
      console.log(`    once idle                   cpu ${ms(medianOf(runs.map((r) => r.idleCpuMs)))}, RSS ${rss === null ? 'n/a' : `${rss.toFixed(0)} MB`}`);
    }
    const ratio = median(all.drydock.map((r) => r.auth!.wallMs)) / median(all.bare.map((r) => r.health.wallMs));
    console.log(`  first authenticated answer / bare first answer: ${ratio.toFixed(2)}×`);
    const empties = Array.from({ length: RUNS }, emptyNode);
    console.log(`  node -e 0                     wall ${ms(median(empties.map((e) => e.wallMs)))}, cpu ${ms(median(empties.map((e) => e.cpuMs)))}`);
    console.log(`${load1()} after`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
