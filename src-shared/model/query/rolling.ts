// Rolling-window measures: each time bucket of the query aggregates the rows of its window.
//
// Windows follow the platform's rules, written half-open on bucket bounds: with `offset: end`
// (the default) a window of `trailing: 7 days` is [bucket end - 7 days, bucket end); `offset:
// start` anchors on the bucket start; `leading` extends forward; `unbounded` drops that bound;
// `to_date` windows run from the start of their period (year, quarter, month) to the bucket end.
// Without a granularity the query's date range is the one window.

import { formatWall, negateInterval, parseInterval, resolveDateRange, type Interval } from './dates';
import { aggregateOf, measureInput, primaryKeySql } from './measures';
import type { ResolvedMember } from './members';
import { cubeSource, dimensionSql } from './render';
import type { DimColumn, LeafMeasure, PlanState } from './state';
import { zonedTime } from './time';
import { QueryError, QueryErrorCodes, type DateRange, type StandardGranularity } from './types';

export interface RollingTime {
  member: ResolvedMember;
  /** The time dimension column with a granularity, or null when only a date range is given. */
  dim: DimColumn | null;
  range: DateRange | undefined;
}

const TO_DATE: Record<string, StandardGranularity> = { year_to_date: 'year', quarter_to_date: 'quarter', month_to_date: 'month' };

