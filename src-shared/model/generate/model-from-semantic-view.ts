// Warehouse semantic views (DESCRIBE SEMANTIC VIEW rows) → model YAML: one file per semantic view
// holding a cube per logical table and a view exposing the semantic view's public dimensions and
// metrics. The inverse of semantic-view-ddl.ts: pushing a model view and pulling it back yields
// a view with the same members, sources, keys and joins.

import { stringify } from 'yaml';
import { resolvedName, storedIdentifier, writeIdentifier, type SqlIdentifier } from './semantic-view-ddl';

/** One row of DESCRIBE SEMANTIC VIEW (the five columns every warehouse connector returns). */
export interface DescribeRowLike {
  object_kind: string | null;
  object_name: string | null;
  parent_entity: string | null;
  property: string;
  property_value: string;
}

export interface PulledSemanticView {
  /** Stored names, as SHOW SEMANTIC VIEWS lists them. */
  database: string;
  schema: string;
  name: string;
  rows: DescribeRowLike[];
}

export interface ModelFromSemanticViewsOptions {
  /** Repository-relative folder for the generated files ('' for the root). */
  outputPath: string;
  /** Cube and view names already defined elsewhere in the repository, to stay clear of. */
  reservedNames?: Iterable<string>;
  /** The data source's QUOTED_IDENTIFIERS_IGNORE_CASE setting (default false). */
  quotedIdentifiersIgnoreCase?: boolean;
  /** Data source the views were pulled from; cubes name it unless it is `default`. */
  dataSource?: string;
}

export interface GeneratedModelFile {
  path: string;
  content: string;
  /** The semantic view it came from (stored name). */
  semanticView: string;
  /** The model view it defines. */
  view: string;
  cubes: string[];
}

// ---- reading DESCRIBE rows ------------------------------------------------------------------------

interface DescribedTable {
  name: string;
  database: string;
  schema: string;
  table: string;
  primaryKey: string[];
  comment: string | null;
}

interface DescribedRelationship {
  name: string;
  table: string;
  refTable: string;
  columns: string[];
  refColumns: string[];
}

interface DescribedMember {
  kind: 'FACT' | 'DIMENSION' | 'METRIC';
  name: string;
  table: string;
  expression: string;
  dataType: string | null;
  comment: string | null;
  private: boolean;
}

export interface DescribedSemanticView {
  comment: string | null;
  tables: DescribedTable[];
  relationships: DescribedRelationship[];
  members: DescribedMember[];
}

const jsonList = (value: string | undefined): string[] => {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return value.split(',').map((s) => s.trim()).filter(Boolean);
  }
};

/** Groups DESCRIBE rows into tables, relationships and members (properties in any order). */
export function readDescribeRows(rows: DescribeRowLike[]): DescribedSemanticView {
  let comment: string | null = null;
  const objects = new Map<string, { kind: string; name: string; parent: string | null; props: Map<string, string> }>();
  for (const row of rows) {
    if (row.object_kind === null || row.object_name === null) {
      if (row.property.toUpperCase() === 'COMMENT') comment = row.property_value;
      continue;
    }
    const kind = row.object_kind.toUpperCase();
    const key = `${kind}\u0000${row.parent_entity ?? ''}\u0000${row.object_name}`;
    let object = objects.get(key);
    if (!object) {
      object = { kind, name: row.object_name, parent: row.parent_entity, props: new Map() };
      objects.set(key, object);
    }
    object.props.set(row.property.toUpperCase(), row.property_value);
  }
  const described: DescribedSemanticView = { comment, tables: [], relationships: [], members: [] };
  for (const object of objects.values()) {
    const p = object.props;
    if (object.kind === 'TABLE') {
      described.tables.push({
        name: object.name,
        database: p.get('BASE_TABLE_DATABASE_NAME') ?? '',
        schema: p.get('BASE_TABLE_SCHEMA_NAME') ?? '',
        table: p.get('BASE_TABLE_NAME') ?? object.name,
        primaryKey: jsonList(p.get('PRIMARY_KEY')),
        comment: p.get('COMMENT') ?? null,
      });
    } else if (object.kind === 'RELATIONSHIP') {
      described.relationships.push({
        name: object.name,
        table: p.get('TABLE') ?? object.parent ?? '',
        refTable: p.get('REF_TABLE') ?? '',
        columns: jsonList(p.get('FOREIGN_KEY')),
        refColumns: jsonList(p.get('REF_KEY')),
      });
    } else if (object.kind === 'FACT' || object.kind === 'DIMENSION' || object.kind === 'METRIC') {
      described.members.push({
        kind: object.kind,
        name: object.name,
        table: p.get('TABLE') ?? object.parent ?? '',
        expression: p.get('EXPRESSION') ?? '',
        dataType: p.get('DATA_TYPE') ?? null,
        comment: p.get('COMMENT') ?? null,
        private: (p.get('ACCESS_MODIFIER') ?? '').toUpperCase() === 'PRIVATE',
      });
    }
  }
  return described;
}

