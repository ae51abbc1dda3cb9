import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteDef } from '../../../src-shared/api/contract';
import type { Principal } from '../../http/auth';
import type { Api, RouteOptions } from '../../http/route';

export interface TypedArgs<D> {
  params: ParamsOf<D>;
  query: QueryOf<D>;
  body: BodyOf<D>;
  principal: Principal;
}

/**
 * `api.route` with handler inputs typed from the route definition. `HandlerArgs` in
 * http/route.ts tests `D['body'] extends TSchema`, but an optional field reads as `B | undefined`,
 * so params and query come out `never` and body `undefined`. Drop this once that uses NonNullable.
 */
export function typedRoute(api: Api) {
  return <D extends RouteDef>(
    def: D,
    options: RouteOptions,
    handler: (args: TypedArgs<D>) => ResponseOf<D> | Promise<ResponseOf<D>>,
  ): void => api.route(def, options, handler as never);
}
