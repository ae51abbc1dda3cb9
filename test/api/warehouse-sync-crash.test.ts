// Crash recovery of the durable job runner, for real: a `drydock serve` process is killed with
// SIGKILL while pushes run, started again on the same data dir, and every job must then reach a
// terminal state (the interrupted ones resumed by the new process). A second test checks that
// SIGTERM hands running jobs back at once instead of leaving them to a lapsing lease.
import { spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { WarehouseEmulator } from '../../src-main/connectors/warehouse';
import { callWithKey, prepareCrashData } from '../support/crash-data';
import { startServe } from '../support/serve';

const KEY = 'dd_crash_test_key_abcdefghijklmnopqrstuvwxyz0123';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VIEWS_PER_PUSH = 500;
const LEASE_MS = 1500;

interface Server {
  proc: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  via: 'built cli' | 'source';
}

/**
 * `drydock serve` from the build when it is there; otherwise the same composition root loaded
 * from source through Vite (as `npm run bench` does), so the test runs before the CLI is built.
 */
async function serve(dataDir: string, env: Record<string, string>): Promise<Server> {
  try {
    const built = await startServe({ dataDir, env, timeoutMs: 30_000 });
    return { proc: built.proc, url: built.url, exited: built.exited, via: 'built cli' };
  } catch (error) {
    if (!/exited with .* before listening/.test((error as Error).message)) throw error;
  }
  const script = `
    import { createServer } from 'vite';
    const vite = await createServer({ root: process.cwd(), configFile: false, logLevel: 'error',
      server: { middlewareMode: true, hmr: false, watch: null }, appType: 'custom', ssr: { external: true } });
    const { createService, silentLogger } = await vite.ssrLoadModule('/src-main/service.ts');
    const service = await createService({ dataDir: process.env.CRASH_DATA_DIR, secrets: 'file', port: 0,
      bootstrapApiKey: process.env.DRYDOCK_BOOTSTRAP_API_KEY, log: silentLogger });
    console.log('Drydock listening on ' + service.url);
    process.on('SIGTERM', async () => { await service.close(); await vite.close(); process.exit(0); });
  `;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, ...env, CRASH_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${out}`)), 60_000);
    proc.stdout!.on('data', () => {
      const match = /Drydock listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`the service exited with ${code}:\n${out}`)));
  });
  return { proc, url, exited, via: 'source' };
}

interface Fixture {
  dataDir: string;
  sampleDir: string;
  env: Record<string, string>;
  servers: Server[];
}

let fixture: Fixture | null = null;

function prepare(): Fixture {
  const { dataDir, sampleDir: sample } = prepareCrashData('drydock-crash', VIEWS_PER_PUSH, 'CRASH');
  fixture = {
    dataDir,
    sampleDir: sample,
    env: { DRYDOCK_BOOTSTRAP_API_KEY: KEY, DRYDOCK_SAMPLE_PROJECT: sample, DRYDOCK_JOB_LEASE_MS: String(LEASE_MS) },
    servers: [],
  };
  return fixture;
}

afterEach(async () => {
  if (!fixture) return;
  for (const server of fixture.servers) {
    if (server.proc.exitCode === null && server.proc.signalCode === null) server.proc.kill('SIGKILL');
    await server.exited;
  }
  rmSync(fixture.dataDir, { recursive: true, force: true });
  rmSync(fixture.sampleDir, { recursive: true, force: true });
  fixture = null;
});

const call = (server: Server, method: string, path: string, body?: unknown) => callWithKey(server, KEY, method, path, body);

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface JobRow {
  id: string;
  status: string;
  attempts: number;
  lease_owner: string | null;
}

function jobRows(dataDir: string): JobRow[] {
  const db = new Database(join(dataDir, 'drydock.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT id, status, attempts, lease_owner FROM jobs ORDER BY created_at, id').all() as JobRow[];
  } finally {
    db.close();
  }
}

async function startPushes(server: Server, count: number): Promise<{ deploymentId: number; jobIds: string[] }> {
  const created = await call(server, 'POST', '/build/api/v1/deployments/', {
    name: 'crash',
    cloudProvider: 'aws',
    creationMethod: 'upload',
    deployMode: 'cli',
    storageProvider: { type: 'local' },
  });
  expect(created.status, created.text).toBe(201);
  const deploymentId = created.body.id as number;
  const viewNames = Array.from({ length: VIEWS_PER_PUSH }, (_, i) => `view_${i}`);
  const started = await Promise.all(
    Array.from({ length: count }, (_, k) =>
      call(server, 'POST', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs`, { schema: 'CRASH', prefix: `P${k}_`, viewNames }),
    ),
  );
  for (const res of started) expect(res.status, res.text).toBe(202);
  return { deploymentId, jobIds: started.map((res) => res.body.syncJobId as string) };
}

