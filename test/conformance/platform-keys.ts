// The keys the platform's validator (CubeValidator of @cubejs-backend/schema-compiler) accepts in
// each part of a definition, read from its Joi schemas rather than copied by hand: the module
// keeps the schemas private, so it is loaded once more with an export of them added, and each
// schema's `describe()` tree is walked. Paths look like `cube.dimensions.*` (a named section's
// items), `cube.accessPolicy[]` (a list's items), `view.cubes[].includes[]`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);

export interface Described {
  keys?: Record<string, Described>;
  patterns?: { rule?: Described }[];
  items?: Described[];
  matches?: { schema?: Described; then?: Described; otherwise?: Described; switch?: { then?: Described; otherwise?: Described }[] }[];
  whens?: { then?: Described; otherwise?: Described; switch?: { then?: Described; otherwise?: Described }[] }[];
  shared?: Described[];
}

interface Schema {
  describe(): Described;
}

let cached: Map<string, Set<string>> | null = null;
let described: Record<'cube' | 'view' | 'viewGroup', Described> | null = null;

/** The `describe()` trees of the platform validator's cube, view and view group schemas. */
export function platformSchemaDescriptions(): Record<'cube' | 'view' | 'viewGroup', Described> {
  if (described) return described;
  const file = require.resolve('@cubejs-backend/schema-compiler/dist/src/compiler/CubeValidator.js');
  const source = `${readFileSync(file, 'utf8')}\nmodule.exports.__conformanceSchemas = { cubeSchema, viewSchema, viewGroupSchema };\n`;
  const Module = require('node:module') as {
    new (id: string, parent?: unknown): { filename: string; paths: string[]; exports: Record<string, unknown>; _compile(src: string, file: string): void };
    _nodeModulePaths(dir: string): string[];
  };
  const copy = new Module(file);
  copy.filename = file;
  copy.paths = Module._nodeModulePaths(dirname(file));
  copy._compile(source, file);
  const schemas = copy.exports.__conformanceSchemas as Record<'cubeSchema' | 'viewSchema' | 'viewGroupSchema', Schema | Record<string, Schema>>;
  // cubeSchema and viewSchema are plain objects of Joi schemas (`inherit` builds a Joi object from them).
  const joi = require(require.resolve('joi', { paths: [dirname(file)] })) as { object(): { keys(k: unknown): Schema } };
  const asSchema = (s: Schema | Record<string, Schema>): Schema => ('describe' in s && typeof s.describe === 'function' ? (s as Schema) : joi.object().keys(s));
  described = { cube: asSchema(schemas.cubeSchema).describe(), view: asSchema(schemas.viewSchema).describe(), viewGroup: asSchema(schemas.viewGroupSchema).describe() };
  return described;
}

/** Keys accepted at each path of a cube, view and view group definition (camelCase, as the platform spells them). */
export function platformKeys(): Map<string, Set<string>> {
  if (cached) return cached;
  const out = new Map<string, Set<string>>();
  const add = (path: string, key: string): void => {
    if (!out.has(path)) out.set(path, new Set());
    out.get(path)!.add(key);
  };
  const walk = (d: Described | Described[] | undefined, path: string): void => {
    if (!d || typeof d !== 'object') return;
    if (Array.isArray(d)) return d.forEach((x) => walk(x, path));
    for (const [key, value] of Object.entries(d.keys ?? {})) {
      add(path, key);
      walk(value, `${path}.${key}`);
    }
    for (const p of d.patterns ?? []) walk(p.rule, `${path}.*`);
    if (d.items) walk(d.items, `${path}[]`);
    for (const m of [...(d.matches ?? []), ...(d.whens ?? [])]) {
      walk((m as { schema?: Described }).schema, path);
      walk(m.then, path);
      walk(m.otherwise, path);
      for (const s of m.switch ?? []) {
        walk(s.then, path);
        walk(s.otherwise, path);
      }
    }
    if (d.shared) walk(d.shared, path);
  };
  const trees = platformSchemaDescriptions();
  walk(trees.cube, 'cube');
  walk(trees.view, 'view');
  walk(trees.viewGroup, 'viewGroup');
  cached = out;
  return out;
}
