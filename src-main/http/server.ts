import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Ajv, type Options as AjvOptions } from 'ajv';
import addFormats from 'ajv-formats';
import { existsSync } from 'node:fs';
import { UiFiles, uiCacheControl } from './ui-files';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { ErrorCodes } from '../../src-shared/api/errors';
import type { ServiceContext } from '../context';
import type { EarlyListener } from './early-listener';
import { Authenticator } from './auth';
import { lazySchemaController, lazyValidatorCompiler, SchemaWarmup } from './compilers';
import { collectOpenApiRoutes } from './openapi';
import { ApiError, problemBody, validationError, type SchemaFailure } from './problem';
import {
  absoluteFormAuthority,
  answerClientError,
  frameworkProblem,
  LimitCodes,
  MAX_URL_LENGTH,
  rewriteAbsoluteForm,
} from './request-limits';
import { registerJsonParser } from './json-parser';

/** Strict CSP for the UI: scripts and styles only from the service itself; workers for Monaco. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

type SendFile = (this: FastifyReply, file: string) => FastifyReply;

/**
 * @fastify/static's `reply.sendFile` for the UI's files under `root`, loaded with the first file
 * asked for (start time, issue 10): loading the plugin and its MIME table at start was ~7 ms of CPU
 * that no API request needs. The plugin's own function is run once, with `serve: false` as before,
 * against a stand-in for the app that keeps the reply methods it decorates (with `serve: false`
 * that is all it does); the file is then sent by that very method, on the reply. Types, ranges,
 * validators and errors are the plugin's, as when it was registered.
 */
function lazySendFile(root: string): (reply: FastifyReply, file: string) => Promise<FastifyReply> {
  let loading: Promise<SendFile> | null = null;
  const load = async (): Promise<SendFile> => {
    const { fastifyStatic } = await import('@fastify/static');
    const decorated = new Map<string, unknown>();
    const app = { decorateReply: (name: string, fn: unknown) => decorated.set(name, fn) };
    await fastifyStatic(app as unknown as FastifyInstance, {
      root,
      serve: false,
      // Set per file by the caller (uiCacheControl); the plugin's default is `public, max-age=0`.
      cacheControl: false,
      setHeaders: (res) => res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY),
    });
    const sendFile = decorated.get('sendFile');
    if (typeof sendFile !== 'function') throw new Error('@fastify/static did not decorate sendFile (see lazySendFile in src-main/http/server.ts).');
    return sendFile as SendFile;
  };
  return async (reply, file) => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    const send = await loading;
    reply.header('Cache-Control', uiCacheControl(file));
    return send.call(reply, file);
  };
}

export interface HttpServer {
  app: FastifyInstance;
  /** Ports are known after listen; the Host allowlist follows them. */
  setPort(port: number): void;
  /** Serves one request of the listener (see `servedAsGet` for HEAD). */
  dispatch(request: IncomingMessage, response: ServerResponse): void;
  /** Compiles routes' schemas ahead of their first request (see route.ts). */
  warmup: SchemaWarmup;
  /**
   * Makes the request validators' Ajv instances and runs one small compile in each, so that the
   * first request of any route finds Ajv set up and its code compiled (an idle moment after the
   * start is the time for it; see service-app.ts).
   */
  prepareCompilers(): void;
}

/**
 * HEAD requests are served by the GET route of their path, without its body — what Fastify's
 * automatic HEAD routes do, without registering a second route for each GET operation (start
 * time, issue 10: route registration is most of a start). Node's response to a HEAD request never
 * carries a body whatever the handler writes; the onSend hook below sets what the HEAD route did.
 */
const servedAsGet = new WeakSet<IncomingMessage>();

const API_PREFIXES = ['/api/', '/build/'];
/** The platform's data API paths (`/deployments/:id[/dev-mode/:branch]/cubejs-api/v1/…`), outside `/api`. */
const DATA_API_ROUTE = /^\/deployments\/:deploymentId\/(dev-mode\/:branchName\/)?cubejs-api\/v1\//;

/**
 * The Fastify app around the port `listener` already bound: Fastify never listens itself; the
 * listener hands it every request once it is ready (service-app.ts), and closes with it.
 */