function interval(text: string | undefined, leaf: LeafMeasure, key: string): Interval | 'unbounded' | undefined {
  if (text === undefined) return undefined;
  if (text.trim() === 'unbounded') return 'unbounded';
  const parsed = parseInterval(text);
  if (!parsed) throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Rolling window of ${leaf.member.name} has ${key} '${text}', not an interval such as '7 days'.`);
  return parsed;
}

/** Rows of the window: conditions on `t` given the window's anchor bounds. */
function windowConditions(state: PlanState, leaf: LeafMeasure, t: string, from: string, to: string, inclusiveTo: boolean): string[] {
  const d = state.dialect;
  const rw = leaf.def.rollingWindow!;
  const toDate = rw.type === 'to_date' ? (rw.granularity as StandardGranularity | undefined) : TO_DATE[rw.type];
  const below = inclusiveTo ? '<=' : '<';
  if (toDate) {
    // The period of the last instant of the bucket (`to` is exclusive) or of the range end.
    const last = inclusiveTo ? to : d.addInterval(to, [{ amount: -1, unit: 'second' }]);
    return [`${t} >= ${d.truncate(toDate, last)}`, `${t} ${below} ${to}`];
  }
  const trailing = interval(rw.trailing, leaf, 'trailing');
  const leading = interval(rw.leading, leaf, 'leading');
  const offset = rw.offset ?? 'end';
  const low = inclusiveTo || offset === 'start' ? from : to;
  const high = inclusiveTo || offset === 'end' ? to : from;
  const out: string[] = [];
  if (trailing !== 'unbounded') out.push(`${t} >= ${trailing ? d.addInterval(low, negateInterval(trailing)) : low}`);
  if (leading !== 'unbounded') out.push(`${t} ${below} ${leading ? d.addInterval(high, leading) : high}`);
  return out;
}

/** The rows a rolling measure aggregates: dimension values, its time `__t` and its input `__v`. */
function baseRows(state: PlanState, leaf: LeafMeasure, rt: RollingTime, from: string, where: string): string {
  const { rc, dialect: d } = state;
  const q = (name: string) => d.quote(name);
  const others = state.dims.filter((dim) => dim !== rt.dim);
  const t = zonedTime(d, dimensionSql(rc, rt.member.cube, rt.member.member), state.filterEnv.timeZone);
  const input = measureInput(rc, leaf.cube, leaf.def, leaf.member.name);
  if (!state.multiplied.has(leaf.cube.name)) {
    const cols = [...others.map((o) => `${o.sql} AS ${q(o.alias)}`), `${t} AS ${q('__t')}`, `${input} AS ${q('__v')}`];
    return `SELECT ${cols.join(', ')} FROM ${from}${where}`;
  }
  const pk = primaryKeySql(rc, leaf.cube);
  if (pk.length === 0) throw noKey(leaf);
  const keyCols = [...others.map((o) => `${o.sql} AS ${q(o.alias)}`), `${t} AS ${q('__t')}`, ...pk.map((p, i) => `${p} AS ${q(`__pk${i}`)}`)];
  const on = pk.map((p, i) => `${q('k')}.${q(`__pk${i}`)} = ${p}`).join(' AND ');
  const cols = [...others.map((o) => `${q('k')}.${q(o.alias)} AS ${q(o.alias)}`), `${q('k')}.${q('__t')} AS ${q('__t')}`, `${input} AS ${q('__v')}`];
  return `SELECT ${cols.join(', ')} FROM (SELECT DISTINCT ${keyCols.join(', ')} FROM ${from}${where}) AS ${q('k')} LEFT JOIN ${cubeSource(rc, leaf.cube)} ON ${on}`;
}

export const noKey = (leaf: LeafMeasure) =>
  new QueryError(
    QueryErrorCodes.NO_PRIMARY_KEY,
    `Measure ${leaf.member.name} would be counted once per joined row, and cube '${leaf.cube.name}' has no primary key to count each of its rows once; give it a primary_key dimension.`,
  );

/** The SELECT of one rolling measure's group: every dimension column of the query plus the measure. */
export function rollingGroupSql(state: PlanState, leaf: LeafMeasure, rt: RollingTime, from: string, whereWithoutRange: string): string {
  const d = state.dialect;
  const q = (name: string) => d.quote(name);
  const base = baseRows(state, leaf, rt, from, whereWithoutRange);
  const value = aggregateOf(state.rc, leaf.def, `${q('b')}.${q('__v')}`, leaf.member.name);
  const t = `${q('b')}.${q('__t')}`;
  const range = rt.range !== undefined ? resolveDateRange(rt.range, state.filterEnv.timeZone, state.filterEnv.now) : null;
  const lit = (w: Parameters<typeof formatWall>[0]) => d.timestampLiteral(w);
  const others = state.dims.filter((dim) => dim !== rt.dim);
  const positions = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(', ');

  if (!rt.dim) {
    if (!range) throw new QueryError(QueryErrorCodes.INVALID_QUERY, `Rolling measure ${leaf.member.name} needs a time dimension with a granularity or a date range.`);
    const cond = windowConditions(state, leaf, t, lit(range[0]), lit(range[1]), true);
    const cols = [...others.map((o) => `${q('b')}.${q(o.alias)} AS ${q(o.alias)}`), `${value} AS ${q(leaf.alias)}`];
    return `SELECT ${cols.join(', ')} FROM (${base}) AS ${q('b')}${cond.length ? ` WHERE ${cond.join(' AND ')}` : ''}${others.length ? ` GROUP BY ${positions(others.length)}` : ''}`;
  }
  const gran = rt.dim.granularity!;
  const series = range
    ? d.seriesStarts(gran.bucket(lit(range[0])), lit(range[1]), gran.step, `(SELECT 1 AS ${q('one')}) AS ${q('r')}`)
    : d.seriesStarts(
        gran.bucket(`${q('r')}.${q('lo')}`),
        `${q('r')}.${q('hi')}`,
        gran.step,
        `(SELECT MIN(${q('__t')}) AS ${q('lo')}, MAX(${q('__t')}) AS ${q('hi')} FROM (${base}) AS ${q('bb')}) AS ${q('r')}`,
      );
  const dFrom = `${q('s')}.${q('d_from')}`;
  const dTo = d.addInterval(dFrom, gran.step);
  const cond = windowConditions(state, leaf, t, dFrom, dTo, false);
  const cols = state.dims.map((dim) => (dim === rt.dim ? `${dFrom} AS ${q(dim.alias)}` : `${q('b')}.${q(dim.alias)} AS ${q(dim.alias)}`));
  cols.push(`${value} AS ${q(leaf.alias)}`);
  return `SELECT ${cols.join(', ')} FROM (${series}) AS ${q('s')} LEFT JOIN (${base}) AS ${q('b')} ON ${cond.length ? cond.join(' AND ') : 'TRUE'} GROUP BY ${positions(state.dims.length)}`;
}
