/**
 * Data at rest is private to the user (issue 11, item 8): the data directory is 0700 and every
 * file in it — SQLite and its WAL, git repositories, exports, the secrets file, emulator files —
 * has no permission bits for group or others, even when the process started with a loose umask.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { getJobRunner } from '../../src-main/platform/jobs';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';

const isPosix = process.platform !== 'win32';

/** Every path under `dir` whose mode gives group or others any access, with its mode. */
function looseEntries(dir: string): string[] {
  const loose: string[] = [];
  const walk = (path: string) => {
    const stat = statSync(path);
    if ((stat.mode & 0o077) !== 0) loose.push(`${path.slice(dir.length) || '/'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return loose;
}

function countFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

describe.runIf(isPosix)('data directory permissions', () => {
  let previousUmask: number;
  let parent: string;
  let svc: TestService;

  beforeAll(async () => {
    // The loosest usual umask: without the service's own care, files would be world-readable.
    previousUmask = process.umask(0o022);
    parent = mkdtempSync(join(tmpdir(), 'drydock-perm-'));
    chmodSync(parent, 0o755);
    svc = await startTestService({ dataDir: join(parent, 'data'), secrets: 'file' });
  });
  afterAll(async () => {
    await svc.stop();
    rmSync(parent, { recursive: true, force: true });
    process.umask(previousUmask);
  });

  it('the data directory is created 0700', () => {
    expect(statSync(svc.dataDir).mode & 0o777).toBe(0o700);
  });

  it('SQLite, repositories, exports, the secrets file and emulator files are 0600 (folders 0700)', async () => {
    const dep = await createDeployment(svc);
    // A model repository with commits, the warehouse emulator, a dashboard export on disk.
    const files = await svc.call('GET', `/build/api/v1/deployments/${dep}/data-model/files`);
    expect(files.status).toBe(200);
    getLocalWarehouse(svc.ctx).createSchema('ANALYTICS', 'PERMS');
    const workbook = await svc.call('POST', `/api/v1/deployments/${dep}/workbooks`, { body: { name: 'Board', shared: true } });
    await svc.call('POST', `/api/v1/deployments/${dep}/workbooks/${workbook.body.id}/publish`, {
      body: { config: { title: 'T', widgets: [{ id: 'n', type: 'TEXT', position: { x: 0, y: 0, w: 4, h: 2 }, config: { text: 'hi' } }] } },
    });
    const started = await svc.call('POST', `/api/v1/deployments/${dep}/dashboard-exports`, { body: { workbookId: workbook.body.id, format: 'png' } });
    expect(started.status, started.text).toBe(202);
    await getJobRunner(svc.ctx).wait(started.body.jobId, { timeoutMs: 20_000 });

    const names = readdirSync(svc.dataDir);
    expect(names).toEqual(expect.arrayContaining(['drydock.sqlite', 'secrets.json', 'repos', 'emulators', 'exports']));
    expect(countFiles(join(svc.dataDir, 'repos'))).toBeGreaterThan(3);
    expect(looseEntries(svc.dataDir)).toEqual([]);
  });

  it('a data directory an older version left 0755 is tightened to 0700 on start', async () => {
    const old = join(parent, 'old-data');
    mkdirSync(old, { mode: 0o755 });
    chmodSync(old, 0o755);
    const second = await startTestService({ dataDir: old });
    try {
      expect(statSync(old).mode & 0o777).toBe(0o700);
      expect(looseEntries(old)).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});
