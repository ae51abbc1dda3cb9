// The query planner: a `load` query over a compiled model → one SQL statement for a dialect.
//
// Shape of the SQL. Measures are computed in groups that are then joined on the query's
// dimensions (FULL JOIN, null-safe):
// - the direct group: measures of cubes the join tree does not repeat (and fan-out-safe ones:
//   count_distinct, min, max), aggregated over the joined rows;
// - one group per repeated cube ("keys" group): its distinct primary keys per dimension values
//   first, then its measures over those rows only, so a one-to-many join never counts a row twice;
// - one group per rolling-window measure: a series of time buckets joined to the rows in each
//   bucket's window.
// Derived measures (`number` over measures, `rank`) are computed over the combined groups.
// A query with only the direct group is planned as one flat GROUP BY.

import type { CompiledCube, CompiledModel, Dimension, Measure } from '../types';
import { entityAccess, assertMemberVisible, rowFilter, type EntityAccess } from './access';
import { formatWall, resolveDateRange } from './dates';
import type { Dialect } from './dialects';
import { filterMembers, filterSql, Params, type FilterEnv, type FilterTarget } from './filters';
import { cubeJoinTree, multipliedCubes, viewJoinTree } from './joins';
import { isDerived, leafAggregate, measureRefs } from './measures';
import { MemberResolver, type ResolvedMember } from './members';
import { dimensionSql, renderSql, type RenderContext } from './render';
import { annotate } from './annotate';
import { buildSql } from './assemble';
import type { RollingTime } from './rolling';
import { valueTypeOf, type DimColumn, type LeafMeasure, type PlanState } from './state';
import { granularityPlan, zonedTime, type GranularityPlan } from './time';
import { checkQuery, type CheckedQuery } from './validate';
import { QueryError, QueryErrorCodes, type LoadQuery, type PlannedQuery, type QueryFilter, type QuerySecurity, type ResultColumn } from './types';
import { own } from '../dict';

export interface PlanOptions {
  dialect: Dialect;
  /** The user asking; null plans without access policies (the model's own checks, tests). */
  security: QuerySecurity | null;
  /** "Now" for relative date ranges. */
  now?: Date;
}

const NUMERIC = new Set(['count', 'count_distinct', 'count_distinct_approx', 'sum', 'avg', 'min', 'max', 'number', 'number_agg', 'rank']);

const aliasPart = (name: string) => name.replace(/[^A-Za-z0-9_]/g, '_');

