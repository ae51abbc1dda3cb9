// Crash test over the whole service (issue 11): 50 jobs of mixed kinds (warehouse pushes, pulls that
// commit to the model repository, dashboard exports) are active when `drydock serve` is killed with
// SIGKILL. Restarted on the same data dir, every job ends in a defined state (completed, or failed
// with a reason), the restarted process takes up its dead predecessor's jobs at once — the lease is
// ten minutes here, so waiting it out would fail the test — SQLite databases pass
// `PRAGMA integrity_check` and the repositories pass `git fsck`.
import Database from 'better-sqlite3';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callWithKey, prepareCrashData } from '../support/crash-data';
import { startServe, type ServeProcess } from '../support/serve';
import { gitFsck } from '../support/git-cli';

const KEY = 'dd_crash_mixed_key_abcdefghijklmnopqrstuvwxyz0123';
const VIEWS = 25;
const PUSHES = 20;
const PULLS = 15;
const EXPORTS = 15;
const ENDED = ['COMPLETED', 'FAILED', 'CANCELLED', 'PARTIAL'];

const DASHBOARD = {
  title: 'Crash board',
  layout: { cols: { lg: 12 }, rowHeight: 40, margin: [10, 10], containerPadding: [10, 10] },
  widgets: [
    { id: 'cnt', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { title: 'Orders' } },
    { id: 'note', type: 'TEXT', position: { x: 6, y: 0, w: 6, h: 4 }, config: { text: 'after a crash' } },
  ],
};

const cleanup: { dirs: string[]; servers: ServeProcess[] } = { dirs: [], servers: [] };
afterEach(async () => {
  for (const server of cleanup.servers) await server.stop('SIGKILL');
  for (const dir of cleanup.dirs) rmSync(dir, { recursive: true, force: true });
  cleanup.dirs = [];
  cleanup.servers = [];
});

function prepare() {
  const { dataDir, sampleDir: sample } = prepareCrashData('drydock-crash-mixed', VIEWS, 'CRASH');
  cleanup.dirs.push(dataDir, sample);
  // A ten-minute lease: only the restart's knowledge that its predecessor died can resume the jobs in time.
  const env = { DRYDOCK_BOOTSTRAP_API_KEY: KEY, DRYDOCK_SAMPLE_PROJECT: sample, DRYDOCK_JOB_LEASE_MS: String(10 * 60_000) };
  return { dataDir, env };
}

async function serve(dataDir: string, env: Record<string, string>): Promise<ServeProcess> {
  const server = await startServe({ dataDir, env, args: ['--no-login-link'], timeoutMs: 90_000 });
  cleanup.servers.push(server);
  return server;
}

const call = (server: ServeProcess, method: string, path: string, body?: unknown) => callWithKey(server, KEY, method, path, body);

interface JobRow {
  id: string;
  kind: string;
  status: string;
  attempts: number;
  lease_owner: string | null;
  error: string | null;
}

function readDb<T>(file: string, read: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const jobRows = (dataDir: string) =>
  readDb(join(dataDir, 'drydock.sqlite'), (db) => db.prepare('SELECT id, kind, status, attempts, lease_owner, error FROM jobs ORDER BY created_at, id').all() as JobRow[]);

async function until<T>(what: string, fn: () => Promise<T | null | false> | T | null | false, timeoutMs: number, state: () => unknown): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; jobs: ${JSON.stringify(state())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Git directories under the data dir (bare repositories and work trees' .git). */
function gitDirs(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 6) return;
    const names = readdirSync(dir);
    if (names.includes('HEAD') && names.includes('objects') && names.includes('refs')) {
      found.push(dir);
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path, depth + 1);
    }
  };
  walk(root, 0);
  return found;
}

