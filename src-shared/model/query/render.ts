// Member SQL with its references replaced: `{CUBE}` by the cube's table alias, `{member}` and
// `{cube.member}` by that member's SQL, `{cube}` by that cube's alias; a bare column name is
// qualified with the cube's alias (as the platform does for YAML models), so joins never make it
// ambiguous.

import { CONTEXT_VARIABLES, plainColumn } from '../references';
import type { CompiledCube, CompiledModel } from '../types';
import type { Dialect } from './dialects';
import { QueryError, QueryErrorCodes } from './types';
import { own } from '../dict';

export interface RenderContext {
  model: CompiledModel;
  dialect: Dialect;
  /** Quoted table alias of a cube in the query (records which cubes the SQL needs). */
  alias(cube: string): string;
  /** SQL standing for a measure referenced from another measure's SQL; absent where measures cannot be referenced. */
  measureRef?(cube: string, measure: string): string;
}

const BRACE = /\{([^{}]*)\}/g;

/** A cube's FROM item: its table, or its SQL as a subquery, aliased. */
export function cubeSource(ctx: RenderContext, cube: CompiledCube): string {
  const alias = ctx.alias(cube.name);
  if (cube.sqlTable) return `${renderSql(ctx, cube, cube.sqlTable, false)} AS ${alias}`;
  if (cube.sql) return `(${renderSql(ctx, cube, cube.sql, false)}) AS ${alias}`;
  throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Cube '${cube.name}' has neither sql_table nor sql, so it has no rows to query.`);
}

/** The SQL of a dimension (or a measure's input) of `cube`, with bare columns qualified. */
export function memberSql(ctx: RenderContext, cube: CompiledCube, sql: string): string {
  const column = plainColumn(sql);
  if (column !== null && !sql.includes('{') && !/^\s*(CUBE|TABLE)\./.test(sql)) return `${ctx.alias(cube.name)}.${sql.trim()}`;
  return renderSql(ctx, cube, sql, true);
}

/** A dimension's SQL (a `case` dimension as CASE WHEN …). */
export function dimensionSql(ctx: RenderContext, cube: CompiledCube, name: string, seen: Set<string> = new Set()): string {
  const dim = own(cube.dimensions, name);
  if (!dim) throw new QueryError(QueryErrorCodes.UNKNOWN_MEMBER, `Cube '${cube.name}' has no dimension '${name}'.`);
  const key = `${cube.name}.${name}`;
  if (seen.has(key)) throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Dimension ${key} refers to itself through its SQL.`);
  if (dim.subQuery || dim.multiStage) {
    throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Dimension ${key} is a ${dim.subQuery ? 'sub_query' : 'multi_stage'} dimension, which local queries do not compute.`);
  }
  const inner = { ...ctx, dimensionSeen: new Set(seen).add(key) } as RenderContext & { dimensionSeen: Set<string> };
  if (dim.case !== undefined && dim.case !== null) return caseSql(inner, cube, key, dim.case);
  if (dim.sql === undefined) {
    throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Dimension ${key} has no SQL that can be evaluated (dynamic or missing).`);
  }
  return memberSql(inner, cube, dim.sql);
}

function caseSql(ctx: RenderContext, cube: CompiledCube, key: string, spec: unknown): string {
  const when = (spec as { when?: unknown }).when;
  const otherwise = (spec as { else?: unknown }).else;
  if (!Array.isArray(when)) throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `The case of dimension ${key} has no 'when' list.`);
  const label = (value: unknown): string => {
    const l = value !== null && typeof value === 'object' && 'label' in value ? (value as { label: unknown }).label : value;
    if (typeof l === 'string') return `'${l.replace(/'/g, "''")}'`;
    if (l !== null && typeof l === 'object' && typeof (l as { sql?: unknown }).sql === 'string') return renderSql(ctx, cube, (l as { sql: string }).sql, true);
    if (typeof l === 'number' || typeof l === 'boolean') return String(l);
    return 'NULL';
  };
  const branches = when.map((w) => {
    const sql = (w as { sql?: unknown }).sql;
    if (typeof sql !== 'string') throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `A 'when' of dimension ${key} has no sql.`);
    return `WHEN ${renderSql(ctx, cube, sql, true)} THEN ${label(w)}`;
  });
  return `CASE ${branches.join(' ')}${otherwise !== undefined ? ` ELSE ${label(otherwise)}` : ''} END`;
}

/**
 * Replaces the references of one SQL snippet written in `cube`. `inMember` is false for a cube's
 * own SQL (its table or subquery), where only `{cube}` names and other cubes' `sql()` make sense.
 */
export function renderSql(ctx: RenderContext, cube: CompiledCube, sql: string, inMember: boolean): string {
  if (!sql.includes('{')) return sql;
  if (/\{\{|\{%/.test(sql)) {
    throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `SQL of cube '${cube.name}' uses Jinja templating, which local queries cannot evaluate.`);
  }
  const seen = (ctx as RenderContext & { dimensionSeen?: Set<string> }).dimensionSeen;
  return sql.replace(BRACE, (whole, inner: string) => {
    const text = inner.trim();
    const head = /^([A-Za-z_]\w*)/.exec(text)?.[1];
    if (head && CONTEXT_VARIABLES.has(head)) {
      throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `SQL of cube '${cube.name}' reads ${head}, which local queries do not fill in.`);
    }
    const sqlCall = /^([A-Za-z_]\w*)\.sql\(\)$/.exec(text);
    if (sqlCall) {
      const other = own(ctx.model.cubes, sqlCall[1] === 'CUBE' ? cube.name : sqlCall[1]!);
      if (!other?.sql && !other?.sqlTable) throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `${whole} in cube '${cube.name}' names no cube with SQL.`);
      return other.sql ? `(${renderSql(ctx, other, other.sql, false)})` : renderSql(ctx, other, other.sqlTable!, false);
    }
    if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(text)) return whole;
    const parts = text.split('.');
    if (parts.length === 1) {
      const name = parts[0]!;
      if (name === 'CUBE' || name === 'TABLE') return ctx.alias(cube.name);
      if (inMember && (own(cube.dimensions, name) || own(cube.measures, name))) return memberRef(ctx, cube, name, seen);
      if (own(ctx.model.cubes, name)) return ctx.alias(name);
      throw new QueryError(QueryErrorCodes.UNKNOWN_MEMBER, `${whole} in cube '${cube.name}' names no member of '${cube.name}' and no cube.`);
    }
    // `{cube.member}`, `{CUBE.member}`, or a join path `{a.b.member}` whose last two parts count.
    const cubeName = parts[parts.length - 2] === 'CUBE' ? cube.name : parts[parts.length - 2]!;
    const member = parts[parts.length - 1]!;
    const target = own(ctx.model.cubes, cubeName);
    if (!target || (!own(target.dimensions, member) && !own(target.measures, member))) {
      throw new QueryError(QueryErrorCodes.UNKNOWN_MEMBER, `${whole} in cube '${cube.name}' names no member of a cube.`);
    }
    return memberRef(ctx, target, member, seen);
  });
}

function memberRef(ctx: RenderContext, cube: CompiledCube, name: string, seen: Set<string> | undefined): string {
  if (own(cube.dimensions, name)) return `(${dimensionSql(ctx, cube, name, seen)})`;
  if (!ctx.measureRef) {
    throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Measure ${cube.name}.${name} is referenced where only dimensions and columns can be used.`);
  }
  return ctx.measureRef(cube.name, name);
}
