import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startTestService, type TestService } from '../support/service';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc.stop());

describe('service core', () => {
  it('serves the OpenAPI 3.1.0 document without a credential, interface version 1.0.0', async () => {
    const res = await svc.call('GET', '/api/v1/spec', { auth: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('1.0.0');
    expect(res.body.paths['/api/v1/spec'].get.operationId).toBe('getOpenApiSpec');
  });

  it('answers health without a credential', async () => {
    const res = await svc.call('GET', '/api/v1/health', { auth: null });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('refuses a call without a credential with 401 problem+json', async () => {
    const res = await svc.call('GET', '/api/v1/deployments', { auth: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('refuses a wrong API key and an unknown scheme with 401', async () => {
    expect((await svc.call('GET', '/api/v1/deployments', { auth: 'Api-Key dd_wrong' })).status).toBe(401);
    expect((await svc.call('GET', '/api/v1/deployments', { auth: 'Basic abc' })).status).toBe(401);
    expect((await svc.call('GET', '/api/v1/deployments', { auth: 'Bearer not.a.jwt' })).body.code).toBe('UNAUTHENTICATED');
  });

  it('answers 421 to a foreign Host header (DNS rebinding guard)', async () => {
    const res = await rawRequest(svc.port, '/api/v1/spec', { host: 'evil.example:80' });
    expect(res.status).toBe(421);
    expect(res.contentType).toContain('application/problem+json');
    expect(JSON.parse(res.body).code).toBe('MISDIRECTED_REQUEST');
  });

  it('accepts localhost and 127.0.0.1 with its own port as Host', async () => {
    expect((await rawRequest(svc.port, '/api/v1/health', { host: `localhost:${svc.port}` })).status).toBe(200);
    expect((await rawRequest(svc.port, '/api/v1/health', { host: `127.0.0.1:${svc.port}` })).status).toBe(200);
    expect((await rawRequest(svc.port, '/api/v1/health', { host: `127.0.0.1:${svc.port + 1}` })).status).toBe(421);
  });

  it('refuses cross-origin browser requests it was not configured to allow, without CORS headers', async () => {
    const res = await svc.call('GET', '/api/v1/health', { headers: { origin: 'https://attacker.example' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('CROSS_ORIGIN_REFUSED');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers unknown routes with a 404 problem', async () => {
    const res = await svc.call('GET', '/api/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ROUTE_NOT_FOUND');
  });

  it('listens on 127.0.0.1 only', () => {
    const address = svc.ctx && (svc as unknown as { url: string }).url;
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
