/**
 * Limits on what a request may look like before any route sees it, and the problem+json answers
 * for requests that break them at the HTTP layer (Node's parser, Fastify's router), where the
 * usual error handler never runs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemBody } from './problem';

export { exceedsJsonDepth, MAX_JSON_DEPTH } from '../platform/json/body';

/** Longest request target (path and query) served; longer ones answer 414. */
export const MAX_URL_LENGTH = 8 * 1024;

export const LimitCodes = {
  JSON_TOO_DEEP: 'JSON_TOO_DEEP',
  URI_TOO_LONG: 'URI_TOO_LONG',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  MALFORMED_REQUEST: 'MALFORMED_REQUEST',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  EXPECTATION_FAILED: 'EXPECTATION_FAILED',
  ABSOLUTE_FORM_REFUSED: 'ABSOLUTE_FORM_REFUSED',
  INVALID_URL: 'INVALID_URL',
} as const;

/** The authority of an absolute-form request target (`GET http://host:port/path`), kept for the Host check. */
const ABSOLUTE_AUTHORITY = Symbol('absolute-form authority');
type MarkedRequest = IncomingMessage & { [ABSOLUTE_AUTHORITY]?: string | null };

/**
 * Fastify `rewriteUrl`: an absolute-form target (RFC 9112 §3.2.2) is routed by its path like the
 * origin-form, and its authority is remembered so the Host rules apply to it (see
 * {@link absoluteFormAuthority}). A target that is neither (`*`, `ftp://…`, garbage) keeps an
 * authority of null: it is refused with 400.
 */
export function rewriteAbsoluteForm(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (url.startsWith('/')) return url;
  const marked = req as MarkedRequest;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' || parsed.username || parsed.password) throw new Error('not an http target');
    marked[ABSOLUTE_AUTHORITY] = parsed.host.toLowerCase();
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    marked[ABSOLUTE_AUTHORITY] = null;
    return '/';
  }
}

/** `undefined` for an origin-form request; the authority (or null when unusable) for an absolute-form one. */
export const absoluteFormAuthority = (req: IncomingMessage): string | null | undefined => (req as MarkedRequest)[ABSOLUTE_AUTHORITY];

/** Fastify's router errors (a path parameter over `maxParamLength`, an undecodable path) as problems. */
export function frameworkProblem(error: { code?: string; message: string }, url: string): { status: number; body: Record<string, unknown> } {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return { status: 414, body: problemBody(414, LimitCodes.URI_TOO_LONG, 'A path segment of the request is too long.', url.slice(0, 200)) };
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return { status: 400, body: problemBody(400, LimitCodes.INVALID_URL, 'The request path is not a valid URL (bad percent-encoding).') };
  }
  return { status: 400, body: problemBody(400, LimitCodes.MALFORMED_REQUEST, error.message) };
}

/** The request line of a raw packet Node could not parse, when it is there. */
function requestLineLength(rawPacket: unknown): number | null {
  if (!Buffer.isBuffer(rawPacket)) return null;
  const end = rawPacket.indexOf('\r\n');
  return end === -1 ? rawPacket.length : end;
}

/**
 * Node's `clientError` (the request never reached Fastify): a request line over the limit is 414,
 * other header overflow 431, a timeout 408, anything else 400 — each as problem+json.
 */
export function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let body = problemBody(400, LimitCodes.MALFORMED_REQUEST, 'The request is not valid HTTP/1.1.');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = problemBody(408, LimitCodes.REQUEST_TIMEOUT, 'The request took too long to arrive.');
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    const line = requestLineLength(error.rawPacket);
    // Node counts the request line into its header limit; a line that never ended is the URL's fault.
    if (line === null || line > MAX_URL_LENGTH) {
      status = 414;
      body = problemBody(414, LimitCodes.URI_TOO_LONG, `The request target is longer than ${MAX_URL_LENGTH} characters.`);
    } else {
      status = 431;
      body = problemBody(431, LimitCodes.HEADERS_TOO_LARGE, 'The request headers are too large.');
    }
  }
  // An answer already under way on this connection (Node's request timeout can strike while a
  // stalled body is being answered) is not interrupted by a second status line.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/**
 * Node's `checkExpectation`: an `Expect` header other than `100-continue` answers 417 as
 * problem+json (Node's own answer has no body). The body, if one follows, is not read.
 */
export function answerExpectationFailed(request: IncomingMessage, response: ServerResponse): void {
  const text = JSON.stringify(problemBody(417, LimitCodes.EXPECTATION_FAILED, 'Only the expectation 100-continue is supported.', (request.url ?? '/').slice(0, 200)));
  response.writeHead(417, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(text),
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  response.end(text);
}
