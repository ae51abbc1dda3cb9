// `npm run bench -- bodies`: thousands of connections that announce a large body and never send it
// (issue 23 item 5). `drydock serve` runs in its own process with its default limits; this process
// opens the connections, each sending the headers of an authenticated
// `POST /api/v1/users/` with `Content-Type: application/json` and `Content-Length: 5000000`, then
// the first bytes of a body and nothing more (or, with `--trickle`, a byte a second). Meanwhile it
// times an authenticated GET on a fresh connection every 250 ms and samples the service's RSS.
// Targets: service RSS ≤ 300 MB throughout; every GET answered within 1 s; every stalled connection
// answered 408 REQUEST_TIMEOUT (or closed) — none left open.
//
// Options: `--connections=N` (default 8000), `--trickle`, `--warm` (the service first reads twenty
// real 5 MB bodies, as a long-running one has: its RSS starts higher, about 250–320 MB). Each
// connection is a file descriptor in both processes: the machine's limit (`ulimit -n`, printed)
// must allow N plus a few hundred.
// Needs the build: it is brought up to date first (scripts/ensure-built.js).

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, rssMb } from './process-stats';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'dd_bench_bodies_key_abcdefghijklmnopqrstuvwxyz0123456789';
const ANNOUNCED = 5_000_000;
/** Connections being opened at once. */
const OPENING = 200;
const PROBE_EVERY_MS = 250;
/** Bodies of the announced size actually sent before measuring. */
const WARM_UP_BODIES = 20;
/** How long to wait for every connection to end once all are open. */
const DRAIN_LIMIT_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
};

interface Stalled {
  socket: Socket;
  openedAt: number;
  /** The first line the service sent, and when the connection closed (null: still open). */
  answer: string;
  closedAt: number | null;
  refused: boolean;
}

/** An authenticated GET on a fresh connection: its status and how long the connection took to open (ms). */
function get(port: number, path: string): Promise<{ status: number; connectMs: number }> {
  return new Promise((resolve) => {
    const began = performance.now();
    let connectMs = NaN;
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, headers: { authorization: `Api-Key ${KEY}` }, timeout: 5_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connectMs }));
    });
    req.on('socket', (socket) => socket.once('connect', () => (connectMs = performance.now() - began)));
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, connectMs }));
  });
}

function openStalled(port: number, trickle: boolean): Promise<Stalled> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const stalled: Stalled = { socket, openedAt: performance.now(), answer: '', closedAt: null, refused: false };
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk: Buffer) => {
      if (!stalled.answer) stalled.answer = chunk.toString('latin1').split('\r\n')[0]!;
      const code = /"code":"([A-Z_]+)"/.exec(chunk.toString('latin1'))?.[1];
      if (code) stalled.answer += ` ${code}`;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      stalled.closedAt = performance.now();
      resolve(stalled);
    });
    socket.once('connect', () => {
      socket.write(
        `POST /api/v1/users/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Api-Key ${KEY}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${ANNOUNCED}\r\n\r\n{"email": "`,
      );
      if (trickle) timer = setInterval(() => socket.write('a'), 1_000);
      resolve(stalled);
    });
    socket.once('close', () => {
      if (stalled.answer === '' && socket.bytesWritten === 0) stalled.refused = true;
    });
  });
}

function fdLimit(): string {
  const out = spawnSync('sh', ['-c', 'ulimit -Sn; ulimit -Hn'], { encoding: 'utf8' }).stdout.trim().split('\n');
  return `${out[0]} (hard ${out[1]})`;
}

