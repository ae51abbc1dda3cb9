// Readers of the members of a cube or view: dimensions (types, primary key, sub-query, case,
// geo coordinates, switch values, custom granularities with their interval/offset/origin
// rules), measures (types, multi-stage-only types, filters, rolling windows, drill members),
// segments and hierarchies. Each reports what it finds wrong against the member's path.

import { DiagnosticCodes as C } from '../codes';
import type {
  Dimension,
  DimensionType,
  Granularity,
  Hierarchy,
  Measure,
  MeasureFilter,
  MeasureType,
  RawEntry,
  RawMap,
  RollingWindow,
  Segment,
} from '../types';
import { hasOpaque, normalizeEnum, plain, readMemberBase, readMembers, sqlOf, type Ctx, type MemberBase, type MemberContext } from './context';
import { Fields } from './fields';
import { checkListValues, checkMapValue } from './values';
import { CURRENCY_CODES, NON_NUMERIC_MEASURE_TYPES } from './currency';
import { checkMask, checkShapeList, DRILL_FILTER_SHAPE, LINK_SHAPE } from './shapes';
import { formatProblem } from './formats';
import { STANDARD_GRANULARITIES } from '../query/types';
import {
  DIMENSION_KEYS,
  DIMENSION_ORDERS,
  DIMENSION_TYPES,
  FIELD_TYPES,
  FILTER_MODES,
  ORDER_DIRECTIONS,
  TIME_SHIFT_TYPES,
  GRANULARITY_INTERVAL,
  GRANULARITY_KEYS,
  GRANULARITY_OFFSET,
  HIERARCHY_KEYS,
  MEASURE_FILTER_KEYS,
  MEASURE_KEYS,
  MEASURE_TYPES,
  MULTI_STAGE_ONLY_TYPES,
  ROLLING_WINDOW_KEYS,
  ROLLING_WINDOW_TYPES,
  SEGMENT_KEYS,
  TIME_INTERVAL,
} from './keys';

/**
 * The one list every member without granularities, filters or drill members points at: at 10,000
 * cubes a fresh empty array per member costs about 13 MB (issue 28). Frozen, so that code pushing
 * onto a member's list fails loudly instead of changing every member.
 */
const NONE: never[] = Object.freeze([]) as unknown as never[];

const orNone = <T>(list: T[]): T[] => (list.length > 0 ? list : NONE);

function checkFormat(f: Fields, ctx: Ctx, kind: 'measure' | 'dimension', type: string | undefined, what: string, memberPath: string): void {
  const entry = f.get('format');
  if (!entry || ctx.isOpaque(entry.value)) return;
  const problem = formatProblem(kind, type, plain(entry.value));
  if (problem) ctx.error(C.INVALID_VALUE, `'format' of ${what} must be ${problem}`, entry.value, memberPath);
}

/** How messages name a member: `dimension 'orders.status' (model/cubes/orders.yml)`. */
const OPENING = { dimension: "dimension '", measure: "measure '", segment: "segment '" } as const;

/** What every member reader starts with: the member's path, how messages name it, its checked fields and the part all members share. */
interface MemberOpening extends MemberBase {
  memberPath: string;
  what: string;
  f: Fields;
}

/**
 * The one opening every member reader fills (readers copy from it into the member before they
 * open another): two objects a member were 3 % of what a 10,000-cube compile allocates (issue 28).
 */
const opening: MemberOpening = {
  memberPath: '',
  what: '',
  f: new Fields([], null),
  name: '',
  loc: { file: '', line: 0, column: 0 },
  title: undefined,
  description: undefined,
  public: true,
  meta: undefined,
  format: undefined,
  dynamic: false,
  props: {},
  sqlLine: 0,
  sqlColumn: 0,
};

