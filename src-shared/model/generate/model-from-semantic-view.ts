// Warehouse semantic views (DESCRIBE SEMANTIC VIEW rows) → model YAML: one file per semantic view
// holding a cube per logical table and a view exposing the semantic view's public dimensions and
// metrics. The inverse of semantic-view-ddl.ts: pushing a model view and pulling it back yields
// a view with the same members, sources, keys and joins. Derived metrics become measures the view
// defines; the Cortex Analyst instructions go to the view's `meta`; what the model cannot express
// (window function metrics) is reported per member and written into the file as a comment, never
// dropped silently. Reading the rows and translating expressions live under `pull/`.

import { stringify } from 'yaml';
import { storedIdentifier, writeIdentifier } from './semantic-view/identifiers';
import { readDescribeRows, type DescribeRowLike } from './pull/describe-rows';
import { columnSql, dimensionType, modelNameOf, NamePool, simpleAggregate, toModelSql, type CubePlan, type ExpressionContext } from './pull/expressions';
import { portableName } from '../../paths/portable-path';

export { readDescribeRows, type DescribeRowLike, type DescribedSemanticView } from './pull/describe-rows';
export { columnSql, modelNameOf } from './pull/expressions';

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
  /** Members of the semantic view the model cannot express, each with why (also written into the file). */
  warnings: PullWarning[];
}

export interface PullWarning {
  /** `table.member`, or the name of a derived metric. */
  member: string;
  message: string;
}


// ---- generation -----------------------------------------------------------------------------------

type YamlMap = Record<string, unknown>;

/** A window function call (`... OVER (`) outside string literals and quoted names. */
function usesWindowFunction(expression: string): boolean {
  return /\bOVER\s*\(/i.test(expression.replace(/'(?:[^'\\]|\\.|'')*'|"(?:[^"]|"")*"/g, "''"));
}

function generateOne(
  pulled: PulledSemanticView,
  names: NamePool,
  qiic: boolean,
  dataSource: string,
): { viewName: string; cubes: YamlMap[]; view: YamlMap; cubeNames: string[]; warnings: PullWarning[] } {
  const described = readDescribeRows(pulled.rows);
  const warnings: PullWarning[] = [];
  const notExpressible = (member: { name: string; table: string | null; expression: string }, why: string): void => {
    const label = member.table === null ? member.name : `${member.table}.${member.name}`;
    warnings.push({ member: label, message: `metric ${label} is ${why}, which the model cannot express; it is not pulled (its expression: ${member.expression})` });
  };
  const viewName = names.take(modelNameOf(pulled.name));
  const plans = new Map<string, CubePlan>();
  for (const table of described.tables) {
    const base = modelNameOf(table.name);
    const cubeName = names.take(base, `${viewName}_${base}`);
    plans.set(table.name, { table, cubeName, members: new Map() });
  }
  // Member names are decided before any expression is translated, so references resolve.
  for (const member of described.members) {
    const plan = member.table === null ? undefined : plans.get(member.table);
    if (!plan) continue;
    const taken = new Set(plan.members.values());
    let name = modelNameOf(member.name);
    for (let n = 2; taken.has(name); n++) name = `${modelNameOf(member.name)}_${n}`;
    plan.members.set(member.name, name);
  }

  const cubeDefs = new Map<string, { dimensions: YamlMap[]; measures: YamlMap[]; joins: YamlMap[] }>();
  for (const plan of plans.values()) cubeDefs.set(plan.table.name, { dimensions: [], measures: [], joins: [] });
  const ctxFor = (plan: CubePlan, self: string | null): ExpressionContext => ({ owner: plan, self, tables: plans, qiic });
  const planOf = (table: string | null): CubePlan | undefined => (table === null ? undefined : plans.get(table));
  const measureNames = new Set(
    described.members.filter((m) => m.kind === 'METRIC').map((m) => `${planOf(m.table)?.cubeName}.${planOf(m.table)?.members.get(m.name)}`),
  );

  const exposed = new Map<string, string[]>();
  for (const member of described.members) {
    const plan = planOf(member.table);
    if (!plan) continue;
    const def = cubeDefs.get(plan.table.name)!;
    const name = plan.members.get(member.name)!;
    const description = member.comment ? { description: member.comment } : {};
    if (member.kind === 'METRIC' && usesWindowFunction(member.expression)) {
      notExpressible(member, 'a window function metric');
      continue;
    }
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
  // Derived metrics belong to the view: they become measures the view defines, combining the
  // cubes' measures (a derived metric naming another is inlined).
  const viewMeasures: YamlMap[] = [];
  const viewMemberNames = new Set([...exposed.values()].flat());
  const derivedSql = new Map<string, string>();
  for (const member of described.members) {
    if (member.table !== null || member.kind !== 'METRIC') continue;
    if (usesWindowFunction(member.expression)) {
      notExpressible(member, 'a window function metric');
      continue;
    }
    const ctx: ExpressionContext = { owner: null, self: null, tables: plans, qiic, derived: derivedSql };
    const sql = toModelSql(member.expression, ctx).sql;
    derivedSql.set(member.name, sql);
    let name = modelNameOf(member.name);
    for (let n = 2; viewMemberNames.has(name); n++) name = `${modelNameOf(member.name)}_${n}`;
    viewMemberNames.add(name);
    viewMeasures.push({ name, type: 'number', sql, ...(member.comment ? { description: member.comment } : {}), ...(member.private ? { public: false } : {}) });
  }
  const instructions = {
    ...(described.aiSqlGeneration ? { ai_sql_generation: described.aiSqlGeneration } : {}),
    ...(described.aiQuestionCategorization ? { ai_question_categorization: described.aiQuestionCategorization } : {}),
  };
  const view: YamlMap = {
    name: viewName,
    ...(described.comment ? { description: described.comment } : {}),
    ...(Object.keys(instructions).length ? { meta: instructions } : {}),
    cubes: viewCubes,
    ...(viewMeasures.length ? { measures: viewMeasures } : {}),
  };
  return { viewName, cubes, view, cubeNames: [...plans.values()].map((p) => p.cubeName), warnings };
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
    const { viewName, cubes, view, cubeNames, warnings } = generateOne(pulled, names, options.quotedIdentifiersIgnoreCase ?? false, options.dataSource ?? 'default');
    const notes = warnings.map((w) => `# Not pulled: ${w.message.replace(/\s*\n\s*/g, ' ')}\n`).join('');
    const header = `# Generated by Drydock from warehouse semantic view ${[pulled.database, pulled.schema, pulled.name].map((p) => writeIdentifier(storedIdentifier(p))).join('.')}.\n${notes}`;
    const content = header + stringify({ cubes, views: [view] }, { lineWidth: 0 });
    // A view named like a Windows device (`con`, `aux`…) gets a file name Windows can hold.
    const file = `${portableName(viewName)}.yml`;
    return { path: folder ? `${folder}/${file}` : file, content, semanticView: pulled.name, view: viewName, cubes: cubeNames, warnings };
  });
}
