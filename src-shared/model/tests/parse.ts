// Reading a model test file (issue 26): YAML with every value's line, held to the test file schema
// (an unknown key, a wrong type or a missing key is a diagnostic on its line), then the tests as the
// runner takes them. A test with a problem is left out; the others still run.

import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { Diagnostic } from '../types';
import { ModelTestCodes as C } from './codes';
import { MODEL_TEST_FILE_SCHEMA, type SchemaNode } from './schema';

export interface Pos {
  line: number;
  column: number;
}

export type TestData = { kind: 'fixtures'; tables: { table: string; file: string; pos: Pos }[] } | { kind: 'dataSource'; name: string; pos: Pos };

export interface ReferenceQuery {
  query: unknown;
  member: string;
  pos: Pos;
}

export interface ValueCheck {
  member: string;
  where: Record<string, unknown> | null;
  /** `equals` was given (its value may be null). */
  hasEquals: boolean;
  equals: unknown;
  tolerance: number;
  withinPercent: number | null;
  of: ReferenceQuery | null;
  pos: Pos;
}

export interface TotalCheck {
  member: string;
  query: unknown;
  reference: string;
  tolerance: number;
  pos: Pos;
}

export interface Expectations {
  rows: { value: Record<string, unknown>[]; pos: Pos } | null;
  ordered: boolean;
  rowCount: { value: number; pos: Pos } | null;
  notNull: { members: string[]; pos: Pos } | null;
  unique: { members: string[]; pos: Pos } | null;
  tolerance: number;
  values: ValueCheck[];
  totals: TotalCheck[];
  pos: Pos;
}

export interface ModelTest {
  /** The file it is in. */
  file: string;
  name: string;
  description: string | null;
  query: unknown;
  queryPos: Pos;
  /** The test's data, else its file's; null when neither says. */
  data: TestData | null;
  expect: Expectations;
  pos: Pos;
}

export interface ParsedTestFile {
  path: string;
  tests: ModelTest[];
  diagnostics: Diagnostic[];
}

export const DEFAULT_TEST_TOLERANCE = 1e-9;

/** A YAML value with its position and, for maps and lists, its children. */
interface Located {
  value: unknown;
  pos: Pos;
  entries?: Map<string, { keyPos: Pos; node: Located }>;
  items?: Located[];
}

function locate(node: YamlNode | null | undefined, lines: LineCounter, fallback: Pos): Located {
  const at = (offset: number | undefined): Pos => {
    if (offset === undefined) return fallback;
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col };
  };
  if (!node) return { value: null, pos: fallback };
  const pos = at(node.range?.[0]);
  if (isMap(node)) {
    const entries = new Map<string, { keyPos: Pos; node: Located }>();
    const value: Record<string, unknown> = {};
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as YamlNode | null;
      const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
      const keyPos = at(keyNode?.range?.[0]);
      const child = locate(pair.value as YamlNode | null, lines, keyPos);
      entries.set(key, { keyPos, node: child });
      // Own data only: a key such as `__proto__` must not reach a prototype.
      Object.defineProperty(value, key, { value: child.value, enumerable: true, writable: true, configurable: true });
    }
    return { value, pos, entries };
  }
  if (isSeq(node)) {
    const items = node.items.map((item) => locate(item as YamlNode, lines, pos));
    return { value: items.map((i) => i.value), pos, items };
  }
  if (isScalar(node)) return { value: node.value, pos };
  return { value: null, pos };
}

const typeOf = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

const fits = (value: unknown, type: NonNullable<SchemaNode['type']>): boolean => {
  const actual = typeOf(value);
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
};

