import type { Ajv, ValidateFunction } from 'ajv';
// Fastify's own default serializer compiler (fast-json-stringify), used here as Fastify would.
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { serializerSchema } from './serializer-schema';

/**
 * Schema compilers that compile on first use instead of at start.
 *
 * Fastify compiles a validator for every request part and a serializer for every response status
 * of every route while the server starts: with ~250 operations that was most of the start time
 * (ajv and fast-json-stringify led the start profile). The same compilers now run the first time a
 * route validates or answers with that schema, and a schema object shared by many routes (the
 * problem document of every 4xx/5xx, `DeploymentParams`) is compiled once. What is validated and
 * how responses are serialised (unknown fields dropped) does not change.
 */

type Validator = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] };

/** How long after an area's first request its other routes' schemas start compiling. */
const WARM_AFTER_MS = 50;

/** `GET /api/v1/x/:id`: how the warm-up names a route (Fastify's method and path). */
export const routeKey = (method: string, url: string): string => `${method} ${url}`;

/**
 * Compiling the schemas of routes before their first request, in the background. A route's first
 * request used to compile its validators and serializers on the HTTP thread while it was served:
 * up to tens of milliseconds for one large response schema, during a 20 MB upload or a commit
 * (issue 10: event-loop delay). Once an area serves its first request, its other routes are
 * likely next: `warm` compiles their schemas one per turn of the event loop, so requests and
 * health probes are served between two compiles, and none of them waits behind the whole batch.
 */
export class SchemaWarmup {
  private readonly pending = new Map<string, (() => void)[]>();
  private readonly queue: (() => void)[] = [];
  private running = false;
  private stopped = false;

  /** Registers the compile of one schema of route `key` (a no-op once compiled). */
  add(key: string, compile: () => void): void {
    let list = this.pending.get(key);
    if (!list) this.pending.set(key, (list = []));
    list.push(compile);
  }

  /** Compiles, in the background, whatever the routes `keys` have not compiled yet. */
  warm(keys: Iterable<string>): void {
    for (const key of keys) {
      const list = this.pending.get(key);
      if (!list) continue;
      this.pending.delete(key);
      this.queue.push(...list);
    }
    if (this.running || this.stopped || this.queue.length === 0) return;
    this.running = true;
    const next = () => {
      const compile = this.queue.shift();
      if (!compile || this.stopped) {
        this.running = false;
        return;
      }
      try {
        compile();
      } catch {
        // A schema that fails to compile fails again on its request, where the error is answered.
      }
      setImmediate(next).unref();
    };
    // The request that asked goes first (it compiles what it needs itself).
    setTimeout(next, WARM_AFTER_MS).unref();
  }

  /** No more compiles (the service is closing). */
  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
  }
}

/**
 * Where coercion turned a path or query value into a number that is not finite ("Infinity", "1e999"):
 * ajv's coercion lets it through even with strictNumbers, and no handler means Infinity by an id.
 */
function nonFiniteAt(data: unknown, path = ''): string | null {
  if (typeof data === 'number') return Number.isFinite(data) ? null : path;
  if (data === null || typeof data !== 'object') return null;
  for (const [key, value] of Object.entries(data)) {
    const found = nonFiniteAt(value, `${path}/${key}`);
    if (found !== null) return found;
  }
  return null;
}

/**
 * A validator compiler for `app.setValidatorCompiler` that defers `ajv.compile` to the first request
 * (or to `warmup`, whichever comes first).
 */
export function lazyValidatorCompiler(ajvFor: (httpPart: string | undefined) => Ajv, warmup?: SchemaWarmup) {
  const compiled = new WeakMap<Ajv, WeakMap<object, ValidateFunction>>();
  const compile = (ajv: Ajv, schema: object): ValidateFunction => {
    let bySchema = compiled.get(ajv);
    if (!bySchema) compiled.set(ajv, (bySchema = new WeakMap()));
    let validate = bySchema.get(schema);
    if (!validate) bySchema.set(schema, (validate = ajv.compile(schema)));
    return validate;
  };
  return ({ schema, httpPart, method, url }: { schema: object; httpPart?: string; method?: string; url?: string }): Validator => {
    let real: ValidateFunction | undefined;
    if (warmup && method && url) warmup.add(routeKey(method, url), () => void (real ??= compile(ajvFor(httpPart), schema)));
    const validator: Validator = (data) => {
      real ??= compile(ajvFor(httpPart), schema);
      const ok = real(data) as boolean;
      // Fastify reads the errors of a failed validation from the function it was given.
      validator.errors = real.errors;
      if (ok && httpPart !== 'body') {
        const at = nonFiniteAt(data);
        if (at !== null) {
          validator.errors = [{ instancePath: at, schemaPath: '#', keyword: 'type', params: { type: 'number' }, message: 'must be a finite number' }];
          return false;
        }
      }
      return ok;
    };
    return validator;
  };
}

type Serialize = (data: unknown) => string;
type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: { schema: object }) => Serialize;

const defaultSerializerFactory = (): SerializerFactory => (SerializerSelector as unknown as () => SerializerFactory)();

type ValidatorCompiler = ReturnType<typeof lazyValidatorCompiler>;

/**
 * `schemaController` option for Fastify: `validatorCompiler` for request parts (the one the app also
 * sets with `setValidatorCompiler`; given here as well, so Fastify never loads its default Ajv
 * compiler), and the default response serializers, built on first use (or by `warmup`).
 */
export function lazySchemaController(validatorCompiler: ValidatorCompiler, warmup?: SchemaWarmup): NonNullable<FastifyServerOptions['schemaController']> {
  let factory: SerializerFactory | undefined;
  const buildSerializer = (externalSchemas: unknown, options: unknown) => {
    let compiler: ((route: { schema: object }) => Serialize) | undefined;
    // fast-json-stringify itself loads with the first response, not at start. It is given the
    // schema with its validator-free unions rewritten (serializer-schema.ts): no Ajv compile at a
    // route's first answer for `Nullable(...)` or a union of literals.
    const compile = (route: { schema: object }) =>
      (compiler ??= (factory ??= defaultSerializerFactory())(externalSchemas, options))({ ...route, schema: serializerSchema(route.schema) });
    const bySchema = new WeakMap<object, Serialize>();
    return (route: { schema: object; method?: string; url?: string }): Serialize => {
      let real: Serialize | undefined;
      const build = (): Serialize => {
        if (!real) {
          real = bySchema.get(route.schema);
          if (!real) bySchema.set(route.schema, (real = compile(route)));
        }
        return real;
      };
      if (warmup && route.method && route.url) warmup.add(routeKey(route.method, route.url), () => void build());
      return (data) => (real ?? build())(data);
    };
  };
  return { compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer } } as unknown as NonNullable<FastifyServerOptions['schemaController']>;
}
