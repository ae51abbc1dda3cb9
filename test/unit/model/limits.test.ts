// The compiler's bounds on what a model file may ask of its readers (issue 23): every over-limit
// file is one diagnostic on that file, answered at once, and the rest of the model still compiles.
import { describe, expect, it } from 'vitest';
import { compileModel, createIncrementalCompiler, DiagnosticCodes as C, type CompileResult } from '../../../src-shared/model';
import { MODEL_LIMITS, ModelFileTooComplex, NodeBudget } from '../../../src-shared/model/limits';
import { yamlRawTree } from '../../../src-shared/model/parse';
import { fastParseYaml } from '../../../src-shared/model/yaml-fast';
import { JS_BOMBS, YAML_BOMBS } from '../../support/fuzz-tricks-model';
import { jsDeepNesting, jsStringBomb, yamlAliasBomb, yamlDeepNesting } from '../../support/model-bombs';
import { ORDERS, CUSTOMERS } from './helpers';

/** orders refers to a member it lacks: its own error must still be reported next to a refused file. */
const BROKEN_ORDERS = ORDERS.replace('sql: amount', 'sql: "{nope}"');

const codesOf = (result: CompileResult, file: string) => result.diagnostics.filter((d) => d.file === file).map((d) => d.code);

function timed<T>(fn: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = fn();
  return { value, ms: performance.now() - started };
}

describe('a YAML alias bomb', () => {
  it('is MODEL_FILE_TOO_COMPLEX on its file, in well under a second, and the other files are still checked', () => {
    const { value: result, ms } = timed(() =>
      compileModel([
        { path: 'model/bomb.yml', content: yamlAliasBomb() },
        { path: 'model/orders.yml', content: BROKEN_ORDERS },
        { path: 'model/customers.yml', content: CUSTOMERS },
      ]),
    );
    expect(ms).toBeLessThan(1000);
    expect(codesOf(result, 'model/bomb.yml')).toEqual([C.FILE_TOO_COMPLEX]);
    expect(result.diagnostics.find((d) => d.file === 'model/bomb.yml')!.message).toMatch(/aliases/);
    expect(codesOf(result, 'model/orders.yml')).toContain(C.UNRESOLVED_REFERENCE);
    expect(Object.keys(result.model.cubes).sort()).toEqual(['customers', 'orders']);
    expect(result.valid).toBe(false);
  });

  it('is refused the same way through the incremental compiler, and forgotten once the file is fixed', () => {
    const compiler = createIncrementalCompiler();
    compiler.apply([{ path: 'model/orders.yml', content: ORDERS }, { path: 'model/customers.yml', content: CUSTOMERS }]);
    const bombed = compiler.check([{ path: 'model/orders.yml', content: yamlAliasBomb() }]);
    expect(bombed.diagnostics.map((d) => d.code)).toContain(C.FILE_TOO_COMPLEX);
    expect(compiler.check([{ path: 'model/orders.yml', content: ORDERS }])).toMatchObject({ valid: true, diagnostics: [] });
  });

  it(`expands up to ${MODEL_LIMITS.aliasNodes.toLocaleString('en-US')} values through aliases, and refuses one more`, () => {
    // An anchored list of 99 values is 100 nodes; aliased `copies` times, it expands into 100 × copies.
    const file = (copies: number) => `anchor: &a [${new Array(99).fill('1').join(',')}]\ncopies: [${new Array(copies).fill('*a').join(',')}]\n`;
    const atLimit = compileModel([{ path: 'model/a.yml', content: file(MODEL_LIMITS.aliasNodes / 100) }]);
    expect(atLimit.diagnostics.map((d) => d.code)).not.toContain(C.FILE_TOO_COMPLEX);
    expect(atLimit.diagnostics.map((d) => d.code)).toContain(C.UNKNOWN_TOP_LEVEL_KEY); // it was read
    const over = compileModel([{ path: 'model/a.yml', content: file(MODEL_LIMITS.aliasNodes / 100 + 1) }]);
    expect(over.diagnostics.map((d) => d.code)).toEqual([C.FILE_TOO_COMPLEX]);
  });
});