function openMember(map: RawMap, name: string, ctx: Ctx, mc: MemberContext, kind: 'dimension' | 'measure' | 'segment', keys: Set<string>): MemberOpening {
  const memberPath = `${mc.entity}.${name}`;
  // Three pieces, not the five of a template of them all: one string a piece joined, for every member (issue 28).
  const what = `${OPENING[kind]}${memberPath}${ctx.memberClosing}`;
  const f = ctx.fields(map, keys, what, memberPath);
  opening.memberPath = memberPath;
  opening.what = what;
  opening.f = f;
  return readMemberBase(opening, map, name, f, ctx, what, memberPath);
}

export function readDimension(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): Dimension {
  const base = openMember(map, name, ctx, mc, 'dimension', DIMENSION_KEYS);
  const { memberPath, what, f } = base;
  const typeEntry = f.get('type');
  let type = ctx.string(typeEntry, what, memberPath) as DimensionType | undefined;
  if (typeEntry && type !== undefined && !DIMENSION_TYPES.has(type)) {
    ctx.error(C.UNKNOWN_MEMBER_TYPE, `Unknown type '${type}' for ${what}; expected one of ${[...DIMENSION_TYPES].join(', ')}`, typeEntry.value, memberPath);
    type = undefined;
  } else if (!typeEntry) {
    ctx.error(C.MISSING_PROPERTY, `Missing 'type' for ${what}`, map, memberPath);
  }
  const sql = sqlOf(f.get('sql'), ctx, what, memberPath);
  checkFormat(f, ctx, 'dimension', type, what, memberPath);
  // One literal with every field (no spread, no properties added later) keeps a single fast object shape.
  const dim: Dimension = {
    kind: 'dimension',
    name: base.name,
    sqlLine: base.sqlLine,
    sqlColumn: base.sqlColumn,
    loc: base.loc,
    title: base.title,
    description: base.description,
    public: base.public,
    meta: base.meta,
    format: base.format,
    dynamic: base.dynamic,
    props: base.props,
    type: type ?? 'string',
    sql,
    primaryKey: f.has('primary_key') ? (ctx.boolean(f.get('primary_key'), what, memberPath) ?? false) : false,
    subQuery: f.has('sub_query') ? (ctx.boolean(f.get('sub_query'), what, memberPath) ?? false) : false,
    multiStage: f.has('multi_stage') ? (ctx.boolean(f.get('multi_stage'), what, memberPath) ?? false) : false,
    granularities: NONE,
    case: f.has('case') ? plain(f.get('case')!.value) : undefined,
    latitude: undefined,
    longitude: undefined,
    values: undefined,
  };
  ctx.boolean(f.get('propagate_filters_to_sub_query'), what, memberPath);
  ctx.oneOf(f.get('order'), DIMENSION_ORDERS, what, memberPath);
  ctx.oneOf(f.get('field_type'), FIELD_TYPES, what, memberPath);
  checkListValues(f.get('time_shift'), 'type', TIME_SHIFT_TYPES, ctx, what, memberPath);
  checkShapeList(f.get('links'), LINK_SHAPE, ctx, what, memberPath);
  checkMapValue(f.get('filter'), 'mode', FILTER_MODES, ctx, what, memberPath);
  checkMask(f.get('mask'), ctx, what, memberPath);
  checkCurrency(f.get('currency'), type === undefined || type === 'number' ? null : `dimensions of type number (this one is ${type})`, ctx, what, memberPath);
  const multiStageEntry = f.get('multi_stage');
  if (multiStageEntry && dim.multiStage === false && !ctx.isOpaque(multiStageEntry.value)) {
    ctx.error(C.VALUE_NOT_ALLOWED, `'multi_stage' of ${what} is false; on a dimension it takes only true (leave it out instead)`, multiStageEntry.value, memberPath);
  }
  for (const coord of ['latitude', 'longitude'] as const) {
    const e = f.get(coord);
    if (!e || ctx.isOpaque(e.value)) continue;
    const sqlEntry = e.value.kind === 'map' ? e.value.entries.find((x) => x.key === 'sql') : undefined;
    if (!sqlEntry) ctx.error(C.INVALID_VALUE, `'${coord}' of ${what} must be a map with sql`, e.value, memberPath);
    else dim[coord] = sqlOf(sqlEntry, ctx, what, memberPath);
  }
  if (type === 'switch') {
    dim.values = ctx.stringList(f.get('values'), what, memberPath);
    if (!f.has('values') || (dim.values && dim.values.length === 0)) ctx.error(C.MISSING_PROPERTY, `Switch ${what} needs a non-empty 'values' list`, map, memberPath);
  } else if (f.has('values')) {
    ctx.error(C.INVALID_VALUE, `'values' is only allowed on switch dimensions (${what})`, f.get('values')!, memberPath);
  }
  if (type === 'geo' && (!f.has('latitude') || !f.has('longitude'))) {
    ctx.error(C.MISSING_PROPERTY, `Geo ${what} needs 'latitude' and 'longitude'`, map, memberPath);
  }
  if (sql === undefined && !f.has('case') && type !== 'geo' && type !== 'switch' && typeEntry) {
    ctx.error(C.SQL_REQUIRED, `Missing 'sql' for ${what}`, map, memberPath);
  }
  const granularities = f.get('granularities');
  if (granularities) {
    if (type !== undefined && type !== 'time') {
      ctx.error(C.INVALID_GRANULARITY, `'granularities' is only allowed on time dimensions (${what})`, granularities, memberPath);
    } else {
      const maps = ctx.sectionItems(granularities, what, 'granularities', []);
      dim.granularities = orNone(readMembers(maps, ctx, { section: 'granularities', entity: memberPath, what }, readGranularity));
    }
  }
  return dim;
}

