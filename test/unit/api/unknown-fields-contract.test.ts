/**
 * The contract keeps the one unknown-key rule of src-shared/api/unknown-fields.ts (issue 27): every
 * object of every request body is closed or declared free-form, the exceptions are the listed
 * operations (top level only), and only the data model's query strings are closed. Walks every operation the service
 * declares, so a new operation is held to the rule the moment it exists.
 */
import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../src-shared/api/contract';
import { UNKNOWN_FIELDS_IGNORED, unknownFieldsPolicy } from '../../../src-shared/api/unknown-fields';
import { AREAS } from '../../../src-main/features/index';

type Schema = Record<string, unknown> & {
  type?: unknown;
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

const operations: RouteDef[] = AREAS.flatMap((area) => area.operations);
const withBody = operations.filter((def) => def.body !== undefined);

const isObjectSchema = (s: Schema) => s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || s.properties !== undefined;

/** Every object schema of `schema` with its pointer (`/dashboardDraft/widgets/[]`). */
function objectsOf(schema: Schema, at = ''): { at: string; schema: Schema }[] {
  const found: { at: string; schema: Schema }[] = [];
  if (isObjectSchema(schema)) found.push({ at, schema });
  for (const [key, value] of Object.entries(schema.properties ?? {})) found.push(...objectsOf(value, `${at}/${key}`));
  for (const value of Object.values(schema.patternProperties ?? {})) found.push(...objectsOf(value, `${at}/*`));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') found.push(...objectsOf(schema.additionalProperties as Schema, `${at}/*`));
  if (schema.items) found.push(...objectsOf(schema.items, `${at}/[]`));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const branch of schema[key] ?? []) found.push(...objectsOf(branch, at));
  return found;
}

const hasFields = (s: Schema) => Object.keys(s.properties ?? {}).length > 0;

describe('request bodies: one unknown-key rule (src-shared/api/unknown-fields.ts)', () => {
  it('every object a body describes field by field is closed (additionalProperties: false), but the top level of the listed operations', () => {
    const open: string[] = [];
    for (const def of withBody) {
      for (const { at, schema } of objectsOf(def.body as Schema)) {
        if (!hasFields(schema)) continue;
        const ignoredHere = at === '' && unknownFieldsPolicy(def.operationId) === 'ignore';
        if (ignoredHere ? schema.additionalProperties !== true : schema.additionalProperties !== false) {
          open.push(`${def.operationId} body${at || ' (top level)'}: additionalProperties ${JSON.stringify(schema.additionalProperties)}`);
        }
      }
    }
    expect(open).toEqual([]);
  });

  it('an object without fields of its own is a free-form map only by declaration (additionalProperties true, a schema, or patternProperties)', () => {
    const undecided: string[] = [];
    for (const def of withBody) {
      for (const { at, schema } of objectsOf(def.body as Schema)) {
        if (hasFields(schema) || schema.patternProperties || schema.additionalProperties !== undefined) continue;
        undecided.push(`${def.operationId} body${at}`);
      }
    }
    expect(undecided).toEqual([]);
  });

  it('the exceptions name operations that exist and take a body, each with its reason', () => {
    const ids = new Set(withBody.map((def) => def.operationId));
    for (const [operationId, reason] of Object.entries(UNKNOWN_FIELDS_IGNORED)) {
      expect(ids.has(operationId), operationId).toBe(true);
      expect(reason.length, operationId).toBeGreaterThan(40);
    }
  });

  it('no body offers two object shapes for one value, so an unknown key is never a key of another branch', () => {
    const ambiguous: string[] = [];
    const visit = (s: Schema, at: string, op: string) => {
      for (const key of ['anyOf', 'oneOf'] as const) {
        const shapes = (s[key] ?? []).filter((branch) => isObjectSchema(branch) && hasFields(branch));
        if (shapes.length > 1) ambiguous.push(`${op} body${at}`);
        for (const branch of s[key] ?? []) visit(branch, at, op);
      }
      for (const [k, v] of Object.entries(s.properties ?? {})) visit(v, `${at}/${k}`, op);
      if (s.items) visit(s.items, `${at}/[]`, op);
    };
    for (const def of withBody) visit(def.body as Schema, '', def.operationId);
    expect(ambiguous).toEqual([]);
  });

  it('query strings ignore unknown parameters but on the data model’s operations, whose every query string is closed', () => {
    const closed = operations.filter((def) => (def.query as Schema | undefined)?.additionalProperties === false).map((def) => def.operationId);
    const dataModel = (AREAS.find((area) => area.name === 'data-model')?.operations ?? []).filter((def) => def.query !== undefined).map((def) => def.operationId);
    expect(dataModel.length).toBeGreaterThan(5);
    expect(closed.sort()).toEqual(dataModel.sort());
  });
});
