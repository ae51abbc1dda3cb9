// Every long job is cancellable in practice (issue "Responsive", item 3), continued from
// job-cancellation.test.ts for the jobs that generate something and write it at the end: a
// transform sync (dbt manifest → cube files, generated and compiled on a compute thread, then one
// commit) and a dashboard export (each chart widget's query, then rendering on a compute thread,
// then the file). Black-box over HTTP, nothing gated: the job is cancelled as soon as its progress
// shows it under way, and must end CANCELLED with no result and nothing written.
//
// The poller asks again at once (no sleep), so the cancel follows the first sight of progress by a
// few event-loop turns whatever the machine's load. No assertion depends on time.
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportsDir } from '../../src-main/features/dashboard-exports/exports';
import { bigProject } from '../support/big-models';
import { createDeployment } from '../support/deployments';
import { branchHead, commitToMain, pollUntil, TERMINAL, whenUnderWay } from '../support/job-polling';
import { startTestService, type TestService } from '../support/service';


let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.sampleData = { orders: 600 };
}, 180_000);
// Generous: closing the service (DuckDB, worker threads) is slow on a loaded machine.
afterAll(async () => svc?.stop(), 180_000);

/** A dbt manifest of `count` table models of 12 columns each. */
function manifest(count: number) {
  const nodes: Record<string, unknown> = {};
  for (let m = 0; m < count; m++) {
    const name = `model_${m}`;
    const columns = Object.fromEntries(
      Array.from({ length: 12 }, (_, c) => [`col_${c}`, { name: `col_${c}`, description: `Column ${c}`, meta: {}, data_type: c % 3 === 0 ? 'integer' : c % 3 === 1 ? 'varchar' : 'date' }]),
    );
    nodes[`model.shop.${name}`] = {
      unique_id: `model.shop.${name}`,
      resource_type: 'model',
      name,
      package_name: 'shop',
      database: 'analytics',
      schema: 'marts',
      alias: name,
      relation_name: `"analytics"."marts"."${name}"`,
      description: `Model ${m}`,
      meta: {},
      config: { enabled: true, materialized: 'table' },
      columns,
    };
  }
  return {
    metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/manifest/v12.json', dbt_version: '1.8.7', generated_at: '2026-01-02T03:04:05Z', project_name: 'shop', adapter_type: 'postgres' },
    nodes,
    sources: {},
    semantic_models: {},
    metrics: {},
  };
}

describe('cancelling a transform sync', () => {
  it('ends CANCELLED while generating the files, commits nothing to the branch, and has no result', async () => {
    const id = await createDeployment(svc);
    // A branch of 150 cubes: the generated files are compiled beside it, which takes a while.
    await commitToMain(svc, id, bigProject(150, 30), 'a big model');
    const headBefore = await branchHead(svc, id, 'main');

    const start = await svc.call('POST', `/api/v1/deployments/${id}/transform-sync`, { body: { source: 'manifest', manifest: manifest(200), branchName: 'main' } });
    expect(start.status, start.text).toBe(202);
    const statusUrl = `/api/v1/deployments/${id}/transform-sync/${start.body.syncJobId}`;
    await whenUnderWay(svc, statusUrl, (job) => job.status === 'RUNNING' && job.progress.stage === 'generating-files');

    const cancel = await svc.call('DELETE', statusUrl);
    expect(cancel.status, cancel.text).toBeLessThan(300);
    expect(['CANCELLING', 'CANCELLED']).toContain(cancel.body.status);
    const ended = await pollUntil(svc, statusUrl, (body) => TERMINAL.includes(body.status), 'the sync to end');

    expect(ended.status).toBe('CANCELLED');
    expect(ended.progress.stage).toBe('generating-files');
    // Nothing half-written: the branch is where it was.
    expect(await branchHead(svc, id, 'main')).toBe(headBefore);
    const result = await svc.call('GET', `${statusUrl}/result`);
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({ code: 'TRANSFORM_SYNC_NOT_COMPLETED', jobStatus: 'CANCELLED' });
  }, 180_000);
});