export function planQuery(model: CompiledModel, input: LoadQuery | unknown, options: PlanOptions): PlannedQuery {
  const q = checkQuery(input);
  const dialect = options.dialect;
  const now = options.now ?? new Date();
  const resolver = new MemberResolver(model);
  const params = new Params();
  const filterEnv: FilterEnv = { dialect, params, timeZone: q.timezone, now };

  // ---- members
  const measures = q.measures.map((n) => resolver.resolve(n, 'measure'));
  const dimensions = q.dimensions.map((n) => resolver.resolve(n, 'dimension'));
  const segments = q.segments.map((n) => resolver.resolve(n, 'segment'));
  const timeDims = q.timeDimensions.map((td) => {
    const m = resolver.resolve(td.dimension, 'dimension');
    if ((m.def as Dimension).type !== 'time') throw new QueryError(QueryErrorCodes.WRONG_MEMBER_KIND, `'${td.dimension}' is not a time dimension (type ${(m.def as Dimension).type}).`);
    return { td, member: m };
  });
  const filterRefs = filterMembers(q.filters).map((n) => resolver.resolve(n));
  const queried = [...measures, ...dimensions, ...segments, ...timeDims.map((t) => t.member), ...filterRefs];
  const views = new Set(queried.map((m) => m.view?.name ?? null));
  if (views.size > 1) {
    const names = [...views].map((v) => (v === null ? 'cube members' : `view '${v}'`));
    throw new QueryError(QueryErrorCodes.INVALID_QUERY, `A query reads one view or cubes directly; this one mixes ${names.join(' and ')}.`);
  }
  const view = queried[0]?.view ?? null;

  // ---- access policies: member visibility, then the row filters of every entity read
  const rowFilters: QueryFilter[] = [];
  if (options.security) {
    const accessCache = new Map<string, EntityAccess>();
    const accessOf = (name: string, policies: CompiledCube['accessPolicy']) => {
      let a = accessCache.get(name);
      if (!a) {
        a = entityAccess(policies, options.security!);
        accessCache.set(name, a);
        const rf = rowFilter(a, name, options.security!);
        if (rf) rowFilters.push(rf);
      }
      return a;
    };
    for (const m of queried) {
      if (m.view && m.view.accessPolicy.length > 0) {
        assertMemberVisible(accessOf(m.view.name, m.view.accessPolicy), m.view.name, m.name.slice(m.view.name.length + 1), m.name);
      } else {
        assertMemberVisible(accessOf(m.cube.name, m.cube.accessPolicy), m.cube.name, m.member, m.name);
      }
    }
  }
  // Row filters name `entity.member`: view members for a view's policies, cube members otherwise.
  const rowFilterMembers = filterMembers(rowFilters).map((n) => {
    const dot = n.indexOf('.');
    const entity = n.slice(0, dot);
    const member = n.slice(dot + 1);
    const r = own(model.views, entity) ? resolver.resolve(n) : resolver.cubeMember(entity, member);
    if (!r) throw new QueryError(QueryErrorCodes.INVALID_FILTER, `An access policy filters on '${n}', which the model does not define.`);
    return r;
  });
  const memberByName = new Map<string, ResolvedMember>([...queried, ...rowFilterMembers].map((m) => [m.name, m]));

  // ---- render everything once, recording the cubes the SQL reads
  const used = new Set<string>();
  const cubeOrder: string[] = [];
  const need = (cube: string) => {
    if (!used.has(cube)) {
      used.add(cube);
      cubeOrder.push(cube);
    }
  };
  for (const m of [...measures, ...dimensions, ...timeDims.map((t) => t.member), ...segments, ...filterRefs, ...rowFilterMembers]) need(m.cube.name);
  const rc: RenderContext = {
    model,
    dialect,
    alias: (cube) => {
      need(cube);
      return dialect.quote(cube);
    },
  };

  const dims: DimColumn[] = [];
  const aliases = new Set<string>();
  const uniqueAlias = (base: string) => {
    let alias = base;
    for (let i = 2; aliases.has(alias); i++) alias = `${base}_${i}`;
    aliases.add(alias);
    return alias;
  };
  const entityOf = (m: ResolvedMember) => m.name.slice(0, m.name.indexOf('.'));
  const shortOf = (m: ResolvedMember) => m.name.slice(m.name.indexOf('.') + 1);
  const timeSql = (m: ResolvedMember) => zonedTime(dialect, dimensionSql(rc, m.cube, m.member), q.timezone);
  const dimSql = (m: ResolvedMember) => ((m.def as Dimension).type === 'time' ? timeSql(m) : dimensionSql(rc, m.cube, m.member));

  for (const m of dimensions) dims.push({ alias: uniqueAlias(`${aliasPart(entityOf(m))}__${aliasPart(shortOf(m))}`), sql: dimSql(m), member: m });
  const timeColumns: { alias: string; td: CheckedQuery['timeDimensions'][number]; member: ResolvedMember; granularity?: GranularityPlan }[] = [];
  for (const { td, member } of timeDims) {
    if (!td.granularity) {
      timeColumns.push({ alias: '', td, member });
      continue;
    }
    const gran = granularityPlan(dialect, member.def as Dimension, member.name, td.granularity, (sql) => renderSql(rc, member.cube, sql, true));
    const alias = uniqueAlias(`${aliasPart(entityOf(member))}__${aliasPart(shortOf(member))}_${aliasPart(td.granularity)}`);
    const col: DimColumn = { alias, sql: gran.bucket(timeSql(member)), member, granularity: gran };
    dims.push(col);
    timeColumns.push({ alias, td, member, granularity: gran });
  }

  // Conditions on rows: segments, dimension filters, row filters, date ranges.
  const where: PlanState['where'] = [];
  const target = (name: string): FilterTarget => {
    const m = memberByName.get(name) ?? resolver.resolve(name);
    if (m.kind !== 'dimension') throw new QueryError(QueryErrorCodes.INVALID_FILTER, `'${name}' is a ${m.kind}; filter rows on dimensions.`);
    return { sql: dimSql(m), type: valueTypeOf(m) };
  };
  for (const s of segments) where.push({ sql: `(${renderSql(rc, s.cube, s.def.sql ?? 'TRUE', true)})` });
  const measureFilters: QueryFilter[] = [];
  for (const f of q.filters) {
    const kinds = new Set(filterMembers([f]).map((n) => memberByName.get(n)!.kind));
    if (kinds.has('segment')) throw new QueryError(QueryErrorCodes.INVALID_FILTER, 'Segments are listed under segments, not filtered on.');
    if (kinds.has('measure') && kinds.has('dimension')) {
      throw new QueryError(QueryErrorCodes.INVALID_FILTER, 'One filter group mixes measures and dimensions; filter them in separate top-level filters.');
    }
    if (kinds.has('measure')) measureFilters.push(f);
    else where.push({ sql: filterSql(filterEnv, f, target) });
  }
  for (const rf of rowFilters) where.push({ sql: filterSql(filterEnv, rf, target) });
  for (const tc of timeColumns) {
    if (tc.td.dateRange === undefined || tc.td.dateRange === null) continue;
    const [from, to] = resolveDateRange(tc.td.dateRange, q.timezone, now);
    const t = timeSql(tc.member);
    const lit = (w: typeof from) => dialect.toTimestamp(params.token(formatWall(w).replace('T', ' ')));
    where.push({ sql: `(${t} >= ${lit(from)} AND ${t} <= ${lit(to)})`, dateRangeOf: tc.alias || tc.member.name });
  }

  // ---- measures: leaves (aggregated in groups) and derived ones (computed after)
  const leaves = new Map<string, LeafMeasure>();
  const leafKey = (m: ResolvedMember) => `${m.cube.name}.${m.member}`;
  const selected: { alias: string; member: ResolvedMember }[] = [];
  for (const m of measures) {
    if (selected.some((s) => s.member.name === m.name)) continue;
    const alias = uniqueAlias(`${aliasPart(entityOf(m))}__${aliasPart(shortOf(m))}`);
    selected.push({ alias, member: m });
    if (!isDerived(model, m.cube, m.def as Measure) && !leaves.has(leafKey(m))) {
      leaves.set(leafKey(m), { alias, member: m, cube: m.cube, def: m.def as Measure, hidden: false });
    }
  }
  // Measures that derived measures and measure filters need, as hidden columns.
  const visit = (member: ResolvedMember, seen: Set<string>) => {
    const def = member.def as Measure;
    const key = leafKey(member);
    if (seen.has(key)) throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `Measure ${key} refers to itself through other measures.`);
    if (!isDerived(model, member.cube, def)) {
      if (!leaves.has(key)) {
        const alias = uniqueAlias(`h__${aliasPart(member.cube.name)}__${aliasPart(member.member)}`);
        leaves.set(key, { alias, member, cube: member.cube, def, hidden: true });
      }
      return;
    }
    for (const ref of measureRefs(model, member.cube, def)) visit(resolver.cubeMember(ref.cube, ref.measure)!, new Set(seen).add(key));
  };
  for (const s of selected) visit(s.member, new Set());
  for (const f of measureFilters) for (const n of filterMembers([f])) visit(memberByName.get(n)!, new Set());
  // Render leaves once now so their cubes are known before the join tree is built.
  for (const leaf of leaves.values()) leafAggregate(rc, leaf.cube, leaf.def, leaf.member.name);

  // ---- join tree and data source
  const tree = view
    ? viewJoinTree(model, view.name, cubeOrder.map((c) => pathInView(view, c)))
    : cubeJoinTree(model, cubeOrder);
  for (const e of tree.edges) renderSql(rc, own(model.cubes, e.parent)!, e.join.sql, true);
  for (const c of cubeOrder) if (!tree.cubes.includes(c)) throw new QueryError(QueryErrorCodes.NO_JOIN_PATH, `Cube '${c}' is read by the query's SQL but is not joined.`);
  const sources = new Set(tree.cubes.map((c) => own(model.cubes, c)!.dataSource));
  if (sources.size > 1) {
    throw new QueryError(QueryErrorCodes.MIXED_DATA_SOURCES, `The query joins cubes of data sources ${[...sources].join(' and ')}; one query reads one data source.`);
  }
  const state: PlanState = { model, dialect, rc, params, filterEnv, tree, multiplied: multipliedCubes(tree), dims, where };

  const rollingTime = chooseRollingTime(timeColumns, dims);
  const built = buildSql(state, [...leaves.values()], selected, measureFilters, memberByName, rollingTime, q);
  const columns: ResultColumn[] = [
    ...dims.map<ResultColumn>((d) => ({
      alias: d.alias,
      key: d.granularity ? `${d.member.name}.${d.granularity.name}` : d.member.name,
      ...(d.granularity ? { alsoKey: d.member.name } : {}),
      kind: d.granularity ? 'timeDimension' : 'dimension',
      type: (d.member.def as Dimension).type,
    })),
    ...selected.map<ResultColumn>((s) => ({ alias: s.alias, key: s.member.name, kind: 'measure', type: NUMERIC.has((s.member.def as Measure).type) ? 'number' : (s.member.def as Measure).type })),
  ];
  const main = params.finish(built.main);
  const total = built.total === null ? null : params.finish(built.total);
  const flat = built.flat && {
    from: params.finish(built.flat.from),
    where: built.flat.where === null ? null : params.finish(built.flat.where),
    dimensions: built.flat.dimensions.map((d) => ({ alias: d.alias, sql: params.finish(d.sql) })),
    measures: built.flat.measures.map((m) => ({ alias: m.alias, sql: params.finish(m.sql) })),
    order: built.flat.order,
    limit: q.limit,
    offset: q.offset ?? 0,
  };
  return {
    normalized: {
      ...(input as LoadQuery),
      measures: q.measures,
      dimensions: q.dimensions,
      segments: q.segments,
      timeDimensions: q.timeDimensions,
      filters: q.filters,
      order: built.order,
      limit: q.limit,
      timezone: q.timezone,
    },
    main,
    total,
    columns,
    annotation: annotate(model, { measures, dimensions, segments, timeColumns }),
    dataSource: [...sources][0] ?? 'default',
    flat,
  };
}

function pathInView(view: { name: string; joinPaths: string[][] }, cube: string): string[] {
  for (const path of view.joinPaths) {
    const i = path.indexOf(cube);
    if (i >= 0) return path.slice(0, i + 1);
  }
  throw new QueryError(QueryErrorCodes.NO_JOIN_PATH, `The query reads cube '${cube}', which view '${view.name}' does not join.`);
}

function chooseRollingTime(timeColumns: { alias: string; td: { dateRange?: unknown }; member: ResolvedMember; granularity?: GranularityPlan }[], dims: DimColumn[]): RollingTime | null {
  const withGranularity = timeColumns.find((t) => t.granularity);
  if (withGranularity) return { member: withGranularity.member, dim: dims.find((d) => d.alias === withGranularity.alias)!, range: withGranularity.td.dateRange as never };
  const withRange = timeColumns.find((t) => t.td.dateRange !== undefined && t.td.dateRange !== null);
  return withRange ? { member: withRange.member, dim: null, range: withRange.td.dateRange as never } : null;
}

