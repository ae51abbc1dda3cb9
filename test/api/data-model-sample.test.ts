import { readdirSync } from 'node:fs';
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
