/**
 * Malformed input at the HTTP layer (issue 11, items 3–5): every answer is application/problem+json
 * with a stable code, never a 500, never plain text — including the answers Node's parser and
 * Fastify's router give before any route runs.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../src-main/http/request-limits';
import { ADMIN_KEY } from '../support/service';
import { dep, svc, useServiceWithDeployment } from '../support/deployment-service';

useServiceWithDeployment();

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are (no client library normalises the request line) and reads the answer. */
function rawHttp(text: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(svc.port, '127.0.0.1', () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => (chunks.length > 0 ? undefined : reject(error)));
    socket.on('close', () => {
      const response = Buffer.concat(chunks).toString('utf8');
      const split = response.indexOf('\r\n\r\n');
      const [statusLine, ...headerLines] = response.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: response.slice(split + 4) });
    });
  });
}

const host = () => `127.0.0.1:${svc.port}`;
const get = (target: string, extra = '') =>
  rawHttp(`GET ${target} HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Api-Key ${ADMIN_KEY}\r\n${extra}Connection: close\r\n\r\n`);

function expectProblem(res: RawResponse, status: number, code: string) {
  expect(res.status, res.body.slice(0, 300)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.body);
  expect(body).toMatchObject({ status, code });
}

describe('large JSON bodies (parsed on a compute thread) follow the same rules as small ones', () => {
  // Whitespace is valid around any JSON value: padding takes a body past the size parsed off-thread.
  const pad = ' '.repeat(300 * 1024);
  const answer = async (body: string) => {
    const res = await svc.call('PUT', '/api/v1/tenant/settings', { body });
    return { status: res.status, code: res.body?.code as string | undefined, detail: res.body?.detail as string | undefined };
  };

  it('a malformed, a too-deep and a prototype-poisoning body answer the same 400 at 300 KB as at 30 bytes, and change nothing', async () => {
    const before = (await svc.call('GET', '/api/v1/tenant/settings')).body;
    for (const [body, code] of [
      ['{"applyThemeGlobally": tru', 'MALFORMED_JSON'],
      [`{"applyThemeGlobally":${'['.repeat(100)}${']'.repeat(100)}}`, 'JSON_TOO_DEEP'],
      ['{"__proto__": {"admin": true}}', 'MALFORMED_JSON'],
      ['{"a": {"constructor": {"prototype": {"x": 1}}}}', 'MALFORMED_JSON'],
    ] as const) {
      const small = await answer(body);
      expect(small, body).toMatchObject({ status: 400, code });
      expect(await answer(`${pad}${body}`), body).toEqual(small);
    }
    expect((await svc.call('GET', '/api/v1/tenant/settings')).body).toEqual(before);
  });

  it('a valid body is read the same at 300 KB (with a byte-order mark too), and a blank one is no body', async () => {
    const settings = (await svc.call('GET', '/api/v1/tenant/settings')).body as { applyThemeGlobally: boolean };
    const flipped = !settings.applyThemeGlobally;
    const res = await svc.call('PUT', '/api/v1/tenant/settings', { body: `\uFEFF{"applyThemeGlobally": ${flipped}}${pad}` });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect((await svc.call('GET', '/api/v1/tenant/settings')).body.applyThemeGlobally).toBe(flipped);
    // A required body left blank answers 400 for the missing body, whatever its size.
    const blankSmall = await answer('   ');
    expect(blankSmall.status).toBe(400);
    expect(await answer(pad)).toEqual(blankSmall);
  });
});

describe('JSON nesting depth', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('a body nested 5,000 levels deep answers 400 JSON_TOO_DEEP and changes nothing', async () => {
    const before = await svc.call('GET', '/api/v1/tenant/settings');
    const res = await svc.call('PUT', '/api/v1/tenant/settings', { body: `{"applyThemeGlobally":${nested(5000)}}` });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('JSON_TOO_DEEP');
    expect((await svc.call('GET', '/api/v1/tenant/settings')).body).toEqual(before.body);
  });

  it('a free-form object nested 5,000 levels deep (an environment token’s security context) answers 400, not 500', async () => {
    const envId = (await svc.call('GET', `/api/v1/deployments/${dep}/environments`)).body.items[0].id;
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await svc.call('POST', `/api/v1/deployments/${dep}/environments/${envId}/tokens`, { body: `{"security_context":${deep}}` });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('JSON_TOO_DEEP');
  });

  it(`nesting up to ${MAX_JSON_DEPTH} levels is accepted, and brackets inside strings do not count`, () => {
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth(JSON.stringify({ text: '['.repeat(10_000), quote: 'a \\" [[[[' }))).toBe(false);
  });
});

