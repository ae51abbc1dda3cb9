import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, createDeployment } from '../support/data-model';
import { startTestService, type TestService } from '../support/service';

// First run with the sample project Drydock ships in resources/sample-project.

let svc: TestService;
beforeAll(async () => {
  delete process.env.DRYDOCK_SAMPLE_PROJECT;
  svc = await startTestService();
});
afterAll(async () => svc.stop());

const shippedModelFiles = (): string[] => {
  const root = join(process.cwd(), 'resources', 'sample-project');
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) visit(join(dir, entry.name));
      else out.push(relative(root, join(dir, entry.name)).split(sep).join('/'));
    }
  };
  visit(join(root, 'model'));
  return out.sort();
};

describe('sample project on first run', () => {
  it('loads the shipped sample project’s model files onto the deploy branch, and they validate', async () => {
    const id = await createDeployment(svc);
    const list = await svc.call('GET', `${buildPath(id)}/data-model/files?first=1000`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((f: { path: string }) => f.path)).toEqual(shippedModelFiles());
    const validation = await svc.call('GET', `${buildPath(id)}/data-model/validate`);
    expect(validation.status).toBe(200);
    expect(validation.body.diagnostics.filter((d: { severity: string }) => d.severity === 'error')).toEqual([]);
    expect(validation.body.valid).toBe(true);
  });
});

describe('the sample workbook (issue 24: the first run shows the whole path)', () => {
  const sample = JSON.parse(readFileSync(join(process.cwd(), 'resources', 'sample-project', 'workbooks', 'sales-overview.json'), 'utf8')) as {
    slug: string;
    name: string;
    description: string;
    dashboard: { widgets: { id: string; config: { chartType: string; query: Record<string, unknown> } }[] };
  };

  it('has a KPI, a bar and a line chart, each a real query over the sample views', () => {
    const kinds = sample.dashboard.widgets.map((w) => w.config.chartType);
    expect(kinds).toEqual(expect.arrayContaining(['number', 'bar', 'line']));
  });

  it('is accepted by the service as a draft, publishes, and every widget’s query answers with rows on the sample project', async () => {
    svc.ctx.services.sampleData = { orders: 400 };
    const id = await createDeployment(svc);
    const saved = await svc.call('PUT', `/api/v1/deployments/${id}/workbooks/by-slug/${sample.slug}`, {
      body: { name: sample.name, description: sample.description, dashboardDraft: sample.dashboard },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.created).toBe(true);
    const published = await svc.call('POST', `/api/v1/deployments/${id}/workbooks/${saved.body.id}/publish`);
    expect(published.status, published.text).toBe(200);
    for (const widget of sample.dashboard.widgets) {
      let body: { data?: unknown[]; error?: string } = { error: 'Continue wait' };
      for (let i = 0; i < 600 && body.error === 'Continue wait'; i++) {
        const res = await svc.call('POST', `/deployments/${id}/cubejs-api/v1/load`, { body: { query: widget.config.query } });
        expect(res.status, `${widget.id}: ${res.text}`).toBe(200);
        body = res.body;
        if (body.error === 'Continue wait') await new Promise((r) => setTimeout(r, 100));
      }
      expect(body.data?.length, widget.id).toBeGreaterThan(0);
    }
  });
});
