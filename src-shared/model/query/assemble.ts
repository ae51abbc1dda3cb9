// Assembles the planned pieces into the final SELECT (see planner.ts for the shape).

import type { Measure } from '../types';
import { filterSql, type FilterTarget } from './filters';
import { derivedSql, isFanoutSafe, leafAggregate, primaryKeySql, stageMembers } from './measures';
import type { ResolvedMember } from './members';
import { cubeSource, renderSql } from './render';
import { multipliedCubes, type JoinTree } from './joins';
import { noKey, rollingGroupSql, type RollingTime } from './rolling';
import { valueTypeOf, type LeafMeasure, type PlanState } from './state';
import type { CheckedQuery } from './validate';
import { QueryError, QueryErrorCodes, type OrderDirection, type QueryFilter } from './types';
import { own } from '../dict';

interface Group {
  kind: 'direct' | 'keys' | 'rolling';
  cube?: string;
  leaves: LeafMeasure[];
  /** Cubes the group joins. */
  needed: Set<string>;
}

export interface BuiltSql {
  main: string;
  total: string | null;
  order: [string, OrderDirection][];
  /** The parts of a flat statement without HAVING (parameters still as tokens), else null. */
  flat: {
    from: string;
    where: string | null;
    dimensions: { alias: string; sql: string }[];
    measures: { alias: string; sql: string }[];
    order: { alias: string; direction: OrderDirection }[];
  } | null;
}

/**
 * Cubes of the join tree that `texts` read, with the joins leading to them. Left joins of cubes
 * nothing reads can only repeat rows, so a group joins only what it reads: fewer joins, and fewer
 * cubes whose rows are repeated.
 */
function neededCubes(state: PlanState, texts: string[]): Set<string> {
  const { rc, model, tree, dialect } = state;
  const parentOf = new Map(tree.edges.map((e) => [e.child, e]));
  const needed = new Set<string>([tree.root]);
  const pending = tree.cubes.filter((c) => texts.some((t) => t.includes(`${dialect.quote(c)}.`)));
  while (pending.length) {
    const c = pending.pop()!;
    if (needed.has(c)) continue;
    needed.add(c);
    const edge = parentOf.get(c);
    if (!edge) continue;
    pending.push(edge.parent);
    const joinSql = renderSql(rc, own(model.cubes, edge.parent)!, edge.join.sql, true);
    for (const other of tree.cubes) if (!needed.has(other) && joinSql.includes(`${dialect.quote(other)}.`)) pending.push(other);
  }
  return needed;
}

const restrict = (tree: JoinTree, needed: Set<string>): JoinTree => ({
  root: tree.root,
  edges: tree.edges.filter((e) => needed.has(e.child)),
  cubes: tree.cubes.filter((c) => needed.has(c)),
});

function fromClause(state: PlanState, needed: Set<string>): string {
  const { rc, model, tree } = state;
  let sql = cubeSource(rc, own(model.cubes, tree.root)!);
  for (const e of tree.edges) {
    if (!needed.has(e.child)) continue;
    sql += ` LEFT JOIN ${cubeSource(rc, own(model.cubes, e.child)!)} ON ${renderSql(rc, own(model.cubes, e.parent)!, e.join.sql, true)}`;
  }
  return sql;
}

/**
 * Measures in groups: direct groups (no measure of theirs repeated by the group's joins; as few as
 * possible), one keys group per repeated cube, one group per rolling measure.
 */
function groupsOf(state: PlanState, leaves: LeafMeasure[], rolling: RollingTime | null, baseTexts: string[]): Group[] {
  const { rc } = state;
  const direct: Group[] = [];
  const keyed = new Map<string, Group>();
  const rollingGroups: Group[] = [];
  const safeIn = (needed: Set<string>, members: LeafMeasure[]) => {
    const repeated = multipliedCubes(restrict(state.tree, needed));
    return members.every((l) => isFanoutSafe(l.def) || !repeated.has(l.cube.name));
  };
  for (const leaf of leaves) {
    if (leaf.def.rollingWindow && rolling) {
      rollingGroups.push({ kind: 'rolling', leaves: [leaf], needed: new Set() });
      continue;
    }
    const own = neededCubes(state, [...baseTexts, leafAggregate(rc, leaf.cube, leaf.def, leaf.member.name)]);
    if (!safeIn(own, [leaf])) {
      if (leaf.cube.primaryKeys.length === 0) throw noKey(leaf);
      const g = keyed.get(leaf.cube.name) ?? { kind: 'keys', cube: leaf.cube.name, leaves: [], needed: neededCubes(state, [...baseTexts, ...primaryKeySql(rc, leaf.cube)]) };
      keyed.set(leaf.cube.name, g);
      g.leaves.push(leaf);
      continue;
    }
    const home = direct.find((g) => safeIn(new Set([...g.needed, ...own]), [...g.leaves, leaf]));
    if (home) {
      home.leaves.push(leaf);
      for (const c of own) home.needed.add(c);
    } else direct.push({ kind: 'direct', leaves: [leaf], needed: own });
  }
  if (direct.length === 0 && keyed.size === 0 && rollingGroups.length === 0) direct.push({ kind: 'direct', leaves: [], needed: neededCubes(state, baseTexts) });
  return [...direct, ...keyed.values(), ...rollingGroups];
}

