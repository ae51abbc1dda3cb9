// Build plugin (start time, issue 10): the contract's schemas as plain data in the main build. The
// modules of src-shared/api build about 230 operations' schemas with TypeBox when they are
// imported; `drydock serve` imports all of them at start (every operation is declared to Fastify),
// and building them was about a tenth of the CPU to the first authenticated answer (TypeBox
// clones and defines hidden properties on every schema). This plugin runs those modules once at
// build time and gives the main build, in their place, modules that export the very same values
// written as object literals: the same keys in the same order, the same values, and an object
// shared by several schemas (`Problem`, `User`, …) still one object. What the service validates,
// serialises and documents is unchanged (the OpenAPI document is byte for byte the same).
//
// Left out: TypeBox's hidden properties (`~kind`, `~optional`: not enumerable, so invisible to Ajv,
// fast-json-stringify, @fastify/swagger and JSON). Functions: one re-exported from a module without
// schemas (`filePathProblem` from file-paths.ts) is re-exported from it; one defined beside the
// schemas (the builders `Nullable`, `Page`, `defineRoute`, …) is not carried over, and the build
// fails if code of the main build imports one (move it to a module without schemas).
// The renderer build and the tests (vitest runs the sources) use the TypeBox modules as written.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';
import { escapeNonAscii } from './ascii.js';

const SNAPSHOT = '\0drydock-contract-snapshot';
const STUB_MARK = 'drydock-contract-snapshot: a schema builder';
/** A module builds schemas when it imports TypeBox's `Type` (a value import, not a type-only one). */
const BUILDS_SCHEMAS = /^import\s*\{[^}]*\bType\b[^}]*\}\s*from\s*['"]typebox['"]/m;

const isPlainObject = (value) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * `value` as JSON in ASCII only (characters beyond it as `\\uXXXX`, which JSON reads back the same):
 * the module reads the file as Latin-1, a plain copy into a one-byte string.
 */
const asciiJson = (value) => escapeNonAscii(JSON.stringify(value));

/**
 * The snapshot module's source and its data file: every export of every module in `modules`
 * ({ key, exports }) as `export const <key>$<name>`. The objects are written as JSON (V8 parses JSON
 * several times faster than the same object literals in code), in a file of their own beside the
 * module (`dataFile`), read with readFileSync: as a 300 KB string literal in the module, V8 took
 * 6–11 ms to scan it at every start, against 1.5–1.8 ms to read the file (median of 6 each). The
 * objects: each object reached more than once, and each exported
 * object, is a unit of one JSON array; where a unit holds another unit (or `undefined`, which JSON
 * cannot hold), a placeholder stands in its place and a list of links puts the very object (or
 * `undefined`) there after parsing, so shared objects stay shared.
 */
function writeSnapshot(modules) {
  const seen = new Map(); // object → times reached
  const visit = (value, path) => {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`contract-snapshot: ${path} is ${value}, which JSON cannot hold`);
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') throw new Error(`contract-snapshot: ${path} is a ${typeof value}, not data`);
    if (value === null || typeof value !== 'object') return;
    const count = seen.get(value) ?? 0;
    seen.set(value, count + 1);
    if (count > 0) return;
    if (!Array.isArray(value) && !isPlainObject(value)) throw new Error(`contract-snapshot: ${path} is a ${value.constructor?.name ?? 'non-plain object'}, not plain data`);
    if (Object.isFrozen(value) || Object.isSealed(value) || !Object.isExtensible(value)) throw new Error(`contract-snapshot: ${path} is frozen or sealed`);
    if (Object.getOwnPropertySymbols(value).some((s) => Object.prototype.propertyIsEnumerable.call(value, s))) throw new Error(`contract-snapshot: ${path} has symbol keys`);
    for (const key of Object.keys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (!('value' in descriptor)) throw new Error(`contract-snapshot: ${path}.${key} is an accessor`);
      visit(descriptor.value, `${path}.${key}`);
    }
  };
  const exported = [];
  for (const { key, exports } of modules) {
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value === 'function') continue;
      visit(value, `${key}.${name}`);
      exported.push([`${key}$${name}`, value]);
    }
  }

  const unitOf = new Map(); // object → index in `units`
  const units = []; // JSON trees
  const links = []; // [unit, target unit or -1 for undefined, ...path]
  const UNDEFINED = -1;
  const tree = (value, unit, path, root) => {
    if (value === undefined) {
      links.push([unit, UNDEFINED, ...path]);
      return null;
    }
    if (value === null || typeof value !== 'object') return value;
    if (!root && (seen.get(value) ?? 0) > 1) {
      links.push([unit, unitFor(value), ...path]);
      return 0;
    }
    if (Array.isArray(value)) return value.map((item, i) => tree(item, unit, [...path, i], false));
    const out = {};
    for (const key of Object.keys(value)) out[key] = tree(value[key], unit, [...path, key], false);
    return out;
  };
  const unitFor = (value) => {
    let unit = unitOf.get(value);
    if (unit === undefined) {
      unit = units.length;
      unitOf.set(value, unit);
      units.push(null);
      units[unit] = tree(value, unit, [], true);
    }
    return unit;
  };
  const lines = [];
  const exports = [];
  for (const [name, value] of exported) {
    if (value !== null && typeof value === 'object') exports.push(`export const ${name} = units[${unitFor(value)}];`);
    else exports.push(`export const ${name} = ${value === undefined ? 'undefined' : JSON.stringify(value)};`);
  }
  const data = asciiJson({ units, links });
  const dataFile = `contract-snapshot-${createHash('sha256').update(data).digest('hex').slice(0, 12)}.json`;
  lines.push("import { readFileSync } from 'node:fs';");
  lines.push(`const { units, links } = JSON.parse(readFileSync(new URL(${JSON.stringify(`./${dataFile}`)}, import.meta.url), 'latin1'));`);
  // Indexed loops, no destructuring: this top-level code runs once, unoptimised, where
  // `for (const [unit, target, ...path] of links)` made iterator results and a rest array for each
  // of ~1,500 links (574 KB of garbage, 8-10 ms at load 7; indexed: 2 KB, 1.1-1.4 ms).
  lines.push('for (let l = 0; l < links.length; l++) {');
  lines.push('  const link = links[l];');
  lines.push('  const last = link.length - 1;');
  lines.push('  let holder = units[link[0]];');
  lines.push('  for (let i = 2; i < last; i++) holder = holder[link[i]];');
  lines.push(`  holder[link[last]] = link[1] === ${UNDEFINED} ? undefined : units[link[1]];`);
  lines.push('}');
  return { source: [...lines, ...exports].join('\n'), dataFile, data };
}

