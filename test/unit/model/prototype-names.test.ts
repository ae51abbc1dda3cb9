// Names of JavaScript's own (issue 23): `constructor`, `toString`, `hasOwnProperty`, `valueOf` and
// `__proto__` are valid cube and member names (the platform's identifier rule accepts them), so
// the compiler, the planner and meta must treat them as any other name — also on a model that
// crossed a thread, where structured cloning gives every dictionary Object.prototype back.
import { describe, expect, it } from 'vitest';
import { compileModel, DiagnosticCodes as C, type CompiledModel } from '../../../src-shared/model';
import { duckdbDialect, modelMeta, planQuery, QueryError } from '../../../src-shared/model/query';
import { PROTOTYPE_NAMES, prototypeNamedCubesJs, prototypeNamedCubesYaml, prototypeNamedViewsYaml } from '../../support/prototype-names';

function compiled(): CompiledModel {
  const result = compileModel([
    { path: 'model/cubes/named.yml', content: prototypeNamedCubesYaml('shop.orders') },
    { path: 'model/cubes/named.js', content: prototypeNamedCubesJs('shop.orders') },
    { path: 'model/views/named.yml', content: prototypeNamedViewsYaml() },
  ]);
  expect(result.diagnostics).toEqual([]);
  return result.model;
}

const plan = (model: CompiledModel, query: unknown) => planQuery(model, query, { dialect: duckdbDialect, security: null, now: new Date('2025-07-15T12:00:00Z') });