const STANDARD_GRANULARITY_NAMES: ReadonlySet<string> = new Set(STANDARD_GRANULARITIES);

function readGranularity(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): Granularity {
  const what = `granularity '${name}' of ${mc.what}`;
  const f = ctx.fields(map, GRANULARITY_KEYS, what, mc.entity);
  const g: Granularity = {
    name,
    loc: ctx.loc(map),
    title: ctx.text(f.get('title'), what, mc.entity),
    interval: ctx.string(f.get('interval'), what, mc.entity),
    offset: ctx.string(f.get('offset'), what, mc.entity),
    origin: ctx.string(f.get('origin'), what, mc.entity),
    sql: sqlOf(f.get('sql'), ctx, what, mc.entity),
  };
  if (g.sql === undefined && g.interval === undefined && !f.has('interval')) {
    ctx.error(C.INVALID_GRANULARITY, `${what} needs an 'interval' (or 'sql')`, map, mc.entity);
  }
  if (g.interval !== undefined && !GRANULARITY_INTERVAL.test(g.interval)) {
    ctx.error(C.INVALID_GRANULARITY, `Invalid interval '${g.interval}' in ${what}; expected e.g. '2 weeks' or '1 year 6 months'`, f.get('interval')!.value, mc.entity);
  } else if (g.interval !== undefined && g.origin === undefined && !alignedInterval(g.interval)) {
    ctx.error(C.INVALID_GRANULARITY, `Interval '${g.interval}' in ${what} needs an 'origin': only intervals that divide the next larger unit can be used without one`, f.get('interval')!.value, mc.entity);
  }
  if (g.offset !== undefined && !GRANULARITY_OFFSET.test(g.offset)) {
    ctx.error(C.INVALID_GRANULARITY, `Invalid offset '${g.offset}' in ${what}`, f.get('offset')!.value, mc.entity);
  }
  if (f.has('origin') && f.has('offset')) {
    ctx.error(C.INVALID_GRANULARITY, `${what} sets origin and offset; use only one`, f.get('offset')!.value, mc.entity);
  }
  // The platform reads a granularity written with sql as a predefined one redefined.
  if (f.has('sql') && !STANDARD_GRANULARITY_NAMES.has(name)) {
    ctx.error(C.INVALID_GRANULARITY, `${what} is written with 'sql', so it must be named after a predefined granularity (${[...STANDARD_GRANULARITIES].sort().join(', ')}); define '${name}' with 'interval' instead`, map, mc.entity);
  }
  if (g.origin !== undefined && Number.isNaN(Date.parse(g.origin))) {
    ctx.error(C.INVALID_GRANULARITY, `Invalid origin '${g.origin}' in ${what}: expected YYYY[-MM[-DD]] or an ISO date-time`, f.get('origin')!.value, mc.entity);
  }
  return g;
}