describe('crash of the service with 50 jobs of mixed kinds active', () => {
  it('after kill -9 and a restart every job ends completed or failed with a reason, SQLite is intact and the repositories pass git fsck', { timeout: 300_000 }, async () => {
    const { dataDir, env } = prepare();
    const first = await serve(dataDir, env);
    const created = await call(first, 'POST', '/build/api/v1/deployments/', {
      name: 'crash',
      cloudProvider: 'aws',
      creationMethod: 'upload',
      deployMode: 'cli',
      storageProvider: { type: 'local' },
    });
    expect(created.status, created.text).toBe(201);
    const D = `/api/v1/deployments/${created.body.id}`;
    const workbook = await call(first, 'POST', `${D}/workbooks`, { name: 'Crash board', shared: true });
    expect(workbook.status, workbook.text).toBe(201);
    const published = await call(first, 'POST', `${D}/workbooks/${workbook.body.id}/publish`, { config: DASHBOARD });
    expect(published.status, published.text).toBe(200);

    const viewNames = Array.from({ length: VIEWS }, (_, i) => `view_${i}`);
    const starts = [
      ...Array.from({ length: PUSHES }, (_, k) => () => call(first, 'POST', `${D}/warehouse-semantic-view-syncs`, { schema: 'CRASH', prefix: `P${k}_`, viewNames })),
      ...Array.from({ length: PULLS }, (_, k) => () => call(first, 'POST', `${D}/warehouse-semantic-view-pulls`, { schema: 'CRASH', viewNames: [`p${k}_view_1*`], outputPath: `model/pulled_${k}` })),
      ...Array.from({ length: EXPORTS }, (_, k) => () => call(first, 'POST', `${D}/dashboard-exports`, { workbookId: workbook.body.id, format: k % 2 ? 'pdf' : 'png' })),
    ];
    const started = await Promise.all(starts.map((start) => start()));
    for (const res of started) expect(res.status, res.text).toBe(202);
    expect(jobRows(dataDir)).toHaveLength(PUSHES + PULLS + EXPORTS);

    // Kill once work is under way: something finished, something running, something still queued.
    await until(
      'jobs in every state',
      () => {
        const rows = jobRows(dataDir);
        const by = (s: string) => rows.some((j) => j.status === s);
        return by('RUNNING') && by('QUEUED') && rows.some((j) => ENDED.includes(j.status));
      },
      120_000,
      () => jobRows(dataDir),
    );
    first.proc.kill('SIGKILL');
    await first.exited;
    const atCrash = jobRows(dataDir);
    const leftRunning = atCrash.filter((j) => j.status === 'RUNNING');
    expect(leftRunning.length).toBeGreaterThan(0);
    expect(new Set(atCrash.filter((j) => !ENDED.includes(j.status)).map((j) => j.kind)).size).toBeGreaterThan(1);

    const count = (rows: JobRow[], status: string) => rows.filter((j) => j.status === status).length;
    console.log(`crash: ${atCrash.length} jobs at kill -9: ${count(atCrash, 'RUNNING')} running, ${count(atCrash, 'QUEUED')} queued, ${atCrash.length - count(atCrash, 'RUNNING') - count(atCrash, 'QUEUED')} ended`);
    const second = await serve(dataDir, env);
    const finished = await until('every job to end', () => {
      const rows = jobRows(dataDir);
      return rows.every((j) => ENDED.includes(j.status)) ? rows : null;
    }, 180_000, () => readDb(join(dataDir, 'drydock.sqlite'), (db) => db.prepare('SELECT kind, status, attempts, lease_owner, lease_expires_at, progress FROM jobs WHERE status NOT IN (\'COMPLETED\', \'FAILED\')').all()));
    // Pulls commit to the deploy branch, which queues builds too: a fourth kind.
    expect(finished.length).toBeGreaterThanOrEqual(PUSHES + PULLS + EXPORTS);
    for (const job of finished) {
      if (job.status === 'FAILED') expect(JSON.parse(job.error ?? '{}'), `${job.kind} ${job.id}`).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      else expect(job.status, `${job.kind} ${job.id}: ${job.error}`).toBe('COMPLETED');
      expect(job.lease_owner).toBeNull();
    }
    // Every job the crash interrupted was taken up by the new process (not failed by a lapsed lease), and says so in its log.
    const lostLogs = readDb(join(dataDir, 'drydock.sqlite'), (db) =>
      (db.prepare(`SELECT DISTINCT job_id FROM job_logs WHERE message LIKE 'Worker lost (its process ended)%'`).all() as { job_id: string }[]).map((r) => r.job_id),
    );
    for (const job of leftRunning) {
      const end = finished.find((j) => j.id === job.id)!;
      expect(end.attempts, end.id).toBeGreaterThanOrEqual(2);
      expect(lostLogs).toContain(job.id);
      expect(end.status, `${end.kind} ${end.error}`).toBe('COMPLETED');
    }
    // What the API shows agrees with the rows: every push made all its views.
    const pushKind = atCrash.find((r) => r.id === started[0]!.body.syncJobId)!.kind;
    for (const push of finished.filter((j) => j.kind === pushKind && j.status === 'COMPLETED')) {
      const result = await call(second, 'GET', `${D}/warehouse-semantic-view-syncs/${push.id}/result`);
      expect(result.status, result.text).toBe(200);
      expect(result.body.viewCount).toBe(VIEWS);
    }

    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    for (const file of [join(dataDir, 'drydock.sqlite'), join(dataDir, 'emulators', 'warehouse.sqlite')]) {
      expect(readDb(file, (db) => db.pragma('integrity_check', { simple: true })), file).toBe('ok');
      expect(readDb(file, (db) => db.pragma('foreign_key_check')), file).toEqual([]);
    }
    const repos = gitDirs(dataDir);
    expect(repos.length).toBeGreaterThan(0);
    for (const gitDir of repos) {
      const fsck = gitFsck(gitDir);
      expect(fsck.status, `${gitDir}: ${fsck.stderr}${fsck.stdout}`).toBe(0);
    }
    expect(new Set(finished.map((j) => j.kind)).size).toBeGreaterThanOrEqual(3);
  });
});
