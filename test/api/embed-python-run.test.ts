import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, probeLinuxTools, PythonSandbox } from '../../src-main/features/embed-sessions/python-sandbox';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { processAlive } from '../support/processes';

/**
 * Issue 13 item 9: `POST /api/v1/embed/dashboard/{publicId}/python-run` runs the widget's Python
 * for real in Pyodide, with the request's dashboard filters, a time limit and a memory limit; since
 * issue 23 in a runner process of its own (test/api/embed-python-escape.test.ts holds it to that).
 * One warm sandbox serves the whole file (Pyodide takes seconds to load); its limits are lowered so
 * the runaway cases end quickly.
 */

let svc: TestService;
let publicId: string;
const LIMITS = { timeoutMs: 3_000, memoryLimitBytes: 64 * 1024 * 1024 };

const PY = {
  filtered: [
    'statuses = sorted(v for f in filters if f["member"] == "orders.status" for v in f["values"])',
    'print("filters:", len(filters))',
    'result = {"statuses": statuses, "widget": widget["id"], "sum": sum(range(10))}',
  ].join('\n'),
  loop: 'while True:\n    pass\n',
  memory: 'block = bytearray(512 * 1024 * 1024)\nresult = len(block)\n',
  // Each copy lives in the process, outside Python's heap and the JavaScript heap.
  jsCopies: 'from pyodide.ffi import to_js\nblock = bytes(48 * 1024 * 1024)\ncopies = [to_js(block) for _ in range(80)]\nresult = len(copies)\n',
  raises: 'def f():\n    raise ValueError("no data for this filter")\nf()\n',
  notJson: 'result = {1, 2}\n',
  bigResult: "result = 'x' * 2_000_000\n",
};

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.pythonSandbox = new PythonSandbox(LIMITS);
  svc.ctx.onClose(() => (svc.ctx.services.pythonSandbox as PythonSandbox).close());
  const dep = await createDeployment(svc);
  const created = await svc.call('POST', `/api/v1/deployments/${dep}/workbooks`, { body: { name: 'python widgets' } });
  expect(created.status, created.text).toBe(201);
  const widgets = Object.entries(PY).map(([id, python], i) => ({ id, type: 'CHART', position: { x: 0, y: i * 4, w: 4, h: 4 }, config: { python } }));
  const published = await svc.call('POST', `/api/v1/deployments/${dep}/workbooks/${created.body.id}/publish`, { body: { config: { title: 'Python', widgets } } });
  expect(published.status, published.text).toBe(200);
  publicId = created.body.publicId;
}, 120_000);
afterAll(async () => svc?.stop(), 60_000);

const run = (widgetId: string, filters?: unknown[]) =>
  svc.call('POST', `/api/v1/embed/dashboard/${publicId}/python-run`, { body: { widgetId, ...(filters ? { filters } : {}) } });

