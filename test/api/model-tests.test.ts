// Model tests on the service (issue 26): test files and fixture CSVs committed to a real deployment
// repository; a build of the deploy branch runs them and notes the outcome on the build; a run of a
// branch through the API; validation shows the problems of test files and the failures of the run
// of what it validates.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listBuilds } from '../../src-main/features/builds';
import { commitFiles } from '../../src-main/features/data-model';
import { createDeployment } from '../support/data-model';
import { startTestService, type TestResponse, type TestService } from '../support/service';
import { createUser } from '../support/users';

const AUTHOR = { name: 'Tester', email: 'tester@example.com' };
const SAMPLE_TESTS = join(__dirname, '../../resources/sample-project/tests');

/** The sample project's tests and fixtures as repository files. */
function sampleTestFiles(): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  for (const name of readdirSync(SAMPLE_TESTS)) if (name.endsWith('.yml')) files.push({ path: `tests/${name}`, content: readFileSync(join(SAMPLE_TESTS, name), 'utf8') });
  for (const name of readdirSync(join(SAMPLE_TESTS, 'fixtures'))) files.push({ path: `tests/fixtures/${name}`, content: readFileSync(join(SAMPLE_TESTS, 'fixtures', name), 'utf8') });
  return files;
}

let svc: TestService;
let id: number;
const D = () => `/api/v1/deployments/${id}`;

async function until<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const finished = (run: TestResponse['body']) => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(run.status);

async function waitForRun(testRunId: string): Promise<TestResponse['body']> {
  return until(async () => {
    const res = await svc.call('GET', `${D()}/data-model/test-runs/${testRunId}`);
    expect(res.status, res.text).toBe(200);
    return finished(res.body) ? res.body : undefined;
  }, `test run ${testRunId}`);
}

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.sampleData = { orders: 500 };
  id = await createDeployment(svc, 'model-tests');
}, 120_000);

afterAll(async () => {
  await svc?.stop();
});

