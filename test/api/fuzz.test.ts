// Hostile requests against every operation of the OpenAPI document, over real HTTP: never a 5xx,
// every refusal problem+json with a stable code, every success valid against its declared schema,
// and the service still answers afterwards. `npm test` sends a bounded share (DRYDOCK_FUZZ_REQUESTS,
// default one per operation); `npm run fuzz` sends 20,000 or more. DRYDOCK_FUZZ_SEED replays a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { checkUnknownKey, fuzz, operationsOf, ResponseChecker, type Operation } from '../support/fuzz';
import { ADMIN_KEY, startTestService, type TestService } from '../support/service';

const FUZZ_LIMITS = { headersTimeoutMs: 1_000, bodyIdleTimeoutMs: 1_000, bodyRateWindowMs: 1_000, bodyMinBytesPerWindow: 4_096 };

let svc: TestService;
let ops: Operation[];
let known: Record<string, string>;

beforeAll(async () => {
  // Short body and header timeouts, so the raw body tricks that wait one out end within seconds.
  svc = await startTestService({ http: FUZZ_LIMITS });
  const spec = await svc.call('GET', '/api/v1/spec', { auth: null });
  ops = operationsOf(spec.body);
  const deploymentId = await createDeployment(svc, 'fuzzed');
  const workbook = await svc.call('POST', `/api/v1/deployments/${deploymentId}/workbooks`, { body: { name: 'Fuzzed board' } });
  known = { deploymentId: String(deploymentId), branchName: 'main', workbookId: String(workbook.body.id), dataSourceName: 'default', dataSource: 'default' };
});
afterAll(async () => svc?.stop());

const requested = Number(process.env.DRYDOCK_FUZZ_REQUESTS) || 0;
const seed = Number(process.env.DRYDOCK_FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31);

describe('hostile requests over every operation', () => {
  it('never answer 5xx; refusals are problem+json with a stable code; successes match their schema; the service stays up', { timeout: 120_000 + requested * 60 }, async () => {
    const requests = Math.max(requested, ops.length);
    const began = Date.now();
    const report = await fuzz({ url: svc.url, adminAuth: `Api-Key ${ADMIN_KEY}`, known, protectedIds: ['id', 'userId'] }, ops, { requests, seed, trickTimeoutMs: 10_000 });
    console.log(
      `fuzz: ${report.requests} requests in ${((Date.now() - began) / 1000).toFixed(1)} s over ${report.operationsReached}/${report.operations} operations (seed ${seed}); ` +
        `statuses ${JSON.stringify(report.byStatus)}; ${report.unknownKeys} bodies with an unknown key; ${report.failures.length} failures`,
    );
    if (report.slowest.length) console.log(`slowest: ${JSON.stringify(report.slowest)}`);
    const shown = report.failures.slice(0, 15).map((f) => `${f.why}\n    ${f.request}\n    -> ${f.body}`);
    expect(shown, `seed ${seed}`).toEqual([]);
    expect(report.requests).toBe(requests);
    expect(report.operationsReached).toBe(ops.length);
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
