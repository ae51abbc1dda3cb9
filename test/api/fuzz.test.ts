// Hostile requests against every operation of the OpenAPI document, over real HTTP: never a 5xx,
// every refusal problem+json with a stable code, every success valid against its declared schema,
// and the service still answers afterwards. `npm test` sends a bounded share (DRYDOCK_FUZZ_REQUESTS,
// default one per operation); `npm run fuzz` sends 20,000 or more. DRYDOCK_FUZZ_SEED replays a run.
//
// A dashboard is published with the hostile Python of fuzz-tricks-python.ts as its widgets, and
// three python-run requests in four run one of them, each in turn (the first always, so npm test runs
// one): besides the rules above, no answer to a run may hold the service's PID, its data directory,
// a host file's content or a sign of a refused step, and no marker file may appear on the host.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonSandbox } from '../../src-main/features/embed-sessions/python-sandbox';
import { createDeployment } from '../support/deployments';
import { checkUnknownKey, fuzz, operationsOf, ResponseChecker, type Operation } from '../support/fuzz';
import { leaksIn, pythonTricks } from '../support/fuzz-tricks-python';
import { ADMIN_KEY, startTestService, type TestService } from '../support/service';

const FUZZ_LIMITS = { headersTimeoutMs: 1_000, bodyIdleTimeoutMs: 1_000, bodyRateWindowMs: 1_000, bodyMinBytesPerWindow: 4_096 };

const HOST_SECRET = `host-file-${randomBytes(8).toString('hex')}`;

let svc: TestService;
let ops: Operation[];
let known: Record<string, string>;
let hostDir: string;
let marker: string;
/** The fuzzed dashboard's Python, by widget id. */
let widgetCode: Map<string, string>;
/** python-run requests whose script ran (answered with its result, or with a PYTHON_ problem). */
let scriptsRun = 0;

beforeAll(async () => {
  // Short body and header timeouts, so the raw body tricks that wait one out end within seconds.
  svc = await startTestService({ http: FUZZ_LIMITS });
  const spec = await svc.call('GET', '/api/v1/spec', { auth: null });
  ops = operationsOf(spec.body);
  const deploymentId = await createDeployment(svc, 'fuzzed');
  const workbook = await svc.call('POST', `/api/v1/deployments/${deploymentId}/workbooks`, { body: { name: 'Fuzzed board' } });
  hostDir = mkdtempSync(join(tmpdir(), 'drydock-fuzz-host-'));
  writeFileSync(join(hostDir, 'host-secret.txt'), HOST_SECRET);
  marker = join(hostDir, 'escaped-marker');
  // Nothing listens on the ports: a connection the sandbox let through would still fail, but the
  // escape test (embed-python-escape.test.ts) is where connections are counted.
  const tricks = pythonTricks({ hostFile: join(hostDir, 'host-secret.txt'), dataDir: svc.dataDir, marker, servicePort: svc.port, tcpPort: 9, udpPort: 9 });
  widgetCode = new Map(tricks.map((trick) => [trick.name, trick.python]));
  // In a deployment and workbook of their own: the fuzzer deletes what it names, and it names them
  // only when it draws their ids among its integers.
  const trickDeployment = await createDeployment(svc, 'python tricks');
  const trickWorkbook = await svc.call('POST', `/api/v1/deployments/${trickDeployment}/workbooks`, { body: { name: 'Python tricks' } });
  const widgets = tricks.map(({ name, python }, i) => ({ id: name, type: 'TEXT', position: { x: 0, y: i * 2, w: 4, h: 2 }, config: { python } }));
  const published = await svc.call('POST', `/api/v1/deployments/${trickDeployment}/workbooks/${trickWorkbook.body.id}/publish`, { body: { config: { title: 'Tricks', widgets } } });
  expect(published.status, published.text).toBe(200);
  known = {
    deploymentId: String(deploymentId),
    branchName: 'main',
    workbookId: String(workbook.body.id),
    publicId: String(trickWorkbook.body.publicId),
    dataSourceName: 'default',
    dataSource: 'default',
  };
  // The clean spare is up before the first request: python-run answers within the request timeout,
  // and Pyodide's start does not compete with the requests for the CPU.
  const sandbox = pythonSandbox(svc.ctx);
  sandbox.prestart();
  expect(await sandbox.spareReady()).toBe(true);
}, 150_000);
afterAll(async () => {
  await svc?.stop();
  if (hostDir) rmSync(hostDir, { recursive: true, force: true });
});

