import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileModel, createIncrementalCompiler } from '../../../src-shared/model';
import type { CompileOptions, CompileResult, ModelFile } from '../../../src-shared/model';
import { cubeFile, generateProject } from '../../bench/model.bench';

// Incremental re-checking must give exactly what a full compile of the same files gives.

const NAMES = ['a', 'b', 'c', 'd'];
const MEMBERS = ['id', 'x', 'y', 'count'];

const cubeText = fc
  .record({
    name: fc.constantFrom(...NAMES),
    extendsName: fc.option(fc.constantFrom(...NAMES, 'ghost'), { nil: undefined }),
    table: fc.boolean(),
    pk: fc.boolean(),
    joins: fc.array(fc.record({ to: fc.constantFrom(...NAMES, 'ghost'), rel: fc.constantFrom('many_to_one', 'one_to_many', 'has_one'), col: fc.constantFrom('id', 'x', 'nope') }), { maxLength: 2 }),
    dims: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { maxLength: 3 }),
    measureRef: fc.option(fc.tuple(fc.constantFrom('CUBE', ...NAMES), fc.constantFrom(...MEMBERS)), { nil: undefined }),
    measureType: fc.constantFrom('sum', 'count_distinct', 'number', 'avg'),
    hierarchy: fc.boolean(),
  })
  .map((c) => {
    const lines = ['cubes:', `  - name: ${c.name}`];
    if (c.extendsName) lines.push(`    extends: ${c.extendsName}`);
    if (c.table) lines.push(`    sql_table: s.${c.name}`);
    if (c.joins.length) {
      lines.push('    joins:');
      for (const j of c.joins) lines.push(`      - name: ${j.to}`, `        sql: "{CUBE}.${j.to}_id = {${j.to}.${j.col}}"`, `        relationship: ${j.rel}`);
    }
    lines.push('    dimensions:', '      - name: id', '        sql: id', '        type: number');
    if (c.pk) lines.push('        primary_key: true');
    for (const d of c.dims) lines.push(`      - name: ${d}`, `        sql: ${d}`, '        type: string');
    lines.push('    measures:', '      - name: count', '        type: count');
    if (c.measureRef) lines.push('      - name: derived', `        sql: "{${c.measureRef[0]}.${c.measureRef[1]}}"`, `        type: ${c.measureType}`);
    if (c.hierarchy) lines.push('    hierarchies:', '      - name: h', '        levels: [x, id]');
    return `${lines.join('\n')}\n`;
  });

