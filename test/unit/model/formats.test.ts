import { describe, expect, it } from 'vitest';
import { DiagnosticCodes as C, modelFormatOf } from '../../../src-shared/model';
import { base, compile, errors, withCode } from './helpers';

describe('YAML syntax errors', () => {
  it('are reported with line, column and a code frame', () => {
    const text = 'cubes:\n  - name: orders_2\n    sql_table: shop.orders\n    dimensions:\n      - name: id\n        sql: "id\n        type: number\n';
    const result = compile(base({ 'model/cubes/broken.yml': text }));
    const d = withCode(result, C.YAML_SYNTAX)[0]!;
    expect(d).toMatchObject({ severity: 'error', file: 'model/cubes/broken.yml' });
    expect(d.line).toBeGreaterThanOrEqual(6);
    expect(d.column).toBeGreaterThan(0);
    expect(d.frame).toContain('sql: "id');
    expect(d.frame).toMatch(/>\s+\d+ \|/);
    expect(result.valid).toBe(false);
  });

  it('bad indentation points at the offending line', () => {
    const text = 'cubes:\n  - name: orders_2\n    sql_table: shop.orders\n   title: Misaligned\n';
    const d = withCode(compile({ 'model/cubes/broken.yml': text }), C.YAML_SYNTAX)[0]!;
    expect(d.line).toBe(4);
  });

  it('duplicate keys are reported at the second key with a code frame', () => {
    const text = 'cubes:\n  - name: a\n    sql_table: t\n    sql_table: u\n';
    const d = withCode(compile({ 'model/cubes/a.yml': text }), C.DUPLICATE_KEY)[0]!;
    expect(d).toMatchObject({ line: 4, column: 5 });
    expect(d.frame).toContain('sql_table: u');
  });

  it('files outside the fast subset (anchors, flow maps) compile through the yaml library', () => {
    const text = 'cubes:\n  - name: a\n    sql_table: t\n    meta: { owner: data-team }\n    dimensions:\n      - &id_dim\n        name: id\n        sql: id\n        type: number\n        primary_key: true\n';
    const result = compile({ 'model/cubes/a.yml': text });
    expect(result.diagnostics).toEqual([]);
    expect(result.model.cubes.a!.meta).toEqual({ owner: 'data-team' });
    expect(result.model.cubes.a!.dimensions.id!.loc).toMatchObject({ line: 7, column: 9 });
  });
});

describe('templated (Jinja) models', () => {
  const templated = [
    'cubes:',
    '  - name: events',
    '    sql_table: "{{ schema }}.events"',
    '    dimensions:',
    '      - name: id',
    '        sql: id',
    '        type: number',
    '        primary_key: true',
    '{% for col in ["a", "b"] %}',
    '      - name: {{ col }}_flag',
    '        sql: "{{ col }}"',
    '        type: boolean',
    '{% endfor %}',
    '    measures:',
    '      - name: count',
    '        type: count',
    '',
  ].join('\n');

  it('are detected, flagged and their static parts checked', () => {
    const result = compile({ 'model/cubes/events.yml': templated });
    expect(errors(result)).toEqual([]);
    expect(withCode(result, C.TEMPLATED_MODEL)).toHaveLength(1);
    const cube = result.model.cubes.events!;
    expect(cube.templated).toBe(true);
    expect(result.model.files['model/cubes/events.yml']!.templated).toBe(true);
    expect(Object.keys(cube.measures)).toEqual(['count']);
  });

  it('templated files that are not YAML before rendering only warn', () => {
    const text = '{% if true %}\ncubes:\n{% endif %}\n  - name: x\n    sql: {{ "select 1" }}\n  bad: [\n';
    const result = compile({ 'model/cubes/x.yml': text });
    expect(errors(result)).toEqual([]);
    expect(withCode(result, C.TEMPLATED_UNPARSEABLE).length).toBeGreaterThan(0);
    expect(result.model.files['model/cubes/x.yml']!.opaqueDefinitions).toBe(true);
  });

  it('make unknown cubes warnings rather than errors, since templates may define them', () => {
    const text = 'cubes:\n{% for n in names %}\n  - name: "{{ n }}"\n    sql_table: t\n{% endfor %}\n';
    const view = 'views:\n  - name: v\n    cubes:\n      - join_path: generated_cube\n        includes: "*"\n';
    const result = compile({ 'model/cubes/gen.yml': text, 'model/views/v.yml': view });
    expect(result.valid).toBe(true);
    expect(withCode(result, C.UNKNOWN_JOIN_PATH_CUBE)[0]!.severity).toBe('warning');
  });
});