describe('model tests on the service', { timeout: 120_000 }, () => {
  it('a build of the deploy branch runs the tests on their fixtures and notes the outcome on the build', async () => {
    const { commit } = await commitFiles(svc.ctx, id, 'main', sampleTestFiles(), 'Model tests on fixtures', AUTHOR);
    const run = await until(async () => {
      const res = await svc.call('GET', `${D()}/data-model/test-runs?trigger=build`);
      const found = res.body.items.find((r: { commit: string }) => r.commit === commit);
      return found && finished(found) ? found : undefined;
    }, 'the build’s test run');
    expect(run).toMatchObject({ trigger: 'build', branchName: 'main', status: 'COMPLETED', outcome: 'passed', summary: { total: 17, passed: 17, failed: 0, errors: 0 } });
    expect(run.results).toBeNull();
    const detail = await svc.call('GET', `${D()}/data-model/test-runs/${run.testRunId}`);
    expect(detail.body.results).toHaveLength(17);
    expect(detail.body.results.every((r: { status: string }) => r.status === 'passed')).toBe(true);
    const build = listBuilds(svc.ctx, id, 'main').find((b) => b.commit === commit)!;
    expect(run.buildId).toBe(build.id);
    expect(build.checks).toEqual({ modelTests: { testRunId: run.testRunId, outcome: 'passed', summary: expect.objectContaining({ passed: 17 }) } });
  });

  it('validation shows test file problems and refused queries on their lines, and the failures of a run of the same content', async () => {
    expect((await svc.call('POST', `/build/api/v1/deployments/${id}/branches`, { body: { branchName: 'wrong-tests' } })).status).toBe(201);
    const failing = [
      'data:',
      '  fixtures:',
      '    ecommerce.orders: fixtures/orders.csv',
      'tests:',
      '  - name: ten orders',
      '    query: { measures: [orders.count] }',
      '    expect:',
      '      values:',
      '        - { member: orders.count, equals: 11 }',
      '  - name: typo',
      '    query: { measures: [orders.count] }',
      '    expect: { row_cont: 1 }',
      '  - name: no such member',
      '    query:',
      '      measures: [orders.revenue]',
      '    expect: { row_count: 1 }',
      '',
    ].join('\n');
    await commitFiles(svc.ctx, id, 'wrong-tests', [{ path: 'tests/wrong.yml', content: failing }], 'Tests that fail', AUTHOR);
    const before = await svc.call('GET', `/build/api/v1/deployments/${id}/data-model/validate?branchName=wrong-tests`);
    expect(before.status, before.text).toBe(200);
    const ofTests = (body: TestResponse['body']) => body.diagnostics.filter((d: { file: string }) => d.file === 'tests/wrong.yml').map((d: { code: string; line: number }) => [d.code, d.line]);
    expect(ofTests(before.body)).toEqual([
      ['MODEL_TEST_UNKNOWN_KEY', 12],
      ['MODEL_TEST_QUERY_REFUSED', 15],
    ]);
    expect(before.body.valid).toBe(false);

    const started = await svc.call('POST', `${D()}/data-model/test-runs`, { body: { branchName: 'wrong-tests' } });
    expect(started.status, started.text).toBe(202);
    expect(started.body).toMatchObject({ trigger: 'manual', branchName: 'wrong-tests', buildId: null });
    const run = await waitForRun(started.body.testRunId);
    expect(run).toMatchObject({ status: 'COMPLETED', outcome: 'failed', summary: { failed: 1, errors: 1 } });
    expect(run.results.map((r: { name: string; status: string }) => [r.name, r.status])).toEqual(
      expect.arrayContaining([
        ['ten orders', 'failed'],
        ['no such member', 'error'],
      ]),
    );
    expect(run.results.find((r: { name: string }) => r.name === 'ten orders').failures).toEqual([{ message: 'orders.count: expected 11, got "10"', line: 9, column: 11 }]);

    const after = await svc.call('GET', `/build/api/v1/deployments/${id}/data-model/validate?branchName=wrong-tests`);
    expect(ofTests(after.body)).toEqual([
      ['MODEL_TEST_UNKNOWN_KEY', 12],
      ['MODEL_TEST_QUERY_REFUSED', 15],
      ['MODEL_TEST_FAILED', 9],
      ['MODEL_TEST_ERROR', 13],
    ]);
    // A viewer sees the problems of the files but not the numbers of a run.
    const viewer = createUser(svc, 'viewer');
    const asViewer = await svc.call('GET', `/build/api/v1/deployments/${id}/data-model/validate?branchName=wrong-tests`, { auth: viewer.auth });
    expect(ofTests(asViewer.body)).toEqual([
      ['MODEL_TEST_UNKNOWN_KEY', 12],
      ['MODEL_TEST_QUERY_REFUSED', 15],
    ]);
    expect((await svc.call('POST', `${D()}/data-model/test-runs`, { auth: viewer.auth })).status).toBe(403);
  });

  it('runs a test on a data source of the deployment (the emulator’s sample data)', async () => {
    expect((await svc.call('POST', `/build/api/v1/deployments/${id}/branches`, { body: { branchName: 'on-warehouse' } })).status).toBe(201);
    const onWarehouse = 'data: { data_source: default }\ntests:\n  - name: every sample order\n    query: { measures: [orders.count] }\n    expect:\n      values: [{ member: orders.count, equals: 500 }]\n';
    await commitFiles(svc.ctx, id, 'on-warehouse', [{ path: 'tests/warehouse.yml', content: onWarehouse }], 'A test on the warehouse', AUTHOR);
    const started = await svc.call('POST', `${D()}/data-model/test-runs`, { body: { branchName: 'on-warehouse' } });
    const run = await waitForRun(started.body.testRunId);
    expect(run.results.find((r: { file: string }) => r.file === 'tests/warehouse.yml')).toMatchObject({ name: 'every sample order', status: 'passed' });
  });

  it('answers 404 for an unknown run or branch, lists runs newest first, and cancels', async () => {
    expect((await svc.call('GET', `${D()}/data-model/test-runs/nope`)).body.code).toBe('TEST_RUN_NOT_FOUND');
    const unknown = await svc.call('POST', `${D()}/data-model/test-runs`, { body: { branchName: 'nope' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('BRANCH_NOT_FOUND');
    expect((await svc.call('POST', `${D()}/data-model/test-runs`, { body: { branch: 'main' } })).status).toBe(400);
    const listed = await svc.call('GET', `${D()}/data-model/test-runs?branchName=wrong-tests`);
    expect(listed.body.items.map((r: { branchName: string }) => r.branchName)).toEqual(['wrong-tests']);
    const started = await svc.call('POST', `${D()}/data-model/test-runs`, { body: { branchName: 'wrong-tests' } });
    const cancelled = await svc.call('DELETE', `${D()}/data-model/test-runs/${started.body.testRunId}`);
    expect(cancelled.status).toBe(200);
    const run = await waitForRun(started.body.testRunId);
    expect(run.status).toBe('CANCELLED');
    expect(run.outcome).toBeNull();
    expect(run.results).toBeNull();
  });
});
