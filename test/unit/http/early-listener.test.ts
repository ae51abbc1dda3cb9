// The port opens before the service has loaded its areas (start time, issue 10): health probes are
// answered at once, exactly as the full server answers them; everything else waits, unread, and is
// answered by the full server once it takes over, in arrival order.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenEarly, type EarlyListener } from '../../../src-main/http/early-listener';
import { startTestService, type TestService } from '../../support/service';
import packageJson from '../../../package.json';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** True when `promise` has not settled after the event loop went round a few times. */
async function stillPending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  return !settled;
}

let listener: EarlyListener | null = null;
let service: TestService | null = null;
afterEach(async () => {
  await listener?.abort();
  await service?.stop();
  listener = null;
  service = null;
});

describe('the early listener (the port opens before the areas are loaded)', () => {
  it('answers GET /api/v1/health at once, with the same status, headers and body as the full service', async () => {
    listener = await listenEarly(0, packageJson.version);
    const early = await send(listener.port, 'GET', '/api/v1/health');
    service = await startTestService();
    const full = await send(service.port, 'GET', '/api/v1/health');
    expect(early.status).toBe(200);
    expect(early.body).toBe(full.body);
    expect(JSON.parse(early.body)).toEqual({ status: 'ok', version: packageJson.version });
    for (const name of ['content-type', 'content-length', 'x-content-type-options', 'referrer-policy', 'cache-control', 'connection', 'keep-alive']) {
      expect(early.headers[name], name).toBe(full.headers[name]);
    }
  });

  it('holds every other request unread and hands them to the full server in arrival order, bodies intact', async () => {
    listener = await listenEarly(0, packageJson.version);
    const first = send(listener.port, 'POST', '/api/v1/anything', { 'content-type': 'application/json' }, '{"n":1}');
    const second = send(listener.port, 'GET', '/api/v1/users/me');
    expect(await stillPending(first)).toBe(true);
    expect(await stillPending(second)).toBe(true);
    const seen: string[] = [];
    listener.handOver((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        seen.push(`${request.method} ${request.url} ${body}`);
        response.end(`handled ${request.url}`);
      });
    });
    expect((await first).body).toBe('handled /api/v1/anything');
    expect((await second).body).toBe('handled /api/v1/users/me');
    expect(seen).toEqual(['POST /api/v1/anything {"n":1}', 'GET /api/v1/users/me ']);
  });

  it('holds a health probe that names another host or comes from a page (the full server answers it with its rules)', async () => {
    listener = await listenEarly(0, packageJson.version);
    const foreign = send(listener.port, 'GET', '/api/v1/health', { host: 'attacker.example:80' });
    const fromPage = send(listener.port, 'GET', '/api/v1/health', { origin: 'http://evil.example' });
    expect(await stillPending(foreign)).toBe(true);
    expect(await stillPending(fromPage)).toBe(true);
    listener.handOver((_request, response) => {
      response.statusCode = 421;
      response.end();
    });
    expect((await foreign).status).toBe(421);
    expect((await fromPage).status).toBe(421);
  });

  it('a start that fails after the port opened drops the held requests and frees the port', async () => {
    listener = await listenEarly(0, packageJson.version);
    const port = listener.port;
    const held = send(port, 'GET', '/api/v1/users/me');
    expect(await stillPending(held)).toBe(true);
    await listener.abort();
    listener = null;
    await expect(held).rejects.toThrow();
    await expect(send(port, 'GET', '/api/v1/health')).rejects.toThrow(/ECONNREFUSED/);
  });
});