// ---- names ----------------------------------------------------------------------------------------

const MODEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/** Stored warehouse name → model name: upper-case names (from bare identifiers) read back lower-case. */
export function modelNameOf(stored: string): string {
  const base = /^[A-Z_][A-Z0-9_$]*$/.test(stored) ? stored.toLowerCase() : stored;
  if (MODEL_IDENTIFIER.test(base)) return base;
  const cleaned = base.replace(/[^_a-zA-Z0-9]+/g, '_').replace(/^([0-9])/, '_$1');
  return cleaned.length > 0 ? cleaned : '_';
}

/** A stored column name as model SQL text: bare lower-case when that resolves to it, else quoted. */
export function columnSql(stored: string): string {
  return /^[A-Z_][A-Z0-9_$]*$/.test(stored) ? stored.toLowerCase() : writeIdentifier({ text: stored, quoted: true });
}

class NamePool {
  private readonly used = new Set<string>();
  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.used.add(name.toLowerCase());
  }
  has(name: string): boolean {
    return this.used.has(name.toLowerCase());
  }
  /** The first free name among `candidates`, then `<last>_2`, `<last>_3`, … */
  take(...candidates: string[]): string {
    for (const candidate of candidates) {
      if (!this.has(candidate)) {
        this.used.add(candidate.toLowerCase());
        return candidate;
      }
    }
    const last = candidates[candidates.length - 1]!;
    for (let n = 2; ; n++) {
      const name = `${last}_${n}`;
      if (!this.has(name)) {
        this.used.add(name.toLowerCase());
        return name;
      }
    }
  }
}

// ---- expressions ----------------------------------------------------------------------------------

type Token = { kind: 'word' | 'quoted' | 'string' | 'other'; text: string };

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "'") {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === '\\') j += 2;
        else if (sql[j] === "'" && sql[j + 1] === "'") j += 2;
        else if (sql[j] === "'") break;
        else j++;
      }
      tokens.push({ kind: 'string', text: sql.slice(i, j + 1) });
      i = j + 1;
    } else if (ch === '"') {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === '"' && sql[j + 1] !== '"')) j += sql[j] === '"' ? 2 : 1;
      tokens.push({ kind: 'quoted', text: sql.slice(i, j + 1) });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1;
      while (j < sql.length && /[\w$]/.test(sql[j]!)) j++;
      tokens.push({ kind: 'word', text: sql.slice(i, j) });
      i = j;
    } else {
      tokens.push({ kind: 'other', text: ch });
      i++;
    }
  }
  return tokens;
}

const identifierOf = (token: Token): SqlIdentifier | null =>
  token.kind === 'word' ? { text: token.text, quoted: false } : token.kind === 'quoted' ? { text: token.text.slice(1, -1).replace(/""/g, '"'), quoted: true } : null;

interface CubePlan {
  table: DescribedTable;
  cubeName: string;
  /** Stored member name → model member name. */
  members: Map<string, string>;
}

interface ExpressionContext {
  owner: CubePlan;
  /** Stored name of the member whose expression this is: naming itself means its column. */
  self: string | null;
  /** Stored table name → plan. */
  tables: Map<string, CubePlan>;
  qiic: boolean;
}

/**
 * Warehouse expression → model SQL: `alias.member` becomes `{CUBE.member}` / `{cube.member}`,
 * `alias.column` becomes `{CUBE}.column` / `{cube}.column`; everything else is kept as written.
 */
