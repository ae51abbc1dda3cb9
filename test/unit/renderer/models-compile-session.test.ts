import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileModel } from '../../../src-shared/model';
import { mergeSymbols } from '../../../src-renderer/src/features/models/compiler';
import { CompileSession, isModelSourcePath } from '../../../src-renderer/src/features/models/compile-session';
import { applySymbolDelta, EMPTY_SYMBOLS, entityParts, packEntities, symbolsOf, unpackEntity, type CompilerResult, type ModelSymbols } from '../../../src-renderer/src/features/models/protocol';

const SAMPLE = join(import.meta.dirname, '../../../resources/sample-project');

function sampleFiles() {
  const files: { path: string; content: string }[] = [];
  for (const folder of ['model/cubes', 'model/views']) {
    for (const name of readdirSync(join(SAMPLE, folder)).sort()) files.push({ path: `${folder}/${name}`, content: readFileSync(join(SAMPLE, folder, name), 'utf8') });
  }
  return files;
}

/** Replays results on a symbol index as the UI does. */
function replay(results: CompilerResult[]): ModelSymbols {
  return results.reduce((symbols, r) => mergeSymbols(symbols, r.symbols, r.diagnostics), EMPTY_SYMBOLS);
}

const ORDERS = 'model/cubes/orders.yml';
/** The analyzers as the service's validate runs them: every view checked for both targets. */
const BOTH = { kind: 'unreadable' } as const;