/** Runs every module of `dir` (TypeScript, bundled with rolldown) and returns their exports by file. */
async function runModules(root, dir, files) {
  const entry = join(root, 'drydock-contract-snapshot-entry.js');
  const source = files.map((file, i) => `export * as m${i} from ${JSON.stringify(join(dir, file))};`).join('\n');
  const bundle = await rolldown({
    input: entry,
    platform: 'node',
    cwd: root,
    logLevel: 'warn',
    plugins: [{ name: 'drydock:contract-entry', resolveId: (id) => (id === entry ? entry : null), load: (id) => (id === entry ? source : null) }],
  });
  const out = mkdtempSync(join(tmpdir(), 'drydock-contract-'));
  try {
    const { output } = await bundle.generate({ format: 'esm' });
    const file = join(out, 'contract.mjs');
    writeFileSync(file, output[0].code);
    const namespace = await import(pathToFileURL(file).href);
    return new Map(files.map((f, i) => [f, namespace[`m${i}`]]));
  } finally {
    await bundle.close();
    rmSync(out, { recursive: true, force: true });
  }
}

const norm = (path) => path.replaceAll('\\', '/');

/**
 * The snapshot and the modules in place of the contract's, from the sources as they are now:
 * `snapshotSource` exports `m<i>$<name>` for each export `name` of `modules[i]` (a file of `dir`).
 * @param {string} root @param {string} dir @param {string[]} files @param {string[]} schemaFiles
 */
