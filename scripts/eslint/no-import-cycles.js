// ESLint rule `drydock/no-import-cycles`: no module may reach itself through its imports, whatever
// kind they are — static, `import type`, `export … from`, `import()`, `require()` or a type-level
// `import('…')`. A type-only circle leaves no edge at run time, but it still ties two modules
// together so that neither can be understood, moved or tested alone, and one `type` keyword
// dropped makes it a runtime circle (issue 25). import-x/no-cycle skips type imports and has no
// option to count them, hence this rule.
//
// The graph is read with TypeScript's own import scanner (ts.preProcessFile) from the files on disk,
// each file once per lint run unless it changed; only relative imports of .ts/.tsx/.js files are
// edges (packages cannot import back into the project). Each import of the linted file that leads
// into a circle is reported with the circle it closes.
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs'];

/** file → { mtimeMs, imports: [{ specifier, pos, end, target }] } */
const graph = new Map();

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The source file a relative specifier names (`./x`, `./x.js`, `./dir`), or null. */
export function resolveImport(specifier, fromFile) {
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return null;
  const bare = resolve(dirname(fromFile), specifier.split('?')[0]);
  const candidates = [bare, ...EXTENSIONS.map((ext) => bare + ext), ...EXTENSIONS.map((ext) => resolve(bare, `index${ext}`))];
  // TypeScript's ESM style: `./x.js` in the source names `./x.ts`.
  if (/\.[cm]?js$/.test(bare)) candidates.push(bare.replace(/\.([cm]?)js$/, '.$1ts'), bare.replace(/\.js$/, '.tsx'));
  return candidates.find((path) => EXTENSIONS.some((ext) => path.endsWith(ext)) && isFile(path)) ?? null;
}

/** The imports of `file`, from `text` when given (the linted file), else from disk (cached by mtime). */
function importsOf(file, text) {
  let mtimeMs = 0;
  if (text === undefined) {
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return [];
    }
    const cached = graph.get(file);
    if (cached && cached.mtimeMs === mtimeMs) return cached.imports;
    text = readFileSync(file, 'utf8');
  }
  const scanned = ts.preProcessFile(text, true, true).importedFiles;
  const imports = scanned
    .map(({ fileName, pos, end }) => ({ specifier: fileName, pos, end, target: resolveImport(fileName, file) }))
    .filter((entry) => entry.target !== null && entry.target !== file);
  if (mtimeMs) graph.set(file, { mtimeMs, imports });
  return imports;
}

/** The shortest chain of imports from `start` back to `goal` (a list of files ending at goal), or null. */
function pathBack(start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const { target } of importsOf(file)) {
      if (target === goal) {
        const chain = [goal];
        for (let at = file; at !== null; at = previous.get(at)) chain.unshift(at);
        return chain;
      }
      if (!previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Import cycle: {{chain}}. Move what both need into a module neither owns.' },
  },
  create(context) {
    const file = context.physicalFilename ?? context.filename;
    if (!file || file.startsWith('<')) return {};
    return {
      Program() {
        const { sourceCode } = context;
        const root = context.cwd ?? process.cwd();
        const reported = new Set();
        for (const entry of importsOf(file, sourceCode.text)) {
          if (reported.has(entry.target)) continue;
          const chain = pathBack(entry.target, file);
          if (!chain) continue;
          reported.add(entry.target);
          context.report({
            loc: { start: sourceCode.getLocFromIndex(entry.pos), end: sourceCode.getLocFromIndex(entry.end) },
            messageId: 'cycle',
            data: { chain: [file, ...chain].map((path) => relative(root, path)).join(' → ') },
          });
        }
      },
    };
  },
};

export default { rules: { 'no-import-cycles': noImportCycles } };
