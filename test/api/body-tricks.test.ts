// Every hostile body framing of the fuzzer's dictionary (test/support/fuzz-tricks-bodies.ts), sent
// once each over a raw socket to an authenticated JSON operation: the service answers problem+json
// with a stable code (never a 5xx) or closes the connection, within its timeouts — none hangs. The
// service runs with short timeouts (service option `http`) so the tricks that wait one out end fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseChecker } from '../support/fuzz';
import { BODY_TRICKS, sendBodyTrick } from '../support/fuzz-tricks-bodies';
import { ADMIN_KEY, startTestService, type TestService } from '../support/service';

const LIMITS = { headersTimeoutMs: 1_000, bodyIdleTimeoutMs: 1_000, bodyRateWindowMs: 1_000, bodyMinBytesPerWindow: 4_096, keepAliveTimeoutMs: 1_000 };
/** The longest any trick may take: a timeout, the guard's check interval, and slack for a loaded machine. */
const WITHIN_MS = 6_000;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ http: LIMITS });
}, 60_000);
afterAll(async () => svc?.stop());

describe('hostile body framing', () => {
  it('every trick is answered problem+json with a stable code (never 5xx) or closed, and none hangs', { timeout: 120_000 }, async () => {
    const checker = new ResponseChecker();
    const request = { method: 'POST', path: '/api/v1/users/', host: `127.0.0.1:${svc.port}`, auth: `Api-Key ${ADMIN_KEY}` };
    const outcomes = await Promise.all(BODY_TRICKS.map(async (trick) => ({ trick, outcome: await sendBodyTrick(svc.port, trick, request, WITHIN_MS) })));
    const broken: string[] = [];
    for (const { trick, outcome } of outcomes) {
      if (outcome.kind === 'hung') broken.push(`${trick.name}: no answer and still open after ${outcome.ms} ms`);
      else if (outcome.kind === 'answered') {
        const why = checker.check({ method: 'POST', path: request.path, operationId: 'trick', parameters: [], body: null, unknownFields: null, responses: {} }, outcome.status, outcome.contentType, outcome.text, true);
        if (why) broken.push(`${trick.name}: ${why} — ${outcome.text.slice(0, 200)}`);
      }
    }
    console.log(outcomes.map(({ trick, outcome }) => `${trick.name}: ${outcome.kind === 'answered' ? `${outcome.status} ${outcome.text.match(/"code":"(\w+)"/)?.[1] ?? ''}` : outcome.kind} (${outcome.ms} ms)`).join('\n'));
    expect(broken).toEqual([]);
    // The service still answers.
    expect((await svc.call('GET', '/api/v1/deployments')).status).toBe(200);
  });

  it('a body that never comes, or trickles, is answered 408 REQUEST_TIMEOUT', { timeout: 60_000 }, async () => {
    const request = { method: 'POST', path: '/api/v1/users/', host: `127.0.0.1:${svc.port}`, auth: `Api-Key ${ADMIN_KEY}` };
    const names = ['announced 5 MB, a few bytes sent', 'announced 10 KB, a byte every 100 ms', 'chunked, a huge chunk announced and never sent', 'Expect: 100-continue, then no body'];
    for (const name of names) {
      const outcome = await sendBodyTrick(svc.port, BODY_TRICKS.find((t) => t.name === name)!, request, WITHIN_MS);
      expect([name, outcome.kind === 'answered' ? outcome.status : outcome.kind, outcome.kind === 'answered' ? JSON.parse(outcome.text).code : null]).toEqual([name, 408, 'REQUEST_TIMEOUT']);
    }
  });

  it('an Expect other than 100-continue answers 417 problem+json EXPECTATION_FAILED', async () => {
    const request = { method: 'POST', path: '/api/v1/users/', host: `127.0.0.1:${svc.port}`, auth: `Api-Key ${ADMIN_KEY}` };
    const outcome = await sendBodyTrick(svc.port, BODY_TRICKS.find((t) => t.name === 'an expectation the service does not know')!, request, WITHIN_MS);
    expect(outcome).toMatchObject({ kind: 'answered', status: 417, contentType: 'application/problem+json' });
    expect(outcome.kind === 'answered' && JSON.parse(outcome.text)).toMatchObject({ status: 417, code: 'EXPECTATION_FAILED' });
  });
});
