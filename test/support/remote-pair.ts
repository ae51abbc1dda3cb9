import { rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readResponse } from './http-response';
import { startServe, type ServeProcess } from './serve';

/**
 * Two real `drydock serve` processes on loopback: `local` (the app's own service) and `remote`
 * (another Drydock the app reaches through a profile). Each has its own data dir and admin key.
 */
export interface ServeClient {
  serve: ServeProcess;
  url: string;
  key: string;
  /** Stops the process and removes its data dir. */
  close(): Promise<void>;
  // Tests read arbitrary JSON bodies; shapes are asserted field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call(method: string, path: string, init?: { body?: unknown; auth?: string | null; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; body: any; text: string }>;
}

export async function serveClient(key: string, env: Record<string, string> = {}): Promise<ServeClient> {
  // Generous: on a loaded CI machine a cold start takes tens of seconds.
  const serve = await startServe({ args: ['--no-login-link'], env: { DRYDOCK_BOOTSTRAP_API_KEY: key, ...env }, timeoutMs: 110_000 });
  return {
    serve,
    url: serve.url,
    key,
    async close() {
      await serve.stop();
      rmSync(serve.dataDir, { recursive: true, force: true });
    },
    async call(method, path, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      const auth = init.auth === undefined ? `Api-Key ${key}` : init.auth;
      if (auth !== null) headers.authorization = auth;
      if (init.body !== undefined) headers['content-type'] ??= 'application/json';
      const res = await fetch(`${serve.url}${path}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
      });
      return readResponse(res);
    },
  };
}

/** Polls a transfer until it ends. */
export async function waitForTransfer(local: ServeClient, id: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await local.call('GET', `/api/v1/remote-transfers/${id}`);
    if (['COMPLETED', 'FAILED', 'CANCELLED'].includes(res.body?.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`Transfer ${id} did not end: ${res.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A network fault between the local service and a real remote: forwards every request to
 * `target`, except that a request for which `fault(req)` answers a status gets that status (with a
 * problem body) instead, or, for 'hang', no answer at all. Stands for a remote that fails halfway.
 */
export async function faultyLink(target: string, fault: (req: IncomingMessage) => number | 'hang' | null): Promise<{ url: string; close(): Promise<void>; seen: string[] }> {
  const seen: string[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const injected = fault(req);
    if (injected === 'hang') return;
    if (injected !== null) {
      req.resume();
      res.writeHead(injected, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Injected', status: injected, code: 'INJECTED_FAULT', detail: 'fault injected by the test' }));
      return;
    }
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
