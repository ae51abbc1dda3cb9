import type { Ajv, ValidateFunction } from 'ajv';
// Fastify's own default serializer compiler (fast-json-stringify), used here as Fastify would.
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

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

/** A validator compiler for `app.setValidatorCompiler` that defers `ajv.compile` to the first request. */
export function lazyValidatorCompiler(ajvFor: (httpPart: string | undefined) => Ajv) {
  const compiled = new WeakMap<Ajv, WeakMap<object, ValidateFunction>>();
  const compile = (ajv: Ajv, schema: object): ValidateFunction => {
    let bySchema = compiled.get(ajv);
    if (!bySchema) compiled.set(ajv, (bySchema = new WeakMap()));
    let validate = bySchema.get(schema);
    if (!validate) bySchema.set(schema, (validate = ajv.compile(schema)));
    return validate;
  };
  return ({ schema, httpPart }: { schema: object; httpPart?: string }): Validator => {
    let real: ValidateFunction | undefined;
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
 * compiler), and the default response serializers, built on first use.
 */
export function lazySchemaController(validatorCompiler: ValidatorCompiler): NonNullable<FastifyServerOptions['schemaController']> {
  let factory: SerializerFactory | undefined;
  const buildSerializer = (externalSchemas: unknown, options: unknown) => {
    let compiler: ((route: { schema: object }) => Serialize) | undefined;
    // fast-json-stringify itself loads with the first response, not at start.
    const compile = (route: { schema: object }) => (compiler ??= (factory ??= defaultSerializerFactory())(externalSchemas, options))(route);
    const bySchema = new WeakMap<object, Serialize>();
    return (route: { schema: object }): Serialize => {
      let real: Serialize | undefined;
      return (data) => {
        if (!real) {
          real = bySchema.get(route.schema);
          if (!real) bySchema.set(route.schema, (real = compile(route)));
        }
        return real(data);
      };
    };
  };
  return { compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer } } as unknown as NonNullable<FastifyServerOptions['schemaController']>;
}