function toModelSql(expression: string, ctx: ExpressionContext): { sql: string; memberRefs: string[] } {
  const tokens = tokenize(expression);
  const out: string[] = [];
  const memberRefs: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const dot = tokens[i + 1];
    const next = tokens[i + 2];
    const previous = tokens[i - 1];
    const qualifier = identifierOf(token);
    if (qualifier && dot?.text === '.' && next && identifierOf(next) && previous?.text !== '.') {
      const plan = ctx.tables.get(resolvedName(qualifier, ctx.qiic));
      if (plan) {
        const target = identifierOf(next)!;
        const stored = resolvedName(target, ctx.qiic);
        const self = plan === ctx.owner;
        // Qualified names mean a member of that table first (never the member itself), then a column.
        const member = self && stored === ctx.self ? undefined : plan.members.get(stored);
        if (member !== undefined) {
          out.push(`{${self ? 'CUBE' : plan.cubeName}.${member}}`);
          memberRefs.push(`${plan.cubeName}.${member}`);
        } else {
          out.push(`{${self ? 'CUBE' : plan.cubeName}}.${target.quoted ? next.text : target.text}`);
        }
        i += 2;
        continue;
      }
    }
    out.push(token.text);
  }
  return { sql: out.join(''), memberRefs };
}

const AGGREGATES = new Set(['SUM', 'AVG', 'MIN', 'MAX', 'COUNT']);

/** `AGG(arg)` as the whole expression → the measure type and argument; null for anything else. */
function simpleAggregate(expression: string): { type: string; argument: string | null } | null {
  const m = /^\s*([A-Za-z_]+)\s*\(([\s\S]*)\)\s*$/.exec(expression);
  if (!m || !AGGREGATES.has(m[1]!.toUpperCase())) return null;
  const inner = m[2]!;
  // The closing parenthesis must close the aggregate's own call: `SUM(a) / SUM(b)` is not one aggregate.
  let depth = 0;
  for (const token of tokenize(inner)) {
    if (token.text === '(') depth++;
    else if (token.text === ')' && --depth < 0) return null;
  }
  if (depth !== 0) return null;
  const fn = m[1]!.toUpperCase();
  const distinct = /^\s*DISTINCT\s+([\s\S]+)$/i.exec(inner);
  if (fn === 'COUNT') {
    if (/^\s*(\*|1)\s*$/.test(inner)) return { type: 'count', argument: null };
    if (distinct) return { type: 'count_distinct', argument: distinct[1]!.trim() };
    return { type: 'count', argument: inner.trim() };
  }
  if (distinct) return null;
  return { type: fn.toLowerCase(), argument: inner.trim() };
}

function dimensionType(dataType: string | null): 'string' | 'number' | 'time' | 'boolean' {
  const t = (dataType ?? '').toUpperCase();
  if (/^(NUMBER|DECIMAL|NUMERIC|INT|INTEGER|BIGINT|SMALLINT|TINYINT|BYTEINT|FLOAT|FLOAT4|FLOAT8|DOUBLE|REAL)/.test(t)) return 'number';
  if (/^(DATE|DATETIME|TIME|TIMESTAMP)/.test(t)) return 'time';
  if (/^BOOLEAN/.test(t)) return 'boolean';
  return 'string';
}

// ---- generation -----------------------------------------------------------------------------------

type YamlMap = Record<string, unknown>;

