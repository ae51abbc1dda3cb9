// Every long job is cancellable in practice (issue "Responsive", item 3), continued from
// job-cancellation.test.ts for the jobs that read the far side and write at most one thing at the
// end: a lakehouse preview (reads only) and a warehouse pull (one commit after describing every
// view). Black-box over HTTP against the local emulators, nothing gated: the job is started over
// 128 views (64 for the pull), cancelled as soon as its progress shows it under way, and must end CANCELLED before it
// got through them, with no result and nothing written.
//
// The poller asks again at once (no sleep): the service runs in this process, so a poll costs the
// job a few event-loop turns whatever the machine's load, and the cancel lands long before the
// last view. No assertion depends on time.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLakehouseConnector, defaultEmulatorFile } from '../../src-main/connectors/lakehouse';
import { commitFiles } from '../../src-main/features/data-model';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { lakehouseViews, prepareWarehouse, warehouseViewsModel } from '../support/big-models';
import { createDeployment } from '../support/deployments';
import { branchHead, TERMINAL, whenUnderWay } from '../support/job-polling';
import { D, eventually, saveSettings, useModelAsSampleProject } from '../support/lakehouse';
import { startTestService, type TestResponse, type TestService } from '../support/service';

const VIEWS = 128;
/** The pull needs fewer: its poller cancels within a few describes. */
const PULLED_VIEWS = 64;
const AUTHOR = { name: 'Test', email: 'test@example.com' };

let svc: TestService;
let sampleDir: string;

beforeAll(async () => {
  sampleDir = useModelAsSampleProject({});
  svc = await startTestService();
});
afterAll(async () => {
  await svc.stop();
  rmSync(sampleDir, { recursive: true, force: true });
});

/** Polls `path` back to back until `done` holds for its body (or the job ended, when `orEnd`). */
async function pollUntil(path: string, done: (body: TestResponse['body']) => boolean, what: string): Promise<TestResponse['body']> {
  return eventually(
    async () => {
      const res = await svc.call('GET', path);
      expect(res.status, res.text).toBe(200);
      return done(res.body) ? res.body : undefined;
    },
    what,
    120_000,
  );
}

describe('cancelling a lakehouse preview of 128 views', () => {
  it('ends CANCELLED before every view was compared, answers 409 LAKEHOUSE_PREVIEW_NO_RESULT for its result, and wrote nothing to the lakehouse', async () => {
    const id = await createDeployment(svc);
    const { commit } = await commitFiles(
      svc.ctx,
      id,
      'main',
      Object.entries(lakehouseViews(VIEWS)).map(([path, content]) => ({ path, content })),
      '128 views',
      AUTHOR,
    );
    const build = await pollUntil(`${D(id)}/build-status`, (body) => body.commit === commit && ['succeeded', 'failed'].includes(body.buildStatus), 'the build');
    expect(build.buildStatus).toBe('succeeded');
    const prefix = `pv${id}_`;
    await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'all' });

    const start = await svc.call('POST', `${D(id)}/lakehouse-metric-view-previews`, { body: { dataSourceName: 'lake' } });
    expect(start.status, start.text).toBe(202);
    // Under way: comparing its views with the lakehouse, a few of them done.
    const seen = await whenUnderWay(svc, start.body.statusUrl, (p) => p.status === 'RUNNING' && /^previewing /.test(p.progress.stage) && p.progress.percentComplete >= 7);

    const cancel = await svc.call('DELETE', start.body.statusUrl);
    expect(cancel.status, cancel.text).toBe(202);
    expect(['CANCELLING', 'CANCELLED']).toContain(cancel.body.status);
    const ended = await pollUntil(start.body.statusUrl, (body) => TERMINAL.includes(body.status), 'the preview to end');

    expect(ended.status).toBe('CANCELLED');
    // It stopped part-way: the last progress it recorded is short of the end of the comparison.
    expect(ended.progress.stage).toMatch(/^previewing /);
    expect(ended.progress.percentComplete).toBeGreaterThanOrEqual(seen.progress.percentComplete);
    expect(ended.progress.percentComplete).toBeLessThan(95);
    const result = await svc.call('GET', start.body.resultUrl);
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({ code: 'LAKEHOUSE_PREVIEW_NO_RESULT', previewStatus: 'CANCELLED' });

    // A preview never writes: no target of this deployment exists in the lakehouse.
    const lakehouse = createLakehouseConnector({ kind: 'local', file: defaultEmulatorFile(svc.dataDir) });
    try {
      for (let i = 0; i < VIEWS; i++) expect(await lakehouse.getObject('main', 'default', `${prefix}orders_view_${i}`)).toBeNull();
    } finally {
      await lakehouse.close();
    }
    // Cancelling again changes nothing.
    const again = await svc.call('DELETE', start.body.statusUrl);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ previewId: start.body.previewId, status: 'CANCELLED' });
  }, 180_000);
});

describe('cancelling a warehouse pull of 64 semantic views', () => {
  it('ends CANCELLED while describing the views, commits nothing to the branch, and has no result', async () => {
    const warehouse = getLocalWarehouse(svc.ctx);
    prepareWarehouse(warehouse, 'CANCEL_PULL');
    const id = await createDeployment(svc);
    await commitFiles(svc.ctx, id, 'main', [{ path: 'model/views.yml', content: warehouseViewsModel(PULLED_VIEWS) }], '64 views', AUTHOR);
    // The semantic views to pull, made by a push that runs to its end.
    const viewNames = Array.from({ length: PULLED_VIEWS }, (_, i) => `view_${i}`);
    const push = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema: 'CANCEL_PULL', prefix: 'SV_', viewNames } });
    expect(push.status, push.text).toBe(202);
    const pushed = await pollUntil(push.body.statusUrl, (body) => TERMINAL.includes(body.status), 'the push');
    expect(pushed.status).toBe('COMPLETED');
    const headBefore = await branchHead(svc, id, 'main');

    const start = await svc.call('POST', `${D(id)}/warehouse-semantic-view-pulls`, { body: { schema: 'CANCEL_PULL', outputPath: 'model/pulled' } });
    expect(start.status, start.text).toBe(202);
    const statusUrl = `${D(id)}/warehouse-semantic-view-pulls/${start.body.syncJobId}`;
    const seen = await whenUnderWay(svc, statusUrl, (job) => job.status === 'RUNNING' && job.progress.stage === 'describing-views');

    const cancel = await svc.call('DELETE', statusUrl);
    expect(cancel.status, cancel.text).toBe(202);
    const ended = await pollUntil(statusUrl, (body) => TERMINAL.includes(body.status), 'the pull to end');

    expect(ended.status).toBe('CANCELLED');
    // Stopped among the descriptions, before generating or committing files.
    expect(ended.progress.stage).toBe('describing-views');
    expect(ended.progress.percentComplete).toBeGreaterThanOrEqual(seen.progress.percentComplete);
    expect(ended.progress.percentComplete).toBeLessThan(70);
    // Nothing half-written: the branch is where it was, without a pulled file.
    expect(await branchHead(svc, id, 'main')).toBe(headBefore);
    const files = await svc.call('GET', `/build/api/v1/deployments/${id}/data-model/files?branchName=main`);
    expect(files.status, files.text).toBe(200);
    expect(JSON.stringify(files.body)).not.toContain('model/pulled/');
    // A cancelled pull has no result.
    const result = await svc.call('GET', `${statusUrl}/result`);
    expect(result.status).toBe(409);
    expect(result.body.code).toBe('SYNC_JOB_NOT_COMPLETED');
  }, 180_000);
});
