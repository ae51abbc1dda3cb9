import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { Problem, type RouteDef } from '../../src-shared/api/contract';
import { ErrorCodes } from '../../src-shared/api/errors';
import type { ServiceContext } from '../context';
import { assertAccess, type AccessRule, type Principal } from './auth';
import { CursorSealer, sealPage, type ListIdentity } from './cursors';
import { ApiError } from './problem';

export interface RouteOptions {
  /** Access levels required (each entry must hold; `{anyOf}` needs one of its levels). */
  access?: AccessRule[];
  /** Embed sessions are refused unless the route says otherwise (spec: token and task routes refuse them). */
  allowEmbed?: boolean;
  /** OAuth bearer tokens must carry this scope (e.g. `deployment.write` on the warehouse sync routes). */
  oauthScope?: string;
  /** Deployment-scoped routes (a `deploymentId` param) 404 for unknown deployments; set false to skip. */
  checkDeployment?: boolean;
}

export interface HandlerArgs<D extends RouteDef> {
  params: Static<NonNullable<D['params']>>;
  query: Static<NonNullable<D['query']>>;
  body: Static<NonNullable<D['body']>>;
  principal: Principal;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<D extends RouteDef> = (
  args: HandlerArgs<D>,
) => Promise<Static<D['response']> | ReplySent> | Static<D['response']> | ReplySent;

/** Returned by a handler that wrote the reply itself (streams, downloads). */
export const REPLY_SENT = Symbol('reply-sent');
export type ReplySent = typeof REPLY_SENT;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: Problem } },
});

/** `/api/v1/deployments/{deploymentId}` → Fastify's `/api/v1/deployments/:deploymentId`. */
export const toFastifyPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');

/** operationIds whose request body may be left out; the OpenAPI document marks those bodies optional. */
export const optionalBodyOperations = new Set<string>();

export interface Api {
  route<D extends RouteDef>(def: D, options: RouteOptions, handler: Handler<D>): void;
  readonly app: FastifyInstance;
  readonly ctx: ServiceContext;
}

export function createApi(app: FastifyInstance, ctx: ServiceContext): Api {
  const deploymentExists = ctx.db.prepare('SELECT 1 FROM deployments WHERE id = ?');
  const cursors = new CursorSealer(ctx.tokens.deriveKey('list-cursors'));
  return {
    app,
    ctx,
    route(def, options, handler) {
      const status = def.status ?? 200;
      if (def.body && def.bodyOptional) optionalBodyOperations.add(def.operationId);
      const isPublic = def.auth === 'public';
      // Every operation with an `after` query parameter is a list: its cursors are sealed here.
      const isList = Boolean((def.query as { properties?: Record<string, unknown> } | undefined)?.properties?.after);
      const listOf = (request: FastifyRequest): ListIdentity => ({ operationId: def.operationId, params: request.params });
      const successSchema =
        def.produces !== undefined
          ? { description: def.summary, content: { [def.produces]: { schema: def.response } } }
          : status === 204
            ? { description: 'No content', type: 'null' }
            : def.response;
      app.route({
        method: def.method,
        url: toFastifyPath(def.path),
        schema: {
          operationId: def.operationId,
          tags: [def.tag],
          summary: def.summary,
          ...(def.description ? { description: def.description } : {}),
          ...(def.deprecated ? { deprecated: true } : {}),
          ...(def.params ? { params: def.params } : {}),
          ...(def.query ? { querystring: def.query } : {}),
          ...(def.body ? { body: def.body } : {}),
          ...(isPublic ? { security: [] } : {}),
          response: {
            [status]: successSchema,
            '4xx': problemResponse('The request failed; see `code` and `detail`.'),
            '5xx': problemResponse('The service failed.'),
          },
        } as Record<string, unknown>,
        config: { bodyOptional: def.bodyOptional === true },
        preValidation: async (request) => {
          // An optional body that was left out is validated as an empty object.
          if (def.body && def.bodyOptional && (request.body === undefined || request.body === null)) request.body = {};
        },
        preHandler: async (request) => {
          if (isPublic) return;
          const principal = request.principal;
          if (!principal) throw new ApiError(401, ErrorCodes.UNAUTHENTICATED, 'A credential is required.');
          if (isList) {
            // Like schema validation, a cursor this list did not issue is refused before anything else.
            const query = request.query as { after?: unknown };
            if (query.after === '') delete query.after;
            else if (typeof query.after === 'string') query.after = cursors.open(listOf(request), query.after);
          }
          if (principal.via === 'embed' && !options.allowEmbed) {
            throw new ApiError(403, ErrorCodes.EMBED_SESSION_REFUSED, 'Embed sessions cannot use this operation.');
          }
          if (options.oauthScope && principal.via === 'oauth' && !(principal.scopes ?? []).includes(options.oauthScope)) {
            throw new ApiError(403, 'INSUFFICIENT_SCOPE', `This OAuth token lacks the \`${options.oauthScope}\` scope.`);
          }
          const params = (request.params ?? {}) as Record<string, unknown>;
          const deploymentId = typeof params.deploymentId === 'number' ? params.deploymentId : undefined;
          if (deploymentId !== undefined && options.checkDeployment !== false && !deploymentExists.get(deploymentId)) {
            throw new ApiError(404, ErrorCodes.NOT_FOUND, `Deployment ${deploymentId} was not found.`);
          }
          assertAccess(principal, options.access ?? [], deploymentId);
        },
        handler: async (request, reply) => {
          const result = await handler({
            params: request.params as never,
            query: request.query as never,
            body: request.body as never,
            principal: request.principal as Principal,
            request,
            reply,
          });
          if (result === REPLY_SENT) return reply;
          reply.code(status);
          if (status === 204) return reply.send();
          return reply.send(isList ? sealPage(cursors, listOf(request), result) : result);
        },
      });
    },
  };
}
