import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { Problem, type RouteDef } from '../../src-shared/api/contract';
import { ErrorCodes } from '../../src-shared/api/errors';
import type { ServiceContext } from '../context';
import { assertAccess, type AccessRule, type Principal } from './auth';
import { CursorSealer, sealPage, type ListIdentity } from './cursors';
import { assertCredentialAccepted, describeCredentials, type AcceptedCredential, type CredentialRefusals, USER_CREDENTIALS } from './credentials';
import { ApiError, invalidField } from './problem';
import { routeKey, type SchemaWarmup } from './compilers';

export interface RouteOptions {
  /** Access levels required (each entry must hold; `{anyOf}` needs one of its levels). */
  access?: AccessRule[];
  /**
   * Kinds of credential the operation accepts: full user credentials (`user`: API key, workspace
   * session), deployment tokens, embed sessions, OAuth scopes. Default `['user']`. Use
   * `DEPLOYMENT_READ_CREDENTIALS` / `DEPLOYMENT_WRITE_CREDENTIALS` for operations of one deployment;
   * never open an operation that mints a credential or administers the tenant to scoped ones.
   */
  credentials?: readonly AcceptedCredential[];
  /** Code and detail of the 403 for a refused credential kind, where the spec or an area names one. */
  credentialRefusals?: CredentialRefusals;
  /** Deployment-scoped routes (a `deploymentId` param) 404 for unknown deployments; set false to skip. */
  checkDeployment?: boolean;
  /**
   * A top-level base64 string field of the JSON body that may be megabytes (upload chunks): a large
   * body is then parsed and the field decoded on a compute thread, and the handler finds the bytes
   * with `decodedBase64Of(body)` (the field itself then reads ''). The body schema must bound the
   * field's `maxLength`. See platform/json/base64-field.ts.
   */
  decodeBase64Field?: string;
}

/** One row of the route table: an operation and who may call it. The authorization tests walk it. */
export interface RouteEntry {
  def: RouteDef;
  options: RouteOptions;
}

export interface HandlerArgs<D extends RouteDef> {
  params: Static<NonNullable<D['params']>>;
  query: Static<NonNullable<D['query']>>;
  body: Static<NonNullable<D['body']>>;
  principal: Principal;
  request: FastifyRequest;
  reply: FastifyReply;
  /** A list's cursor as clients get it (sealed, see cursors.ts): for a list handler that sends its reply itself. */
  sealCursor: (cursor: string) => string;
}

export type Handler<D extends RouteDef> = (
  args: HandlerArgs<D>,
) => Promise<Static<D['response']> | ReplySent> | Static<D['response']> | ReplySent;

/** Returned by a handler that wrote the reply itself (streams, downloads). */
export const REPLY_SENT = Symbol('reply-sent');
export type ReplySent = typeof REPLY_SENT;

/** A body field to decode off the HTTP thread (`RouteOptions.decodeBase64Field`), with its schema's bound. */
export interface Base64Field {
  field: string;
  maxLength: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Set before the body is read when the operation names a `decodeBase64Field`. */
    base64Field: Base64Field | null;
  }
}

/** The `maxLength` the body schema gives `field`; a route may only decode a bounded field off-thread. */
function base64FieldOf(def: RouteDef, field: string): Base64Field {
  const maxLength = (def.body as { properties?: Record<string, { type?: unknown; maxLength?: unknown }> } | undefined)?.properties?.[field]?.maxLength;
  if (typeof maxLength !== 'number') throw new Error(`${def.operationId}: decodeBase64Field "${field}" needs a string field with a maxLength in the body schema.`);
  return { field, maxLength };
}

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: Problem } },
});
/**
 * An empty object for HTTP status keys (`200`, `4xx`, …). A status is an array index to V8: in a
 * new object, `{ 200: x }` gets a run of element slots up to index 200 and then half as many again
 * (about 2.6 KB, all holes but the one), where an object whose elements were once sparse keeps a
 * small dictionary of them (about 0.2 KB). Start time, issue 10: one such map for each of the ~230
 * routes was ~0.6 MB that every scavenge at start copied. Keys, order and values read the same
 * either way.
 */
export function statusMap(): Record<string, unknown> {
  const map: Record<number, unknown> = {};
  map[SPARSE_INDEX] = undefined;
  delete map[SPARSE_INDEX];
  return map;
}
const SPARSE_INDEX = 1e7;

/** Every operation's error answers: one pair of objects for all routes (start time, issue 10). */
const CLIENT_ERROR_RESPONSE = problemResponse('The request failed; see `code` and `detail`.');
const SERVER_ERROR_RESPONSE = problemResponse('The service failed.');

/** Which list a cursor belongs to: the operation and its path parameters. */
const listOf = (def: RouteDef, request: FastifyRequest): ListIdentity => ({ operationId: def.operationId, params: request.params });

/** `/api/v1/deployments/{deploymentId}` → Fastify's `/api/v1/deployments/:deploymentId`. */
export const toFastifyPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');

