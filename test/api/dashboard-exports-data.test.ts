// A dashboard export runs each CHART widget's query on the deployment (as the user it is rendered
// as) and prints the real result; a widget whose query fails prints why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNumber } from '../../src-shared/model/query';
import { getJobRunner } from '../../src-main/platform/jobs';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';

let svc: TestService;
let deploymentId: number;

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.sampleData = { orders: 600 };
  deploymentId = await createDeployment(svc);
}, 180_000);
// Generous: closing the service (DuckDB, worker threads) is slow on a loaded machine.
afterAll(async () => svc?.stop(), 180_000);

describe('dashboard exports with real numbers', () => {
  it('the PDF prints the KPI’s real total and a failed query’s reason', async () => {
    const W = `/api/v1/deployments/${deploymentId}/workbooks`;
    const created = await svc.call('POST', W, { body: { name: 'Exported board', shared: true } });
    expect(created.status, created.text).toBe(201);
    const config = {
      title: 'Exported board',
      widgets: [
        { id: 'kpi', type: 'CHART', position: { x: 0, y: 0, w: 4, h: 4 }, config: { title: 'Revenue', chartType: 'number', query: { measures: ['orders.total_amount'] } } },
        { id: 'status', type: 'CHART', position: { x: 4, y: 0, w: 8, h: 6 }, config: { title: 'By status', chartType: 'table', query: { measures: ['orders.count'], dimensions: ['orders.status'] } } },
        { id: 'broken', type: 'CHART', position: { x: 0, y: 6, w: 12, h: 3 }, config: { title: 'Broken', chartType: 'bar', query: { measures: ['orders.margin'] } } },
      ],
    };
    expect((await svc.call('POST', `${W}/${created.body.id}/publish`, { body: { config } })).status).toBe(200);
    let load = await svc.call('POST', `/deployments/${deploymentId}/cubejs-api/v1/load`, { body: { query: { measures: ['orders.total_amount'] } } });
    // The first query fills the sample tables; the data API says `Continue wait` meanwhile.
    while (load.body.error === 'Continue wait') load = await svc.call('POST', `/deployments/${deploymentId}/cubejs-api/v1/load`, { body: { query: { measures: ['orders.total_amount'] } } });
    expect(load.status, load.text).toBe(200);
    const total = Number(load.body.data[0]['orders.total_amount']);

    const started = await svc.call('POST', `/api/v1/deployments/${deploymentId}/dashboard-exports`, { body: { workbookId: created.body.id, format: 'pdf' } });
    expect(started.status, started.text).toBe(202);
    await getJobRunner(svc.ctx).wait(started.body.jobId, { timeoutMs: 60_000 });
    const res = await svc.call('GET', `/api/v1/deployments/${deploymentId}/dashboard-exports/${started.body.jobId}/download`);
    expect(res.status).toBe(200);
    const pdf = res.text; // the PDF's operators are ASCII
    expect(pdf).toContain(`(${formatNumber(total)}) Tj`);
    expect(pdf).toMatch(/\(completed {2}\| {2}\d+\) Tj/);
    expect(pdf).toMatch(/\(Query failed: .*margin/);
  }, 120_000);
});