describe('the editor’s compile session (the worker)', () => {
  const files = sampleFiles();
  const orders = files.find((f) => f.path === ORDERS)!;

  it('gives the same diagnostics as the service’s compiler with analyzers on', () => {
    const session = new CompileSession();
    const result = session.handle({ type: 'reset', seq: 1, files, sources: BOTH });
    const expected = compileModel(files, { analyzers: true });
    expect(result.diagnostics).toEqual(expected.diagnostics);
    expect(result.valid).toBe(expected.valid);
    expect(result.fileCount).toBe(files.length);
    // The analyzers' push and publish findings are surfaced as warnings.
    expect(result.diagnostics.some((d) => d.code === 'MODEL_NOT_PUSHABLE' && d.severity === 'warning')).toBe(true);
  });

  it('checks model test files against their schema and the model, each problem on its line, as the editor types', () => {
    const testFile = (expectKey: string, member: string) =>
      [
        'data:',
        '  fixtures:',
        '    ecommerce.orders: fixtures/orders.csv',
        'tests:',
        '  - name: counts orders',
        '    query:',
        `      measures: [${member}]`,
        `    ${expectKey}:`,
        '      row_count: 1',
        '',
      ].join('\n');
    const TEST = 'tests/orders.yml';
    const fixture = { path: 'tests/fixtures/orders.csv', content: 'id,status\n1,placed\n' };
    const session = new CompileSession();
    const good = session.handle({ type: 'reset', seq: 1, files: [...files, fixture, { path: TEST, content: testFile('expect', 'orders.count') }], sources: BOTH });
    expect(good.diagnostics.filter((d) => d.file === TEST)).toEqual([]);
    // A misspelt key, then a measure the model does not have, while typing.
    const misspelt = session.handle({ type: 'update', seq: 2, changes: [{ path: TEST, content: testFile('expects', 'orders.count') }] });
    expect(misspelt.diagnostics.filter((d) => d.file === TEST)).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'MODEL_TEST_UNKNOWN_KEY', line: 8, severity: 'error' })]));
    const refused = session.handle({ type: 'update', seq: 3, changes: [{ path: TEST, content: testFile('expect', 'orders.counted') }] });
    expect(refused.diagnostics.filter((d) => d.file === TEST)).toEqual([expect.objectContaining({ code: 'MODEL_TEST_QUERY_REFUSED', line: 7, severity: 'error' })]);
    // The fixture file going away is a problem of the test file that names it.
    const noFixture = session.handle({ type: 'update', seq: 4, changes: [{ path: TEST, content: testFile('expect', 'orders.count') }, { path: fixture.path, content: null }] });
    expect(noFixture.diagnostics.filter((d) => d.file === TEST).map((d) => [d.code, d.line])).toEqual([['MODEL_TEST_FIXTURE_NOT_FOUND', 3]]);
  });

  it('compiles only model sources, as the service’s validate does', () => {
    expect(isModelSourcePath('model/cubes/a.yml')).toBe(true);
    expect(isModelSourcePath('schema/a.js')).toBe(true);
    expect(isModelSourcePath('README.md')).toBe(false);
    expect(isModelSourcePath('macros/a.yml')).toBe(false);
    const session = new CompileSession();
    const result = session.handle({ type: 'reset', seq: 1, files: [...files, { path: 'notes/broken.yml', content: 'cubes: [' }], sources: BOTH });
    expect(result.fileCount).toBe(files.length);
    expect(result.diagnostics.some((d) => d.file === 'notes/broken.yml')).toBe(false);
  });

  it('reports an unknown measure type while typing and clears it when fixed', () => {
    const session = new CompileSession();
    session.handle({ type: 'reset', seq: 1, files, sources: BOTH });
    const broken = session.handle({ type: 'update', seq: 2, changes: [{ path: ORDERS, content: orders.content.replace('type: sum', 'type: running_total') }] });
    const error = broken.diagnostics.find((d) => d.severity === 'error');
    expect(error).toMatchObject({ code: 'MODEL_UNKNOWN_MEMBER_TYPE', file: ORDERS, member: 'orders.total_amount' });
    expect(broken.valid).toBe(false);
    const fixed = session.handle({ type: 'update', seq: 3, changes: [{ path: ORDERS, content: orders.content }] });
    expect(fixed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(fixed.diagnostics).toEqual(compileModel(files, { analyzers: true }).diagnostics);
  });

  it('re-checks only what an edit touches once the incremental compiler is ready', () => {
    const session = new CompileSession();
    session.handle({ type: 'reset', seq: 1, files, sources: BOTH });
    session.prepare();
    const products = files.find((f) => f.path === 'model/cubes/products.yml')!;
    const result = session.handle({ type: 'update', seq: 2, changes: [{ path: products.path, content: `${products.content}\n# edited\n` }] });
    const entities = Object.keys(compileModel(files).model.cubes).length + Object.keys(compileModel(files).model.views).length;
    expect(result.recheckedEntities).toBeGreaterThan(0);
    expect(result.recheckedEntities).toBeLessThan(entities);
  });

  it('sends the whole symbol index after a reset and only changed entities after an edit', () => {
    const session = new CompileSession();
    const first = session.handle({ type: 'reset', seq: 1, files, sources: BOTH });
    expect(first.symbols.full).toBe(true);
    session.prepare();
    const renamed = orders.content.replace('title: Orders\n', 'title: Orders and returns\n');
    const second = session.handle({ type: 'update', seq: 2, changes: [{ path: ORDERS, content: renamed }] });
    expect(second.symbols.full).toBe(false);
    expect(second.symbols.changed.map((e) => e.name)).toContain('orders');
    expect(second.symbols.changed.map((e) => e.name)).not.toContain('customers');
    const replayed = replay([first, second]);
    const edited = files.map((f) => (f.path === ORDERS ? { ...f, content: renamed } : f));
    expect(replayed).toEqual(symbolsOf(compileModel(edited).model));
  });

  it('reports removed cubes in the delta when their file goes away', () => {
    const session = new CompileSession();
    const first = session.handle({ type: 'reset', seq: 1, files, sources: BOTH });
    const second = session.handle({ type: 'update', seq: 2, changes: [{ path: 'model/cubes/products.yml', content: null }] });
    expect(second.symbols.removed).toContain('products');
    expect(replay([first, second]).entities.products).toBeUndefined();
  });

  it('keeps the names of a file with a syntax error for completion while it is being typed', () => {
    const session = new CompileSession();
    const first = session.handle({ type: 'reset', seq: 1, files, sources: BOTH });
    const second = session.handle({ type: 'update', seq: 2, changes: [{ path: ORDERS, content: `${orders.content}\n  - name: [unclosed\n` }] });
    expect(second.diagnostics.some((d) => d.code === 'MODEL_YAML_SYNTAX' && d.file === ORDERS)).toBe(true);
    expect(replay([first, second]).entities.orders).toBeDefined();
  });

  it('keeps the names of a file for completion while a typed `{` makes it unparseable templated YAML', () => {
    const session = new CompileSession();
    const first = session.handle({ type: 'reset', seq: 1, files, sources: BOTH });
    // `{` typed before `{CUBE}` is `{{`, a Jinja expression left open, until the next key.
    const typed = orders.content.replace('STRING_AGG(DISTINCT {CUBE}', 'STRING_AGG(DISTINCT {{CUBE}');
    expect(typed).not.toBe(orders.content);
    const second = session.handle({ type: 'update', seq: 2, changes: [{ path: ORDERS, content: typed }] });
    expect(second.diagnostics.some((d) => d.code === 'MODEL_TEMPLATED_UNPARSEABLE' && d.file === ORDERS)).toBe(true);
    expect(replay([first, second]).entities.orders?.members.map((m) => m.name)).toContain('total_amount');
  });

  it('answers the sequence number of the request', () => {
    const session = new CompileSession();
    expect(session.handle({ type: 'reset', seq: 7, files: [], sources: BOTH }).seq).toBe(7);
    expect(session.handle({ type: 'update', seq: 8, changes: [] }).seq).toBe(8);
  });
});