/** operationIds whose request body may be left out; the OpenAPI document marks those bodies optional. */
export const optionalBodyOperations = new Set<string>();

export interface Api {
  route<D extends RouteDef>(def: D, options: RouteOptions, handler: Handler<D>): void;
  readonly app: FastifyInstance;
  readonly ctx: ServiceContext;
  /** Every operation registered so far, in registration order. */
  readonly routes: readonly RouteEntry[];
}

/**
 * The route table as the service assembles it (start time, issue 10): every operation of the
 * contract is declared to Fastify at start, from its definition alone; the area that serves it
 * loads its code on the operation's first request and only then calls `route()` with the access
 * options and the handler. A request waits for that load before anything else about it is decided.
 */
export interface Router extends Api {
  /**
   * Registers `def` with Fastify now. Its options and handler come from `route()`, called by the
   * code `load()` brings in; each request to the operation awaits `load()` first. The first request
   * to any operation of a `group` (an area) compiles the schemas of the group's other operations in
   * the background (see SchemaWarmup).
   */
  declare(def: RouteDef, load: () => Promise<void>, group?: string): void;
  /** Those of `operationIds` that no area has registered (yet). */
  unregistered(operationIds: readonly string[]): string[];
}

/** What a declared operation is waiting for, filled in when its area registers it. */
interface Slot {
  load: () => Promise<void>;
  options?: RouteOptions;
  handler?: Handler<RouteDef>;
  base64Field?: Base64Field;
  /** The OpenAPI schema Fastify and @fastify/swagger hold: its description names the accepted credentials. */
  schema: Record<string, unknown>;
  /** The operations declared with it (its area), whose schemas its first request has compiled. */
  group: WarmGroup;
}

interface WarmGroup {
  routes: string[];
  warmed: boolean;
}

const isPublicDef = (def: RouteDef): boolean => def.auth === 'public';
const hasDeploymentParam = (def: RouteDef): boolean => def.path.includes('{deploymentId}');

/**
 * Registration-time rules of the route table, so a mistake fails at start-up rather than in use:
 * scoped credentials reach tenant-wide operations only to read (listing deployments, `users/me`).
 */
function checkRouteEntry(def: RouteDef, options: RouteOptions): void {
  const scoped = (options.credentials ?? USER_CREDENTIALS).filter((c) => c !== 'embed' && c !== 'user');
  if (scoped.length > 0 && !hasDeploymentParam(def) && def.method !== 'GET') {
    throw new Error(`${def.operationId}: deployment tokens and OAuth scopes may only reach tenant-wide operations that read.`);
  }
  if (def.auth === 'public' && options.credentials) throw new Error(`${def.operationId}: a public route needs no credentials list.`);
  if (options.credentials?.length === 0) throw new Error(`${def.operationId}: an empty credentials list closes the operation to everyone.`);
}

/** The `{deploymentId}` path parameter as sent (params are not validated yet when access is checked). */
function rawDeploymentId(request: FastifyRequest): number | undefined {
  const raw = (request.params as Record<string, unknown> | undefined)?.deploymentId;
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : '';
  return /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : undefined;
}