function generateOne(pulled: PulledSemanticView, names: NamePool, qiic: boolean, dataSource: string): { viewName: string; cubes: YamlMap[]; view: YamlMap; cubeNames: string[] } {
  const described = readDescribeRows(pulled.rows);
  const viewName = names.take(modelNameOf(pulled.name));
  const plans = new Map<string, CubePlan>();
  for (const table of described.tables) {
    const base = modelNameOf(table.name);
    const cubeName = names.take(base, `${viewName}_${base}`);
    plans.set(table.name, { table, cubeName, members: new Map() });
  }
  // Member names are decided before any expression is translated, so references resolve.
  for (const member of described.members) {
    const plan = plans.get(member.table);
    if (!plan) continue;
    const taken = new Set(plan.members.values());
    let name = modelNameOf(member.name);
    for (let n = 2; taken.has(name); n++) name = `${modelNameOf(member.name)}_${n}`;
    plan.members.set(member.name, name);
  }

  const cubeDefs = new Map<string, { dimensions: YamlMap[]; measures: YamlMap[]; joins: YamlMap[] }>();
  for (const plan of plans.values()) cubeDefs.set(plan.table.name, { dimensions: [], measures: [], joins: [] });
  const ctxFor = (plan: CubePlan, self: string | null): ExpressionContext => ({ owner: plan, self, tables: plans, qiic });
  const measureNames = new Set(
    described.members.filter((m) => m.kind === 'METRIC').map((m) => `${plans.get(m.table)?.cubeName}.${plans.get(m.table)?.members.get(m.name)}`),
  );

  const exposed = new Map<string, string[]>();
  for (const member of described.members) {
    const plan = plans.get(member.table);
    if (!plan) continue;
    const def = cubeDefs.get(plan.table.name)!;
    const name = plan.members.get(member.name)!;
    const description = member.comment ? { description: member.comment } : {};
    if (member.kind === 'METRIC') {
      const aggregate = simpleAggregate(member.expression);
      const argument = aggregate?.argument != null ? toModelSql(aggregate.argument, ctxFor(plan, member.name)) : null;
      const combinesMeasures = argument?.memberRefs.some((ref) => measureNames.has(ref)) ?? false;
      if (aggregate && !combinesMeasures) {
        def.measures.push({ name, type: aggregate.type, ...(argument ? { sql: argument.sql } : {}), ...description, ...(member.private ? { public: false } : {}) });
      } else {
        def.measures.push({ name, type: 'number', sql: toModelSql(member.expression, ctxFor(plan, member.name)).sql, ...description, ...(member.private ? { public: false } : {}) });
      }
    } else {
      def.dimensions.push({
        name,
        sql: toModelSql(member.expression, ctxFor(plan, member.name)).sql,
        type: dimensionType(member.dataType),
        ...description,
        // Facts are row-level helpers of metrics: kept, but not exposed.
        ...(member.kind === 'FACT' || member.private ? { public: false } : {}),
      });
    }
    if (member.kind !== 'FACT' && !member.private) exposed.set(plan.table.name, [...(exposed.get(plan.table.name) ?? []), name]);
  }

  // Primary keys: the dimension that is exactly the key column, or a hidden one for it.
  for (const plan of plans.values()) {
    const def = cubeDefs.get(plan.table.name)!;
    for (const column of plan.table.primaryKey) {
      const own = new RegExp(`^\\{CUBE\\}\\.${escapeRegExp(columnSql(column))}$`);
      const bare = columnSql(column);
      const existing = def.dimensions.find((d) => typeof d.sql === 'string' && (own.test(d.sql) || d.sql === bare));
      if (existing) {
        existing.primary_key = true;
      } else {
        const taken = new Set([...def.dimensions, ...def.measures].map((m) => m.name as string));
        let name = modelNameOf(column);
        for (let n = 2; taken.has(name); n++) name = `${modelNameOf(column)}_${n}`;
        def.dimensions.unshift({ name, sql: `{CUBE}.${columnSql(column)}`, type: 'string', primary_key: true, public: false });
      }
    }
  }

  // Relationships: the referencing table joins the referenced one, many to one.
  const edges = new Map<string, string[]>();
  const incoming = new Set<string>();
  for (const r of described.relationships) {
    const from = plans.get(r.table);
    const to = plans.get(r.refTable);
    if (!from || !to || r.columns.length === 0 || r.columns.length !== r.refColumns.length) continue;
    const conditions = r.columns.map((column, i) => `{CUBE}.${columnSql(column)} = {${to.cubeName}}.${columnSql(r.refColumns[i]!)}`);
    cubeDefs.get(from.table.name)!.joins.push({ name: to.cubeName, relationship: 'many_to_one', sql: conditions.join(' AND ') });
    edges.set(from.table.name, [...(edges.get(from.table.name) ?? []), to.table.name]);
    incoming.add(to.table.name);
  }

  // The view: join paths from the table nothing references (the fact table) along the relationships.
  const reach = (root: string): Map<string, string[]> => {
    const paths = new Map<string, string[]>([[root, [root]]]);
    const queue = [root];
    while (queue.length > 0) {
      const current = queue.shift()!;
      for (const next of edges.get(current) ?? []) {
        if (paths.has(next)) continue;
        paths.set(next, [...paths.get(current)!, next]);
        queue.push(next);
      }
    }
    return paths;
  };
  const order = described.tables.map((t) => t.name);
  const candidates = order.filter((t) => !incoming.has(t));
  const roots: string[] = [];
  const covered = new Map<string, string[]>();
  const remaining = new Set(order);
  while (remaining.size > 0) {
    const pool = (candidates.some((c) => remaining.has(c)) ? candidates : order).filter((c) => remaining.has(c));
    let best = pool[0]!;
    let bestSize = -1;
    for (const candidate of pool) {
      const size = [...reach(candidate).keys()].filter((t) => remaining.has(t)).length;
      if (size > bestSize) {
        best = candidate;
        bestSize = size;
      }
    }
    roots.push(best);
    for (const [table, path] of reach(best)) {
      if (!remaining.has(table)) continue;
      covered.set(table, path);
      remaining.delete(table);
    }
  }
  const viewCubes: YamlMap[] = [];
  for (const table of order) {
    const includes = exposed.get(table);
    if (!includes || includes.length === 0) continue;
    viewCubes.push({ join_path: covered.get(table)!.map((t) => plans.get(t)!.cubeName).join('.'), includes });
  }

  const cubes: YamlMap[] = [];
  for (const plan of plans.values()) {
    const def = cubeDefs.get(plan.table.name)!;
    const sqlTable = [plan.table.database, plan.table.schema, plan.table.table]
      .filter((p) => p !== '')
      .map((p) => writeIdentifier(storedIdentifier(p)))
      .join('.');
    cubes.push({
      name: plan.cubeName,
      ...(dataSource !== 'default' ? { data_source: dataSource } : {}),
      sql_table: sqlTable,
      ...(plan.table.comment ? { description: plan.table.comment } : {}),
      ...(def.joins.length ? { joins: def.joins } : {}),
      ...(def.dimensions.length ? { dimensions: def.dimensions } : {}),
      ...(def.measures.length ? { measures: def.measures } : {}),
    });
  }
  const view: YamlMap = {
    name: viewName,
    ...(described.comment ? { description: described.comment } : {}),
    cubes: viewCubes,
  };
  return { viewName, cubes, view, cubeNames: [...plans.values()].map((p) => p.cubeName) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Normalises a repository-relative folder; throws on absolute paths and `..`. */
export function normalizeOutputPath(outputPath: string): string {
  const trimmed = outputPath.replace(/\\/g, '/').trim();
  if (trimmed.startsWith('/') || /^[A-Za-z]:/.test(trimmed)) throw new Error(`outputPath must be relative to the repository, not absolute: '${outputPath}'.`);
  const parts = trimmed.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new Error(`outputPath must stay inside the repository ('..' is not allowed): '${outputPath}'.`);
  return parts.join('/');
}

/**
 * Model files for pulled semantic views: `<outputPath>/<view>.yml` each, with its cubes and view.
 * Names avoid `reservedNames` and each other (a clashing cube is named `<view>_<table>`).
 */
export function modelFilesFromSemanticViews(views: PulledSemanticView[], options: ModelFromSemanticViewsOptions): GeneratedModelFile[] {
  const folder = normalizeOutputPath(options.outputPath);
  const names = new NamePool(options.reservedNames);
  const sorted = [...views].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sorted.map((pulled) => {
    const { viewName, cubes, view, cubeNames } = generateOne(pulled, names, options.quotedIdentifiersIgnoreCase ?? false, options.dataSource ?? 'default');
    const header = `# Generated by Drydock from warehouse semantic view ${[pulled.database, pulled.schema, pulled.name].map((p) => writeIdentifier(storedIdentifier(p))).join('.')}.\n`;
    const content = header + stringify({ cubes, views: [view] }, { lineWidth: 0 });
    return { path: folder ? `${folder}/${viewName}.yml` : `${viewName}.yml`, content, semanticView: pulled.name, view: viewName, cubes: cubeNames };
  });
}