describe('cancelling a dashboard export', () => {
  const WIDGETS = 40;

  it('DELETE ends a running export CANCELLED between its widget queries, with no file to download and none left on disk', async () => {
    const id = await createDeployment(svc);
    const W = `/api/v1/deployments/${id}/workbooks`;
    const created = await svc.call('POST', W, { body: { name: 'Big board', shared: true } });
    expect(created.status, created.text).toBe(201);
    const widgets = Array.from({ length: WIDGETS }, (_, k) => ({
      id: `w${k}`,
      type: 'CHART',
      position: { x: (k % 3) * 4, y: Math.floor(k / 3) * 4, w: 4, h: 4 },
      config: { title: `By status ${k}`, chartType: 'table', query: { measures: ['orders.count'], dimensions: ['orders.status'], limit: 10 + k } },
    }));
    expect((await svc.call('POST', `${W}/${created.body.id}/publish`, { body: { config: { title: 'Big board', widgets } } })).status).toBe(200);
    // The first query fills the sample tables; the data API says `Continue wait` meanwhile.
    const load = () => svc.call('POST', `/deployments/${id}/cubejs-api/v1/load`, { body: { query: { measures: ['orders.count'] } } });
    let loaded = await load();
    while (loaded.body.error === 'Continue wait') loaded = await load();
    expect(loaded.status, loaded.text).toBe(200);

    const started = await svc.call('POST', `/api/v1/deployments/${id}/dashboard-exports`, { body: { workbookId: created.body.id, format: 'png' } });
    expect(started.status, started.text).toBe(202);
    const statusUrl = started.body.statusUrl as string;
    const seen = await whenUnderWay(svc, statusUrl, (job) => job.status === 'RUNNING' && /^querying widget ([2-9]|\d\d+) of /.test(job.progress.stage));

    const cancel = await svc.call('DELETE', statusUrl);
    expect(cancel.status, cancel.text).toBe(202);
    expect(cancel.body).toMatchObject({ jobId: started.body.jobId, downloadUrl: null });
    expect(['CANCELLING', 'CANCELLED']).toContain(cancel.body.status);
    const ended = await pollUntil(svc, statusUrl, (body) => TERMINAL.includes(body.status), 'the export to end');

    expect(ended.status).toBe('CANCELLED');
    // Stopped among the queries, before rendering.
    expect(ended.progress.stage).toMatch(/^querying widget \d+ of 40$/);
    expect(ended.progress.percentComplete).toBeGreaterThanOrEqual(seen.progress.percentComplete);
    expect(ended.downloadUrl).toBeNull();
    const download = await svc.call('GET', `${statusUrl}/download`);
    expect(download.status).toBe(409);
    expect(download.body).toMatchObject({ code: 'EXPORT_NOT_READY', jobStatus: 'CANCELLED' });
    const dir = exportsDir(svc.ctx, id);
    expect(existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(started.body.jobId)) : []).toEqual([]);

    // Cancelling again returns it unchanged.
    const again = await svc.call('DELETE', statusUrl);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ jobId: started.body.jobId, status: 'CANCELLED' });
  }, 180_000);

  it('DELETE of an export that already completed leaves it COMPLETED with its file', async () => {
    const id = await createDeployment(svc);
    const W = `/api/v1/deployments/${id}/workbooks`;
    const created = await svc.call('POST', W, { body: { name: 'Small board', shared: true } });
    const config = { title: 'Small board', widgets: [{ id: 'note', type: 'TEXT', position: { x: 0, y: 0, w: 6, h: 2 }, config: { text: 'Hello' } }] };
    expect((await svc.call('POST', `${W}/${created.body.id}/publish`, { body: { config } })).status).toBe(200);
    const started = await svc.call('POST', `/api/v1/deployments/${id}/dashboard-exports`, { body: { workbookId: created.body.id, format: 'pdf' } });
    expect(started.status, started.text).toBe(202);
    const done = await pollUntil(svc, started.body.statusUrl, (body) => TERMINAL.includes(body.status), 'the export to end');
    expect(done.status).toBe('COMPLETED');

    const cancel = await svc.call('DELETE', started.body.statusUrl);
    expect(cancel.status).toBe(202);
    expect(cancel.body).toMatchObject({ status: 'COMPLETED', downloadUrl: `${started.body.statusUrl}/download` });
    expect((await svc.call('GET', `${started.body.statusUrl}/download`)).status).toBe(200);
  }, 180_000);

  it('DELETE of an unknown export answers 404 EXPORT_NOT_FOUND', async () => {
    const id = await createDeployment(svc);
    const res = await svc.call('DELETE', `/api/v1/deployments/${id}/dashboard-exports/no-such-export`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('EXPORT_NOT_FOUND');
  });
});