/** Holds `node` to `schema`; reports every problem at its line. Returns false when something is wrong. */
function check(node: Located, schema: SchemaNode, path: string, report: (code: string, message: string, pos: Pos) => void): boolean {
  let ok = true;
  if (schema.type && !fits(node.value, schema.type)) {
    const wanted = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
    report(C.MODEL_TEST_INVALID, `${path} should be ${/^[aeiou]/.test(wanted) ? 'an' : 'a'} ${wanted}, not ${typeOf(node.value)}.`, node.pos);
    return false;
  }
  if (typeof node.value === 'string' && schema.minLength !== undefined && node.value.length < schema.minLength) {
    report(C.MODEL_TEST_INVALID, `${path} is empty.`, node.pos);
    ok = false;
  }
  if (typeof node.value === 'number' && schema.minimum !== undefined && node.value < schema.minimum) {
    report(C.MODEL_TEST_INVALID, `${path} should be at least ${schema.minimum}.`, node.pos);
    ok = false;
  }
  if (node.items && schema.items) {
    if (schema.minItems !== undefined && node.items.length < schema.minItems) {
      report(C.MODEL_TEST_INVALID, `${path} needs at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}.`, node.pos);
      ok = false;
    }
    node.items.forEach((item, i) => (ok = check(item, schema.items!, `${path}[${i}]`, report) && ok));
  }
  if (node.entries) {
    if (schema.minProperties !== undefined && node.entries.size < schema.minProperties) {
      report(C.MODEL_TEST_INVALID, `${path} is empty.`, node.pos);
      ok = false;
    }
    for (const key of schema.required ?? []) {
      if (!node.entries.has(key)) {
        report(C.MODEL_TEST_INVALID, `${path} needs \`${key}\`.`, node.pos);
        ok = false;
      }
    }
    for (const [key, entry] of node.entries) {
      const known = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      if (known) ok = check(entry.node, known, `${path}.${key}`, report) && ok;
      else if (schema.additionalProperties === false) {
        const names = Object.keys(schema.properties ?? {});
        report(C.MODEL_TEST_UNKNOWN_KEY, `Unknown key \`${key}\` in ${path}; it takes ${names.map((n) => `\`${n}\``).join(', ')}.`, entry.keyPos);
        ok = false;
      } else if (typeof schema.additionalProperties === 'object') ok = check(entry.node, schema.additionalProperties, `${path}.${key}`, report) && ok;
    }
  }
  return ok;
}

/** `tests/fixtures/orders.csv` for `fixtures/orders.csv` in `tests/orders.yml`; null when it leaves the repository. */
export function resolveFixturePath(testFile: string, relative: string): string | null {
  if (relative.startsWith('/') || /^[A-Za-z]:/.test(relative) || relative.includes('\\')) return null;
  const parts = testFile.split('/').slice(0, -1);
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length ? parts.join('/') : null;
}

export interface ParseOptions {
  /** Whether a repository path exists (fixture files are checked when given). */
  exists?: (path: string) => boolean;
}

export function parseTestFile(file: { path: string; content: string }, options: ParseOptions = {}): ParsedTestFile {
  const diagnostics: Diagnostic[] = [];
  const report = (code: string, message: string, pos: Pos, severity: Diagnostic['severity'] = 'error') =>
    diagnostics.push({ severity, code, message, file: file.path, line: pos.line, column: pos.column });
  const lines = new LineCounter();
  const doc = parseDocument(file.content, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    for (const error of doc.errors.slice(0, 5)) {
      const p = lines.linePos(error.pos[0]);
      report(C.MODEL_TEST_SYNTAX, `YAML syntax error in ${file.path}: ${error.message.split('\n')[0]}`, { line: p.line, column: p.col });
    }
    return { path: file.path, tests: [], diagnostics };
  }
  const root = locate(doc.contents as YamlNode | null, lines, { line: 1, column: 1 });
  if (!root.entries) {
    report(C.MODEL_TEST_INVALID, `${file.path} should hold a map with \`tests\`.`, root.pos);
    return { path: file.path, tests: [], diagnostics };
  }
  // The file's own keys (the tests are checked one by one below, so one bad test leaves the rest).
  // `tests` stays among the schema's keys, so that an unknown key's message names all of them.
  const { tests: testsSchema, data: dataSchema } = MODEL_TEST_FILE_SCHEMA.properties!;
  check({ ...root, entries: new Map([...root.entries].filter(([k]) => k !== 'tests')) }, { ...MODEL_TEST_FILE_SCHEMA, required: [] }, 'the file', report);
  // The file's data serves its tests when it is well-formed itself, whatever else the file gets wrong.
  const dataEntry = root.entries.get('data');
  const dataOk = dataEntry !== undefined && check(dataEntry.node, dataSchema!, 'the file.data', () => {});
  const testsNode = root.entries.get('tests');
  if (!testsNode) {
    report(C.MODEL_TEST_INVALID, `${file.path} needs \`tests\`: a list of tests.`, root.pos);
    return { path: file.path, tests: [], diagnostics };
  }
  if (!testsNode.node.items) {
    check(testsNode.node, testsSchema!, 'tests', report);
    return { path: file.path, tests: [], diagnostics };
  }
  if (testsNode.node.items.length === 0) report(C.MODEL_TEST_INVALID, '`tests` is empty.', testsNode.node.pos);

  const dataOf = (node: { keyPos: Pos; node: Located } | undefined): TestData | null => {
    if (!node?.node.entries) return null;
    const source = node.node.entries.get('data_source');
    const fixtures = node.node.entries.get('fixtures');
    if (source && fixtures) {
      report(C.MODEL_TEST_INVALID, 'Give `fixtures` or `data_source`, not both.', node.keyPos);
      return null;
    }
    if (source) return { kind: 'dataSource', name: String(source.node.value), pos: source.node.pos };
    if (!fixtures?.node.entries) return null;
    const tables: { table: string; file: string; pos: Pos }[] = [];
    for (const [table, entry] of fixtures.node.entries) {
      const resolved = resolveFixturePath(file.path, String(entry.node.value));
      if (!resolved) {
        report(C.MODEL_TEST_FIXTURE_NOT_FOUND, `Fixture ${String(entry.node.value)} of ${table} is outside the repository.`, entry.node.pos);
        continue;
      }
      if (!/\.(csv|parquet)$/i.test(resolved)) {
        report(C.MODEL_TEST_INVALID, `Fixture ${resolved} of ${table} should be a .csv or .parquet file.`, entry.node.pos);
        continue;
      }
      if (options.exists && !options.exists(resolved)) {
        report(C.MODEL_TEST_FIXTURE_NOT_FOUND, `Fixture ${resolved} of ${table} is not in the repository.`, entry.node.pos);
        continue;
      }
      if (!/^[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*){0,2}$/.test(table)) {
        report(C.MODEL_TEST_INVALID, `Fixture table \`${table}\` should be \`table\`, \`schema.table\` or \`catalog.schema.table\`.`, entry.keyPos);
        continue;
      }
      tables.push({ table, file: resolved, pos: entry.node.pos });
    }
    return { kind: 'fixtures', tables };
  };
  const fileData = dataOk ? dataOf(dataEntry) : null;

  const tests: ModelTest[] = [];
  const names = new Set<string>();
  testsNode.node.items.forEach((item, index) => {
    const at = `tests[${index}]`;
    if (!check(item, testsSchema!.items!, at, report)) return;
    const entries = item.entries!;
    const name = String(entries.get('name')!.node.value);
    if (names.has(name)) {
      report(C.MODEL_TEST_INVALID, `Two tests are named "${name}" in ${file.path}.`, entries.get('name')!.node.pos);
      return;
    }
    names.add(name);
    const expectNode = entries.get('expect')!.node;
    const e = expectNode.entries!;
    const get = (key: string) => e.get(key)?.node;
    const tolerance = (get('tolerance')?.value as number | undefined) ?? DEFAULT_TEST_TOLERANCE;
    const values: ValueCheck[] = [];
    let valid = true;
    for (const [i, v] of (get('values')?.items ?? []).entries()) {
      const ve = v.entries!;
      const hasEquals = ve.has('equals');
      const within = ve.get('within_percent')?.node.value as number | undefined;
      const of = ve.get('of')?.node;
      if (hasEquals === (within !== undefined)) {
        report(C.MODEL_TEST_INVALID, `expect.values[${i}] needs \`equals\` or \`within_percent\` (with \`of\`), one of them.`, v.pos);
        valid = false;
        continue;
      }
      if ((within !== undefined) !== Boolean(of)) {
        report(C.MODEL_TEST_INVALID, `expect.values[${i}]: \`within_percent\` and \`of\` go together.`, v.pos);
        valid = false;
        continue;
      }
      const memberName = String(ve.get('member')!.node.value);
      values.push({
        member: memberName,
        where: (ve.get('where')?.node.value as Record<string, unknown> | undefined) ?? null,
        hasEquals,
        equals: ve.get('equals')?.node.value ?? null,
        tolerance: (ve.get('tolerance')?.node.value as number | undefined) ?? DEFAULT_TEST_TOLERANCE,
        withinPercent: within ?? null,
        of: of ? { query: of.entries!.get('query')!.node.value, member: String(of.entries!.get('member')?.node.value ?? memberName), pos: of.entries!.get('query')!.node.pos } : null,
        pos: v.pos,
      });
    }
    if (!valid) return;
    const totals: TotalCheck[] = (get('totals_equal')?.items ?? []).map((t) => {
      const te = t.entries!;
      const memberName = String(te.get('member')!.node.value);
      return {
        member: memberName,
        query: te.get('query')!.node.value,
        reference: String(te.get('reference')?.node.value ?? memberName),
        tolerance: (te.get('tolerance')?.node.value as number | undefined) ?? DEFAULT_TEST_TOLERANCE,
        pos: t.pos,
      };
    });
    const list = (key: string) => (get(key) ? { members: get(key)!.value as string[], pos: get(key)!.pos } : null);
    tests.push({
      file: file.path,
      name,
      description: (entries.get('description')?.node.value as string | undefined) ?? null,
      query: entries.get('query')!.node.value,
      queryPos: entries.get('query')!.node.pos,
      data: entries.has('data') ? dataOf(entries.get('data')) : fileData,
      expect: {
        rows: get('rows') ? { value: get('rows')!.value as Record<string, unknown>[], pos: get('rows')!.pos } : null,
        ordered: get('ordered')?.value === true,
        rowCount: get('row_count') ? { value: get('row_count')!.value as number, pos: get('row_count')!.pos } : null,
        notNull: list('not_null'),
        unique: list('unique'),
        tolerance,
        values,
        totals,
        pos: expectNode.pos,
      },
      pos: item.pos,
    });
  });
  return { path: file.path, tests, diagnostics };
}
