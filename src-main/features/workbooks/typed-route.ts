import type { FastifyReply } from 'fastify';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteDef } from '../../../src-shared/api/contract';
import type { Principal } from '../../http/auth';
import type { Api, RouteOptions } from '../../http/route';

export interface TypedArgs<D> {
  params: ParamsOf<D>;
  query: QueryOf<D>;
  body: BodyOf<D>;
  principal: Principal;
  reply: FastifyReply;
}

/**
 * `api.route` with handler inputs typed from the route definition (ParamsOf/QueryOf/BodyOf).
 * `HandlerArgs` in http/route.ts reads `D['body']`, which is `B | undefined` for an optional
 * field and so never matches `TSchema`; this keeps the workspace areas type-checked meanwhile.
 */
export function typedRoute(api: Api) {
  return <D extends RouteDef>(
    def: D,
    options: RouteOptions,
    handler: (args: TypedArgs<D>) => ResponseOf<D> | Promise<ResponseOf<D>>,
  ): void => api.route(def, options, handler as never);
}
