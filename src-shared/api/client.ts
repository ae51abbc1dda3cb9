/**
 * The typed HTTP client of the API, built from the shared route definitions: the renderer (and
 * any script) calls `client.call(deploymentsRoutes.listDeployments, { query })` and gets the
 * response type of that route. Pure: the caller injects `fetch`, so it runs in the renderer,
 * in Node tests and against a remote tenant alike.
 */
import type { Static, TSchema } from 'typebox';
import type { Problem, ResponseOf, RouteDef } from './contract';

// ---- what the client needs from fetch -------------------------------------------------------

export interface FetchResponseLike {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>;

// ---- typed inputs ----------------------------------------------------------------------------

/** A route without a schema for `K` takes no `K`; one whose fields are all optional may omit it. */
type Field<S extends TSchema, K extends string> = TSchema extends S
  ? { [k in K]?: never }
  : Record<string, never> extends Static<S>
    ? { [k in K]?: Static<S> }
    : { [k in K]: Static<S> };

export type CallInput<D> =
  D extends RouteDef<infer P, infer Q, infer B, TSchema>
    ? Field<P, 'params'> & Field<Q, 'query'> & Field<B, 'body'> & { signal?: AbortSignal; /** Sent as `If-Match`: the version a write is based on. */ ifMatch?: string }
    : never;

type CallArgs<D> = Record<string, never> extends CallInput<D> ? [input?: CallInput<D>] : [input: CallInput<D>];

// ---- errors ------------------------------------------------------------------------------------

export interface FieldError {
  pointer: string;
  detail: string;
}

/**
 * A failed call: the service's RFC 9457 problem (status, stable `code`, `detail`, field
 * `errors[]`), or a synthesised one when the service could not be reached or did not answer
 * with a problem document.
 */
export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[];
  readonly operationId: string;
  /** The problem document as received (extension members included), or null. */
  readonly problem: (Problem & Record<string, unknown>) | null;

  constructor(init: {
    status: number;
    code: string;
    title?: string;
    detail: string;
    errors?: FieldError[];
    operationId: string;
    problem?: (Problem & Record<string, unknown>) | null;
  }) {
    super(init.detail);
    this.name = 'ApiProblem';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title ?? '';
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.operationId = init.operationId;
    this.problem = init.problem ?? null;
  }

  /** Field errors keyed by the last segment of their pointer (`/body/name` → `name`). */
  fieldErrors(): Record<string, string> {
    const result: Record<string, string> = {};
    for (const error of this.errors) {
      const key = error.pointer.split('/').filter(Boolean).slice(1).join('.') || error.pointer;
      result[key] = result[key] ? `${result[key]}; ${error.detail}` : error.detail;
    }
    return result;
  }
}

export const isApiProblem = (value: unknown): value is ApiProblem => value instanceof ApiProblem;

// ---- the desktop shell's connection ---------------------------------------------------------

/** What the desktop shell hands the page for this launch. */
export interface DesktopConnection {
  baseUrl: string;
  /** A workspace session token (sent as `Bearer`). */
  token: string;
  expiresAt: string;
}

/** `window.drydock` as the desktop shell's preload exposes it. */
export interface DesktopBridge {
  getConnection(): Promise<DesktopConnection>;
  /** Shows a desktop notification; answers true once the user clicked it (the window is in front by then). */
  notify(title: string, body: string): Promise<boolean>;
}

// ---- the client --------------------------------------------------------------------------

export interface ClientOptions {
  /** `http://127.0.0.1:4317`, or `''` for same-origin relative URLs; a function is read on every call. */
  baseUrl: string | (() => string);
  /** The `Authorization` header value (`Bearer …` or `Api-Key …`), or null to send none. */
  auth: () => string | null;
  fetch: FetchLike;
  /** Called once on a 401; resolve true after renewing the credential to retry the call. */
  onUnauthorized?: () => Promise<boolean>;
}

/** A response and the version of the resource it carries (the `ETag`, quoted, as `If-Match` takes it). */
export interface Versioned<T> {
  data: T;
  version: string | null;
}

export interface Client {
  call<D extends RouteDef>(def: D, ...args: CallArgs<D>): Promise<ResponseOf<D>>;
  /**
   * Like `call`, with the version the service answered in `ETag` (null: none), to send back as
   * `ifMatch` with a later write of the same resource (a stale one answers 409 FILE_CHANGED).
   */
  callVersioned<D extends RouteDef>(def: D, ...args: CallArgs<D>): Promise<Versioned<ResponseOf<D>>>;
  /** The path (with query) a call would request, for links and downloads. */
  url<D extends RouteDef>(def: D, ...args: CallArgs<D>): string;
}

