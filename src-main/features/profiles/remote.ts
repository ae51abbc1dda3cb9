import type { CallInput } from '../../../src-shared/api/client';
import { buildPath, buildQuery } from '../../../src-shared/api/client';
import type { ResponseOf, RouteDef } from '../../../src-shared/api/contract';
import { ProfileErrorCodes as Codes } from '../../../src-shared/api/profiles';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import type { Profile } from '../../platform/profiles';
import { mapProfileErrors, profileStore } from './access';

/**
 * How long a remote may take to answer (headers) before the call fails with `PROFILE_TIMEOUT`:
 * 30 s, or `DRYDOCK_PROFILE_TIMEOUT_MS`.
 */
export const remoteTimeoutMs = (): number => Number(process.env.DRYDOCK_PROFILE_TIMEOUT_MS) || 30_000;
/** Largest JSON answer read from a remote (its OpenAPI document is the biggest one expected). */
export const MAX_REMOTE_JSON_BYTES = 32 * 1024 * 1024;

/** A profile resolved for calling: where, and with which `Authorization` (never logged). */
export interface Remote {
  profile: Profile;
  name: string;
  baseUrl: string;
  authorization: string;
}

export async function openRemote(ctx: ServiceContext, name: string): Promise<Remote> {
  return mapProfileErrors(async () => {
    const store = profileStore(ctx);
    const profile = store.require(name);
    const { authorization } = await store.resolveCredential(name);
    return { profile, name, baseUrl: profile.baseUrl, authorization };
  });
}

const where = (remote: Pick<Remote, 'name' | 'baseUrl'>) => `profile "${remote.name}" (${remote.baseUrl})`;

/** The cause of a failed fetch in words (`ECONNREFUSED`, `ENOTFOUND host`, a TLS error…). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * `fetch` to a remote with a timeout on the answer's headers, no redirects (a redirect would carry
 * the credential to wherever it points) and failures as problems that say which profile failed.
 * The caller's `signal` (a job's cancellation, a closed client connection) aborts it too; that
 * abort is rethrown as is.
 */
export async function remoteFetch(
  remote: Pick<Remote, 'name' | 'baseUrl'>,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Buffer; signal?: AbortSignal; timeoutMs?: number },
): Promise<Response> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), init.timeoutMs ?? remoteTimeoutMs());
  const signal = init.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
  let response: Response;
  try {
    response = await fetch(url, { method: init.method, headers: init.headers, body: init.body as BodyInit | undefined, redirect: 'manual', signal });
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason ?? error;
    if (timeout.signal.aborted) {
      throw new ApiError(504, Codes.PROFILE_TIMEOUT, `${where(remote)} did not answer within ${Math.round(((init.timeoutMs ?? remoteTimeoutMs()) / 1000) * 10) / 10} s.`, {
        profile: remote.name,
      });
    }
    throw new ApiError(502, Codes.PROFILE_UNREACHABLE, `Could not reach ${where(remote)}: ${causeOf(error)}. Is the service running and the URL right?`, {
      profile: remote.name,
    });
  } finally {
    clearTimeout(timer);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    const location = response.headers.get('location');
    throw new ApiError(
      502,
      Codes.PROFILE_REDIRECTED,
      `${where(remote)} answered with a redirect${location ? ` to ${location}` : ''}; set the profile's base URL to the final address.`,
      { profile: remote.name },
    );
  }
  return response;
}

/** Reads a body up to `limit` bytes; more is a `PROFILE_RESPONSE_TOO_LARGE` problem. */
export async function readBounded(remote: Pick<Remote, 'name' | 'baseUrl'>, response: Response, limit = MAX_REMOTE_JSON_BYTES): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  const tooLarge = () =>
    new ApiError(502, Codes.PROFILE_RESPONSE_TOO_LARGE, `${where(remote)} sent more than ${limit} bytes for one answer.`, { profile: remote.name });
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const isJson = (type: string | null) => type !== null && /[/+]json\b/i.test(type);

/** A failed answer of a remote as this service's problem. */
export async function problemFrom(remote: Remote, response: Response, operation: string): Promise<ApiError> {
  const text = (await readBounded(remote, response, 1024 * 1024).catch(() => Buffer.alloc(0))).toString('utf8');
  let problem: { code?: unknown; detail?: unknown; title?: unknown; errors?: unknown } = {};
  if (isJson(response.headers.get('content-type'))) {
    try {
      problem = JSON.parse(text) as typeof problem;
    } catch {
      problem = {};
    }
  }
  const remoteCode = typeof problem.code === 'string' ? problem.code : `HTTP_${response.status}`;
  const detail = typeof problem.detail === 'string' ? problem.detail : typeof problem.title === 'string' ? problem.title : text.trim().slice(0, 200);
  const extras = { profile: remote.name, remoteStatus: response.status, remoteCode, ...(Array.isArray(problem.errors) ? { errors: problem.errors } : {}) };
  if (response.status === 401) {
    return new ApiError(502, Codes.PROFILE_CREDENTIAL_REJECTED, `${where(remote)} rejected the profile's credential${detail ? `: ${detail}` : ''}. Edit the profile to enter a valid one.`, extras);
  }
  if (response.status >= 500 || response.status < 400) {
    return new ApiError(502, Codes.PROFILE_REMOTE_FAILED, `${where(remote)} failed on ${operation} (status ${response.status})${detail ? `: ${detail}` : ''}.`, extras);
  }
  // 4xx: the remote's own verdict, with its status and code, said to come from there.
  return new ApiError(response.status, remoteCode, `${where(remote)} refused ${operation}: ${detail || `status ${response.status}`}`, extras);
}

/**
 * Calls one operation of the shared contract on a remote with the profile's credential, and
 * answers its typed response. Failures are ApiErrors naming the profile.
 */
export async function callRemote<D extends RouteDef>(
  remote: Remote,
  def: D,
  input: CallInput<D> & { signal?: AbortSignal },
  options: { timeoutMs?: number; anonymous?: boolean } = {},
): Promise<ResponseOf<D>> {
  const args = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal };
  const url = `${remote.baseUrl}${buildPath(def.path, args.params)}${buildQuery(args.query)}`;
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json', 'user-agent': 'Drydock-profile' };
  if (!options.anonymous) headers.authorization = remote.authorization;
  let body: string | undefined;
  if (args.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(args.body);
  }
  const response = await remoteFetch(remote, url, { method: def.method, headers, body, signal: args.signal, timeoutMs: options.timeoutMs });
  if (!response.ok) throw await problemFrom(remote, response, def.operationId);
  if (response.status === 204) {
    await response.body?.cancel();
    return null as ResponseOf<D>;
  }
  const bytes = await readBounded(remote, response);
  if (!isJson(response.headers.get('content-type'))) {
    throw new ApiError(502, Codes.PROFILE_NOT_A_PLATFORM, `${where(remote)} did not answer ${def.operationId} with JSON; is the base URL the service's address?`, {
      profile: remote.name,
    });
  }
  try {
    return JSON.parse(bytes.toString('utf8')) as ResponseOf<D>;
  } catch {
    throw new ApiError(502, Codes.PROFILE_NOT_A_PLATFORM, `${where(remote)} answered ${def.operationId} with malformed JSON.`, { profile: remote.name });
  }
}

/** Every page of a cursor-paginated operation on a remote (bounded, so a broken cursor cannot loop forever). */
export async function allPagesRemote<T>(
  fetchPage: (after: string | undefined) => Promise<{ items: T[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }>,
  maxPages = 100,
): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page = await fetchPage(after);
    items.push(...page.items);
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return items;
    after = page.pageInfo.endCursor;
  }
  return items;
}
