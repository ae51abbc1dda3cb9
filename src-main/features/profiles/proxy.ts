import { Readable, Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCodes } from '../../../src-shared/api/errors';
import { PROFILE_NAME_PATTERN, ProfileErrorCodes as Codes } from '../../../src-shared/api/profiles';
import { ApiError } from '../../http/problem';
import type { Api } from '../../http/route';
import { assertProfileAccess } from './access';
import { openRemote, problemFrom, remoteFetch } from './remote';

/*
 * How the renderer reaches a remote profile: a narrow proxy on the local service,
 *
 *   {local}/api/v1/profiles/{name}/proxy/api/v1/…        → {profile base URL}/api/v1/…
 *   {local}/api/v1/profiles/{name}/proxy/build/api/v1/…  → {profile base URL}/build/api/v1/…
 *
 * Why a proxy rather than the page calling the remote itself: the credential stays in the
 * keychain of the local service and never reaches the page (whose CSP allows `connect-src 'self'`
 * only), the remote needs no CORS configuration for a desktop origin, and the local service's
 * Host/Origin checks and authentication guard it like any other route.
 *
 * Why it is not an open relay:
 * - only profiles an admin configured (by name), only with an admin's workspace session or API key;
 * - only the platform's API paths (`/api/v1/…`, `/build/api/v1/…`), no dot segments or encoded
 *   slashes, and never the remote's own profile routes (no chains of proxies);
 * - the caller's own `Authorization` and cookies are never forwarded: the profile's credential
 *   replaces them, and only a few content headers pass through in either direction;
 * - bodies are bounded both ways, the remote has remoteTimeoutMs() to answer and a whole exchange
 *   at most PROXY_TOTAL_MS; redirects are refused (they would carry the credential elsewhere);
 * - a remote that is down, slow, or rejects the credential answers a problem naming the profile
 *   (502 PROFILE_UNREACHABLE / PROFILE_CREDENTIAL_REJECTED, 504 PROFILE_TIMEOUT), never the
 *   remote's 401 as is, which the page would take for the end of its own session.
 */

/** Largest answer relayed (dashboard exports are the biggest downloads). */
export const MAX_PROXY_RESPONSE_BYTES = 64 * 1024 * 1024;
/** A whole proxied exchange, answer body included. */
export const PROXY_TOTAL_MS = 5 * 60_000;

const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'if-match', 'if-none-match', 'accept-language'];
const RELAYED_RESPONSE_HEADERS = ['content-type', 'content-disposition', 'content-language', 'etag', 'last-modified', 'retry-after'];
const API_PATH = /^\/(?:build\/)?api\/v1(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@%]*)*$/;
const NAME = new RegExp(PROFILE_NAME_PATTERN);

function refuse(detail: string): ApiError {
  return new ApiError(400, Codes.PROXY_PATH_REFUSED, detail);
}

/** The remote path and query of a proxied request, checked; throws PROXY_PATH_REFUSED. */
export function proxiedTarget(rawUrl: string, name: string): { path: string; query: string } {
  const prefix = `/api/v1/profiles/${name}/proxy`;
  if (!rawUrl.startsWith(`${prefix}/`)) throw refuse('The proxy forwards only /api/v1/… and /build/api/v1/… paths.');
  const rest = rawUrl.slice(prefix.length);
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? '' : rest.slice(q);
  if (!API_PATH.test(path)) throw refuse('The proxy forwards only /api/v1/… and /build/api/v1/… paths.');
  // A trailing slash is part of some operations' paths (`POST /build/api/v1/deployments/`).
  const segments = path.replace(/\/$/, '').split('/').slice(1);
  if (segments.some((s) => s === '' || s === '.' || s === '..') || /%(?:2e|2f|5c|00)/i.test(path)) {
    throw refuse('The proxied path may not contain empty or dot segments, or encoded slashes and dots.');
  }
  if (/^\/api\/v1\/profiles(?:\/|$)/.test(path) || /^\/api\/v1\/remote-transfers(?:\/|$)/.test(path)) {
    throw refuse('The proxy does not reach the remote’s own profiles or transfers (no chains of proxies).');
  }
  return { path, query };
}

/** Counts bytes through and fails the stream past `limit`. */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.byteLength;
      if (seen > limit) done(new Error(`The remote's answer exceeded ${limit} bytes; the proxy stopped relaying it.`));
      else done(null, chunk);
    },
  });
}

export async function forward(api: Api, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const principal = request.principal;
  if (!principal) throw new ApiError(401, ErrorCodes.UNAUTHENTICATED, 'A credential is required.');
  assertProfileAccess(principal);
  const name = (request.params as { profileName?: string }).profileName ?? '';
  if (!NAME.test(name)) throw new ApiError(404, Codes.PROFILE_NOT_FOUND, `There is no profile named "${name}".`);
  const { path, query } = proxiedTarget(request.raw.url ?? '', name);
  const remote = await openRemote(api.ctx, name);

  const headers: Record<string, string> = { authorization: remote.authorization, 'user-agent': 'Drydock-profile-proxy' };
  for (const header of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers[header];
    if (typeof value === 'string') headers[header] = value;
  }
  const body = Buffer.isBuffer(request.body) && request.body.byteLength > 0 ? request.body : undefined;

  // Ends the remote exchange when the page goes away or the whole exchange runs too long.
  const abort = new AbortController();
  const total = setTimeout(() => abort.abort(new Error('The proxied exchange took too long.')), PROXY_TOTAL_MS);
  reply.raw.on('close', () => {
    clearTimeout(total);
    if (!reply.raw.writableFinished) abort.abort(new Error('The client went away.'));
  });

  const upstream = await remoteFetch(remote, `${remote.baseUrl}${path}${query}`, {
    method: request.method,
    headers,
    ...(body ? { body } : {}),
    signal: abort.signal,
  });
  if (upstream.status === 401) throw await problemFrom(remote, upstream, `${request.method} ${path}`);
  const declared = Number(upstream.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_PROXY_RESPONSE_BYTES) {
    await upstream.body?.cancel();
    throw new ApiError(502, Codes.PROFILE_RESPONSE_TOO_LARGE, `Profile "${name}" answered with ${declared} bytes; the proxy relays at most ${MAX_PROXY_RESPONSE_BYTES}.`);
  }
  reply.code(upstream.status);
  reply.header('x-drydock-profile', name);
  for (const header of RELAYED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(header);
    if (value !== null) reply.header(header, value);
  }
  if (!upstream.body || upstream.status === 204 || upstream.status === 304) {
    await upstream.body?.cancel();
    return reply.send();
  }
  const stream = Readable.fromWeb(upstream.body as import('node:stream/web').ReadableStream<Uint8Array>).pipe(byteLimit(MAX_PROXY_RESPONSE_BYTES));
  return reply.send(stream);
}
