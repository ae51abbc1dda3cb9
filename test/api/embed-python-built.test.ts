import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve';

/**
 * Issue 23, in the built service (`drydock serve`, out/main): the Python runner is the bundled
 * chunk, started in a process of its own under Node's permission model, and answers through the
 * real route — what the source-mode tests prove (embed-python-escape.test.ts) holds for the build.
 */

const KEY = 'dd_test_admin_key_python_built_0123456789abcd';
let serve: ServeProcess;
let publicId: string;

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${serve.url}${path}`, {
    method,
    headers: { authorization: `Api-Key ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null };
};

beforeAll(async () => {
  serve = await startServe({ env: { DRYDOCK_BOOTSTRAP_API_KEY: KEY, DRYDOCK_PYTHON_BUILT_SECRET: 'planted-in-the-service' }, args: ['--no-login-link'], timeoutMs: 110_000 });
  const dep = await call('POST', '/build/api/v1/deployments/', { name: 'python', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });
  expect(dep.status, dep.text).toBe(201);
  const created = await call('POST', `/api/v1/deployments/${dep.body.id}/workbooks`, { name: 'python' });
  const widgets = [
    { id: 'mean', type: 'TEXT', position: { x: 0, y: 0, w: 4, h: 4 }, config: { python: 'import statistics\nprint("n =", len(filters))\nresult = statistics.mean(float(v) for f in filters for v in f["values"])' } },
    { id: 'escape', type: 'TEXT', position: { x: 0, y: 4, w: 4, h: 4 }, config: { python: "import os, js\nprint(dict(os.environ))\nprint(js.process.getBuiltinModule('fs').readFileSync('/etc/passwd', 'utf8'))" } },
  ];
  const published = await call('POST', `/api/v1/deployments/${dep.body.id}/workbooks/${created.body.id}/publish`, { config: { title: 'P', widgets } });
  expect(published.status, published.text).toBe(200);
  publicId = created.body.publicId;
}, 180_000);
afterAll(async () => serve?.stop(), 60_000);

const run = (widgetId: string, filters: unknown[] = []) => call('POST', `/api/v1/embed/dashboard/${publicId}/python-run`, { widgetId, filters });

/** The service's child processes (Linux). */
function childrenOf(pid: number): number[] {
  const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  return tasks.trim().split(/\s+/).filter(Boolean).map(Number);
}

describe('python-run in the built service', { timeout: 180_000 }, () => {
  it('answers through the bundled runner; a script reaching for the host gets an error, not the host', async () => {
    const mean = await run('mean', [{ member: 'orders.amount', operator: 'equals', values: ['2', '4'] }]);
    expect(mean.status, mean.text).toBe(200);
    expect(mean.body).toMatchObject({ result: 3, stdout: 'n = 1\n' });
    const escape = await run('escape');
    expect(escape.status, escape.text).toBe(422);
    expect(escape.body.code).toBe('PYTHON_ERROR');
    expect(escape.text).not.toContain('planted-in-the-service');
    expect(escape.text).not.toContain('root:');
  });

  it.runIf(process.platform === 'linux')('the runner is a child process of the service, started from out/main under the permission model', () => {
    const runners = childrenOf(serve.proc.pid!).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
    const runner = runners.find((args) => args.some((arg) => /out\/main\/chunks\/python-runner-[\w-]+\.js$/.test(arg)));
    expect(runner, JSON.stringify(runners)).toBeDefined();
    expect(runner).toContain('--permission');
    expect(runner).toContain('--disallow-code-generation-from-strings');
  });
});
