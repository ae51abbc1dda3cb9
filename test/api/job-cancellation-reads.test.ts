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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLakehouseConnector, defaultEmulatorFile } from '../../src-main/connectors/lakehouse';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { lakehouseViews, prepareWarehouse, warehouseViewsModel } from '../support/big-models';
import { createDeployment } from '../support/deployments';
import { branchHead, commitAndBuild, commitToMain, pollUntil, TERMINAL, whenUnderWay } from '../support/job-polling';
import { D, saveSettings, startSampleProjectService } from '../support/lakehouse';
import type { TestService } from '../support/service';

const VIEWS = 128;
/** The pull needs fewer: its poller cancels within a few describes. */
const PULLED_VIEWS = 64;

let svc: TestService;

beforeAll(async () => {
  svc = await startSampleProjectService({});
});
afterAll(() => svc.stop());

describe('cancelling a lakehouse preview of 128 views', () => {
  it('ends CANCELLED before every view was compared, answers 409 LAKEHOUSE_PREVIEW_NO_RESULT for its result, and wrote nothing to the lakehouse', async () => {
    const id = await createDeployment(svc);
    await commitAndBuild(svc, id, lakehouseViews(VIEWS), '128 views');
    const prefix = `pv${id}_`;
    await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'all' });

    const start = await svc.call('POST', `${D(id)}/lakehouse-metric-view-previews`, { body: { dataSourceName: 'lake' } });
    expect(start.status, start.text).toBe(202);
    // Under way: comparing its views with the lakehouse, a few of them done.
    const seen = await whenUnderWay(svc, start.body.statusUrl, (p) => p.status === 'RUNNING' && /^previewing /.test(p.progress.stage) && p.progress.percentComplete >= 7);

    const cancel = await svc.call('DELETE', start.body.statusUrl);
    expect(cancel.status, cancel.text).toBe(202);
    expect(['CANCELLING', 'CANCELLED']).toContain(cancel.body.status);
    const ended = await pollUntil(svc, start.body.statusUrl, (body) => TERMINAL.includes(body.status), 'the preview to end');

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
    await commitToMain(svc, id, { 'model/views.yml': warehouseViewsModel(PULLED_VIEWS) }, '64 views');
    // The semantic views to pull, made by a push that runs to its end.
    const viewNames = Array.from({ length: PULLED_VIEWS }, (_, i) => `view_${i}`);
    const push = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema: 'CANCEL_PULL', prefix: 'SV_', viewNames } });
    expect(push.status, push.text).toBe(202);
    const pushed = await pollUntil(svc, push.body.statusUrl, (body) => TERMINAL.includes(body.status), 'the push');
    expect(pushed.status).toBe('COMPLETED');
    const headBefore = await branchHead(svc, id, 'main');

    const start = await svc.call('POST', `${D(id)}/warehouse-semantic-view-pulls`, { body: { schema: 'CANCEL_PULL', outputPath: 'model/pulled' } });
    expect(start.status, start.text).toBe(202);
    const statusUrl = `${D(id)}/warehouse-semantic-view-pulls/${start.body.syncJobId}`;
    const seen = await whenUnderWay(svc, statusUrl, (job) => job.status === 'RUNNING' && job.progress.stage === 'describing-views');

    const cancel = await svc.call('DELETE', statusUrl);
    expect(cancel.status, cancel.text).toBe(202);
    const ended = await pollUntil(svc, statusUrl, (body) => TERMINAL.includes(body.status), 'the pull to end');

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