describe('symbol deltas', () => {
  it('replaces the index on a full delta and patches it otherwise', () => {
    const a = { kind: 'cube' as const, name: 'a', loc: { file: 'a.yml', line: 1, column: 1 }, members: [], joins: [] };
    const b = { ...a, name: 'b' };
    const full = applySymbolDelta(EMPTY_SYMBOLS, { full: true, ...packEntities([entityParts(a), entityParts(b)]), removed: [] });
    expect(Object.keys(full.entities)).toEqual(['a', 'b']);
    const patched = applySymbolDelta(full, { full: false, ...packEntities([entityParts({ ...a, title: 'A' })]), removed: ['b'] });
    expect(patched.entities).toEqual({ a: { ...a, title: 'A' } });
  });

  it('carries members as spans of one text and reads them once, on first use, into the symbols the worker made', () => {
    const loc = (file: string, line: number) => ({ file, line, column: 5 });
    const a = {
      kind: 'cube' as const,
      name: 'a',
      loc: loc('a.yml', 1),
      members: [
        { name: 'count', kind: 'measure' as const, type: 'count', title: 'Nombre de «commandes»', loc: loc('a.yml', 3) },
        { name: 'id', kind: 'dimension' as const, type: 'number', loc: loc('a.yml', 7) },
      ],
      joins: ['b'],
      table: 'public.a',
    };
    const b = { kind: 'view' as const, name: 'b', loc: loc('b.yml', 1), members: [{ name: 'a_id', kind: 'dimension' as const, type: 'number', source: 'a.id', loc: loc('b.yml', 4) }], joins: [], sources: ['a'] };
    const packed = packEntities([entityParts(a), entityParts(b)]);
    expect(typeof packed.members).toBe('string');
    // What crosses the worker boundary: a structured clone, as postMessage makes it.
    const wire = structuredClone(packed);
    const [unpackedA, unpackedB] = wire.changed.map((entity) => unpackEntity(entity, wire.members));
    expect(unpackedA).toEqual(a);
    expect(unpackedB).toEqual(b);
    expect(unpackedA!.members).toBe(unpackedA!.members);
  });
});