export function buildSql(
  state: PlanState,
  leaves: LeafMeasure[],
  selected: { alias: string; member: ResolvedMember }[],
  measureFilters: QueryFilter[],
  memberByName: Map<string, ResolvedMember>,
  rolling: RollingTime | null,
  q: CheckedQuery,
): BuiltSql {
  const { dialect: d, rc, dims } = state;
  const quote = (n: string) => d.quote(n);
  const baseTexts = [...dims.map((dim) => dim.sql), ...state.where.map((w) => w.sql)];
  const from = (texts: string[]) => fromClause(state, neededCubes(state, [...baseTexts, ...texts]));
  const whereSql = (skipRangeOf?: string) => {
    const parts = state.where.filter((w) => skipRangeOf === undefined || w.dateRangeOf !== skipRangeOf).map((w) => w.sql);
    return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
  };
  const positions = (n: number) => (n === 0 ? '' : ` GROUP BY ${Array.from({ length: n }, (_, i) => i + 1).join(', ')}`);
  const groups = groupsOf(state, leaves, rolling, baseTexts);
  const flat = groups.length === 1 && groups[0]!.kind === 'direct';
  const leafByKey = new Map(leaves.map((l) => [`${l.cube.name}.${l.member.member}`, l]));
  const groupOf = new Map<LeafMeasure, number>();
  groups.forEach((g, i) => g.leaves.forEach((l) => groupOf.set(l, i)));

  // Expressions of the final SELECT: over the joined rows (flat) or over the groups' columns.
  const dimExpr = new Map<string, string>();
  for (const dim of dims) {
    dimExpr.set(dim.alias, flat ? dim.sql : groups.length === 1 ? `${quote('q_0')}.${quote(dim.alias)}` : `COALESCE(${groups.map((_, i) => `${quote(`q_${i}`)}.${quote(dim.alias)}`).join(', ')})`);
  }
  const leafExpr = (leaf: LeafMeasure) => (flat ? leafAggregate(rc, leaf.cube, leaf.def, leaf.member.name) : `${quote(`q_${groupOf.get(leaf)}`)}.${quote(leaf.alias)}`);
  const partition = (m: Measure, cubeName: string): string[] => {
    const reduce = stageMembers(m, 'reduce_by');
    const groupBy = stageMembers(m, 'group_by');
    const named = (dimName: string, list: string[]) => list.some((n) => n === dimName || `${cubeName}.${n}` === dimName);
    if (groupBy) return dims.filter((x) => named(`${x.member.cube.name}.${x.member.member}`, groupBy)).map((x) => dimExpr.get(x.alias)!);
    // Without reduce_by or group_by a rank orders the whole result (an assumption; see README).
    if (reduce) return dims.filter((x) => !named(`${x.member.cube.name}.${x.member.member}`, reduce)).map((x) => dimExpr.get(x.alias)!);
    return [];
  };
  const measureExpr = (cube: string, measure: string, seen: Set<string> = new Set()): string => {
    const key = `${cube}.${measure}`;
    const leaf = leafByKey.get(key);
    if (leaf) return leafExpr(leaf);
    if (seen.has(key)) throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Measure ${key} refers to itself through other measures.`);
    const c = own(state.model.cubes, cube)!;
    const m = own(c.measures, measure)!;
    return `(${derivedSql(rc, c, m, key, (rc2, rm) => measureExpr(rc2, rm, new Set(seen).add(key)), (mm) => partition(mm, cube))})`;
  };
  const selectedExpr = (s: { member: ResolvedMember }) => measureExpr(s.member.cube.name, s.member.member);

  const cols = [...dims.map((dim) => `${dimExpr.get(dim.alias)} AS ${quote(dim.alias)}`), ...selected.map((s) => `${selectedExpr(s)} AS ${quote(s.alias)}`)];
  const havingTarget = (name: string): FilterTarget => {
    const m = memberByName.get(name)!;
    if (m.kind !== 'measure') throw new QueryError(QueryErrorCodes.INVALID_FILTER, `'${name}' is not a measure.`);
    return { sql: measureExpr(m.cube.name, m.member), type: valueTypeOf(m) };
  };
  const having = measureFilters.map((f) => filterSql(state.filterEnv, f, havingTarget));

  let body: string;
  let flatParts: BuiltSql['flat'] = null;
  if (flat) {
    const fromSql = from(cols);
    const where = whereSql();
    body = `SELECT ${cols.join(', ')} FROM ${fromSql}${where}${positions(dims.length)}${having.length ? ` HAVING ${having.join(' AND ')}` : ''}`;
    if (having.length === 0) {
      flatParts = {
        from: fromSql,
        where: where ? where.slice(' WHERE '.length) : null,
        dimensions: dims.map((dim) => ({ alias: dim.alias, sql: dimExpr.get(dim.alias)! })),
        measures: selected.map((s) => ({ alias: s.alias, sql: selectedExpr(s) })),
        order: [],
      };
    }
  } else {
    const parts = groups.map((g, i) => {
      let sql: string;
      if (g.kind === 'direct') {
        const gcols = [...dims.map((dim) => `${dim.sql} AS ${quote(dim.alias)}`), ...g.leaves.map((l) => `${leafAggregate(rc, l.cube, l.def, l.member.name)} AS ${quote(l.alias)}`)];
        sql = `SELECT ${gcols.join(', ')} FROM ${fromClause(state, g.needed)}${whereSql()}${positions(dims.length)}`;
      } else if (g.kind === 'keys') {
        const cube = own(state.model.cubes, g.cube!)!;
        const pk = primaryKeySql(rc, cube);
        const keyCols = [...dims.map((dim) => `${dim.sql} AS ${quote(dim.alias)}`), ...pk.map((p, k) => `${p} AS ${quote(`__pk${k}`)}`)];
        const on = pk.map((p, k) => `${quote('keys')}.${quote(`__pk${k}`)} = ${p}`).join(' AND ');
        const gcols = [...dims.map((dim) => `${quote('keys')}.${quote(dim.alias)} AS ${quote(dim.alias)}`), ...g.leaves.map((l) => `${leafAggregate(rc, l.cube, l.def, l.member.name)} AS ${quote(l.alias)}`)];
        sql = `SELECT ${gcols.join(', ')} FROM (SELECT DISTINCT ${keyCols.join(', ')} FROM ${fromClause(state, g.needed)}${whereSql()}) AS ${quote('keys')} LEFT JOIN ${cubeSource(rc, cube)} ON ${on}${positions(dims.length)}`;
      } else {
        const skip = rolling!.dim?.alias ?? rolling!.member.name;
        const leaf = g.leaves[0]!;
        const reads = [leafAggregate(rc, leaf.cube, leaf.def, leaf.member.name), `${d.quote(rolling!.member.cube.name)}.`, ...primaryKeySql(rc, leaf.cube)];
        sql = rollingGroupSql(state, leaf, rolling!, from(reads), whereSql(skip));
      }
      return `(${sql}) AS ${quote(`q_${i}`)}`;
    });
    let joined = parts[0]!;
    for (let i = 1; i < parts.length; i++) {
      if (dims.length === 0) {
        joined += ` CROSS JOIN ${parts[i]}`;
        continue;
      }
      const on = dims.map((dim) => {
        const left = i === 1 ? `${quote('q_0')}.${quote(dim.alias)}` : `COALESCE(${Array.from({ length: i }, (_, k) => `${quote(`q_${k}`)}.${quote(dim.alias)}`).join(', ')})`;
        return `${left} IS NOT DISTINCT FROM ${quote(`q_${i}`)}.${quote(dim.alias)}`;
      });
      joined += ` FULL JOIN ${parts[i]} ON ${on.join(' AND ')}`;
    }
    body = `SELECT ${cols.join(', ')} FROM ${joined}${having.length ? ` WHERE ${having.join(' AND ')}` : ''}`;
  }

  const order = orderOf(q, dims, selected);
  const orderAlias = (member: string): string => {
    const dim = dims.find((x) => x.granularity && (`${x.member.name}.${x.granularity.name}` === member || x.member.name === member)) ?? dims.find((x) => x.member.name === member);
    if (dim) return dim.alias;
    const s = selected.find((x) => x.member.name === member);
    if (s) return s.alias;
    throw new QueryError(QueryErrorCodes.INVALID_QUERY, `The query orders by '${member}', which it does not select.`);
  };
  const orderSql = order.length ? ` ORDER BY ${order.map(([m, dir]) => `${quote(orderAlias(m))} ${dir.toUpperCase()}`).join(', ')}` : '';
  if (flatParts) flatParts.order = order.map(([m, direction]) => ({ alias: orderAlias(m), direction }));
  const limitSql = ` LIMIT ${q.limit}${q.offset ? ` OFFSET ${q.offset}` : ''}`;
  return {
    main: `${body}${orderSql}${limitSql}`,
    total: q.total ? `SELECT COUNT(*) AS ${quote('total')} FROM (${body}) AS ${quote('t')}` : null,
    order,
    flat: flatParts,
  };
}

/** The query's order, or the platform's default: the first time dimension ascending, else the first measure descending, else the first dimension. */
function orderOf(q: CheckedQuery, dims: PlanState['dims'], selected: { member: ResolvedMember }[]): [string, OrderDirection][] {
  if (q.order) return q.order;
  const time = dims.find((x) => x.granularity);
  if (time) return [[`${time.member.name}`, 'asc']];
  if (selected.length > 0) return [[selected[0]!.member.name, 'desc']];
  if (dims.length > 0) return [[dims[0]!.member.name, 'asc']];
  return [];
}