export async function makeSnapshot(root, dir, files, schemaFiles) {
  const exportsOf = await runModules(root, dir, files);
  // Where a function lives, when a module without schemas defines it (not one that only passes on a
  // schema module's exports, as a folder's index.ts does).
  const functionHome = new Map();
  for (const f of files) {
    if (schemaFiles.includes(f)) continue;
    const source = readFileSync(join(dir, f), 'utf8');
    for (const [name, value] of Object.entries(exportsOf.get(f))) {
      const defines = new RegExp(`\\b(function\\s*\\*?\\s*${name}\\b|(const|let|var|class)\\s+${name}\\b)`).test(source);
      if (typeof value === 'function' && defines && !functionHome.has(value)) functionHome.set(value, { file: f, name });
    }
  }
  const modules = schemaFiles.map((f, i) => ({ key: `m${i}`, file: f, exports: exportsOf.get(f) }));
  const generated = new Map(); // file path → module source
  for (const { key, file, exports } of modules) {
    const lines = [`// ${file} as data (scripts/contract-snapshot.js)`];
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value !== 'function') {
        lines.push(`export { ${key}$${name} as ${name} } from ${JSON.stringify(SNAPSHOT)};`);
        continue;
      }
      const home = functionHome.get(value);
      if (home) {
        lines.push(`export { ${home.name} as ${name} } from ${JSON.stringify(norm(join(dir, home.file)))};`);
        continue;
      }
      // Dropped by tree-shaking unless imported; the build fails (generateBundle) if it is.
      lines.push(`export function ${name}() { throw new Error(${JSON.stringify(`${STUB_MARK} (${file}: ${name}) is not in the main build.`)}); }`);
    }
    generated.set(norm(join(dir, file)), lines.join('\n'));
  }
  const { source, dataFile, data } = writeSnapshot(modules);
  return { snapshotSource: source, dataFile, data, generated, modules: schemaFiles };
}

/** One snapshot per state of the sources: the main build and its worker builds share it. */
const made = new Map();

/** The snapshot of the contract in `dir` as its sources are now (see makeSnapshot). */
export function snapshotOf(root, dir) {
  // Relative paths, folders included (`data-model/files.ts`).
  const files = readdirSync(dir, { recursive: true })
    .map((f) => norm(String(f)))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();
  const sources = files.map((f) => readFileSync(join(dir, f), 'utf8'));
  const schemaFiles = files.filter((_f, i) => BUILDS_SCHEMAS.test(sources[i]));
  const state = createHash('sha256').update(JSON.stringify([files, sources])).digest('hex');
  let snapshot = made.get(state);
  if (!snapshot) made.set(state, (snapshot = makeSnapshot(root, dir, files, schemaFiles)));
  return snapshot;
}

/** @param {{ root: string, dir: string }} options `dir`: the contract's folder (src-shared/api). */
export function contractSnapshot({ root, dir }) {
  let generated = null;
  let snapshotSource = '';
  let dataFile = '';
  let data = '';

  return {
    name: 'drydock:contract-snapshot',
    enforce: 'pre',
    apply: 'build',
    async buildStart() {
      ({ snapshotSource, generated, dataFile, data } = await snapshotOf(root, dir));
    },
    resolveId(id) {
      return id === SNAPSHOT ? SNAPSHOT : null;
    },
    load(id) {
      if (id === SNAPSHOT) return snapshotSource;
      const code = generated?.get(norm(id.split('?')[0]));
      // Re-exports only: without side effects, no chunk keeps an empty import of them.
      return code === undefined ? null : { code, moduleSideEffects: false };
    },
    generateBundle(_options, bundle) {
      // The data file beside the chunk that holds the snapshot module (it reads it by its own URL).
      const holder = Object.values(bundle).find((chunk) => chunk.type === 'chunk' && chunk.code.includes(dataFile));
      if (holder) this.emitFile({ type: 'asset', fileName: join(dirname(holder.fileName), dataFile).replaceAll('\\', '/'), source: data });
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.code.includes(STUB_MARK)) continue;
        const which = new RegExp(`${STUB_MARK} \\(([^)]*)\\)`).exec(chunk.code)?.[1];
        this.error(`contract-snapshot: ${chunk.fileName} uses ${which}, a function defined beside the contract's schemas; the main build carries the schemas as data only. Move the function to a module of src-shared/api that does not build schemas (as file-paths.ts), and re-export it.`);
      }
    },
  };
}
