// Response serializers are built from a copy of the schema whose validator-free unions are
// rewritten (src-main/http/serializer-schema.ts, start time): every answer the contract allows must
// serialise byte for byte as fast-json-stringify serialises it with the contract's own schema, and
// the rewritten serializers must no longer need Ajv for `Nullable(...)` and literal unions.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import build from 'fast-json-stringify';
import { generateSync } from 'json-schema-faker';
import { beforeAll, describe, expect, it } from 'vitest';
import { Problem, type RouteDef } from '../../../src-shared/api/contract';
import { serializerSchema } from '../../../src-main/http/serializer-schema';

const API = fileURLToPath(new URL('../../../src-shared/api', import.meta.url));
/** Generated answers per response schema (bounded: the whole contract runs in seconds). */
const VALUES_PER_SCHEMA = 10;
/** Building ~240 serializers twice takes seconds; a loaded CI machine may take many times that. */
const SLOW = { timeout: 180_000 };

type Schema = Record<string, unknown>;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every operation of the contract, by operationId. */
async function contractRoutes(): Promise<RouteDef[]> {
  const routes = new Map<string, RouteDef>();
  for (const file of tsFiles(API)) {
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      if (value && typeof value === 'object' && 'operationId' in value && 'response' in value) {
        const def = value as RouteDef;
        routes.set(def.operationId, def);
      }
    }
  }
  return [...routes.values()];
}

/** The response schemas Fastify serialises a route's answers with (as src-main/http/route.ts declares them). */
const responseSchemasOf = (def: RouteDef): Schema[] => [(def.status === 204 ? { type: 'null' } : def.response) as Schema, Problem as unknown as Schema];

/** Validator calls in the code fast-json-stringify generates for `schema` (one per union branch). */
function validatorCalls(schema: Schema): number {
  const { code } = build(schema, { mode: 'debug' }) as unknown as { code: string };
  return code.split('validator.getSchemaValidator(').length - 1;
}

/** Unions left in a schema (anyOf/oneOf), with where they are. */
function unionsIn(schema: unknown, path = '#', out: { path: string; union: unknown[] }[] = []) {
  if (typeof schema !== 'object' || schema === null) return out;
  for (const [key, child] of Object.entries(schema)) {
    if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(child)) out.push({ path, union: child });
    unionsIn(child, `${path}/${key}`, out);
  }
  return out;
}

const isNull = (s: unknown) => (s as Schema).type === 'null';
const isLiteral = (s: unknown) => (s as Schema).const !== undefined;