describe('JavaScript models', () => {
  const js = [
    "const schema = 'shop';",
    '',
    'cube(`orders_js`, {',
    '  sqlTable: `${schema}.orders`,',
    '  joins: {',
    '    customers: {',
    '      relationship: `belongsTo`,',
    '      sql: `${CUBE}.customer_id = ${customers.id}`,',
    '    },',
    '  },',
    '  measures: {',
    '    count: { type: `count`, drillMembers: [id, customers.city] },',
    "    uniqueStatuses: { sql: `status`, type: 'countDistinct' },",
    '  },',
    '  dimensions: {',
    '    id: { sql: `id`, type: `number`, primaryKey: true },',
    '    status: { sql: `${CUBE}.status`, type: `string` },',
    '  },',
    '});',
    '',
    "view('orders_js_view', {",
    '  cubes: [{ joinPath: orders_js, includes: [`count`, `status`] }],',
    '});',
    '',
  ].join('\n');

  it('static cube() and view() calls compile like YAML (camelCase keys, keyed members, references)', () => {
    const result = compile(base({ 'model/js/orders.js': js }));
    expect(result.diagnostics).toEqual([]);
    const cube = result.model.cubes.orders_js!;
    expect(cube).toMatchObject({ format: 'js', sqlTable: 'shop.orders', dynamic: false, primaryKey: 'id' });
    expect(cube.joins[0]).toMatchObject({ name: 'customers', relationship: 'many_to_one', sql: '{CUBE}.customer_id = {customers.id}' });
    expect(cube.measures.uniqueStatuses).toMatchObject({ type: 'count_distinct', loc: { line: 13, column: 5 } });
    expect(cube.measures.count!.drillMembers).toEqual(['id', 'customers.city']);
    expect(Object.keys(result.model.views.orders_js_view!.members)).toEqual(['count', 'status']);
  });

  it('references inside template literals are checked', () => {
    const broken = js.replace('${customers.id}', '${customers.uuid}');
    const d = withCode(compile(base({ 'model/js/orders.js': broken })), C.UNRESOLVED_REFERENCE)[0]!;
    expect(d).toMatchObject({ file: 'model/js/orders.js', line: 8, member: 'orders_js.customers' });
    expect(d.message).toContain('uuid');
  });

  it('function calls and computed values make the model dynamic, not invalid', () => {
    const dynamic = js.replace('sql: `status`', 'sql: buildSql("status")');
    const result = compile(base({ 'model/js/orders.js': dynamic }));
    expect(errors(result)).toEqual([]);
    expect(result.model.cubes.orders_js!.dynamic).toBe(true);
    expect(result.model.cubes.orders_js!.measures.uniqueStatuses!.dynamic).toBe(true);
    expect(result.model.files['model/js/orders.js']).toMatchObject({ format: 'js', dynamic: true, opaqueDefinitions: false });
    expect(withCode(result, C.DYNAMIC_MODEL)).toHaveLength(1);
  });

  it('cubes generated in loops make the project opaque', () => {
    const loop = "['a', 'b'].forEach((n) => cube(`gen_${n}`, { sql: `select 1` }));\n";
    const result = compile({ 'model/js/gen.js': loop });
    expect(result.model.files['model/js/gen.js']).toMatchObject({ dynamic: true, opaqueDefinitions: true });
    expect(Object.keys(result.model.cubes)).toEqual([]);
  });

  it('syntax errors are reported with line, column and a code frame', () => {
    const broken = js.replace("  sqlTable: `${schema}.orders`,", '  sqlTable: `${schema}.orders`,,');
    const result = compile(base({ 'model/js/orders.js': broken }));
    const d = withCode(result, C.JS_SYNTAX)[0]!;
    expect(d).toMatchObject({ severity: 'error', file: 'model/js/orders.js', line: 4, column: 32 });
    expect(d.frame).toContain('> 4 |');
    expect(d.frame).toContain('^');
    expect(result.valid).toBe(false);
  });

  it('duplicate keys are reported with a code frame', () => {
    const dup = js.replace('    status: { sql: `${CUBE}.status`, type: `string` },', '    status: { sql: `${CUBE}.status`, type: `string`, type: `number` },');
    const d = withCode(compile(base({ 'model/js/orders.js': dup })), C.DUPLICATE_KEY)[0]!;
    expect(d).toMatchObject({ line: 17, column: 54 });
    expect(d.frame).toContain('type: `number`');
  });

  it('a camelCase key and its snake_case spelling are one property set twice: the first is kept', () => {
    const text = 'cube(`twice`, {\n  sqlTable: `shop.first`,\n  sql_table: `shop.second`,\n  oddKey: 1,\n  title: `Twice`,\n  dimensions: { id: { sql: `id`, type: `number`, primaryKey: true } },\n});\n';
    const result = compile({ 'model/js/twice.js': text });
    expect(withCode(result, C.DUPLICATE_KEY).map((d) => [d.message, d.line])).toEqual([["Property 'sql_table' is set twice in cube 'twice' (model/js/twice.js)", 3]]);
    expect(withCode(result, C.UNKNOWN_PROPERTY).map((d) => d.line)).toEqual([4]);
    expect(result.model.cubes.twice).toMatchObject({ sqlTable: 'shop.first', title: 'Twice' });
  });

  it('TypeScript model files are flagged dynamic and not analysed', () => {
    const result = compile({ 'model/ts/x.ts': 'cube(`x`, { sql: `select 1` } as const);\n' });
    expect(result.model.files['model/ts/x.ts']).toMatchObject({ format: 'ts', dynamic: true, opaqueDefinitions: true });
    expect(errors(result)).toEqual([]);
  });

  it('only model files are read', () => {
    expect(modelFormatOf('model/globals.py')).toBeNull();
    expect(modelFormatOf('model/cubes/a.yml.jinja')).toBe('yaml');
    const result = compile({ 'model/globals.py': 'def x(): pass\n', 'README.md': '# hi\n' });
    expect(result.model.files).toEqual({});
  });
});
