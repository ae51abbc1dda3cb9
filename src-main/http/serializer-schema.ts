/**
 * The response schema as fast-json-stringify is given it: unions that need no validator rewritten
 * into the plain forms it serialises directly (start time, issue 10).
 *
 * fast-json-stringify serialises an `anyOf` by trying each branch with an Ajv validator, which it
 * compiles the first time the route answers: for `GET /api/v1/users/me` (a role union and a few
 * nullable settings) that was about two thirds of the ~26 ms its first `reply.send` spent building
 * the serializer, on the path to the service's first authenticated answer, and the same on the
 * first answer of every other route. The contract's unions are mostly of two shapes that need no
 * validator to pick a branch:
 *
 * - `Nullable(X)`, `anyOf [X, {type: 'null'}]` with X one plain schema: becomes X with
 *   `nullable: true` (null written as `null`, anything else serialised with X);
 * - a union of literals of one kind (`Role`: `anyOf` of string consts; numbers or booleans alike):
 *   becomes `{type: 'string'|'number'|'boolean'}` (a literal of the union serialises to the very
 *   same JSON as the `const` branch wrote it); with a null literal besides, nullable.
 *
 * Every other union (objects of a discriminated union, mixed value unions) is left to
 * fast-json-stringify's validators. The rewrite never changes the contract's schema objects (shared
 * by routes, the validators and the OpenAPI document, which keep them as written): what it rewrites,
 * and the schemas above that, are new objects.
 *
 * Valid answers serialise byte for byte as before (test/unit/http/serializer-schema.test.ts checks
 * every response schema of the contract). An answer that breaks a rewritten union (a role outside
 * `Role`, a number where `string | null` is declared) no longer fails serialisation with a 500: it
 * is written as a non-union field of that type always was (a string field takes the value's
 * string form; `enum`, `pattern`, `maxLength`, formats are never checked by the serializer).
 * Response serialisation was never validation: the handlers' answers are typed by the contract.
 */

type Schema = Record<string, unknown>;

/** Keywords that describe a schema without changing what the serializer writes. */
const ANNOTATIONS = new Set(['description', 'title', 'deprecated', 'examples', '$comment', 'readOnly', 'writeOnly']);

/** Keywords that make fast-json-stringify dispatch on the value (with a validator or otherwise). */
const DISPATCH = ['anyOf', 'oneOf', 'allOf', 'if', 'then', 'else', 'not', '$ref', '$id', 'const', 'nullable'];

/** Keywords whose value is a schema or an array of schemas. */
const SCHEMA_KEYWORDS = new Set(['items', 'additionalProperties', 'additionalItems', 'prefixItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'anyOf', 'oneOf', 'allOf', 'unevaluatedProperties', 'unevaluatedItems']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

const isNull = (schema: unknown): boolean =>
  isObject(schema) && Object.keys(schema).every((key) => key === 'type' || ANNOTATIONS.has(key)) && schema.type === 'null';

/** Only annotations beside the `anyOf` (nothing fast-json-stringify would merge into a branch). */
const onlyAnnotationsBeside = (schema: Schema, keyword: string): boolean => Object.keys(schema).every((key) => key === keyword || ANNOTATIONS.has(key));

/** One schema with one type (or none, `{enum}`-like) and nothing to dispatch on. */
const isPlain = (schema: unknown): schema is Schema =>
  isObject(schema) && (schema.type === undefined || (typeof schema.type === 'string' && schema.type !== 'null')) && DISPATCH.every((key) => !(key in schema));

const annotationsOf = (schema: Schema, keyword: string): Schema => Object.fromEntries(Object.entries(schema).filter(([key]) => key !== keyword));

/** The JSON type a const union's literals share: 'string', 'number' or 'boolean', or null if mixed. */
function literalType(branches: unknown[]): 'string' | 'number' | 'boolean' | null {
  let kind: 'string' | 'number' | 'boolean' | null = null;
  for (const branch of branches) {
    if (!isObject(branch) || !('const' in branch)) return null;
    if (!Object.keys(branch).every((key) => key === 'const' || key === 'type' || ANNOTATIONS.has(key))) return null;
    const value = branch.const;
    if (typeof value !== 'string' && typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) return null;
    const type = typeof value as 'string' | 'number' | 'boolean';
    const declared = branch.type;
    if (declared !== undefined && declared !== type && !(declared === 'integer' && Number.isInteger(value))) return null;
    if (kind !== null && kind !== type) return null;
    kind = type;
  }
  return kind;
}

/** `schema` (already rewritten below) with its own union rewritten, or `schema` itself. */
function rewriteUnion(schema: Schema): Schema {
  const keyword = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : null;
  if (keyword === null || !onlyAnnotationsBeside(schema, keyword)) return schema;
  const branches = schema[keyword] as unknown[];
  if (branches.length === 0) return schema;
  const nonNull = branches.filter((branch) => !isNull(branch));
  const nullable = nonNull.length === branches.length - 1;
  if (nonNull.length === 0 || nonNull.length < branches.length - 1) return schema;
  // `oneOf` fails where two branches match: only literal branches (disjoint by nature) or X | null.
  const type = literalType(nonNull);
  if (type !== null) {
    // Literals of one kind: what the `const` branch wrote is the value's own JSON.
    return { ...annotationsOf(schema, keyword), type, ...(nullable ? { nullable: true } : {}) };
  }
  if (nullable && nonNull.length === 1 && isPlain(nonNull[0])) {
    // The union's own annotations (its description) beside X's, as the OpenAPI document reads them.
    return { ...nonNull[0], ...annotationsOf(schema, keyword), nullable: true };
  }
  return schema;
}

/**
 * `schema` for fast-json-stringify, with the unions above rewritten (bottom-up, so a nullable union
 * of literals becomes one nullable string). `schema` is never changed: a rewritten union and every
 * schema above it are new objects, the rest is the contract's own (as fast-json-stringify was given
 * it before). A schema shared inside `schema` stays shared.
 */
export function serializerSchema<T>(schema: T): T {
  const done = new Map<object, unknown>();
  const rewrite = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const known = done.get(value);
    if (known !== undefined) return known;
    let result: unknown;
    if (Array.isArray(value)) {
      // `anyOf`, `allOf`, `items` as a tuple.
      const items = value.map(rewrite);
      result = items.some((item, i) => item !== value[i]) ? items : value;
    } else {
      // Values (`const`, `enum`, `default`, annotations) are not schemas; a map's keys are names.
      const children = withEntries(value as Schema, (key, child) =>
        SCHEMA_MAPS.has(key) && isObject(child) ? withEntries(child, (_name, entry) => rewrite(entry)) : SCHEMA_KEYWORDS.has(key) ? rewrite(child) : child,
      );
      result = rewriteUnion(children);
    }
    done.set(value, result);
    return result;
  };
  return rewrite(schema) as T;
}

/** `object` with each value passed through `next`: a copy only if one of them changed. */
function withEntries(object: Schema, next: (key: string, value: unknown) => unknown): Schema {
  let changed: Schema | null = null;
  for (const [key, value] of Object.entries(object)) {
    const replaced = next(key, value);
    if (replaced !== value) (changed ??= { ...object })[key] = replaced;
  }
  return changed ?? object;
}
