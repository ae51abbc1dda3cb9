import { Type, type Static, type TSchema } from 'typebox';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One operation of the API. The server validates and serialises with these schemas, the OpenAPI
 * document is generated from them, and the renderer's client takes its types from them.
 */
export interface RouteDef<
  P extends TSchema = TSchema,
  Q extends TSchema = TSchema,
  B extends TSchema = TSchema,
  R extends TSchema = TSchema,
> {
  method: HttpMethod;
  /** Fastify-style path: `/api/v1/deployments/:deploymentId`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Request body may be omitted entirely (e.g. `PUT …/dashboard`). */
  bodyOptional?: boolean;
  /** Status of the success response (200 unless said otherwise). */
  status?: 200 | 201 | 202 | 204;
  response: R;
  /** Content type of a non-JSON success response (downloads); the schema then describes the bytes. */
  produces?: string;
  /** `public` routes need no credential (only the spec and health). */
  auth?: 'public' | 'required';
  deprecated?: boolean;
}

export function defineRoute<P extends TSchema, Q extends TSchema, B extends TSchema, R extends TSchema>(
  def: RouteDef<P, Q, B, R>,
): RouteDef<P, Q, B, R> {
  return def;
}

export type ParamsOf<D> = D extends RouteDef<infer P, TSchema, TSchema, TSchema> ? Static<P> : never;
export type QueryOf<D> = D extends RouteDef<TSchema, infer Q, TSchema, TSchema> ? Static<Q> : never;
export type BodyOf<D> = D extends RouteDef<TSchema, TSchema, infer B, TSchema> ? Static<B> : never;
export type ResponseOf<D> = D extends RouteDef<TSchema, TSchema, TSchema, infer R> ? Static<R> : never;

// ---- shared shapes -------------------------------------------------------------------------

/** RFC 9457 problem details, as every error of the service is sent. */
export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.Optional(Type.String()),
    code: Type.String({ description: 'Stable machine-readable code of the failure' }),
    instance: Type.Optional(Type.String()),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          pointer: Type.String({ description: 'JSON pointer into the request (e.g. /body/expiresIn)' }),
          detail: Type.String(),
        }),
      ),
    ),
  },
  { additionalProperties: true, description: 'RFC 9457 problem details' },
);
export type Problem = Static<typeof Problem>;

export const PageInfo = Type.Object({
  hasNextPage: Type.Boolean(),
  endCursor: Type.Union([Type.String(), Type.Null()]),
});
export type PageInfo = Static<typeof PageInfo>;

/** `first` + `after` cursor pagination query. */
export const PageQuery = {
  first: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size (default 100)' })),
  after: Type.Optional(Type.String({ description: 'Cursor from pageInfo.endCursor of the previous page' })),
};

export function Page<T extends TSchema>(item: T, extra: Record<string, TSchema> = {}) {
  return Type.Object({ items: Type.Array(item), pageInfo: PageInfo, ...extra });
}

/**
 * A page that also carries the spec's deprecated list fields: `data` (the same items) and `count`
 * (of every page), e.g. `counted`: 'folders matching the filter'.
 */
export function PageWithDeprecatedCount<T extends TSchema>(item: T, title: string, counted: string) {
  return Type.Object(
    {
      items: Type.Array(item),
      pageInfo: PageInfo,
      data: Type.Array(item, { deprecated: true, description: 'Deprecated: same as `items`' }),
      count: Type.Integer({ deprecated: true, description: `Deprecated: number of ${counted} (all pages)` }),
    },
    { title },
  );
}

export const DeploymentParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) });

export const Timestamp = Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of a list of string values (`as const`), as a typed `enum` schema. */
export const literals = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Enum(values as unknown as T[number][], description ? { description } : {});

export const Empty = Type.Object({});
export const NoContent = Type.Null({ description: 'No content' });

/**
 * The one rule of every job cancellation (`DELETE` of a warehouse push or pull, a lakehouse
 * publication run or preview, a transform sync), stated in each operation's description.
 */
export const CANCEL_RULE =
  'Cancelling is idempotent and answers with the job: a queued job is cancelled at once, a running one stops before its next write ' +
  '(what it already wrote stays), and a job that has already ended (COMPLETED, PARTIAL, FAILED or CANCELLED) is returned unchanged, ' +
  'with the same status code — never an error, so a client racing the job’s end needs no special case.';

/**
 * The one ownership rule of items a user owns (workbooks and their dashboards, reports,
 * notifications), stated in each write operation's description.
 */
export const OWNERSHIP_RULE =
  'Ownership: changing or overwriting an item someone else owns needs the same manage access as deleting it — its owner or an ' +
  'admin (403 otherwise); other developers may read, duplicate and place it.';