describe('serializer schema: unions rewritten for fast-json-stringify without Ajv', () => {
  let routes: RouteDef[];
  const ajv = addFormats.default(new Ajv({ strict: false }));
  beforeAll(async () => {
    routes = await contractRoutes();
  }, 120_000);

  it('finds the whole contract', () => {
    expect(routes.length).toBeGreaterThan(200);
  });

  it('serialises every valid answer of every route and status byte for byte as the contract schema does', SLOW, () => {
    const seen = new Set<object>();
    let compared = 0;
    let nulls = 0;
    const differences: string[] = [];
    for (const def of routes) {
      for (const schema of responseSchemasOf(def)) {
        if (seen.has(schema)) continue;
        seen.add(schema);
        const written = JSON.stringify(schema);
        const rewritten = build(serializerSchema(schema));
        // The contract's schema is the same after the rewrite (validation and OpenAPI read it).
        expect(JSON.stringify(schema), def.operationId).toBe(written);
        const original = build(schema);
        const valid = ajv.compile(schema);
        let validCount = 0;
        for (let seed = 1; seed <= VALUES_PER_SCHEMA; seed++) {
          const value = generateSync(schema as never, { seed, optionalsProbability: seed % 3 === 0 ? 1 : 0.5, maxItems: 3, maxDepth: 6 });
          // Only answers the contract allows (the generator may stray, e.g. on patternProperties).
          if (!valid(value)) continue;
          validCount++;
          const expected = original(value);
          const actual = rewritten(value);
          if (actual !== expected) differences.push(`${def.operationId} seed ${seed}: ${actual.slice(0, 200)} instead of ${expected.slice(0, 200)}`);
          compared++;
          nulls += (expected.match(/:null/g) ?? []).length;
        }
        expect(validCount, `${def.operationId}: no valid answer generated`).toBeGreaterThan(0);
      }
    }
    expect(differences).toEqual([]);
    // The answers compared held nulls (the null branch of Nullable unions was exercised).
    expect(nulls).toBeGreaterThan(100);
    expect(compared).toBeGreaterThan(routes.length * 3);
  });

  it('leaves only unions that need a validator: object unions and mixed value unions, never Nullable(X) or a literal union', () => {
    const left = new Set<string>();
    for (const def of routes) {
      for (const { path, union } of unionsIn(serializerSchema(def.response))) {
        const nonNull = union.filter((s) => !isNull(s));
        const kinds = new Set(nonNull.map((s) => ((s as Schema).const === undefined ? 'schema' : typeof (s as Schema).const)));
        // Nullable(X) of a plain X, or literals of one kind: must have been rewritten.
        expect(nonNull.length > 1 || (nonNull[0] as Schema).anyOf !== undefined, `${def.operationId} ${path}`).toBe(true);
        expect(nonNull.every(isLiteral) && kinds.size === 1, `${def.operationId} ${path}: literal union left`).toBe(false);
        left.add(JSON.stringify(union).slice(0, 60));
      }
    }
    // A handful of real unions stay (discriminated object unions, JSON value unions).
    expect(left.size).toBeLessThan(20);
  });

  it('builds the users/me serializer with no validator, and removes most validator calls from the contract', SLOW, () => {
    const me = routes.find((def) => def.method === 'GET' && def.path === '/api/v1/users/me');
    expect(me).toBeDefined();
    const schema = me!.response as Schema;
    expect(validatorCalls(schema)).toBeGreaterThan(0);
    expect(validatorCalls(serializerSchema(schema))).toBe(0);
    let before = 0;
    let after = 0;
    for (const def of routes) {
      before += validatorCalls(def.response as Schema);
      after += validatorCalls(serializerSchema(def.response as Schema));
    }
    expect(after).toBeLessThan(before / 5);
  });

  it('never changes the contract schema it rewrites, and keeps a schema shared inside it shared', () => {
    const nullableName = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    const schema = { type: 'object', properties: { a: nullableName, b: nullableName, role: { anyOf: [{ type: 'string', const: 'x' }, { type: 'string', const: 'y' }] } } };
    const before = JSON.stringify(schema);
    const copy = serializerSchema(schema) as unknown as { properties: Record<string, Schema> };
    expect(JSON.stringify(schema)).toBe(before);
    expect(copy.properties.a).toEqual({ type: 'string', nullable: true });
    expect(copy.properties.a).toBe(copy.properties.b);
    expect(copy.properties.role).toEqual({ type: 'string' });
    expect(schema.properties.a).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('writes literals and nulls of every rewritten shape as the contract schema does: strings, numbers, booleans, dates, objects, nested unions', () => {
    const schema = {
      type: 'object',
      properties: {
        role: { anyOf: [{ type: 'string', const: 'admin' }, { type: 'string', const: 'viewer' }] },
        level: { anyOf: [{ type: 'integer', const: 1 }, { type: 'number', const: 2.5 }] },
        flag: { anyOf: [{ type: 'boolean', const: true }, { type: 'boolean', const: false }] },
        maybeRole: { anyOf: [{ anyOf: [{ const: 'a' }, { const: 'b' }], description: 'd' }, { type: 'null' }] },
        at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
        count: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        closed: { anyOf: [{ type: 'object', properties: { x: { type: 'integer' } }, additionalProperties: false }, { type: 'null' }] },
        open: { anyOf: [{ type: 'object', properties: {}, additionalProperties: true }, { type: 'null' }] },
        list: { anyOf: [{ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, { type: 'null' }] },
      },
    } as Schema;
    const original = build(schema);
    const rewritten = build(serializerSchema(schema));
    const values = [
      { role: 'admin', level: 1, flag: true, maybeRole: 'b', at: '2024-05-01T10:00:00.000Z', count: 3, closed: { x: 1 }, open: { k: [1, 'v'] }, list: ['a', null] },
      { role: 'viewer', level: 2.5, flag: false, maybeRole: null, at: null, count: null, closed: null, open: null, list: null },
      { role: 'viewer', at: new Date(Date.UTC(2024, 0, 2)), list: [] },
    ];
    for (const value of values) expect(rewritten(value)).toBe(original(value));
    expect(validatorCalls(serializerSchema(schema))).toBe(0);
  });

  it('leaves object unions and mixed unions to the validators', () => {
    const objects = { anyOf: [{ type: 'object', properties: { kind: { const: 'a' } } }, { type: 'object', properties: { kind: { const: 'b' } } }] };
    const mixed = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] };
    const mixedLiterals = { anyOf: [{ const: 'a' }, { const: 1 }] };
    const constrained = { anyOf: [{ type: 'string' }, { type: 'null' }], minLength: 1 };
    for (const schema of [objects, mixed, mixedLiterals, constrained]) expect(serializerSchema(schema)).toEqual(schema);
  });
});
