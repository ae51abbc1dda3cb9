import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { createService, silentLogger, type Service, type ServiceOptions } from '../../src-main/service';
import { MemorySecretStore } from '../../src-main/platform/secrets';
import { readResponse } from './http-response';

export const ADMIN_KEY = 'dd_test_admin_key_0123456789abcdefghijklmnop';

export interface TestService extends Service {
  dataDir: string;
  /** `fetch` against the service with the admin API key unless `headers.authorization` is given (null = none). */
  call(method: string, path: string, init?: { body?: unknown; headers?: Record<string, string | null>; auth?: string | null }): Promise<TestResponse>;
  stop(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // Tests read arbitrary JSON bodies; shapes are asserted field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/** A real service on an ephemeral 127.0.0.1 port with a real SQLite file in a fresh temp dir. */
export async function startTestService(options: Partial<ServiceOptions> = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'drydock-test-'));
  const service = await createService({
    secrets: new MemorySecretStore(),
    log: silentLogger,
    bootstrapApiKey: ADMIN_KEY,
    ...options,
    dataDir,
  });
  const call: TestService['call'] = async (method, path, init = {}) => {
    const headers: Record<string, string> = {};
    const auth = init.auth === undefined ? `Api-Key ${ADMIN_KEY}` : init.auth;
    if (auth !== null) headers.authorization = auth;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    for (const [k, v] of Object.entries(init.headers ?? {})) {
      if (v === null) delete headers[k.toLowerCase()];
      else headers[k.toLowerCase()] = v;
    }
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    });
    return readResponse(res);
  };
  return {
    ...service,
    dataDir,
    call,
    stop: async () => {
      await service.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A raw HTTP request with a chosen Host header (fetch does not allow setting Host). */
export function rawRequest(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string; contentType: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, contentType: String(res.headers['content-type'] ?? '') }));
    });
    req.on('error', reject);
    req.end();
  });
}
