// Measures as SQL: leaf aggregates (count, sum, avg, …, or an aggregate written by hand) and
// derived measures (a `number` over other measures, a multi-stage `rank`) computed from them.

import { scanSql } from '../references';
import type { CompiledCube, CompiledModel, Measure } from '../types';
import { dimensionSql, memberSql, renderSql, type RenderContext } from './render';
import { QueryError, QueryErrorCodes } from './types';
import { own } from '../dict';

/** Aggregates that give the same answer over repeated rows, so join fan-out cannot inflate them. */
const FANOUT_SAFE = new Set(['count_distinct', 'count_distinct_approx', 'min', 'max']);

export const isFanoutSafe = (m: Measure) => FANOUT_SAFE.has(m.type);

export interface MeasureRef {
  cube: string;
  measure: string;
}

/** Measures referenced from a measure's SQL (`{count}`, `{CUBE.count}`, `{orders.count}`). */
export function measureRefs(model: CompiledModel, cube: CompiledCube, m: Measure): MeasureRef[] {
  const sqls = [m.sql ?? '', ...orderBy(m).map((o) => o.sql)];
  const out: MeasureRef[] = [];
  for (const sql of sqls) {
    for (const ref of scanSql(sql).refs) {
      if (ref.sqlCall) continue;
      const p = ref.path;
      const target = p.length === 1 ? cube : own(model.cubes, p[p.length - 2] === 'CUBE' ? cube.name : p[p.length - 2]!);
      const name = p[p.length - 1]!;
      if (target && own(target.measures, name)) out.push({ cube: target.name, measure: name });
    }
  }
  return out;
}

/** A measure computed from other measures after aggregation (never aggregated itself). */
export function isDerived(model: CompiledModel, cube: CompiledCube, m: Measure): boolean {
  if (m.type === 'rank') return true;
  return ['number', 'string', 'time', 'boolean', 'number_agg'].includes(m.type) && measureRefs(model, cube, m).length > 0;
}

function orderBy(m: Measure): { sql: string; dir: 'asc' | 'desc' }[] {
  const raw = m.props.order_by;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((o) => {
    if (o === null || typeof o !== 'object' || Array.isArray(o) || typeof o.sql !== 'string') return [];
    return [{ sql: o.sql, dir: o.dir === 'asc' ? ('asc' as const) : ('desc' as const) }];
  });
}

/** Member names listed under a multi-stage measure's `reduce_by` or `group_by`. */
export function stageMembers(m: Measure, key: 'reduce_by' | 'group_by'): string[] | null {
  const raw = m.props[key];
  if (!Array.isArray(raw)) return null;
  return raw.filter((x): x is string => typeof x === 'string');
}

/** The primary key of a cube as SQL (one expression per key dimension). */
export function primaryKeySql(rc: RenderContext, cube: CompiledCube): string[] {
  return cube.primaryKeys.map((k) => dimensionSql(rc, cube, k));
}

/** What a leaf measure aggregates, per row, with its `filters` applied (NULL where they fail). */
export function measureInput(rc: RenderContext, cube: CompiledCube, m: Measure, name: string): string {
  const filters = m.filters.map((f) => `(${renderSql(rc, cube, f.sql, true)})`);
  let value: string;
  if (m.sql !== undefined) value = memberSql(rc, cube, m.sql);
  else if (m.type === 'count') {
    const pk = primaryKeySql(rc, cube);
    value = pk.length === 1 ? pk[0]! : pk.length > 1 ? `CASE WHEN ${pk[0]} IS NOT NULL THEN 1 END` : '1';
  } else throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Measure ${name} has no SQL to aggregate.`);
  return filters.length ? `CASE WHEN ${filters.join(' AND ')} THEN ${value} END` : value;
}

/** A leaf measure's aggregate over `input` (its per-row value, see `measureInput`). */
export function aggregateOf(rc: RenderContext, m: Measure, input: string, name: string): string {
  switch (m.type) {
    case 'count':
      return input === '1' ? 'COUNT(*)' : `COUNT(${input})`;
    case 'count_distinct':
      return `COUNT(DISTINCT ${input})`;
    case 'count_distinct_approx':
      return rc.dialect.countDistinctApprox(input);
    case 'sum':
      return `SUM(${input})`;
    case 'avg':
      return `AVG(${input})`;
    case 'min':
      return `MIN(${input})`;
    case 'max':
      return `MAX(${input})`;
    default:
      throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Measure ${name} of type ${m.type} cannot be aggregated row by row.`);
  }
}

/** A leaf measure's SQL in a grouped query. Hand-written aggregates (`number`, `string`, …) are used as written. */
export function leafAggregate(rc: RenderContext, cube: CompiledCube, m: Measure, name: string): string {
  if (['number', 'string', 'time', 'boolean', 'number_agg'].includes(m.type)) {
    if (m.sql === undefined) throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Measure ${name} has no SQL.`);
    return renderSql(rc, cube, m.sql, true);
  }
  return aggregateOf(rc, m, measureInput(rc, cube, m, name), name);
}

/**
 * A derived measure's SQL with each measure it references replaced by `ref` (the referenced
 * measure's aggregate, or its column in the combined result). `partition` gives the PARTITION BY
 * of a rank from its `reduce_by` / `group_by`.
 */
export function derivedSql(rc: RenderContext, cube: CompiledCube, m: Measure, name: string, ref: (cube: string, measure: string) => string, partition: (m: Measure) => string[]): string {
  const ctx: RenderContext = { ...rc, measureRef: ref };
  if (m.type === 'rank') {
    const order = orderBy(m);
    if (order.length === 0) throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Rank measure ${name} has no order_by.`);
    const by = partition(m);
    const orderSql = order.map((o) => `${renderSql(ctx, cube, o.sql, true)} ${o.dir.toUpperCase()}`).join(', ');
    return `RANK() OVER (${by.length ? `PARTITION BY ${by.join(', ')} ` : ''}ORDER BY ${orderSql})`;
  }
  return renderSql(ctx, cube, m.sql!, true);
}