/** Without an origin an interval must align with calendar boundaries (e.g. 3 months, not 5 months). */
function alignedInterval(interval: string): boolean {
  const parts = interval.trim().split(/\s+/);
  if (parts.length !== 2) return false;
  const n = Number(parts[0]);
  const unit = parts[1]!.replace(/s$/, '');
  const divides: Record<string, (v: number) => boolean> = {
    year: () => true,
    quarter: (v) => 4 % v === 0,
    month: (v) => 12 % v === 0,
    week: (v) => v === 1,
    day: (v) => v === 1,
    hour: (v) => 24 % v === 0,
    minute: (v) => 60 % v === 0,
    second: (v) => 60 % v === 0,
  };
  return n > 0 && (divides[unit]?.(n) ?? false);
}

export function readMeasure(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): Measure {
  const base = openMember(map, name, ctx, mc, 'measure', MEASURE_KEYS);
  const { memberPath, what, f } = base;
  const multiStage = ctx.boolean(f.get('multi_stage'), what, memberPath) ?? false;
  const typeEntry = f.get('type');
  const written = ctx.string(typeEntry, what, memberPath);
  let type = written === undefined ? undefined : (normalizeEnum(written) as MeasureType);
  if (typeEntry && type !== undefined) {
    if ((type as string) === 'running_total') {
      ctx.error(C.UNKNOWN_MEMBER_TYPE, `Measure type 'running_total' of ${what} is not supported; use a sum measure with rolling_window { trailing: unbounded }`, typeEntry.value, memberPath);
      type = undefined;
    } else if (MULTI_STAGE_ONLY_TYPES.has(type) && !multiStage) {
      ctx.error(C.UNKNOWN_MEMBER_TYPE, `Measure type '${type}' of ${what} is only allowed with multi_stage: true`, typeEntry.value, memberPath);
      type = undefined;
    } else if (!MEASURE_TYPES.has(type) && !MULTI_STAGE_ONLY_TYPES.has(type)) {
      ctx.error(C.UNKNOWN_MEMBER_TYPE, `Unknown type '${written}' for ${what}; expected one of ${[...MEASURE_TYPES].join(', ')}`, typeEntry.value, memberPath);
      type = undefined;
    }
  } else if (!typeEntry) {
    ctx.error(C.MISSING_PROPERTY, `Missing 'type' for ${what}`, map, memberPath);
  }
  const sql = sqlOf(f.get('sql'), ctx, what, memberPath);
  checkFormat(f, ctx, 'measure', type, what, memberPath);
  if (sql === undefined && type !== undefined && type !== 'count' && !(multiStage && type === 'rank') && !f.has('case')) {
    ctx.error(C.SQL_REQUIRED, `Missing 'sql' for ${what}: only count measures may omit it`, map, memberPath);
  }
  const measure: Measure = {
    kind: 'measure',
    name: base.name,
    sqlLine: base.sqlLine,
    sqlColumn: base.sqlColumn,
    loc: base.loc,
    title: base.title,
    description: base.description,
    public: base.public,
    meta: base.meta,
    format: base.format,
    dynamic: base.dynamic,
    props: base.props,
    type: type ?? 'number',
    sql,
    filters: NONE,
    rollingWindow: undefined,
    drillMembers: f.has('drill_members') ? orNone(ctx.stringList(f.get('drill_members'), what, memberPath) ?? NONE) : NONE,
    multiStage,
  };
  const filters = f.get('filters');
  if (filters && !ctx.isOpaque(filters.value)) {
    if (filters.value.kind !== 'seq') ctx.error(C.INVALID_VALUE, `'filters' of ${what} must be a list of { sql }`, filters.value, memberPath);
    else {
      const list: MeasureFilter[] = [];
      for (const item of filters.value.items) {
        if (ctx.isOpaque(item)) continue;
        if (item.kind !== 'map') {
          ctx.error(C.INVALID_VALUE, `Each filter of ${what} must be a map with sql`, item, memberPath);
          continue;
        }
        const ff = ctx.fields(item, MEASURE_FILTER_KEYS, `a filter of ${what}`, memberPath);
        const fsql = sqlOf(ff.get('sql'), ctx, what, memberPath);
        if (fsql === undefined) ctx.error(C.SQL_REQUIRED, `A filter of ${what} has no 'sql'`, item, memberPath);
        else list.push({ sql: fsql, loc: ctx.loc(ff.get('sql')!.value) } satisfies MeasureFilter);
      }
      measure.filters = orNone(list);
    }
  }
  const rw = f.get('rolling_window');
  if (rw) measure.rollingWindow = readRollingWindow(rw, ctx, what, memberPath);
  ctx.boolean(f.get('cumulative'), what, memberPath);
  checkListValues(f.get('time_shift'), 'type', TIME_SHIFT_TYPES, ctx, what, memberPath);
  checkListValues(f.get('order_by'), 'dir', ORDER_DIRECTIONS, ctx, what, memberPath);
  checkMapValue(f.get('filter'), 'mode', FILTER_MODES, ctx, what, memberPath);
  checkShapeList(f.get('drill_filters'), DRILL_FILTER_SHAPE, ctx, what, memberPath);
  checkMask(f.get('mask'), ctx, what, memberPath);
  checkCurrency(f.get('currency'), type !== undefined && NON_NUMERIC_MEASURE_TYPES.has(type) ? `numeric measures (this one is ${type})` : null, ctx, what, memberPath);
  if (f.has('case') && !multiStage) ctx.error(C.KEY_NOT_ALLOWED, `'case' is only allowed on measures with multi_stage: true (${what})`, f.get('case')!, memberPath);
  ctx.boolean(f.get('visible'), what, memberPath);
  return measure;
}

