// The built UI served by the service (`drydock serve`, the app): its files at their paths, the
// single-page fallback for client routes, and nothing else — credentials still guard unknown API
// paths, other methods answer 404, and a path outside the UI's folder is never read.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src-main/http/server';
import { startTestService, type TestService } from '../support/service';

const INDEX = '<!doctype html><title>Drydock</title><div id="root"></div>';
const SCRIPT = 'console.log("app");\n';

let rendererDir: string;
let service: TestService;
beforeAll(async () => {
  rendererDir = mkdtempSync(join(tmpdir(), 'drydock-ui-'));
  mkdirSync(join(rendererDir, 'assets'));
  mkdirSync(join(rendererDir, 'nested', 'dir'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), INDEX);
  writeFileSync(join(rendererDir, 'assets', 'app-1a2b.js'), SCRIPT);
  writeFileSync(join(rendererDir, 'assets', 'style.css'), 'body{margin:0}');
  writeFileSync(join(rendererDir, 'assets', 'index-D-2csnTE.js'), SCRIPT);
  writeFileSync(join(rendererDir, 'nested', 'dir', 'note.txt'), 'nested');
  writeFileSync(join(rendererDir, 'a b.txt'), 'spaced');
  // Outside the UI's folder, beside it: never served.
  writeFileSync(join(rendererDir, '..', `${rendererDir.split('/').pop()}-secret.txt`), 'secret');
  service = await startTestService({ rendererDir });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  rmSync(rendererDir, { recursive: true, force: true });
  rmSync(join(rendererDir, '..', `${rendererDir.split('/').pop()}-secret.txt`), { force: true });
});

const get = (path: string, init: RequestInit = {}) => fetch(`${service.url}${path}`, init);

/** A request sent exactly as written (fetch normalises `..` and encodings away). */
function raw(method: string, path: string): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: service.port, path, method }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type'] ?? '') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the built UI', () => {
  it('serves each file of the UI at its path, with its type, the UI content security policy and validators', async () => {
    const res = await get('/assets/app-1a2b.js');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(SCRIPT);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-length')).toBe(String(SCRIPT.length));
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.headers.get('last-modified')).toBeTruthy();
    const css = await get('/assets/style.css?v=2');
    expect([css.status, css.headers.get('content-type'), await css.text()]).toEqual([200, 'text/css; charset=utf-8', 'body{margin:0}']);
    const nested = await get('/nested/dir/note.txt');
    expect([nested.status, await nested.text()]).toEqual([200, 'nested']);
    const spaced = await get('/a%20b.txt');
    expect([spaced.status, await spaced.text()]).toEqual([200, 'spaced']);
    const part = await get('/assets/app-1a2b.js', { headers: { range: 'bytes=0-6' } });
    expect([part.status, await part.text()]).toEqual([206, 'console']);
  });

  it('lets a browser keep the hashed assets without asking again, and makes it ask for index.html each time', async () => {
    const immutable = 'public, max-age=31536000, immutable';
    for (const path of ['/assets/index-D-2csnTE.js', '/assets/index-D-2csnTE.js?v=1']) {
      const res = await get(path);
      expect({ path, status: res.status, cache: res.headers.get('cache-control') }).toEqual({ path, status: 200, cache: immutable });
    }
    // index.html (at any client route, and for a hashed name that does not exist) and files without a content hash: asked for again each time.
    for (const path of ['/', '/index.html', '/deployments/3', '/assets/missing-9zAbCdEf.js', '/assets/app-1a2b.js', '/assets/style.css', '/nested/dir/note.txt']) {
      const res = await get(path);
      expect({ path, status: res.status, cache: res.headers.get('cache-control') }).toEqual({ path, status: 200, cache: 'no-cache' });
    }
  });

  it('answers HEAD for a file with its length and no body', async () => {
    const res = await get('/assets/app-1a2b.js', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(SCRIPT.length));
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it('serves index.html at / and for client routes and unknown files (the single-page fallback)', async () => {
    for (const path of ['/', '/index.html', '/deployments/3', '/deployments/3/models?file=a.yml', '/assets/missing-9z.js', '/nested/dir/', '/assets/app-1a2b.js/']) {
      const res = await get(path);
      expect({ path, status: res.status, body: await res.text() }).toEqual({ path, status: 200, body: INDEX });
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it('answers 404 problems for other methods on UI paths and for HEAD of a client route', async () => {
    for (const [method, path] of [
      ['POST', '/assets/app-1a2b.js'],
      ['DELETE', '/index.html'],
      ['PUT', '/deployments/3'],
      ['HEAD', '/deployments/3'],
    ] as const) {
      const res = await raw(method, path);
      expect({ method, path, status: res.status, type: res.type }).toEqual({ method, path, status: 404, type: 'application/problem+json; charset=utf-8' });
    }
  });

  it('never reads outside the UI folder, whatever the path encodes', async () => {
    const name = `${rendererDir.split('/').pop()}-secret.txt`;
    for (const path of [`/../${name}`, `/assets/../../${name}`, `/%2e%2e/${name}`, `/assets/%2e%2e%2f%2e%2e%2f${name}`, `/..%2f${name}`]) {
      const res = await raw('GET', path);
      expect(res.body, path).not.toContain('secret');
      expect(res.status, path).not.toBe(500);
    }
  });

  it('still requires a credential for unknown API paths', async () => {
    const res = await get('/api/v1/no-such-thing');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect((await get('/api/v1/no-such-thing', { headers: { authorization: `Api-Key dd_test_admin_key_0123456789abcdefghijklmnop` } })).status).toBe(404);
  });
});
