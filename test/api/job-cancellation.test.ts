// Every long job is cancellable in practice (issue "Responsive", item 3), tested black-box over
// HTTP against the local emulators with nothing gated: a job over 128 views is started, cancelled
// once it is visibly under way, and must end CANCELLED while views are still left, with what it
// wrote listed and every object it wrote complete (nothing half-written). The cancel request itself
// is served while the job runs (the request thread is never blocked by it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { lakehouseViews, prepareWarehouse, warehouseViewsModel } from '../support/big-models';
import { createDeployment } from '../support/deployments';
import { commitAndBuild, commitToMain, pollUntil, TERMINAL } from '../support/job-polling';
import { confirmsWrite } from '../../src-main/features/lakehouse/publish';
import { createLakehouseConnector, defaultEmulatorFile } from '../../src-main/connectors/lakehouse';
import { D, integration, saveSettings, startSampleProjectService } from '../support/lakehouse';
import type { TestService } from '../support/service';

const VIEWS = 128;

let svc: TestService;

beforeAll(async () => {
  // New deployments start empty: each test commits its own 128-view model.
  svc = await startSampleProjectService({});
});
afterAll(() => svc.stop());

describe('cancelling a lakehouse run of 128 views', () => {
  it('ends CANCELLED before all views are published, lists the views it created, and every one of them is complete; nothing else was written', async () => {
    const id = await createDeployment(svc);
    await commitAndBuild(svc, id, lakehouseViews(VIEWS), '128 views');
    const prefix = `mv${id}_`;
    const settings = await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'all' });

    const start = await svc.call('POST', `${integration(id)}/syncs`, { body: { configurationVersion: settings.configurationVersion } });
    expect(start.status, start.text).toBe(202);
    // Under way: some views published, the run still going.
    await pollUntil(svc, start.body.statusUrl, (run) => run.status === 'RUNNING' && run.views.length >= 2, 'the run to publish its first views');

    const cancel = await svc.call('DELETE', start.body.statusUrl);
    expect(cancel.status, cancel.text).toBe(202);
    expect(['CANCELLING', 'CANCELLED']).toContain(cancel.body.status);
    const run = await pollUntil(svc, start.body.statusUrl, (body) => TERMINAL.includes(body.status), 'the run to end');

    expect(run.status).toBe('CANCELLED');
    const created: string[] = run.views.filter((v: { outcome: string }) => v.outcome === 'created').map((v: { viewName: string }) => v.viewName);
    expect(created.length).toBeGreaterThanOrEqual(2);
    expect(created.length).toBeLessThan(VIEWS);
    expect(run.views).toHaveLength(created.length);

    const lakehouse = createLakehouseConnector({ kind: 'local', file: defaultEmulatorFile(svc.dataDir) });
    try {
      const written: string[] = [];
      for (let i = 0; i < VIEWS; i++) {
        if (await lakehouse.getObject('main', 'default', `${prefix}orders_view_${i}`)) written.push(`orders_view_${i}`);
      }
      // Exactly the listed views exist in the lakehouse …
      expect(written.sort()).toEqual([...created].sort());
      // … and each is whole: a metric view whose definition matches the ownership marks and hash a full publish writes.
      for (const view of created) {
        const object = await lakehouse.getObject('main', 'default', `${prefix}${view}`);
        expect(object?.kind, view).toBe('METRIC_VIEW');
        expect(confirmsWrite(object, id, object!.definition!.yaml), view).toBe(true);
      }
    } finally {
      await lakehouse.close();
    }

    // The run is over: a second cancel returns it unchanged (the one cancellation rule of every job), with the same status code.
    const again = await svc.call('DELETE', start.body.statusUrl);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ runId: start.body.runId, status: 'CANCELLED' });
  }, 180_000);
});

describe('cancelling a warehouse push of 128 views', () => {
  it('ends CANCELLED before all semantic views are created, lists the ones it created, and each exists whole; none of the rest exists', async () => {
    const warehouse = getLocalWarehouse(svc.ctx);
    prepareWarehouse(warehouse, 'CANCEL_PUSH');
    const id = await createDeployment(svc);
    await commitToMain(svc, id, { 'model/views.yml': warehouseViewsModel(VIEWS) }, '128 views');
    const viewNames = Array.from({ length: VIEWS }, (_, i) => `view_${i}`);

    const start = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema: 'CANCEL_PUSH', prefix: 'SV_', viewNames } });
    expect(start.status, start.text).toBe(202);
    const statusUrl = start.body.statusUrl as string;
    await pollUntil(svc, statusUrl, (job) => job.status === 'RUNNING' && job.progress.stage === 'creating-views', 'the push to create its first views');

    const cancel = await svc.call('DELETE', statusUrl);
    expect(cancel.status, cancel.text).toBe(202);
    const job = await pollUntil(svc, statusUrl, (body) => TERMINAL.includes(body.status), 'the push to end');

    expect(job.status).toBe('CANCELLED');
    const created: string[] = job.written;
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.length).toBeLessThan(VIEWS);
    const listed = warehouse
      .openSession()
      .execute('SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS.CANCEL_PUSH')
      .rows.map((r) => String(r.name));
    expect(listed.sort()).toEqual([...created].sort());
    // Each listed semantic view is complete: the warehouse describes all its members.
    for (const name of created) {
      const described = warehouse.openSession().execute(`DESCRIBE SEMANTIC VIEW ANALYTICS.CANCEL_PUSH.${name}`).rows;
      const members = [...new Set(described.filter((r) => ['DIMENSION', 'METRIC'].includes(String(r.object_kind))).map((r) => String(r.object_name).toLowerCase()))];
      expect(members.sort(), name).toEqual(['count', 'status', 'total']);
    }
    // A cancelled push has no result.
    expect((await svc.call('GET', `${statusUrl}/result`)).body.code).toBe('SYNC_JOB_NOT_COMPLETED');
  }, 180_000);
});