/** `currency`: an ISO 4217 code, on the members that take one (`onlyOn` says which when this one does not). */
function checkCurrency(entry: RawEntry | undefined, onlyOn: string | null, ctx: Ctx, what: string, memberPath: string): void {
  if (!entry || ctx.isOpaque(entry.value)) return;
  if (onlyOn) {
    ctx.error(C.KEY_NOT_ALLOWED, `'currency' of ${what} is only allowed on ${onlyOn}`, entry, memberPath);
    return;
  }
  const code = ctx.string(entry, what, memberPath);
  if (code !== undefined && !CURRENCY_CODES.has(code.toUpperCase())) {
    ctx.error(C.VALUE_NOT_ALLOWED, `'currency' of ${what} is '${code}'; expected a 3-letter ISO 4217 code such as USD or EUR`, entry.value, memberPath);
  }
}

function readRollingWindow(entry: RawEntry, ctx: Ctx, what: string, memberPath: string): RollingWindow | undefined {
  if (ctx.isOpaque(entry.value)) return undefined;
  if (entry.value.kind !== 'map') {
    ctx.error(C.INVALID_ROLLING_WINDOW, `'rolling_window' of ${what} must be a map`, entry.value, memberPath);
    return undefined;
  }
  const f = ctx.fields(entry.value, ROLLING_WINDOW_KEYS, `rolling_window of ${what}`, memberPath);
  const typeWritten = ctx.string(f.get('type'), what, memberPath);
  // Spelled as written: the platform's validator lists these in snake_case only, in JS files too.
  const type = (typeWritten ?? 'fixed') as RollingWindow['type'];
  if (!ROLLING_WINDOW_TYPES.has(type)) {
    ctx.error(C.INVALID_ROLLING_WINDOW, `Unknown rolling_window type '${typeWritten}' in ${what}; expected ${[...ROLLING_WINDOW_TYPES].join(', ')}`, f.get('type')!.value, memberPath);
    return undefined;
  }
  const window: RollingWindow = { type };
  for (const key of ['trailing', 'leading'] as const) {
    const e = f.get(key);
    const v = ctx.string(e, what, memberPath);
    if (v === undefined) continue;
    if (type !== 'fixed') {
      ctx.error(C.INVALID_ROLLING_WINDOW, `'${key}' is only allowed on fixed rolling windows (${what})`, e!.value, memberPath);
    } else if (v !== 'unbounded' && !TIME_INTERVAL.test(v)) {
      ctx.error(C.INVALID_ROLLING_WINDOW, `Invalid rolling_window ${key} '${v}' in ${what}; expected e.g. '7 days' or 'unbounded'`, e!.value, memberPath);
    } else window[key] = v;
  }
  const offset = ctx.string(f.get('offset'), what, memberPath);
  if (offset !== undefined) {
    if (offset !== 'start' && offset !== 'end') ctx.error(C.INVALID_ROLLING_WINDOW, `rolling_window offset of ${what} must be start or end`, f.get('offset')!.value, memberPath);
    else window.offset = offset;
  }
  const granularity = ctx.string(f.get('granularity'), what, memberPath);
  if (type === 'to_date') {
    if (granularity === undefined && !f.has('granularity')) ctx.error(C.INVALID_ROLLING_WINDOW, `A to_date rolling_window needs a granularity (${what})`, entry.value, memberPath);
    window.granularity = granularity;
  } else if (f.has('granularity')) {
    ctx.error(C.INVALID_ROLLING_WINDOW, `'granularity' is only allowed on to_date rolling windows (${what})`, f.get('granularity')!.value, memberPath);
  }
  if (type === 'fixed' && !f.has('trailing') && !f.has('leading')) {
    // The platform accepts it (the window is then unbounded on both sides); it is rarely meant.
    ctx.warning(C.INVALID_ROLLING_WINDOW, `A fixed rolling_window without 'trailing' or 'leading' covers all time (${what})`, entry.value, memberPath);
  }
  return window;
}