/** Answers to python-run hold nothing of the host or the service (what the request itself named aside). */
function inspectPythonRun(op: Operation, requestBody: string | undefined, text: string): string | null {
  if (op.operationId !== 'runEmbedDashboardPython') return null;
  let widgetId: unknown;
  try {
    widgetId = (JSON.parse(requestBody ?? 'null') as { widgetId?: unknown } | null)?.widgetId;
  } catch {
    widgetId = undefined;
  }
  const code = `${requestBody ?? ''}\n${(typeof widgetId === 'string' && widgetCode.get(widgetId)) || ''}`;
  const found = leaksIn(text, code, { servicePid: process.pid, dataDir: svc.dataDir, planted: { 'a host file’s content': HOST_SECRET } });
  // A PID named in the request (a drawn number) may be echoed back in a refusal.
  const leaks = requestBody?.includes(String(process.pid)) ? found.filter((what) => what !== 'the service’s PID') : found;
  return leaks.length ? `python-run answer leaks ${leaks.join(', ')}` : null;
}

const requested = Number(process.env.DRYDOCK_FUZZ_REQUESTS) || 0;
const seed = Number(process.env.DRYDOCK_FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31);

describe('hostile requests over every operation', () => {
  it('never answer 5xx; refusals are problem+json with a stable code; successes match their schema; the service stays up', { timeout: 120_000 + requested * 60 }, async () => {
    const requests = Math.max(requested, ops.length);
    const began = Date.now();
    const target = {
      url: svc.url,
      adminAuth: `Api-Key ${ADMIN_KEY}`,
      known,
      protectedIds: ['id', 'userId'],
      bodyValues: { widgetId: [...widgetCode.keys()] },
      inspect: (op: Operation, requestBody: string | undefined, text: string) => {
        if (op.operationId === 'runEmbedDashboardPython' && /"durationMs":|"code":"PYTHON_/.test(text)) scriptsRun++;
        return inspectPythonRun(op, requestBody, text);
      },
    };
    const report = await fuzz(target, ops, { requests, seed, trickTimeoutMs: 10_000 });
    console.log(
      `fuzz: ${report.requests} requests in ${((Date.now() - began) / 1000).toFixed(1)} s over ${report.operationsReached}/${report.operations} operations (seed ${seed}); ` +
        `statuses ${JSON.stringify(report.byStatus)}; ${report.unknownKeys} bodies with an unknown key; ${scriptsRun} Python scripts run; ${report.failures.length} failures`,
    );
    if (report.slowest.length) console.log(`slowest: ${JSON.stringify(report.slowest)}`);
    const shown = report.failures.slice(0, 15).map((f) => `${f.why}\n    ${f.request}\n    -> ${f.body}`);
    expect(shown, `seed ${seed}`).toEqual([]);
    expect(report.requests).toBe(requests);
    expect(report.operationsReached).toBe(ops.length);
    // python-run's first request always runs a hostile widget (fuzz.ts `reaching`), so even npm
    // test's one request per operation holds one answer of the sandbox to the rule above.
    expect(scriptsRun).toBeGreaterThan(0);
    // No hostile widget wrote on the host.
    expect(existsSync(marker), `marker ${marker}`).toBe(false);
    // Still up, and the admin credential still works.
    expect((await svc.call('GET', '/api/v1/health', { auth: null })).status).toBe(200);
    expect((await svc.call('GET', '/api/v1/deployments')).status).toBe(200);
  });
});

describe('the fuzzer\'s verdicts', () => {
  const op: Operation = {
    method: 'GET',
    path: '/x',
    operationId: 'x',
    parameters: [],
    body: null,
    unknownFields: null,
    responses: { '200': { content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } } } },
  };
  const checker = new ResponseChecker();
  const problem = (status: number, code?: string) => JSON.stringify({ type: 'about:blank', title: 't', status, ...(code ? { code } : {}) });

  it('reject a 5xx, a 4xx that is not problem+json or lacks a stable code, a 2xx off its schema or undeclared', () => {
    expect(checker.check(op, 500, 'application/problem+json', problem(500, 'INTERNAL'))).toMatch(/server error/);
    expect(checker.check(op, 404, 'text/plain', 'Not Found')).toMatch(/not application\/problem\+json/);
    expect(checker.check(op, 400, 'application/problem+json', problem(400))).toMatch(/stable code/);
    expect(checker.check(op, 400, 'application/problem+json', problem(400, 'bad thing'))).toMatch(/stable code/);
    expect(checker.check(op, 400, 'application/problem+json', problem(409, 'CONFLICT'))).toMatch(/differs/);
    expect(checker.check(op, 200, 'application/json', '{"id":"one"}')).toMatch(/does not match its schema/);
    expect(checker.check(op, 201, 'application/json', '{"id":1}')).toMatch(/undeclared/);
  });

  it('reject a python-run answer holding the service’s PID or data directory (unless the widget’s code names the directory)', () => {
    const run = { ...op, operationId: 'runEmbedDashboardPython' };
    const answer = (stdout: string) => JSON.stringify({ widgetId: 'os-environ', result: null, stdout, filters: [], durationMs: 1 });
    expect(inspectPythonRun(run, '{"widgetId":"os-environ"}', answer(`ppid ${process.pid}`))).toMatch(/the service’s PID/);
    expect(inspectPythonRun(run, '{"widgetId":"os-environ"}', answer(`cwd ${svc.dataDir}`))).toMatch(/data directory/);
    expect(inspectPythonRun(run, '{"widgetId":"js-fs-list-data-dir"}', answer(`no such file ${svc.dataDir}`))).toBeNull();
    expect(inspectPythonRun(run, '{"widgetId":"os-environ"}', answer("{'HOME': '/home/pyodide'}"))).toBeNull();
  });

  it('accept a problem with a stable code and a 2xx body that matches', () => {
    expect(checker.check(op, 400, 'application/problem+json; charset=utf-8', problem(400, 'VALIDATION_FAILED'))).toBeNull();
    expect(checker.check(op, 200, 'application/json; charset=utf-8', '{"id":1}')).toBeNull();
  });

  describe('on a body with a top-level key its schema does not describe', () => {
    const refusing: Operation = { ...op, method: 'POST', body: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false }, unknownFields: 'refuse' };
    const ignoring: Operation = { ...refusing, body: { ...refusing.body, additionalProperties: true }, unknownFields: 'ignore' };
    const problem = (code: string, ...pointers: string[]) => JSON.stringify({ status: 400, code, errors: pointers.map((pointer) => ({ pointer, detail: 'x' })) });

    it('reject a success, an UNKNOWN_FIELD that does not name the key, another fault of the body answered first', () => {
      expect(checkUnknownKey(refusing, 'nmae', 201, '{"id":1}')).toMatch(/accepted/);
      expect(checkUnknownKey(refusing, 'a/b', 400, problem('UNKNOWN_FIELD', '/body/a/b'))).toMatch(/without \/body\/a~1b/);
      expect(checkUnknownKey(refusing, 'nmae', 400, problem('VALIDATION_FAILED', '/body/name'))).toMatch(/another fault of the body/);
      expect(checkUnknownKey(ignoring, 'nmae', 400, problem('UNKNOWN_FIELD', '/body/nmae'))).toMatch(/ignores/);
    });

    it('accept the key named, and what is answered before the body is checked', () => {
      expect(checkUnknownKey(refusing, 'a/b', 400, problem('UNKNOWN_FIELD', '/body/a~1b'))).toBeNull();
      expect(checkUnknownKey(refusing, 'nmae', 400, problem('VALIDATION_FAILED', '/params/workbookId'))).toBeNull();
      expect(checkUnknownKey(refusing, 'constructor', 400, problem('MALFORMED_JSON', '/body/constructor'))).toBeNull();
      expect(checkUnknownKey(refusing, 'nmae', 401, problem('UNAUTHENTICATED'))).toBeNull();
      expect(checkUnknownKey(refusing, 'nmae', 415, problem('UNSUPPORTED_MEDIA_TYPE'))).toBeNull();
      expect(checkUnknownKey(ignoring, 'nmae', 200, '{"id":1}')).toBeNull();
    });
  });
});