describe('python-run in the Pyodide sandbox', { timeout: 120_000 }, () => {
  it('runs the widget’s Python for real with the request’s filters bound, answering its result and what it printed', async () => {
    const res = await run('filtered', [
      { member: 'orders.status', operator: 'equals', values: ['shipped', 'placed'] },
      { member: 'orders.city', operator: 'is_not_empty' },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ widgetId: 'filtered', result: { statuses: ['placed', 'shipped'], widget: 'filtered', sum: 45 }, stdout: 'filters: 2\n' });
    expect(res.body.filters).toEqual([
      { member: 'orders.status', operator: 'equals', values: ['shipped', 'placed'] },
      { member: 'orders.city', operator: 'is_not_empty', values: [] },
    ]);
    // Without filters the script sees an empty list, on the same warm thread.
    const plain = await run('filtered');
    expect(plain.body.result.statuses).toEqual([]);
  });

  it('filter rules: is_empty/is_not_empty take no values, the other operators need one, unknown operators are refused (400, nothing run)', async () => {
    const withValues = await run('filtered', [{ member: 'orders.city', operator: 'is_empty', values: ['x'] }]);
    expect(withValues.status).toBe(400);
    expect(withValues.body.code).toBe('FILTER_VALUES_NOT_ALLOWED');
    expect(withValues.body.errors[0].pointer).toBe('/body/filters/0/values');
    const without = await run('filtered', [{ member: 'orders.status', operator: 'equals' }]);
    expect(without.status).toBe(400);
    expect(without.body.code).toBe('FILTER_VALUES_REQUIRED');
    const unknown = await run('filtered', [{ member: 'orders.status', operator: 'like', values: ['a'] }]);
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('a runaway loop is stopped at the time limit and reported 422 PYTHON_TIME_LIMIT; a fresh runner process serves the next run', async () => {
    const sandbox = svc.ctx.services.pythonSandbox as PythonSandbox;
    const before = sandbox.runnerPid(publicId);
    const started = Date.now();
    const res = await run('loop');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('PYTHON_TIME_LIMIT');
    expect(res.body.limitMs).toBe(LIMITS.timeoutMs);
    expect(Date.now() - started).toBeLessThan(LIMITS.timeoutMs + 2_000);
    // The runaway's process was killed, not left spinning.
    expect(before).toEqual(expect.any(Number));
    expect(processAlive(before!)).toBe(false);
    expect((await run('filtered')).status).toBe(200);
    expect(sandbox.runnerPid(publicId)).not.toBe(before);
  });

  it('a huge allocation hits the memory limit and is reported 422 PYTHON_MEMORY_LIMIT; the sandbox keeps serving', async () => {
    const res = await run('memory');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('PYTHON_MEMORY_LIMIT');
    expect(res.body.limitBytes).toBe(LIMITS.memoryLimitBytes);
    expect((await run('filtered')).status).toBe(200);
  });

  it('JavaScript copies of Python data (4 GB of them) hit the process’s memory limit (where prlimit is available) before the time limit: 422 PYTHON_MEMORY_LIMIT; the sandbox keeps serving', async (context) => {
    if (!(await probeLinuxTools()).prlimit) return context.skip();
    // Copying gigabytes takes seconds on a loaded machine: this run gets a longer time limit.
    const shared = svc.ctx.services.pythonSandbox as PythonSandbox;
    const patient = new PythonSandbox({ ...LIMITS, timeoutMs: DEFAULT_LIMITS.timeoutMs * 3 });
    svc.ctx.services.pythonSandbox = patient;
    try {
      const res = await run('jsCopies');
      expect(res.status, res.text.slice(0, 300)).toBe(422);
      expect(res.body.code).toBe('PYTHON_MEMORY_LIMIT');
      expect((await run('filtered')).status).toBe(200);
    } finally {
      svc.ctx.services.pythonSandbox = shared;
      await patient.close();
    }
  });

  it('an exception is 422 PYTHON_ERROR with the traceback; a result that is not JSON is 422 PYTHON_RESULT_NOT_JSON', async () => {
    const raised = await run('raises');
    expect(raised.status).toBe(422);
    expect(raised.body.code).toBe('PYTHON_ERROR');
    expect(raised.body.pythonError).toMatchObject({ type: 'ValueError', message: 'ValueError: no data for this filter' });
    expect(raised.body.pythonError.traceback).toContain('in f');
    const notJson = await run('notJson');
    expect(notJson.status).toBe(422);
    expect(notJson.body.code).toBe('PYTHON_RESULT_NOT_JSON');
  });

  it('a result whose JSON is over 1 MiB is 422 PYTHON_RESULT_TOO_LARGE with the limit; the sandbox keeps serving', async () => {
    const res = await run('bigResult');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('PYTHON_RESULT_TOO_LARGE');
    expect(res.body.limitChars).toBe(1024 * 1024);
    expect(res.text.length).toBeLessThan(10_000);
    expect((await run('filtered')).status).toBe(200);
  });
});