/** Waits until a push is well into creating its views. */
const runningPush = (server: Server, deploymentId: number) =>
  until('a push in the middle of creating views', async () => {
    const list = await call(server, 'GET', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs?status=RUNNING`);
    return (list.body.items as { syncJobId: string; progress: { stage: string; percentComplete: number } }[]).find(
      (j) => j.progress.stage === 'creating-views' && j.progress.percentComplete >= 30 && j.progress.percentComplete < 90,
    );
  });

describe('job runner crash recovery', () => {
  it('after kill -9 and a restart, every job reaches a terminal state: interrupted jobs are taken up again and complete', { timeout: 180_000 }, async () => {
    const fx = prepare();
    const first = await serve(fx.dataDir, fx.env);
    fx.servers.push(first);
    const { deploymentId, jobIds } = await startPushes(first, 3);
    const interrupted = await runningPush(first, deploymentId);

    first.proc.kill('SIGKILL');
    await first.exited;
    const atCrash = jobRows(fx.dataDir);
    const leftRunning = atCrash.filter((j) => j.status === 'RUNNING');
    expect(leftRunning.map((j) => j.id)).toContain(interrupted.syncJobId);
    expect(leftRunning.every((j) => j.lease_owner !== null)).toBe(true);
    expect(atCrash.filter((j) => j.status === 'QUEUED').length).toBeGreaterThan(0);

    const second = await serve(fx.dataDir, fx.env);
    fx.servers.push(second);
    const finished = await until('every job to end', async () => {
      const rows = jobRows(fx.dataDir);
      return rows.every((j) => ['COMPLETED', 'FAILED', 'CANCELLED', 'PARTIAL'].includes(j.status)) ? rows : null;
    }, 120_000);
    expect(finished.map((j) => [j.id, j.status]).sort()).toEqual(jobIds.map((id) => [id, 'COMPLETED']).sort());
    for (const job of leftRunning) expect(finished.find((j) => j.id === job.id)!.attempts).toBeGreaterThanOrEqual(2);
    for (const id of jobIds) {
      const result = await call(second, 'GET', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs/${id}/result`);
      expect(result.status, result.text).toBe(200);
      expect(result.body.viewCount).toBe(VIEWS_PER_PUSH);
    }
    const shown = await call(second, 'GET', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs/${interrupted.syncJobId}`);
    expect(shown.body.attempts).toBeGreaterThanOrEqual(2);

    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const emulator = new WarehouseEmulator({ file: join(fx.dataDir, 'emulators', 'warehouse.sqlite') });
    try {
      const views = emulator.openSession().execute('SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS.CRASH').rows;
      expect(views).toHaveLength(3 * VIEWS_PER_PUSH);
    } finally {
      emulator.close();
    }
  });

  it('SIGTERM releases running jobs at once (no lease to wait out), and the next start finishes them', { timeout: 180_000 }, async () => {
    const fx = prepare();
    // A long lease: a job still RUNNING after SIGTERM would be stuck past this test's patience.
    fx.env.DRYDOCK_JOB_LEASE_MS = String(10 * 60_000);
    const first = await serve(fx.dataDir, fx.env);
    fx.servers.push(first);
    const { deploymentId, jobIds } = await startPushes(first, 2);
    const interrupted = await runningPush(first, deploymentId);

    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const released = jobRows(fx.dataDir).find((j) => j.id === interrupted.syncJobId)!;
    expect(released).toMatchObject({ status: 'QUEUED', lease_owner: null, attempts: 0 });
    expect(jobRows(fx.dataDir).every((j) => j.lease_owner === null)).toBe(true);

    const second = await serve(fx.dataDir, fx.env);
    fx.servers.push(second);
    const finished = await until('both jobs to complete', async () => {
      const rows = jobRows(fx.dataDir);
      return rows.every((j) => j.status === 'COMPLETED') ? rows : null;
    });
    expect(finished.map((j) => j.id).sort()).toEqual([...jobIds].sort());
    expect(finished.find((j) => j.id === interrupted.syncJobId)!.attempts).toBe(1);
  });
});