/** Substitutes `{name}` (and Fastify-style `:name`) segments with encoded values. */
export function buildPath(template: string, params: Record<string, unknown> = {}): string {
  const substitute = (whole: string, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new Error(`Path parameter "${name}" is missing for ${template}.`);
    return encodeURIComponent(String(value));
  };
  return template.replace(/\{([^}/]+)\}/g, substitute).replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, substitute);
}

/** `?a=1&b=x&b=y`: undefined and null are left out, arrays repeat their key, objects are JSON. */
export function buildQuery(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      search.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

const isJson = (contentType: string | null) => contentType !== null && /[/+]json\b/i.test(contentType);

export function createClient(options: ClientOptions): Client {
  const baseOf = () => (typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl).replace(/\/+$/, '');

  const urlOf = (def: RouteDef, input: Record<string, unknown>) =>
    `${baseOf()}${buildPath(def.path, input.params as Record<string, unknown>)}${buildQuery(input.query as Record<string, unknown>)}`;

  async function send(def: RouteDef, input: Record<string, unknown>): Promise<FetchResponseLike> {
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
    const auth = options.auth();
    if (auth) headers.authorization = auth;
    if (typeof input.ifMatch === 'string') headers['if-match'] = input.ifMatch;
    let body: string | undefined;
    if (input.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input.body);
    }
    try {
      return await options.fetch(urlOf(def, input), {
        method: def.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(input.signal ? { signal: input.signal as AbortSignal } : {}),
      });
    } catch (error) {
      if ((input.signal as AbortSignal | undefined)?.aborted) throw error;
      const base = baseOf();
      throw new ApiProblem({
        status: 0,
        code: 'NETWORK_ERROR',
        title: 'Service unreachable',
        detail: `Could not reach the Drydock service${base ? ` at ${base}` : ''}: ${error instanceof Error ? error.message : String(error)}.`,
        operationId: def.operationId,
      });
    }
  }

  async function call(def: RouteDef, input: Record<string, unknown> = {}): Promise<Versioned<unknown>> {
    let response = await send(def, input);
    if (response.status === 401 && options.onUnauthorized && (await options.onUnauthorized())) {
      response = await send(def, input);
    }
    if (!response.ok) throw await toProblem(def, response);
    const version = response.headers.get('etag');
    if (response.status === 204) return { data: null, version };
    const text = await response.text();
    if (!isJson(response.headers.get('content-type'))) return { data: text, version };
    try {
      return { data: text ? JSON.parse(text) : null, version };
    } catch {
      throw new ApiProblem({
        status: response.status,
        code: 'MALFORMED_RESPONSE',
        detail: `The service answered ${def.operationId} with malformed JSON.`,
        operationId: def.operationId,
      });
    }
  }

  return {
    call: (async (def: RouteDef, input?: Record<string, unknown>) => (await call(def, input ?? {})).data) as Client['call'],
    callVersioned: ((def: RouteDef, input?: Record<string, unknown>) => call(def, input ?? {})) as Client['callVersioned'],
    url: ((def: RouteDef, input?: Record<string, unknown>) => urlOf(def, input ?? {})) as Client['url'],
  };
}

async function toProblem(def: RouteDef, response: FetchResponseLike): Promise<ApiProblem> {
  const text = await response.text().catch(() => '');
  let parsed: unknown = null;
  if (isJson(response.headers.get('content-type'))) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (parsed && typeof parsed === 'object' && typeof (parsed as Problem).code === 'string') {
    const problem = parsed as Problem & Record<string, unknown>;
    return new ApiProblem({
      status: response.status,
      code: problem.code,
      title: problem.title,
      detail: problem.detail ?? problem.title ?? `Request failed with status ${response.status}.`,
      errors: Array.isArray(problem.errors) ? problem.errors : [],
      operationId: def.operationId,
      problem,
    });
  }
  const snippet = text.trim().slice(0, 200);
  return new ApiProblem({
    status: response.status,
    code: `HTTP_${response.status}`,
    detail: `${def.operationId} failed with status ${response.status}${snippet ? `: ${snippet}` : '.'}`,
    operationId: def.operationId,
  });
}