describe('values a file may hold', () => {
  it(`reads a YAML file of ${MODEL_LIMITS.fileNodes.toLocaleString('en-US')} values, and refuses one more`, () => {
    // Root map + list + n values: n = fileNodes - 2 is exactly at the limit.
    const flat = (n: number) => `cubes: [${new Array(n).fill('1').join(',')}]\n`;
    const at = compileModel([{ path: 'model/a.yml', content: flat(MODEL_LIMITS.fileNodes - 2) }]);
    expect(at.diagnostics.some((d) => d.code === C.FILE_TOO_COMPLEX)).toBe(false);
    const over = compileModel([{ path: 'model/a.yml', content: flat(MODEL_LIMITS.fileNodes - 1) }]);
    expect(over.diagnostics.map((d) => d.code)).toEqual([C.FILE_TOO_COMPLEX]);
  });

  it('the fast reader and the yaml library count the same values against the same budget', () => {
    const text = ORDERS + CUSTOMERS.replace('cubes:\n', '');
    const fits = (read: (budget: NodeBudget) => unknown, max: number) => {
      try {
        read(new NodeBudget('test', max));
        return true;
      } catch (error) {
        if (error instanceof ModelFileTooComplex) return false;
        throw error;
      }
    };
    const fast = (budget: NodeBudget) => expect(fastParseYaml(text, budget)).toBeDefined();
    const library = (budget: NodeBudget) => yamlRawTree(text, [], budget);
    let needed = 1;
    while (!fits(fast, needed)) needed++;
    expect(needed).toBeGreaterThan(40);
    expect(fits(library, needed)).toBe(true);
    expect(fits(library, needed - 1)).toBe(false);
  });

  it('lists at most the first problems of one file, and says how many more there are', () => {
    const many = MODEL_LIMITS.fileDiagnostics + 500;
    const result = compileModel([{ path: 'model/a.yml', content: `cubes: [${new Array(many).fill('1').join(',')}]\n` }]);
    expect(result.diagnostics).toHaveLength(MODEL_LIMITS.fileDiagnostics + 1);
    expect(result.diagnostics.filter((d) => d.code === C.TOO_MANY_DIAGNOSTICS)).toMatchObject([{ file: 'model/a.yml', message: expect.stringContaining('500 more') }]);
  });

  it('a YAML value nested deeper than the reader can follow is MODEL_FILE_TOO_COMPLEX, not a crash', () => {
    const result = compileModel([{ path: 'model/deep.yml', content: yamlDeepNesting() }, { path: 'model/orders.yml', content: ORDERS }, { path: 'model/customers.yml', content: CUSTOMERS }]);
    expect(codesOf(result, 'model/deep.yml')).toEqual([C.FILE_TOO_COMPLEX]);
    expect(result.model.cubes.orders).toBeDefined();
  });
});

describe('JavaScript model files', () => {
  it('a string doubled through template constants is MODEL_FILE_TOO_COMPLEX on its file, at once', () => {
    const { value: result, ms } = timed(() => compileModel([{ path: 'model/bomb.js', content: jsStringBomb() }, { path: 'model/orders.yml', content: BROKEN_ORDERS }]));
    expect(ms).toBeLessThan(1000);
    expect(codesOf(result, 'model/bomb.js')).toEqual([C.FILE_TOO_COMPLEX]);
    expect(codesOf(result, 'model/orders.yml')).toContain(C.UNRESOLVED_REFERENCE);
  });

  it(`builds strings of up to ${MODEL_LIMITS.jsStringChars.toLocaleString('en-US')} characters from constants, and refuses one more`, () => {
    const file = (chars: number) =>
      `const half = '${'x'.repeat(chars / 2)}';\nconst rest = '${'y'.repeat(chars - chars / 2 - 1)}';\ncube(\`c\`, { sql: \`\${half}\${rest}z\`, measures: { n: { type: \`count\` } } });\n`;
    const at = compileModel([{ path: 'model/c.js', content: file(MODEL_LIMITS.jsStringChars) }]);
    expect(at.diagnostics.map((d) => d.code)).not.toContain(C.FILE_TOO_COMPLEX);
    expect(at.model.cubes.c!.sql).toHaveLength(MODEL_LIMITS.jsStringChars);
    const over = compileModel([{ path: 'model/c.js', content: file(MODEL_LIMITS.jsStringChars + 2) }]);
    expect(over.diagnostics.map((d) => d.code)).toEqual([C.FILE_TOO_COMPLEX]);
  });

  it('nesting deeper than the parser can follow is MODEL_FILE_TOO_COMPLEX, not a syntax error', () => {
    const result = compileModel([{ path: 'model/deep.js', content: jsDeepNesting() }]);
    expect(result.diagnostics.map((d) => d.code)).toEqual([C.FILE_TOO_COMPLEX]);
  });

  it(`a file of more than ${MODEL_LIMITS.fileNodes.toLocaleString('en-US')} syntax nodes is refused before its tree is built`, () => {
    const result = compileModel([{ path: 'model/wide.js', content: `cube(\`w\`, { sql_table: 't', meta: [${new Array(MODEL_LIMITS.fileNodes).fill('1').join(',')}] });\n` }]);
    expect(result.diagnostics.map((d) => d.code)).toEqual([C.FILE_TOO_COMPLEX]);
  });
});