export async function createHttpServer(ctx: ServiceContext, listener: EarlyListener): Promise<HttpServer> {
  const allowedHosts = new Set<string>();
  const sameOrigins = new Set<string>();
  const setPort = (port: number) => {
    allowedHosts.clear();
    sameOrigins.clear();
    for (const name of ['127.0.0.1', 'localhost']) {
      allowedHosts.add(`${name}:${port}`);
      sameOrigins.add(`http://${name}:${port}`);
    }
  };

  const warmup = new SchemaWarmup();
  // Query strings and path params arrive as text and are coerced to their schema types; JSON bodies
  // are validated as sent, so a JSON `null` or number is never coerced into a string.
  // strictNumbers: "Infinity" in a path or query (coerced) and 1e999 in JSON are not numbers to a handler.
  // validateSchema: false — the schemas are the contract's own, checked against JSON Schema's
  // meta-schema by test/api/openapi.test.ts; checking them here compiled the meta-schema on the
  // HTTP thread inside the service's first request (about 20 ms of its turn, issue 28).
  const ajvOptions: AjvOptions = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false, strictNumbers: true, validateSchema: false };
  // The two Ajv instances are made with the first validation (start time, issue 10).
  let bodyAjv: Ajv | undefined;
  let textAjv: Ajv | undefined;
  const ajvFor = (httpPart: string | undefined): Ajv =>
    httpPart === 'body'
      ? (bodyAjv ??= addFormats.default(new Ajv({ ...ajvOptions, coerceTypes: false })))
      : (textAjv ??= addFormats.default(new Ajv({ ...ajvOptions, coerceTypes: 'array' })));
  const validatorCompiler = lazyValidatorCompiler(ajvFor, warmup);
  const prepareCompilers = () => {
    for (const part of ['body', 'querystring']) ajvFor(part).compile({ type: 'object', properties: { id: { type: 'integer' } } });
  };

  const app = Fastify({
    logger: false,
    bodyLimit: 32 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    // Malformed requests answer problem+json even where no route or error handler runs.
    rewriteUrl: rewriteAbsoluteForm,
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, request, reply) => {
      const { status, body } = frameworkProblem(error, request.raw.url ?? '');
      void (reply as FastifyReply).code(status).type('application/problem+json').send(body);
    },
    schemaController: lazySchemaController(validatorCompiler, warmup),
    exposeHeadRoutes: false,
    serverFactory: () => {
      listener.releaseClientErrors();
      return listener.server;
    },
  });
  app.decorateRequest('principal', null);
  app.decorateRequest('base64Field', null);

  // JSON bodies: nesting is bounded before parsing; large ones are read on a compute thread (json-parser.ts).
  registerJsonParser(app, ctx);

  app.setValidatorCompiler(validatorCompiler);
  app.addHook('onClose', async () => warmup.stop());

  // The OpenAPI document is built on its first request (start time, issue 10); routes are collected from here on.
  collectOpenApiRoutes(app);

  const authenticator = new Authenticator(ctx.db, ctx.tokens, ctx.clock);
  // Long-lived answers (the live-events stream) check their credential again while they run.
  ctx.services.authenticate = (request: FastifyRequest) => authenticator.authenticate(request);

  // DNS-rebinding guard: only the loopback names this server listens on are served.
  app.addHook('onRequest', async (request, reply) => {
    const refuse = (status: number, code: string, detail: string) => reply.code(status).type('application/problem+json').send(problemBody(status, code, detail));
    if (request.url.length > MAX_URL_LENGTH) {
      return refuse(414, LimitCodes.URI_TOO_LONG, `The request target is longer than ${MAX_URL_LENGTH} characters.`);
    }
    // An absolute-form target (`GET http://host:port/path`) names its host in the target: the Host
    // rules apply to that authority (RFC 9112 §3.2.2), and to the Host header as well.
    const authority = absoluteFormAuthority(request.raw);
    if (authority === null) return refuse(400, LimitCodes.ABSOLUTE_FORM_REFUSED, 'The request target must be a path (or an http:// URL of this service).');
    if (authority !== undefined && !allowedHosts.has(authority)) {
      return refuse(421, ErrorCodes.MISDIRECTED_REQUEST, `Host "${authority}" is not served here; use http://127.0.0.1 with this port.`);
    }
    const host = (request.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(host)) {
      reply.code(421).type('application/problem+json');
      return reply.send(
        problemBody(421, ErrorCodes.MISDIRECTED_REQUEST, `Host "${host}" is not served here; use http://127.0.0.1 with this port.`),
      );
    }
    const origin = request.headers.origin;
    if (origin && !sameOrigins.has(origin) && !ctx.config.corsOrigins.includes(origin)) {
      reply.code(403).type('application/problem+json');
      return reply.send(problemBody(403, ErrorCodes.CROSS_ORIGIN_REFUSED, `Requests from origin ${origin} are not allowed.`));
    }
    if (origin && ctx.config.corsOrigins.includes(origin)) {
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Vary', 'Origin');
      reply.header('Access-Control-Expose-Headers', 'ETag');
      if (request.method === 'OPTIONS') {
        reply.header('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
        reply.header('Access-Control-Allow-Headers', 'Authorization, Content-Type, If-Match');
        reply.header('Access-Control-Max-Age', '600');
        return reply.code(204).send();
      }
    }
    return undefined;
  });

  // Authenticate every request to a route that is not public, before its body is read: a caller
  // without a valid credential gets 401 and never learns about body errors (bad JSON, sizes, shapes).
  // Route hooks then check access, also before the body is parsed.
  app.addHook('preParsing', async (request) => {
    const isPublic = (request.routeOptions.schema as { security?: unknown[] } | undefined)?.security?.length === 0;
    if (isPublic) return;
    if (!request.routeOptions.url) {
      // Unknown API paths need a credential too (the not-found handler answers 404 once authenticated).
      if (API_PREFIXES.some((p) => request.url.startsWith(p))) await authenticator.authenticate(request);
      return;
    }
    if (DATA_API_ROUTE.test(request.routeOptions.url)) {
      request.principal = await authenticator.authenticate(request, { dataApi: true });
      return;
    }
    if (!API_PREFIXES.some((p) => request.url.startsWith(p))) return;
    request.principal = await authenticator.authenticate(request);
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cache-Control', reply.getHeader('Cache-Control') ?? 'no-store');
    return payload;
  });

  // A HEAD request answered by a GET route: the length of what GET would send, and no body (a
  // stream is drained or cancelled rather than sent), as Fastify's HEAD routes answer.
  app.addHook('onSend', async (request, reply, payload: unknown) => {
    if (!servedAsGet.has(request.raw)) return payload;
    if (payload === undefined || payload === null) {
      reply.header('content-length', '0');
      return null;
    }
    if (typeof (payload as { resume?: unknown }).resume === 'function') {
      const stream = payload as NodeJS.ReadableStream;
      stream.on('error', () => {});
      stream.resume();
      return null;
    }
    if (typeof (payload as { getReader?: unknown }).getReader === 'function') {
      (payload as ReadableStream).cancel('Stream cancelled by HEAD route').catch(() => {});
      return null;
    }
    reply.header('content-length', String(Buffer.byteLength(payload as string | Buffer)));
    return null;
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    reply.type('application/problem+json');
    if (error instanceof ApiError) {
      if (error.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="drydock", Api-Key');
      return reply.code(error.status).send(error.toProblem(request.url));
    }
    if (error.validation) {
      return reply.code(400).send(validationError(error.validationContext ?? 'body', error.validation as SchemaFailure[]).toProblem(request.url));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.code(413).send(problemBody(413, ErrorCodes.PAYLOAD_TOO_LARGE, 'The request body is too large.', request.url));
    if (status === 415) {
      const sent = request.headers['content-type']?.split(';')[0]?.trim();
      return reply.code(415).send(problemBody(415, ErrorCodes.UNSUPPORTED_MEDIA_TYPE, `The body is ${sent ? `"${sent.slice(0, 100)}"` : 'of no media type'}; send it as application/json.`, request.url));
    }
    if (status >= 400 && status < 500) {
      const code = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? ErrorCodes.MALFORMED_JSON : 'BAD_REQUEST';
      return reply.code(status).send(problemBody(status, code, error.message, request.url));
    }
    ctx.log.error('unhandled error', { url: request.url, method: request.method, error: error.stack ?? String(error) });
    return reply.code(500).send(problemBody(500, ErrorCodes.INTERNAL, 'The service failed while handling this request; it has been logged.', request.url));
  });

  const rendererDir = ctx.config.rendererDir;
  const hasRenderer = rendererDir !== null && existsSync(join(rendererDir, 'index.html'));
  // The UI's files are served by the not-found handler below from a list read on the first request
  // for one, not by a route per file: @fastify/static's per-file routes (a glob of the folder and
  // two routes for each of its ~70 files) were a sixth of a start (issue 10). The plugin still
  // sends the files (types, validators, ranges), loaded with the first (lazySendFile).
  const uiFiles = hasRenderer ? new UiFiles(rendererDir) : null;
  const sendFile = hasRenderer ? lazySendFile(rendererDir) : null;

  app.setNotFoundHandler(async (request, reply) => {
    const isApi = API_PREFIXES.some((p) => request.url.startsWith(p));
    // Unknown API paths need a credential too, so the route table is not probeable anonymously.
    if (isApi) await authenticator.authenticate(request);
    // A file of the UI, for GET or HEAD (a HEAD request is routed as its GET, see `dispatch`).
    const file = !isApi && (request.method === 'GET' || request.method === 'HEAD') ? uiFiles?.at(request.url) : undefined;
    if (file !== undefined && sendFile) return sendFile(reply, file);
    if (!isApi && sendFile && request.method === 'GET') {
      // Client-side routes of the single-page UI.
      reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      return sendFile(reply, 'index.html');
    }
    reply.code(404).type('application/problem+json');
    return reply.send(problemBody(404, ErrorCodes.ROUTE_NOT_FOUND, `No operation ${request.method} ${request.url.split('?')[0]}.`, request.url));
  });

  const dispatch = (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'HEAD') return app.routing(request, response);
    // The route is looked up synchronously: as GET. From then on the request is a HEAD again
    // (Fastify then sends no body and keeps the length the hook below sets).
    servedAsGet.add(request);
    request.method = 'GET';
    try {
      app.routing(request, response);
    } finally {
      request.method = 'HEAD';
    }
  };

  return { app, setPort, dispatch, warmup, prepareCompilers };
}