export async function run(): Promise<void> {
  const connections = Number(process.argv.find((a) => a.startsWith('--connections='))?.split('=')[1]) || 8_000;
  const trickle = process.argv.includes('--trickle');
  const warm = process.argv.includes('--warm');
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.js')], { stdio: 'inherit' });
  if (built.status !== 0) {
    console.log('skipped: the build failed (npm run build)');
    return;
  }
  console.log(
    `${connections} connections announcing ${ANNOUNCED} bytes, then ${trickle ? 'a byte a second' : 'nothing'}; ` +
      `${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, fd limit ${fdLimit()}, load average ${loadavg()[0]!.toFixed(1)}`,
  );

  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-bench-bodies-'));
  const port = await freePort();
  const proc = spawn(process.execPath, [...(process.env.BENCH_SERVICE_NODE_OPTIONS?.split(' ') ?? []), join(ROOT, 'bin', 'drydock.js'), 'serve', '--data-dir', dataDir, '--secrets', 'file', '--port', String(port), '--no-login-link'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DRYDOCK_BOOTSTRAP_API_KEY: KEY },
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  try {
    const deadline = Date.now() + 60_000;
    while ((await get(port, '/api/v1/deployments')).status !== 200) {
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`drydock serve did not answer:\n${stderr}`);
      await sleep(50);
    }
    // `--warm`: a service that has read large bodies before (issue 23 saw 1.3–7 GB on a fresh
    // service, 15–18 GB on a long-running one, where the allocator had to clear what it reused).
    const large = JSON.stringify({ email: 'warm@example.com', name: 'x'.repeat(ANNOUNCED - 100) });
    for (let i = 0; i < (warm ? WARM_UP_BODIES : 0); i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/users/`, { method: 'POST', headers: { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' }, body: large });
      await res.arrayBuffer();
    }
    await sleep(2_000);
    const idleRss = rssMb(proc.pid!)!;

    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(proc.pid!) ?? 0)), 100);
    const probes: { at: number; ms: number; status: number; connectMs: number }[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const began = performance.now();
        const { status, connectMs } = await get(port, '/api/v1/deployments');
        probes.push({ at: began, ms: performance.now() - began, status, connectMs });
        await sleep(PROBE_EVERY_MS);
      }
    })();

    const began = performance.now();
    const stalled: Stalled[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: OPENING }, async () => {
        while (next < connections) {
          next++;
          stalled.push(await openStalled(port, trickle));
        }
      }),
    );
    const openedAt = performance.now();
    const openedMs = openedAt - began;
    const openAfterOpening = stalled.filter((s) => s.closedAt === null).length;
    const rssOpen = rssMb(proc.pid!)!;
    const drainDeadline = performance.now() + DRAIN_LIMIT_MS;
    while (stalled.some((s) => s.closedAt === null) && performance.now() < drainDeadline) await sleep(250);
    const allClosedMs = performance.now() - began;
    probing = false;
    await prober;
    await sleep(3_000);
    clearInterval(sampler);
    const rssAfter = rssMb(proc.pid!)!;
    await sleep(12_000);
    const rssLater = rssMb(proc.pid!)!;

    const outcomes = new Map<string, number>();
    for (const s of stalled) {
      const what = s.closedAt === null ? 'still open' : s.refused ? 'refused' : s.answer || 'closed without an answer';
      outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
    }
    const lifetimes = stalled.filter((s) => s.closedAt !== null).map((s) => (s.closedAt! - s.openedAt) / 1000);
    const answered = probes.filter((p) => p.status === 200).map((p) => p.ms);
    const whileOpening = probes.filter((p) => p.at < openedAt && p.status === 200).map((p) => p.ms);
    const whileOpen = probes.filter((p) => p.at >= openedAt && p.status === 200).map((p) => p.ms);
    const figures = (ms: number[]) => `p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`;
    const slowest = probes.reduce((a, b) => (b.ms > a.ms ? b : a), probes[0]!);
    console.log(`  opened in ${(openedMs / 1000).toFixed(1)} s; open right after: ${openAfterOpening}; all ended ${(allClosedMs / 1000).toFixed(1)} s after the first`);
    console.log(`  service RSS: before ${warm ? `(after ${WARM_UP_BODIES} real 5 MB bodies) ` : '(fresh) '}${idleRss.toFixed(0)} MB, all opened ${rssOpen.toFixed(0)} MB, peak ${peakRss.toFixed(0)} MB, 3 s after the last closed ${rssAfter.toFixed(0)} MB, 15 s after ${rssLater.toFixed(0)} MB   target ≤ 300 MB`);
    console.log(
      `  authenticated GET meanwhile (fresh connection each ${PROBE_EVERY_MS} ms): ${answered.length}/${probes.length} answered 200, ` +
        `while they were being opened ${figures(whileOpening)}; once all were opened ${figures(whileOpen)}   target ≤ 1000 ms`,
    );
    console.log(`  the slowest GET took ${slowest.ms.toFixed(0)} ms, ${slowest.connectMs.toFixed(0)} ms of it to connect`);
    console.log(`  how the connections ended: ${JSON.stringify(Object.fromEntries(outcomes))}`);
    console.log(`  a connection lasted p50 ${percentile(lifetimes, 50).toFixed(1)} s, max ${Math.max(...lifetimes).toFixed(1)} s`);
    for (const s of stalled) s.socket.destroy();
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