const viewText = fc
  .record({
    name: fc.constantFrom('v1', 'v2', 'a'),
    extendsName: fc.option(fc.constantFrom('v1', 'v2'), { nil: undefined }),
    entries: fc.array(
      fc.record({
        path: fc.array(fc.constantFrom(...NAMES, 'ghost'), { minLength: 1, maxLength: 3 }),
        includes: fc.oneof(fc.constant<'*'>('*'), fc.uniqueArray(fc.constantFrom(...MEMBERS, 'h', 'derived'), { minLength: 1, maxLength: 3 })),
        prefix: fc.boolean(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    folder: fc.option(fc.constantFrom('x', 'count', 'a_x'), { nil: undefined }),
  })
  .map((v) => {
    const lines = ['views:', `  - name: ${v.name}`];
    if (v.extendsName) lines.push(`    extends: ${v.extendsName}`);
    lines.push('    cubes:');
    for (const e of v.entries) {
      lines.push(`      - join_path: ${e.path.join('.')}`);
      if (e.prefix) lines.push('        prefix: true');
      lines.push(e.includes === '*' ? '        includes: "*"' : `        includes: [${e.includes.join(', ')}]`);
    }
    if (v.folder) lines.push('    folders:', '      - name: F', `        includes: [${v.folder}]`);
    return `${lines.join('\n')}\n`;
  });

const otherText = fc.constantFrom(
  'cubes:\n  - name: a\n    sql_table: t\n   bad: indent\n',
  "cube(`b`, { sqlTable: `s.b`, dimensions: { id: { sql: `id`, type: `number`, primaryKey: true } } });\n",
  "cube(`c`, { sql: makeSql(), dimensions: { id: { sql: `id`, type: `number`, primaryKey: true } } });\n",
  "['x'].forEach((n) => cube(n, {}));\n",
  'view_groups:\n  - name: g\n    views: [v1, v2]\n',
  'cubes:\n{% for n in ["d"] %}\n  - name: "{{ n }}"\n    sql_table: t\n{% endfor %}\n',
  '',
);

const PATHS = ['m/1.yml', 'm/2.yml', 'm/3.yml', 'm/4.yml', 'm/5.js', 'm/6.yml'];
const step = fc.record({
  path: fc.constantFrom(...PATHS),
  content: fc.option(fc.oneof({ weight: 4, arbitrary: cubeText }, { weight: 3, arbitrary: viewText }, { weight: 1, arbitrary: otherText }), { nil: null, freq: 6 }),
});

function comparable(result: CompileResult) {
  return { diagnostics: result.diagnostics, valid: result.valid, model: JSON.parse(JSON.stringify(result.model)) };
}

describe('incremental compile', () => {
  it('gives the same diagnostics and model as a full compile after any sequence of edits', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), fc.boolean(), (steps, analyzers) => {
        const options: CompileOptions = { analyzers, catalogConfigured: false };
        const compiler = createIncrementalCompiler(options);
        const current = new Map<string, string>();
        for (const s of steps) {
          // JS paths get JS-looking content only when it is JS; YAML in a .js file is just a syntax error, also fine.
          const incremental = s.content === null ? compiler.remove(s.path) : compiler.update({ path: s.path, content: s.content });
          if (s.content === null) current.delete(s.path);
          else current.set(s.path, s.content);
          const files: ModelFile[] = [...current].map(([path, content]) => ({ path, content }));
          expect(comparable(incremental)).toEqual(comparable(compileModel(files, options)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('check answers the same verdict as a full compile without building the model, and result() still gives the model', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(step, fc.boolean()), { minLength: 1, maxLength: 25 }), (steps) => {
        const compiler = createIncrementalCompiler();
        const current = new Map<string, string>();
        for (const [s, askModel] of steps) {
          const verdict = compiler.check([{ path: s.path, content: s.content }]);
          expect(verdict).not.toHaveProperty('model');
          if (s.content === null) current.delete(s.path);
          else current.set(s.path, s.content);
          const full = compileModel([...current].map(([path, content]) => ({ path, content })));
          expect(verdict).toEqual({ diagnostics: full.diagnostics, valid: full.valid });
          if (askModel) expect(comparable(compiler.result())).toEqual(comparable(full));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('re-checks only the entities that depend on the edited file', () => {
    const files = generateProject();
    const compiler = createIncrementalCompiler();
    for (const f of files) compiler.update(f);
    expect(compiler.stats().lastRecheckedEntities).toBeGreaterThan(0);

    const edited = cubeFile(100, 1);
    const result = compiler.update(edited);
    // cube_100 itself, cube_101 (joins it) and the views whose join paths cross it.
    expect(compiler.stats().lastRecheckedEntities).toBeLessThanOrEqual(5);
    expect(result.model.cubes.cube_100!.title).toBe('Cube 100 (v1)');
    const full = compileModel(files.map((f) => (f.path === edited.path ? edited : f)));
    expect(comparable(result)).toEqual(comparable(full));
  });

  it('an unchanged file re-checks nothing', () => {
    const compiler = createIncrementalCompiler();
    const file = cubeFile(0);
    const first = compiler.update(file);
    expect(compiler.stats().lastRecheckedEntities).toBe(1);
    const again = compiler.update({ ...file });
    expect(compiler.stats().lastRecheckedEntities).toBe(0);
    expect(again).toBe(first);
  });

  it('renaming a referenced cube surfaces errors in its dependents, and renaming back clears them', () => {
    const compiler = createIncrementalCompiler();
    compiler.update(cubeFile(0));
    compiler.update(cubeFile(1));
    expect(compiler.result().valid).toBe(true);
    const renamed = { path: cubeFile(0).path, content: cubeFile(0).content.replace('name: cube_0', 'name: cube_zero') };
    const broken = compiler.update(renamed);
    expect(broken.diagnostics.map((d) => d.code)).toContain('MODEL_UNKNOWN_JOIN_CUBE');
    expect(compiler.update(cubeFile(0)).valid).toBe(true);
  });
});