function planError(model: CompiledModel, query: unknown): QueryError {
  try {
    plan(model, query);
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error('the query was planned');
}

describe.each([
  ['compiled in this thread', () => compiled()],
  ['after a structured clone (as it reaches the HTTP thread from a compute thread)', () => structuredClone(compiled())],
])('a model %s', (_label, model) => {
  it('has a cube, a view and members for every such name, in YAML and in JS', () => {
    const m = model();
    for (const name of PROTOTYPE_NAMES) {
      expect(Object.hasOwn(m.cubes, name), name).toBe(true);
      expect(Object.hasOwn(m.cubes, `js_${name}`), `js_${name}`).toBe(true);
      expect(Object.hasOwn(m.views, `v_${name}`), `v_${name}`).toBe(true);
      expect(Object.keys(m.cubes[name]!.dimensions).sort()).toEqual(['created_at', 'id', name].sort());
      expect(Object.keys(m.cubes[`js_${name}`]!.dimensions).sort()).toEqual(['id', name].sort());
    }
  });

  it('plans a query on each such cube, member and view', () => {
    const m = model();
    for (const name of PROTOTYPE_NAMES) {
      for (const entity of [name, `js_${name}`, `v_${name}`]) {
        const planned = plan(m, { measures: [`${entity}.count`], dimensions: [`${entity}.${name}`] });
        expect(planned.main.sql, entity).toMatch(/FROM shop\.orders/);
        expect(planned.columns.map((c) => c.key)).toEqual([`${entity}.${name}`, `${entity}.count`]);
      }
    }
  });

  it('lists each in meta', () => {
    const meta = modelMeta(model(), null);
    for (const name of PROTOTYPE_NAMES) {
      const cube = meta.cubes.find((c) => c.name === name)!;
      expect(cube.dimensions.map((d) => d.name)).toContain(`${name}.${name}`);
      expect(meta.cubes.find((c) => c.name === `v_${name}`)!.measures.map((d) => d.name)).toContain(`v_${name}.count`);
    }
  });

  it('answers UNKNOWN_MEMBER, not a TypeError, for such names the model does not define', () => {
    const m = model();
    for (const name of PROTOTYPE_NAMES) {
      expect(planError(m, { measures: [`v_${name}.${name === 'valueOf' ? 'toString' : 'valueOf'}`] }).code).toBe('UNKNOWN_MEMBER');
      expect(planError(m, { measures: [`${name}.${name}_missing`] }).code).toBe('UNKNOWN_MEMBER');
    }
    const sampleOnly = structuredClone(compileModel([{ path: 'model/a.yml', content: prototypeNamedCubesYaml('t', ['orders']) }]).model);
    for (const name of PROTOTYPE_NAMES) {
      expect(planError(sampleOnly, { measures: [`${name}.count`] }).code).toBe('UNKNOWN_MEMBER');
      expect(planError(sampleOnly, { measures: [`orders.${name}`] }).code).toBe('UNKNOWN_MEMBER');
    }
  });
});

describe('names of JavaScript’s own elsewhere in a model', () => {
  it('a member named like another kind’s inherited property is no duplicate', () => {
    const result = compileModel([{ path: 'model/a.js', content: "cube(`a`, { sql_table: 't', dimensions: { id: { sql: 'id', type: 'number', primary_key: true } }, measures: { constructor: { type: 'count' }, toString: { type: 'count' } } });\n" }]);
    expect(result.diagnostics).toEqual([]);
    expect(Object.keys(result.model.cubes.a!.measures).sort()).toEqual(['constructor', 'toString']);
  });

  it('`constructor` is no relationship and no top-level key; a call `constructor(...)` is no entity', () => {
    const yaml = `constructor: []\ncubes:\n  - name: a\n    sql_table: t\n    joins:\n      - name: b\n        sql: "{CUBE}.id = {b.id}"\n        relationship: constructor\n  - name: b\n    sql_table: u\n`;
    const result = compileModel([
      { path: 'model/a.yml', content: yaml },
      { path: 'model/c.js', content: "constructor(`c`, { sql_table: 't' });\ntoString(`d`, { sql_table: 't' });\n" },
    ]);
    const codes = result.diagnostics.map((d) => d.code);
    expect(codes).toContain(C.INVALID_RELATIONSHIP);
    expect(codes).toContain(C.UNKNOWN_TOP_LEVEL_KEY);
    expect(Object.keys(result.model.cubes).sort()).toEqual(['a', 'b']);
  });

  it('`__proto__` in meta or another map is an entry, and sets no prototype', () => {
    const yaml = `cubes:\n  - name: a\n    sql_table: t\n    meta:\n      __proto__:\n        polluted: true\n      constructor: 1\n`;
    const cube = compileModel([{ path: 'model/a.yml', content: yaml }]).model.cubes.a!;
    const meta = cube.meta as Record<string, unknown>;
    expect(Object.keys(meta).sort()).toEqual(['__proto__', 'constructor']);
    expect((meta as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(meta))).toEqual(JSON.parse('{"__proto__":{"polluted":true},"constructor":1}'));
  });

  it('an access policy condition on `securityContext.constructor` does not hold for everyone', () => {
    const yaml = `cubes:
  - name: a
    sql_table: t
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
    measures:
      - name: count
        type: count
    access_policy:
      - group: "*"
        conditions:
          - if: "{ securityContext.constructor }"
        member_level:
          includes: "*"
`;
    const model = compileModel([{ path: 'model/a.yml', content: yaml }]).model;
    const security = { groups: [], roles: [], securityContext: {}, userAttributes: {} };
    expect(() => planQuery(model, { measures: ['a.count'] }, { dialect: duckdbDialect, security })).toThrow(/denied/);
    expect(() => planQuery(model, { measures: ['a.count'] }, { dialect: duckdbDialect, security: { ...security, securityContext: { constructor: true } } })).not.toThrow();
  });
});

describe('absurd date ranges', () => {
  const model = () => compileModel([{ path: 'model/a.yml', content: prototypeNamedCubesYaml('t', ['orders']) }]).model;

  it.each([
    ['last 99999999999 years'],
    ['next 99999999999 days'],
    ['from 99999999999999999999 days ago to now'],
    ['last 3000 years'],
    [['275760-01-01', '275760-12-31']],
    [['2025-01-01', '99999-01-01']],
    [['0000-01-01', '2025-01-01']],
    ['NaN'],
  ])('%j is 400 INVALID_DATE_RANGE', (dateRange) => {
    const error = planError(model(), { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange }] });
    expect(error).toMatchObject({ code: 'INVALID_DATE_RANGE', status: 400 });
  });

  it('the years 1 to 9999 remain', () => {
    expect(plan(model(), { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['0001-01-01', '9999-12-31'] }] }).main.params).toEqual(
      expect.arrayContaining(['0001-01-01 00:00:00.000', '9999-12-31 23:59:59.999']),
    );
  });
});
