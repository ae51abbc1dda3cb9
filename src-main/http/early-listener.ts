/**
 * The service's port, open before the HTTP framework and the areas are loaded (start time, issue 10).
 *
 * Loading and compiling the framework, the contract and every area's code takes most of a start. The
 * listener binds the port as soon as the database is open and answers the liveness probe
 * (`GET /api/v1/health`, byte for byte what the full server answers) at once; every other request is
 * held, unread, and handed to the full server in arrival order once it is ready. Nothing is answered
 * differently: a held request simply waits for the service to finish starting.
 *
 * This module stays light on purpose (node:http, the problem helpers and the connection guard
 * only): it is what a start loads before the port opens.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { guardConnections, httpLimits, serverOptions, type HttpLimits } from './connection-guard';
import { answerClientError, answerExpectationFailed } from './request-limits';

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface EarlyListener {
  readonly server: Server;
  readonly port: number;
  /**
   * The full server takes over Node's client-error events (it attaches its own handler when it is
   * created around this server): the listener's own handler steps aside.
   */
  releaseClientErrors(): void;
  /** From now on every request goes to `handler`; held requests go first, in arrival order. */
  handOver(handler: RequestHandler): void;
  /** The start failed: held requests are dropped and the port is closed. */
  abort(): Promise<void>;
}

export const HEALTH_PATH = '/api/v1/health';

/** The exact bytes of the full server's health answer (same headers, same body). */
function answerHealth(response: ServerResponse, body: string): void {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

/**
 * Binds 127.0.0.1:`port` (0: any free port). The server's timeouts and connection caps are set here,
 * once, for the full server too (connection-guard.ts; `limits` override the defaults): a connection
 * opened early behaves the same.
 */
export async function listenEarly(port: number, version: string, limits: Partial<HttpLimits> = {}): Promise<EarlyListener> {
  const healthBody = JSON.stringify({ status: 'ok', version });
  const held: [IncomingMessage, ServerResponse][] = [];
  let allowedHosts = new Set<string>();
  let handler: RequestHandler | null = null;

  /** Only a plain health probe of this very service is answered before the rest is loaded. */
  const isPlainHealthProbe = (request: IncomingMessage) =>
    (request.method === 'GET' || request.method === 'HEAD') &&
    (request.url === HEALTH_PATH || request.url?.startsWith(`${HEALTH_PATH}?`) === true) &&
    request.headers.origin === undefined &&
    allowedHosts.has((request.headers.host ?? '').toLowerCase());

  const chosen = httpLimits(limits);
  const server = createServer(serverOptions(chosen), (request, response) => {
    if (handler) handler(request, response);
    else if (isPlainHealthProbe(request)) answerHealth(response, healthBody); // Node sends no body to HEAD
    else held.push([request, response]);
  });
  // No inactivity timeout on sockets: a long answer (the live-events stream, a download) may be
  // quiet for a while; requests are bounded by the timeouts above and the guard.
  server.setTimeout(0);
  guardConnections(server, chosen);
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectationFailed);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  allowedHosts = new Set([`127.0.0.1:${boundPort}`, `localhost:${boundPort}`]);

  return {
    server,
    port: boundPort,
    releaseClientErrors: () => void server.off('clientError', answerClientError),
    handOver(next) {
      handler = next;
      for (const [request, response] of held.splice(0)) next(request, response);
    },
    async abort() {
      for (const [request] of held.splice(0)) request.socket.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