describe('sizes of files and of the model', () => {
  const padded = (chars: number) => {
    const head = 'cubes: []\n#';
    return head + 'x'.repeat(chars - head.length);
  };

  it(`reads a file of ${MODEL_LIMITS.fileChars.toLocaleString('en-US')} characters, and refuses one more with MODEL_FILE_TOO_LARGE`, () => {
    expect(compileModel([{ path: 'model/a.yml', content: padded(MODEL_LIMITS.fileChars) }]).diagnostics).toEqual([]);
    const over = compileModel([{ path: 'model/a.yml', content: padded(MODEL_LIMITS.fileChars + 1) }, { path: 'model/orders.yml', content: BROKEN_ORDERS }]);
    expect(codesOf(over, 'model/a.yml')).toEqual([C.FILE_TOO_LARGE]);
    expect(codesOf(over, 'model/orders.yml')).toContain(C.UNRESOLVED_REFERENCE);
  });

  it('a file too large to be read at all is refused by its size alone', () => {
    const result = compileModel([{ path: 'model/huge.yml', content: '', unreadBytes: 3_000_000_000 }]);
    expect(result.diagnostics).toMatchObject([{ code: C.FILE_TOO_LARGE, file: 'model/huge.yml', message: expect.stringContaining('3,000,000,000 bytes') }]);
  });

  it(`compiles ${MODEL_LIMITS.modelFiles.toLocaleString('en-US')} files, and leaves out the ones past it (in path order) with one MODEL_TOO_LARGE`, () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `model/f/${String(i).padStart(6, '0')}.yml`, content: '' }));
    expect(compileModel(files(MODEL_LIMITS.modelFiles)).diagnostics).toEqual([]);
    const over = compileModel(files(MODEL_LIMITS.modelFiles + 2));
    expect(over.diagnostics).toMatchObject([{ code: C.TOO_LARGE, file: `model/f/${String(MODEL_LIMITS.modelFiles).padStart(6, '0')}.yml`, message: expect.stringContaining('2 files') }]);
  });

  it(`compiles ${MODEL_LIMITS.modelChars / 1024 / 1024} MiB of source, leaves out what is past it, and takes it back in when the model shrinks`, () => {
    const part = padded(MODEL_LIMITS.fileChars);
    const count = MODEL_LIMITS.modelChars / MODEL_LIMITS.fileChars;
    const files = Array.from({ length: count }, (_, i) => ({ path: `model/p${String(i).padStart(3, '0')}.yml`, content: part }));
    const compiler = createIncrementalCompiler();
    expect(compiler.check(files).diagnostics).toEqual([]);
    const over = compiler.check([{ path: 'model/z.yml', content: BROKEN_ORDERS }]);
    expect(over.diagnostics).toMatchObject([{ code: C.TOO_LARGE, file: 'model/z.yml' }]);
    // One padded file less: the orders file is read again, with its own error.
    const back = compiler.check([{ path: 'model/p000.yml', content: null }]);
    expect(back.diagnostics.map((d) => d.code)).toContain(C.UNRESOLVED_REFERENCE);
    expect(back.diagnostics.map((d) => d.code)).not.toContain(C.TOO_LARGE);
  });
});

describe('the fuzzer’s model bombs', () => {
  it.each([...YAML_BOMBS.map((text, i) => [`model/bomb${i}.yml`, text]), ...JS_BOMBS.map((text, i) => [`model/bomb${i}.js`, text])])(
    '%s compiles without an exception, in bounded time, and touches no other file',
    (path, content) => {
      const { value: result, ms } = timed(() => compileModel([{ path, content }, { path: 'model/orders.yml', content: ORDERS }, { path: 'model/customers.yml', content: CUSTOMERS }]));
      expect(ms).toBeLessThan(5000);
      expect(result.diagnostics.filter((d) => d.file !== path)).toEqual([]);
    },
  );
});