describe('request targets over the URL limit', () => {
  it('a request line longer than Node’s header limit answers 414 problem+json URI_TOO_LONG', async () => {
    expectProblem(await get(`/api/v1/deployments/${'a'.repeat(20_000)}`), 414, 'URI_TOO_LONG');
  });

  it('a target over 8 KiB (within Node’s limit) answers 414 URI_TOO_LONG, before authentication', async () => {
    const res = await rawHttp(`GET /api/v1/deployments?x=${'a'.repeat(9000)} HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`);
    expectProblem(res, 414, 'URI_TOO_LONG');
  });

  it('a path parameter over the router’s limit answers 414 problem+json, not Fastify’s own JSON', async () => {
    const target = `/api/v1/deployments/${dep}/workbooks/by-slug/${'a'.repeat(600)}`;
    const res = await rawHttp(`PUT ${target} HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Api-Key ${ADMIN_KEY}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    expectProblem(res, 414, 'URI_TOO_LONG');
  });

  it('headers over Node’s limit answer 431 problem+json HEADERS_TOO_LARGE', async () => {
    expectProblem(await get('/api/v1/deployments', `X-Padding: ${'p'.repeat(20_000)}\r\n`), 431, 'HEADERS_TOO_LARGE');
  });

  it('a request that is not HTTP answers 400 problem+json MALFORMED_REQUEST', async () => {
    expectProblem(await rawHttp('HELLO\r\n\r\n'), 400, 'MALFORMED_REQUEST');
  });

  it('a path with broken percent-encoding answers 400 problem+json', async () => {
    const res = await get(`/api/v1/deployments/${dep}/pods/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('Infinity, NaN, 1e999, hex, exponent or padded numbers where an integer is declared (path, query, JSON body) answer 400 and write nothing', async () => {
    for (const path of [`/api/v1/deployments/Infinity/workbooks/by-slug/board`, `/api/v1/deployments/NaN/workbooks/by-slug/board`]) {
      const res = await svc.call('PUT', path, { body: { name: 'Board' } });
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    // Forms validation would coerce to a number the deployment checks never saw.
    for (const id of ['0x10', '1e3', '%201', `0${dep}`]) {
      const res = await svc.call('PUT', `/api/v1/deployments/${id}/workbooks/by-slug/board`, { body: { name: 'Board' } });
      expect(res.status, id).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const query = await svc.call('GET', `/api/v1/deployments/${dep}/workbooks?first=Infinity`);
    expect(query.status).toBe(400);
    const body = await svc.call('PUT', `/api/v1/deployments/${dep}/workbooks/by-slug/board`, { body: '{"name":"Board","folderId":1e999}' });
    expect(body.status).toBe(400);
    expect(body.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await svc.call('GET', `/api/v1/deployments/${dep}/workbooks`)).body.items).toEqual([]);
  });
});

describe('absolute-form request targets follow the Host rules', () => {
  it('an absolute-form target naming another host answers 421 MISDIRECTED_REQUEST (even with an allowed Host header)', async () => {
    expectProblem(await get('http://evil.example/api/v1/deployments'), 421, 'MISDIRECTED_REQUEST');
    expectProblem(await get(`http://127.0.0.1:${svc.port + 1}/api/v1/deployments`), 421, 'MISDIRECTED_REQUEST');
  });

  it('an absolute-form target naming this service is served as its path (RFC 9112 §3.2.2)', async () => {
    const res = await get(`http://${host()}/api/v1/deployments/${dep}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).id).toBe(dep);
  });

  it('a target that is neither a path nor an http URL answers 400 ABSOLUTE_FORM_REFUSED', async () => {
    expectProblem(await get('ftp://127.0.0.1/api/v1/deployments'), 400, 'ABSOLUTE_FORM_REFUSED');
    expectProblem(await get(`http://user:pw@${host()}/api/v1/deployments`), 400, 'ABSOLUTE_FORM_REFUSED');
  });
});