export function createApi(app: FastifyInstance, ctx: ServiceContext, warmup?: SchemaWarmup): Router {
  const deploymentExists = ctx.db.prepare('SELECT 1 FROM deployments WHERE id = ?');
  const cursors = new CursorSealer(ctx.tokens.deriveKey('list-cursors'));
  const routes: RouteEntry[] = [];
  const slots = new Map<string, Slot>();
  const groups = new Map<string, WarmGroup>();

  /** The options and handler of a declared operation, once its area has registered it. */
  async function resolved(def: RouteDef, slot: Slot): Promise<{ options: RouteOptions; handler: Handler<RouteDef> }> {
    if (!slot.handler) await slot.load();
    if (!slot.handler || !slot.options) throw new Error(`${def.operationId}: its area loaded without registering it.`);
    return { options: slot.options, handler: slot.handler };
  }

  function declare(def: RouteDef, load: () => Promise<void>, groupName?: string): void {
    if (slots.has(def.operationId)) throw new Error(`${def.operationId} is declared twice.`);
    const url = toFastifyPath(def.path);
    const key = routeKey(def.method, url);
    let group = groupName === undefined ? undefined : groups.get(groupName);
    if (!group) {
      group = { routes: [], warmed: false };
      if (groupName !== undefined) groups.set(groupName, group);
    }
    group.routes.push(key);
    const status = def.status ?? 200;
    const optionalBody = Boolean(def.body && def.bodyOptional);
    if (optionalBody) optionalBodyOperations.add(def.operationId);
    const isPublic = def.auth === 'public';
    // Every operation with an `after` query parameter is a list: its cursors are sealed here.
    const isList = Boolean((def.query as { properties?: Record<string, unknown> } | undefined)?.properties?.after);
    const successSchema =
      def.produces !== undefined
        ? { description: def.summary, content: { [def.produces]: { schema: def.response } } }
        : status === 204
          ? { description: 'No content', type: 'null' }
          : def.response;
    // Keys are set in the order the OpenAPI document lists them (start time: no spread of a
    // temporary object for each optional key, ~230 routes at start).
    const schema: Record<string, unknown> = { operationId: def.operationId, tags: [def.tag], summary: def.summary };
    // Where the operation names the credentials it accepts, its area's registration completes this.
    if (def.description || !isPublic) schema.description = def.description ?? '';
    if (def.deprecated) schema.deprecated = true;
    if (def.params) schema.params = def.params;
    if (def.query) schema.querystring = def.query;
    if (def.body) schema.body = def.body;
    if (isPublic) schema.security = [];
    const response = statusMap();
    response[status] = successSchema;
    response['4xx'] = CLIENT_ERROR_RESPONSE;
    response['5xx'] = SERVER_ERROR_RESPONSE;
    schema.response = response;
    const slot: Slot = { load, schema, group };
    slots.set(def.operationId, slot);
    app.route({
      method: def.method,
      url,
      schema,
      config: { bodyOptional: def.bodyOptional === true },
      // Runs after authentication and before the body is parsed or the request validated: a caller
      // the operation is closed to learns nothing about its inputs, and gets 403 whatever it sent.
      preParsing: async (request) => {
        const { options } = await resolved(def, slot);
        if (!slot.group.warmed) {
          slot.group.warmed = true;
          warmup?.warm(slot.group.routes);
        }
        request.base64Field = slot.base64Field ?? null;
        if (!isPublic) {
          const principal = request.principal;
          if (!principal) throw new ApiError(401, ErrorCodes.UNAUTHENTICATED, 'A credential is required.');
          const deploymentId = hasDeploymentParam(def) ? rawDeploymentId(request) : undefined;
          assertCredentialAccepted(principal, options.credentials ?? USER_CREDENTIALS, deploymentId, options.credentialRefusals);
          if (deploymentId !== undefined && options.checkDeployment !== false && !deploymentExists.get(deploymentId)) {
            throw new ApiError(404, ErrorCodes.NOT_FOUND, `Deployment ${deploymentId} was not found.`);
          }
          assertAccess(principal, options.access ?? [], deploymentId);
          // Validation would coerce `0x10`, `1e3` or ` 1` to a number after the checks above ran without it.
          if (deploymentId === undefined && hasDeploymentParam(def)) {
            throw invalidField('/params/deploymentId', '/params/deploymentId must be a positive integer written in decimal digits.');
          }
        }
      },
      // Only operations that use them get these two hooks (start time: fewer closures and bound
      // hooks per route; a hook that does nothing also costs every request a step).
      preValidation: optionalBody
        ? async (request) => {
            // An optional body that was left out is validated as an empty object.
            if (request.body === undefined || request.body === null) request.body = {};
          }
        : undefined,
      preHandler:
        !isPublic && isList
          ? async (request) => {
              // Once the request is valid, a cursor this list did not issue is refused before anything else.
              const query = request.query as { after?: unknown };
              if (query.after === '') delete query.after;
              else if (typeof query.after === 'string') query.after = cursors.open(listOf(def, request), query.after);
            }
          : undefined,
      handler: async (request, reply) => {
        const { handler } = await resolved(def, slot);
        const result = await handler({
          params: request.params as never,
          query: request.query as never,
          body: request.body as never,
          principal: request.principal as Principal,
          request,
          reply,
          sealCursor: (cursor) => cursors.seal(listOf(def, request), cursor),
        });
        if (result === REPLY_SENT) return reply;
        reply.code(status);
        if (status === 204) return reply.send();
        return reply.send(isList ? sealPage(cursors, listOf(def, request), result) : result);
      },
    });
  }

  return {
    app,
    ctx,
    routes,
    declare,
    unregistered: (operationIds) => operationIds.filter((id) => !slots.get(id)?.handler),
    route(def, options, handler) {
      checkRouteEntry(def, options);
      const slot = slots.get(def.operationId);
      if (!slot) throw new Error(`${def.operationId} is not declared: list it with its area in src-main/features/index.ts.`);
      if (slot.handler) throw new Error(`${def.operationId} is registered twice.`);
      const description = [def.description, isPublicDef(def) ? null : describeCredentials(options.credentials ?? USER_CREDENTIALS, hasDeploymentParam(def))]
        .filter(Boolean)
        .join('\n\n');
      // Fastify and @fastify/swagger keep this very object; the document is built once every area is loaded.
      if (!isPublicDef(def)) slot.schema.description = description;
      slot.options = options;
      if (options.decodeBase64Field !== undefined) slot.base64Field = base64FieldOf(def, options.decodeBase64Field);
      slot.handler = handler as Handler<RouteDef>;
      routes.push({ def, options });
    },
  };
}
