// A data model as the conformance generator builds it, before it is written as YAML or as
// JavaScript: snake_case keys, named items in lists, and the few values that JavaScript writes
// as code rather than strings marked as such (SQL with `{…}` references, member reference lists,
// join paths, the cube an `extends` names). `renderModel` writes the same model either way, the
// way each format's documentation writes it.

/** SQL with `{CUBE}`, `{member}` and `{cube.member}` references; a template literal in JS. */
export interface Sql {
  $sql: string;
}
/** A list of member references such as `CUBE.count` or `orders.status`; identifiers in JS. */
export interface Refs {
  $refs: string[];
}
/** A dotted cube path (`orders.customers`) or a cube name; an identifier path in JS. */
export interface Path {
  $path: string;
}

export type Value = string | number | boolean | null | Sql | Refs | Path | Value[] | { [key: string]: Value };
export type Entry = { [key: string]: Value };

export const sql = (text: string): Sql => ({ $sql: text });
export const refs = (...names: string[]): Refs => ({ $refs: names });
export const path = (text: string): Path => ({ $path: text });

/** Sections of a cube or view written as lists of named items in YAML and objects keyed by name in JS. */
const NAMED_SECTIONS = new Set(['dimensions', 'measures', 'segments', 'joins', 'hierarchies', 'pre_aggregations', 'granularities', 'indexes']);

export interface EntitySpec {
  kind: 'cube' | 'view';
  name: string;
  /** Keys in order, named sections as arrays of entries with `name`. */
  body: Entry;
}

export interface ModelSpec {
  format: 'yaml' | 'js';
  entities: EntitySpec[];
}

export interface RenderedFile {
  path: string;
  content: string;
}

const isSql = (v: Value): v is Sql => typeof v === 'object' && v !== null && !Array.isArray(v) && '$sql' in v;
const isRefs = (v: Value): v is Refs => typeof v === 'object' && v !== null && !Array.isArray(v) && '$refs' in v;
const isPath = (v: Value): v is Path => typeof v === 'object' && v !== null && !Array.isArray(v) && '$path' in v;

// ---- YAML ------------------------------------------------------------------------------------

function yamlScalar(value: string | number | boolean | null): string {
  if (value === null) return 'null';
  if (typeof value !== 'string') return String(value);
  return JSON.stringify(value);
}

function yamlValue(value: Value, indent: string): string {
  if (isSql(value)) return ` ${yamlScalar(value.$sql)}`;
  if (isRefs(value)) return value.$refs.length === 0 ? ' []' : value.$refs.map((r) => `\n${indent}- ${r}`).join('');
  if (isPath(value)) return ` ${value.$path}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []';
    return value
      .map((item) => {
        if (typeof item === 'object' && item !== null && !Array.isArray(item) && !isSql(item) && !isRefs(item) && !isPath(item)) {
          const lines = yamlMap(item, `${indent}  `);
          return `\n${indent}- ${lines.trimStart()}`;
        }
        return `\n${indent}-${yamlValue(item, `${indent}  `)}`;
      })
      .join('');
  }
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    return keys.length === 0 ? ' {}' : `\n${yamlMap(value, indent)}`;
  }
  return ` ${yamlScalar(value)}`;
}

function yamlMap(entry: Entry, indent: string): string {
  return Object.entries(entry)
    .map(([key, value]) => `${indent}${key}:${yamlValue(value, indent + '  ')}`)
    .join('\n');
}

function renderYaml(spec: ModelSpec): string {
  const cubes = spec.entities.filter((e) => e.kind === 'cube');
  const views = spec.entities.filter((e) => e.kind === 'view');
  const section = (key: string, list: EntitySpec[]): string =>
    list.length === 0 ? '' : `${key}:\n${list.map((e) => `  - ${yamlMap({ name: e.name, ...e.body }, '    ').trimStart()}`).join('\n')}\n`;
  return section('cubes', cubes) + section('views', views);
}

// ---- JavaScript --------------------------------------------------------------------------------

const camel = (key: string): string => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function jsValue(value: Value, key: string, indent: string): string {
  if (isSql(value)) return '`' + value.$sql.replace(/`/g, '\\`').replace(/\{([^{}]*)\}/g, '${$1}') + '`';
  if (isRefs(value)) return `[${value.$refs.join(', ')}]`;
  if (isPath(value)) return value.$path;
  if (Array.isArray(value)) {
    if (NAMED_SECTIONS.has(key) && value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Entry).name === 'string')) {
      const inner = value
        .map((item) => {
          const { name, ...rest } = item as Entry;
          return `${indent}  ${JSON.stringify(name)}: ${jsObject(rest, `${indent}  `)}`;
        })
        .join(',\n');
      return `{\n${inner}\n${indent}}`;
    }
    return `[${value.map((v) => jsValue(v, '', indent)).join(', ')}]`;
  }
  if (typeof value === 'object' && value !== null) return jsObject(value, indent);
  return JSON.stringify(value);
}

function jsObject(entry: Entry, indent: string): string {
  const keys = Object.entries(entry);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map(([key, value]) => `${indent}  ${camel(key)}: ${jsValue(value, key, `${indent}  `)}`).join(',\n')}\n${indent}}`;
}

function renderJs(spec: ModelSpec): string {
  return spec.entities.map((e) => `${e.kind}(${JSON.stringify(e.name)}, ${jsObject(e.body, '')});\n`).join('\n');
}

/** The model as one file under `model/`, in its format. */
export function renderModel(spec: ModelSpec): RenderedFile[] {
  return spec.format === 'yaml' ? [{ path: 'model/model.yml', content: renderYaml(spec) }] : [{ path: 'model/model.js', content: renderJs(spec) }];
}