export function readSegment(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): Segment {
  const base = openMember(map, name, ctx, mc, 'segment', SEGMENT_KEYS);
  const { memberPath, what, f } = base;
  const sql = sqlOf(f.get('sql'), ctx, what, memberPath);
  if (sql === undefined) ctx.error(C.SQL_REQUIRED, `Missing 'sql' for ${what}`, map, memberPath);
  const segment: Segment = {
    kind: 'segment',
    name: base.name,
    sqlLine: base.sqlLine,
    sqlColumn: base.sqlColumn,
    loc: base.loc,
    title: base.title,
    description: base.description,
    public: base.public,
    meta: base.meta,
    format: base.format,
    dynamic: base.dynamic,
    props: base.props,
    sql,
  };
  return segment;
}

export function readHierarchy(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): Hierarchy {
  const memberPath = `${mc.entity}.${name}`;
  const what = `hierarchy '${memberPath}' (${ctx.file})`;
  const f = ctx.fields(map, HIERARCHY_KEYS, what, memberPath);
  const levelsEntry = f.get('levels');
  const levels = ctx.stringList(levelsEntry, what, memberPath);
  if (!levelsEntry) ctx.error(C.MISSING_PROPERTY, `Missing 'levels' for ${what}`, map, memberPath);
  const levelLocs =
    levelsEntry && levelsEntry.value.kind === 'seq'
      ? levelsEntry.value.items.filter((i) => i.kind === 'scalar').map((i) => ctx.loc(i))
      : [];
  return {
    kind: 'hierarchy',
    name,
    loc: ctx.loc(map),
    levelLocs,
    title: ctx.text(f.get('title'), what, memberPath),
    public: ctx.boolean(f.get('public'), what, memberPath) ?? true,
    levels: (levels ?? []).map((l) => l.replace(/^\{|\}$/g, '').trim()),
    dynamic: ctx.mayBeOpaque && hasOpaque(f),
  };
}
