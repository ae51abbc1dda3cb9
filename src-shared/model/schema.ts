// Stage 2: normalize one raw definition into typed records, with every check that needs only that definition:
// unknown/missing properties, value types, identifiers, member types, relationships, rolling windows,
// granularities, members not a list, duplicate members and joins within the definition.

import { DiagnosticCodes as C } from './codes';
import type {
  AccessPolicy,
  Diagnostic,
  Dimension,
  DimensionType,
  Granularity,
  Hierarchy,
  Join,
  Measure,
  MeasureFilter,
  MeasureType,
  ModelFormat,
  PlainValue,
  PreAggregation,
  RawEntity,
  RawEntry,
  RawMap,
  RawNode,
  RawPos,
  Relationship,
  RollingWindow,
  Segment,
  SourceLocation,
  ViewCubeInclude,
} from './types';

export const IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

export interface EntityCommon {
  name: string;
  file: string;
  loc: SourceLocation;
  index: number;
  format: ModelFormat;
  templated: boolean;
  dynamic: boolean;
  /** Keys written in the definition (snake_case), to apply `extends` overrides. */
  present: Set<string>;
  props: Record<string, PlainValue>;
  title?: string;
  description?: string;
  public?: boolean;
  meta?: PlainValue;
  extends?: { name: string; loc: SourceLocation };
  accessPolicy?: AccessPolicy[];
  dimensions: Dimension[];
  measures: Measure[];
  segments: Segment[];
  hierarchies: Hierarchy[];
  opaqueSections: string[];
  /** The whole definition is dynamic: nothing is known but the name. */
  opaque: boolean;
}

export interface CubeDef extends EntityCommon {
  kind: 'cube';
  sql?: string;
  sqlLoc?: SourceLocation;
  sqlTable?: string;
  sqlAlias?: string;
  dataSource?: string;
  refreshKey?: PlainValue;
  joins: Join[];
  preAggregations: PreAggregation[];
}

export interface ViewCubeDef {
  joinPath: string[];
  joinPathLoc: SourceLocation;
  alias?: string;
  prefix: boolean;
  split: boolean;
  includes: '*' | ViewCubeInclude[];
  excludes: { name: string; loc: SourceLocation }[];
  loc: SourceLocation;
  dynamic: boolean;
}

export interface FolderDef {
  name: string;
  loc: SourceLocation;
  includes: '*' | (FolderDef | { name: string; loc: SourceLocation })[];
}

export interface ViewDef extends EntityCommon {
  kind: 'view';
  cubes: ViewCubeDef[];
  folders?: FolderDef[];
  viewGroups: string[];
}

export interface ViewGroupDef {
  kind: 'view_group';
  name: string;
  file: string;
  loc: SourceLocation;
  index: number;
  title?: string;
  description?: string;
  views: { name: string; loc: SourceLocation }[];
}

export type EntityDef = CubeDef | ViewDef | ViewGroupDef;

const DIMENSION_TYPES = new Set<DimensionType>(['string', 'number', 'boolean', 'time', 'geo', 'switch']);
const MEASURE_TYPES = new Set<MeasureType>([
  'count',
  'count_distinct',
  'count_distinct_approx',
  'sum',
  'avg',
  'min',
  'max',
  'number',
  'string',
  'time',
  'boolean',
]);
const MULTI_STAGE_ONLY_TYPES = new Set<MeasureType>(['number_agg', 'rank']);
const RELATIONSHIPS: Record<string, Relationship> = {
  one_to_one: 'one_to_one',
  has_one: 'one_to_one',
  one_to_many: 'one_to_many',
  has_many: 'one_to_many',
  many_to_one: 'many_to_one',
  belongs_to: 'many_to_one',
};
const PRE_AGGREGATION_TYPES = new Set(['rollup', 'original_sql', 'rollup_join', 'rollup_lambda', 'auto_rollup']);
const ROLLING_WINDOW_TYPES = new Set(['fixed', 'year_to_date', 'quarter_to_date', 'month_to_date', 'to_date']);
const TIME_INTERVAL = /^-?\d+ (minute|hour|day|week|month|quarter|year)s?$/;
const GRANULARITY_UNIT = '(second|minute|hour|day|week|month|quarter|year)s?';
const GRANULARITY_INTERVAL = new RegExp(`^\\d+\\s+${GRANULARITY_UNIT}(\\s\\d+\\s+${GRANULARITY_UNIT}){0,7}$`);
const GRANULARITY_OFFSET = new RegExp(`^-?\\d+\\s+${GRANULARITY_UNIT}(\\s-?\\d+\\s+${GRANULARITY_UNIT}){0,7}$`);

const ENTITY_KEYS = ['name', 'title', 'description', 'public', 'shown', 'meta', 'extends', 'access_policy'];
const MEMBER_SECTION_KEYS = ['dimensions', 'measures', 'segments', 'hierarchies'];
const CUBE_KEYS = new Set([
  ...ENTITY_KEYS,
  ...MEMBER_SECTION_KEYS,
  'sql',
  'sql_table',
  'sql_alias',
  'data_source',
  'refresh_key',
  'rewrite_queries',
  'calendar',
  'joins',
  'pre_aggregations',
]);
const VIEW_KEYS = new Set([...ENTITY_KEYS, ...MEMBER_SECTION_KEYS, 'cubes', 'folders', 'view_group', 'view_groups']);
const VIEW_GROUP_KEYS = new Set(['name', 'title', 'description', 'views']);
const MEMBER_COMMON_KEYS = ['name', 'title', 'description', 'public', 'shown', 'meta', 'format', 'aliases'];
const DIMENSION_KEYS = new Set([
  ...MEMBER_COMMON_KEYS,
  'sql',
  'type',
  'primary_key',
  'sub_query',
  'propagate_filters_to_sub_query',
  'case',
  'latitude',
  'longitude',
  'granularities',
  'multi_stage',
  'add_group_by',
  'values',
  'order',
  'time_shift',
  'suggest_filter_values',
  'enable_suggestions',
  'field_type',
  'values_as_segments',
]);
const MEASURE_KEYS = new Set([
  ...MEMBER_COMMON_KEYS,
  'sql',
  'type',
  'filters',
  'rolling_window',
  'drill_members',
  'drill_filters',
  'cumulative',
  'visible',
  'multi_stage',
  'group_by',
  'reduce_by',
  'add_group_by',
  'time_shift',
  'order_by',
  'case',
]);
const SEGMENT_KEYS = new Set([...MEMBER_COMMON_KEYS, 'sql']);
const JOIN_KEYS = new Set(['name', 'sql', 'relationship']);
const HIERARCHY_KEYS = new Set(['name', 'title', 'public', 'levels']);
const GRANULARITY_KEYS = new Set(['name', 'title', 'interval', 'offset', 'origin', 'sql']);
const ROLLING_WINDOW_KEYS = new Set(['type', 'trailing', 'leading', 'offset', 'granularity']);
const PRE_AGGREGATION_KEYS = new Set([
  'name',
  'type',
  'measures',
  'dimensions',
  'segments',
  'time_dimension',
  'time_dimensions',
  'granularity',
  'partition_granularity',
  'refresh_key',
  'scheduled_refresh',
  'build_range_start',
  'build_range_end',
  'refresh_range_start',
  'refresh_range_end',
  'indexes',
  'use_original_sql_pre_aggregations',
  'union_with_source_data',
  'rollups',
  'external',
  'allow_non_strict_date_range_match',
  'unique_key_columns',
  'sql_alias',
  'read_only',
  'stream_offset',
  'output_column_types',
  'max_pre_aggregations',
  'time_dimension_reference',
  'measure_references',
  'dimension_references',
  'segment_references',
  'rollup_references',
]);
const ACCESS_POLICY_KEYS = new Set(['role', 'group', 'groups', 'member_level', 'row_level', 'conditions']);
const VIEW_CUBE_KEYS = new Set(['join_path', 'prefix', 'split', 'alias', 'includes', 'excludes']);
const INCLUDE_KEYS = new Set(['name', 'alias', 'title', 'description', 'format', 'meta']);
const FOLDER_KEYS = new Set(['name', 'includes']);

function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Accept camelCase enum values (`countDistinct`, `belongsTo`) like the platform does. */
function normalizeEnum(value: string): string {
  return /[A-Z]/.test(value) ? camelToSnake(value) : value;
}

class Ctx {
  readonly diagnostics: Diagnostic[] = [];
  dynamic = false;
  /** Only JS and templated YAML produce opaque nodes; plain YAML skips the walks looking for them. */
  readonly mayBeOpaque: boolean;

  constructor(
    readonly file: string,
    readonly format: ModelFormat,
    readonly templated: boolean,
  ) {
    this.mayBeOpaque = format !== 'yaml' || templated;
  }

  loc(pos: RawPos): SourceLocation {
    return { file: this.file, line: pos.line, column: pos.column };
  }

  error(code: string, message: string, pos: RawPos, member?: string): void {
    this.diagnostics.push({ severity: 'error', code, message, file: this.file, line: pos.line, column: pos.column, member });
  }

  /** Entries of a map keyed by snake_case key; reports unknown and duplicate keys. */
  fields(map: RawMap, allowed: Set<string>, what: string, member?: string): Map<string, RawEntry> {
    const out = new Map<string, RawEntry>();
    for (const entry of map.entries) {
      if (entry.key === '...') {
        this.dynamic = true;
        continue;
      }
      const key = this.format === 'yaml' ? entry.key : camelToSnake(entry.key);
      if (!allowed.has(key)) {
        const snake = camelToSnake(entry.key);
        const hint = this.format === 'yaml' && snake !== entry.key && allowed.has(snake) ? ` (keys are snake_case: did you mean '${snake}'?)` : '';
        this.error(C.UNKNOWN_PROPERTY, `Unknown property '${entry.key}' in ${what}${hint}`, entry, member);
        continue;
      }
      if (out.has(key)) {
        this.error(C.DUPLICATE_KEY, `Property '${key}' is set twice in ${what}`, entry, member);
        continue;
      }
      out.set(key, entry);
      if (this.mayBeOpaque && containsOpaque(entry.value)) this.dynamic = true;
    }
    return out;
  }

  isOpaque(node: RawNode): boolean {
    if (node.kind === 'opaque') {
      this.dynamic = true;
      return true;
    }
    return false;
  }

  string(entry: RawEntry | undefined, what: string, member?: string): string | undefined {
    if (!entry || this.isOpaque(entry.value)) return undefined;
    const v = entry.value;
    if (v.kind === 'scalar' && (typeof v.value === 'string' || typeof v.value === 'number')) return String(v.value);
    if (v.kind === 'scalar' && v.value === null) return undefined;
    this.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be a string`, v, member);
    return undefined;
  }

  boolean(entry: RawEntry | undefined, what: string, member?: string): boolean | undefined {
    if (!entry || this.isOpaque(entry.value)) return undefined;
    const v = entry.value;
    if (v.kind === 'scalar' && typeof v.value === 'boolean') return v.value;
    this.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be true or false`, v, member);
    return undefined;
  }

  identifier(entry: RawEntry | undefined, what: string, member?: string): string | undefined {
    const value = this.string(entry, what, member);
    if (value !== undefined && !IDENTIFIER.test(value)) {
      this.error(C.INVALID_IDENTIFIER, `'${value}' in ${what} is not a valid name: use letters, digits and _ and do not start with a digit`, entry!.value, member);
    }
    return value;
  }

  stringList(entry: RawEntry | undefined, what: string, member?: string): string[] | undefined {
    if (!entry || this.isOpaque(entry.value)) return undefined;
    const v = entry.value;
    if (v.kind === 'scalar' && typeof v.value === 'string') return [v.value];
    if (v.kind !== 'seq') {
      this.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be a list of names`, v, member);
      return undefined;
    }
    const out: string[] = [];
    for (const item of v.items) {
      if (this.isOpaque(item)) continue;
      if (item.kind === 'scalar' && (typeof item.value === 'string' || typeof item.value === 'number')) out.push(String(item.value));
      else this.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be a list of names`, item, member);
    }
    return out;
  }

  /** The map items of a list-valued key (opaque items skipped); reports a non-list or a non-map item. */
  mapList(entry: RawEntry, listCode: string, listMessage: string, itemMessage: string, member: string): RawMap[] {
    const v = entry.value;
    if (this.isOpaque(v)) return [];
    if (v.kind !== 'seq') {
      this.error(listCode, listMessage, v, member);
      return [];
    }
    const maps: RawMap[] = [];
    for (const item of v.items) {
      if (this.isOpaque(item)) continue;
      if (item.kind === 'map') maps.push(item);
      else this.error(C.INVALID_VALUE, itemMessage, item, member);
    }
    return maps;
  }

  /** Items of a member section: a YAML list of maps; in JS also an object keyed by member name. */
  sectionItems(entry: RawEntry | undefined, what: string, section: string, opaqueSections: string[]): RawMap[] {
    if (!entry) return [];
    const v = entry.value;
    if (this.isOpaque(v)) {
      opaqueSections.push(section);
      return [];
    }
    if (v.kind === 'scalar' && v.value === null) return [];
    if (v.kind === 'seq') {
      const maps: RawMap[] = [];
      for (const item of v.items) {
        if (this.isOpaque(item)) {
          if (!opaqueSections.includes(section)) opaqueSections.push(section);
          continue;
        }
        if (item.kind === 'map') maps.push(item);
        else this.error(C.INVALID_VALUE, `Each item of '${section}' in ${what} must be a map`, item);
      }
      return maps;
    }
    if (v.kind === 'map' && this.format !== 'yaml') {
      const maps: RawMap[] = [];
      for (const e of v.entries) {
        if (e.key === '...' || e.value.kind === 'opaque') {
          this.dynamic = true;
          if (!opaqueSections.includes(section)) opaqueSections.push(section);
          continue;
        }
        if (e.value.kind !== 'map') {
          this.error(C.INVALID_VALUE, `'${e.key}' in '${section}' of ${what} must be an object`, e.value);
          continue;
        }
        maps.push({ kind: 'map', line: e.line, column: e.column, entries: [{ key: 'name', line: e.line, column: e.column, value: { kind: 'scalar', value: e.key, line: e.line, column: e.column } }, ...e.value.entries] });
      }
      return maps;
    }
    this.error(C.MEMBERS_NOT_LIST, `'${section}' of ${what} must be a list`, v);
    return [];
  }
}

/** Plain value of a raw node; opaque parts become undefined. */
export function plain(node: RawNode): PlainValue {
  switch (node.kind) {
    case 'scalar':
      return node.value;
    case 'seq':
      return node.items.map(plain);
    case 'map': {
      const out: Record<string, PlainValue> = {};
      for (const e of node.entries) if (e.key !== '...') out[e.key] = plain(e.value);
      return out;
    }
    default:
      return undefined;
  }
}

function propsOf(fields: Map<string, RawEntry>): Record<string, PlainValue> {
  const out: Record<string, PlainValue> = {};
  for (const [key, entry] of fields) out[key] = plain(entry.value);
  return out;
}

export function normalizeEntity(entity: RawEntity, file: string, format: ModelFormat, templated: boolean): { def: EntityDef; diagnostics: Diagnostic[] } {
  const ctx = new Ctx(file, format, templated);
  let def: EntityDef;
  if (entity.kind === 'view_group') def = normalizeViewGroup(entity, ctx);
  else def = normalizeCubeOrView(entity, ctx);
  return { def, diagnostics: ctx.diagnostics };
}

function normalizeViewGroup(entity: RawEntity, ctx: Ctx): ViewGroupDef {
  const what = `view group '${entity.name}' (${ctx.file})`;
  const f = ctx.fields(entity.def, VIEW_GROUP_KEYS, what, entity.name);
  ctx.identifier(f.get('name'), what, entity.name);
  const views: { name: string; loc: SourceLocation }[] = [];
  const viewsEntry = f.get('views');
  if (viewsEntry && viewsEntry.value.kind === 'seq') {
    for (const item of viewsEntry.value.items) {
      if (item.kind === 'scalar' && typeof item.value === 'string') views.push({ name: item.value, loc: ctx.loc(item) });
      else if (!ctx.isOpaque(item)) ctx.error(C.INVALID_VALUE, `'views' of ${what} must be a list of view names`, item, entity.name);
    }
  } else if (viewsEntry && !ctx.isOpaque(viewsEntry.value)) {
    ctx.error(C.INVALID_VALUE, `'views' of ${what} must be a list of view names`, viewsEntry.value, entity.name);
  }
  return {
    kind: 'view_group',
    name: entity.name,
    file: ctx.file,
    loc: ctx.loc(entity.nameLoc),
    index: entity.index,
    title: ctx.string(f.get('title'), what),
    description: ctx.string(f.get('description'), what),
    views,
  };
}

function normalizeCubeOrView(entity: RawEntity, ctx: Ctx): CubeDef | ViewDef {
  const isView = entity.kind === 'view';
  const label = isView ? 'view' : 'cube';
  const what = `${label} '${entity.name}' (${ctx.file})`;
  const f = ctx.fields(entity.def, isView ? VIEW_KEYS : CUBE_KEYS, what, entity.name);
  if (!IDENTIFIER.test(entity.name)) {
    ctx.error(C.INVALID_IDENTIFIER, `${label[0]!.toUpperCase()}${label.slice(1)} name '${entity.name}' in ${ctx.file} is not a valid name: use letters, digits and _ and do not start with a digit`, entity.nameLoc, entity.name);
  }
  const opaqueSections: string[] = [];
  const common: EntityCommon = {
    name: entity.name,
    file: ctx.file,
    loc: ctx.loc(entity.nameLoc),
    index: entity.index,
    format: ctx.format,
    templated: ctx.templated,
    dynamic: entity.opaque,
    present: new Set(f.keys()),
    props: propsOf(f),
    title: ctx.string(f.get('title'), what),
    description: ctx.string(f.get('description'), what),
    public: ctx.boolean(f.get('public'), what) ?? ctx.boolean(f.get('shown'), what),
    meta: f.has('meta') ? plain(f.get('meta')!.value) : undefined,
    dimensions: [],
    measures: [],
    segments: [],
    hierarchies: [],
    opaqueSections,
    opaque: entity.opaque,
  };
  if (entity.opaque) opaqueSections.push(...MEMBER_SECTION_KEYS, 'joins');
  const extendsEntry = f.get('extends');
  if (extendsEntry) {
    const parent = ctx.string(extendsEntry, what, entity.name);
    if (parent !== undefined) common.extends = { name: parent.replace(/^\{|\}$/g, '').trim(), loc: ctx.loc(extendsEntry.value) };
  }
  if (f.has('access_policy')) common.accessPolicy = readAccessPolicies(f.get('access_policy')!, ctx, what, entity.name);

  const memberCtx = (section: string) => ({ section, entity: entity.name, what });
  common.dimensions = readMembers(ctx.sectionItems(f.get('dimensions'), what, 'dimensions', opaqueSections), ctx, memberCtx('dimensions'), readDimension);
  common.measures = readMembers(ctx.sectionItems(f.get('measures'), what, 'measures', opaqueSections), ctx, memberCtx('measures'), readMeasure);
  common.segments = readMembers(ctx.sectionItems(f.get('segments'), what, 'segments', opaqueSections), ctx, memberCtx('segments'), readSegment);
  common.hierarchies = readMembers(ctx.sectionItems(f.get('hierarchies'), what, 'hierarchies', opaqueSections), ctx, memberCtx('hierarchies'), readHierarchy);

  if (isView) {
    const view: ViewDef = { ...common, kind: 'view', cubes: [], viewGroups: [] };
    const cubesEntry = f.get('cubes');
    if (cubesEntry) view.cubes = readViewCubes(cubesEntry, ctx, what, entity.name);
    if (f.has('folders')) view.folders = readFolders(f.get('folders')!.value, ctx, what, entity.name);
    const group = ctx.string(f.get('view_group'), what, entity.name);
    if (group) view.viewGroups.push(group);
    view.viewGroups.push(...(ctx.stringList(f.get('view_groups'), what, entity.name) ?? []));
    view.dynamic = view.dynamic || ctx.dynamic;
    return view;
  }

  const cube: CubeDef = { ...common, kind: 'cube', joins: [], preAggregations: [] };
  const sqlEntry = f.get('sql');
  const sqlTableEntry = f.get('sql_table');
  cube.sql = ctx.string(sqlEntry, what, entity.name);
  if (sqlEntry) cube.sqlLoc = ctx.loc(sqlEntry.value);
  cube.sqlTable = ctx.string(sqlTableEntry, what, entity.name);
  if (sqlEntry && cube.sql === undefined && sqlEntry.value.kind === 'opaque') cube.sql = '';
  if (sqlTableEntry && cube.sqlTable === undefined && sqlTableEntry.value.kind === 'opaque') cube.sqlTable = '';
  cube.sqlAlias = ctx.string(f.get('sql_alias'), what, entity.name);
  cube.dataSource = ctx.string(f.get('data_source'), what, entity.name);
  if (f.has('refresh_key')) cube.refreshKey = readRefreshKey(f.get('refresh_key')!, ctx, what, entity.name);
  ctx.boolean(f.get('rewrite_queries'), what, entity.name);
  ctx.boolean(f.get('calendar'), what, entity.name);
  cube.joins = readJoins(ctx.sectionItems(f.get('joins'), what, 'joins', opaqueSections), ctx, entity.name, what);
  cube.preAggregations = readMembers(ctx.sectionItems(f.get('pre_aggregations'), what, 'pre_aggregations', opaqueSections), ctx, memberCtx('pre_aggregations'), readPreAggregation);
  cube.dynamic = cube.dynamic || ctx.dynamic;
  return cube;
}

interface MemberContext {
  section: string;
  entity: string;
  what: string;
}

type MemberReader<T> = (map: RawMap, name: string, ctx: Ctx, mc: MemberContext) => T;

function readMembers<T>(maps: RawMap[], ctx: Ctx, mc: MemberContext, reader: MemberReader<T>): T[] {
  const out: T[] = [];
  const seen = new Set<string>();
  const singular = mc.section === 'hierarchies' ? 'hierarchy' : mc.section.replace(/s$/, '').replace('_', '-');
  for (const map of maps) {
    const nameEntry = map.entries.find((e) => e.key === 'name');
    if (!nameEntry) {
      ctx.error(C.MISSING_PROPERTY, `A ${singular} of ${mc.what} has no name`, map, mc.entity);
      continue;
    }
    if (ctx.isOpaque(nameEntry.value)) continue;
    const name = nameEntry.value.kind === 'scalar' && nameEntry.value.value !== null ? String(nameEntry.value.value) : undefined;
    if (name === undefined) {
      ctx.error(C.INVALID_VALUE, `The name of a ${singular} of ${mc.what} must be a string`, nameEntry.value, mc.entity);
      continue;
    }
    const memberPath = `${mc.entity}.${name}`;
    if (!IDENTIFIER.test(name)) {
      ctx.error(C.INVALID_IDENTIFIER, `${singular[0]!.toUpperCase()}${singular.slice(1)} name '${name}' of ${mc.what} is not a valid name: use letters, digits and _ and do not start with a digit`, nameEntry.value, memberPath);
    }
    if (seen.has(name)) {
      ctx.error(C.DUPLICATE_MEMBER, `${singular[0]!.toUpperCase()}${singular.slice(1)} '${name}' is defined more than once in ${mc.what}`, nameEntry.value, memberPath);
      continue;
    }
    seen.add(name);
    out.push(reader(map, name, ctx, mc));
  }
  return out;
}

function memberBase(map: RawMap, name: string, f: Map<string, RawEntry>, ctx: Ctx, what: string, memberPath: string) {
  return {
    name,
    loc: ctx.loc(map),
    title: f.has('title') ? ctx.string(f.get('title'), what, memberPath) : undefined,
    description: f.has('description') ? ctx.string(f.get('description'), what, memberPath) : undefined,
    public: f.has('public') || f.has('shown') ? (ctx.boolean(f.get('public'), what, memberPath) ?? ctx.boolean(f.get('shown'), what, memberPath) ?? true) : true,
    meta: f.has('meta') ? plain(f.get('meta')!.value) : undefined,
    format: f.has('format') ? plain(f.get('format')!.value) : undefined,
    dynamic: ctx.mayBeOpaque && hasOpaque(f),
    props: propsOf(f),
    sqlLoc: f.has('sql') ? ctx.loc(f.get('sql')!.value) : undefined,
  };
}

function hasOpaque(f: Map<string, RawEntry>): boolean {
  for (const e of f.values()) if (containsOpaque(e.value)) return true;
  return false;
}

function containsOpaque(node: RawNode): boolean {
  if (node.kind === 'opaque') return true;
  if (node.kind === 'seq') return node.items.some(containsOpaque);
  if (node.kind === 'map') return node.entries.some((e) => e.key === '...' || containsOpaque(e.value));
  return false;
}

function sqlOf(entry: RawEntry | undefined, ctx: Ctx, what: string, member: string): string | undefined {
  if (entry && entry.value.kind === 'opaque') {
    ctx.dynamic = true;
    return '';
  }
  return ctx.string(entry, what, member);
}

function readDimension(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): Dimension {
  const memberPath = `${mc.entity}.${name}`;
  const what = `dimension '${memberPath}' (${ctx.file})`;
  const f = ctx.fields(map, DIMENSION_KEYS, what, memberPath);
  const base = memberBase(map, name, f, ctx, what, memberPath);
  const typeEntry = f.get('type');
  let type = ctx.string(typeEntry, what, memberPath) as DimensionType | undefined;
  if (typeEntry && type !== undefined && !DIMENSION_TYPES.has(type)) {
    ctx.error(C.UNKNOWN_MEMBER_TYPE, `Unknown type '${type}' for ${what}; expected one of ${[...DIMENSION_TYPES].join(', ')}`, typeEntry.value, memberPath);
    type = undefined;
  } else if (!typeEntry) {
    ctx.error(C.MISSING_PROPERTY, `Missing 'type' for ${what}`, map, memberPath);
  }
  const sql = sqlOf(f.get('sql'), ctx, what, memberPath);
  // One literal with every field (no spread, no properties added later) keeps a single fast object shape.
  const dim: Dimension = {
    kind: 'dimension',
    name: base.name,
    sqlLoc: base.sqlLoc,
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
    granularities: [],
    case: f.has('case') ? plain(f.get('case')!.value) : undefined,
    latitude: undefined,
    longitude: undefined,
    values: undefined,
  };
  ctx.boolean(f.get('propagate_filters_to_sub_query'), what, memberPath);
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
      dim.granularities = readMembers(maps, ctx, { section: 'granularities', entity: memberPath, what }, readGranularity);
    }
  }
  return dim;
}

function readGranularity(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): Granularity {
  const what = `granularity '${name}' of ${mc.what}`;
  const f = ctx.fields(map, GRANULARITY_KEYS, what, mc.entity);
  const g: Granularity = {
    name,
    loc: ctx.loc(map),
    title: ctx.string(f.get('title'), what, mc.entity),
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

function readMeasure(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): Measure {
  const memberPath = `${mc.entity}.${name}`;
  const what = `measure '${memberPath}' (${ctx.file})`;
  const f = ctx.fields(map, MEASURE_KEYS, what, memberPath);
  const base = memberBase(map, name, f, ctx, what, memberPath);
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
  if (sql === undefined && type !== undefined && type !== 'count' && !(multiStage && type === 'rank') && !f.has('case')) {
    ctx.error(C.SQL_REQUIRED, `Missing 'sql' for ${what}: only count measures may omit it`, map, memberPath);
  }
  const measure: Measure = {
    kind: 'measure',
    name: base.name,
    sqlLoc: base.sqlLoc,
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
    filters: [],
    rollingWindow: undefined,
    drillMembers: f.has('drill_members') ? (ctx.stringList(f.get('drill_members'), what, memberPath) ?? []) : [],
    multiStage,
  };
  const filters = f.get('filters');
  if (filters && !ctx.isOpaque(filters.value)) {
    if (filters.value.kind !== 'seq') ctx.error(C.INVALID_VALUE, `'filters' of ${what} must be a list of { sql }`, filters.value, memberPath);
    else {
      for (const item of filters.value.items) {
        if (ctx.isOpaque(item)) continue;
        if (item.kind !== 'map') {
          ctx.error(C.INVALID_VALUE, `Each filter of ${what} must be a map with sql`, item, memberPath);
          continue;
        }
        const ff = ctx.fields(item, new Set(['sql']), `a filter of ${what}`, memberPath);
        const fsql = sqlOf(ff.get('sql'), ctx, what, memberPath);
        if (fsql === undefined) ctx.error(C.SQL_REQUIRED, `A filter of ${what} has no 'sql'`, item, memberPath);
        else measure.filters.push({ sql: fsql, loc: ctx.loc(ff.get('sql')!.value) } satisfies MeasureFilter);
      }
    }
  }
  const rw = f.get('rolling_window');
  if (rw) measure.rollingWindow = readRollingWindow(rw, ctx, what, memberPath);
  ctx.boolean(f.get('cumulative'), what, memberPath);
  ctx.boolean(f.get('visible'), what, memberPath);
  return measure;
}

function readRollingWindow(entry: RawEntry, ctx: Ctx, what: string, memberPath: string): RollingWindow | undefined {
  if (ctx.isOpaque(entry.value)) return undefined;
  if (entry.value.kind !== 'map') {
    ctx.error(C.INVALID_ROLLING_WINDOW, `'rolling_window' of ${what} must be a map`, entry.value, memberPath);
    return undefined;
  }
  const f = ctx.fields(entry.value, ROLLING_WINDOW_KEYS, `rolling_window of ${what}`, memberPath);
  const typeWritten = ctx.string(f.get('type'), what, memberPath);
  const type = (typeWritten === undefined ? 'fixed' : normalizeEnum(typeWritten)) as RollingWindow['type'];
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
    ctx.error(C.INVALID_ROLLING_WINDOW, `A fixed rolling_window needs 'trailing' or 'leading' (${what})`, entry.value, memberPath);
  }
  return window;
}

function readSegment(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): Segment {
  const memberPath = `${mc.entity}.${name}`;
  const what = `segment '${memberPath}' (${ctx.file})`;
  const f = ctx.fields(map, SEGMENT_KEYS, what, memberPath);
  const base = memberBase(map, name, f, ctx, what, memberPath);
  const sql = sqlOf(f.get('sql'), ctx, what, memberPath);
  if (sql === undefined) ctx.error(C.SQL_REQUIRED, `Missing 'sql' for ${what}`, map, memberPath);
  const segment: Segment = {
    kind: 'segment',
    name: base.name,
    sqlLoc: base.sqlLoc,
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

function readHierarchy(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): Hierarchy {
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
    title: ctx.string(f.get('title'), what, memberPath),
    public: ctx.boolean(f.get('public'), what, memberPath) ?? true,
    levels: (levels ?? []).map((l) => l.replace(/^\{|\}$/g, '').trim()),
    dynamic: ctx.mayBeOpaque && hasOpaque(f),
  };
}

function readJoins(maps: RawMap[], ctx: Ctx, cubeName: string, what: string): Join[] {
  const joins: Join[] = [];
  const seen = new Set<string>();
  for (const map of maps) {
    const f = ctx.fields(map, JOIN_KEYS, `a join of ${what}`, cubeName);
    const nameEntry = f.get('name');
    const name = ctx.identifier(nameEntry, `joins of ${what}`, cubeName);
    if (!nameEntry) {
      ctx.error(C.MISSING_PROPERTY, `A join of ${what} has no name (the name is the joined cube)`, map, cubeName);
      continue;
    }
    if (name === undefined) continue;
    const jwhat = `join '${cubeName}' → '${name}' (${ctx.file})`;
    if (seen.has(name)) {
      ctx.error(C.DUPLICATE_JOIN, `Cube '${cubeName}' has two joins to cube '${name}' (${ctx.file})`, nameEntry.value, `${cubeName}.${name}`);
      continue;
    }
    seen.add(name);
    const sql = sqlOf(f.get('sql'), ctx, jwhat, cubeName);
    if (sql === undefined) ctx.error(C.SQL_REQUIRED, `Missing 'sql' for ${jwhat}`, map, cubeName);
    const relEntry = f.get('relationship');
    const relWritten = ctx.string(relEntry, jwhat, cubeName);
    let relationship: Relationship | undefined;
    if (relWritten !== undefined) {
      relationship = RELATIONSHIPS[normalizeEnum(relWritten)];
      if (!relationship) {
        ctx.error(C.INVALID_RELATIONSHIP, `Invalid relationship '${relWritten}' for ${jwhat}; expected one_to_one, one_to_many or many_to_one (or has_one, has_many, belongs_to)`, relEntry!.value, cubeName);
      }
    } else if (!relEntry) {
      ctx.error(C.MISSING_PROPERTY, `Missing 'relationship' for ${jwhat}`, map, cubeName);
    }
    joins.push({
      name,
      loc: ctx.loc(map),
      sql: sql ?? '',
      sqlLoc: f.has('sql') ? ctx.loc(f.get('sql')!.value) : undefined,
      relationship: relationship ?? 'many_to_one',
      declaredRelationship: relWritten ?? '',
      equi: null,
      dynamic: ctx.mayBeOpaque && hasOpaque(f),
    });
  }
  return joins;
}

function refList(entry: RawEntry | undefined, ctx: Ctx, what: string, member: string): string[] {
  return (ctx.stringList(entry, what, member) ?? []).map((r) => r.replace(/^\{|\}$/g, '').trim());
}

function readPreAggregation(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): PreAggregation {
  const memberPath = `${mc.entity}.${name}`;
  const what = `pre-aggregation '${memberPath}' (${ctx.file})`;
  const f = ctx.fields(map, PRE_AGGREGATION_KEYS, what, memberPath);
  const typeWritten = ctx.string(f.get('type'), what, memberPath);
  const type = typeWritten === undefined ? 'rollup' : normalizeEnum(typeWritten);
  if (!PRE_AGGREGATION_TYPES.has(type)) {
    ctx.error(C.INVALID_VALUE, `Unknown pre-aggregation type '${typeWritten}' for ${what}; expected ${[...PRE_AGGREGATION_TYPES].join(', ')}`, f.get('type')!.value, memberPath);
  }
  const timeDimension = ctx.string(f.get('time_dimension'), what, memberPath);
  return {
    name,
    loc: ctx.loc(map),
    type,
    measures: refList(f.get('measures'), ctx, what, memberPath),
    dimensions: refList(f.get('dimensions'), ctx, what, memberPath),
    segments: refList(f.get('segments'), ctx, what, memberPath),
    timeDimension: timeDimension?.replace(/^\{|\}$/g, '').trim(),
    granularity: ctx.string(f.get('granularity'), what, memberPath),
    partitionGranularity: ctx.string(f.get('partition_granularity'), what, memberPath),
    rollups: refList(f.get('rollups'), ctx, what, memberPath),
    dynamic: ctx.mayBeOpaque && hasOpaque(f),
    props: propsOf(f),
  };
}

function readRefreshKey(entry: RawEntry, ctx: Ctx, what: string, member: string): PlainValue {
  if (ctx.isOpaque(entry.value)) return undefined;
  if (entry.value.kind !== 'map') {
    ctx.error(C.INVALID_VALUE, `'refresh_key' of ${what} must be a map (every, sql, timezone or immutable)`, entry.value, member);
    return undefined;
  }
  const f = ctx.fields(entry.value, new Set(['every', 'sql', 'timezone', 'immutable', 'incremental', 'update_window']), `refresh_key of ${what}`, member);
  if (!f.has('every') && !f.has('sql') && !f.has('immutable')) {
    ctx.error(C.MISSING_PROPERTY, `'refresh_key' of ${what} needs every, sql or immutable`, entry.value, member);
  }
  return plain(entry.value);
}

function readAccessPolicies(entry: RawEntry, ctx: Ctx, what: string, member: string): AccessPolicy[] {
  const out: AccessPolicy[] = [];
  for (const item of ctx.mapList(entry, C.INVALID_VALUE, `'access_policy' of ${what} must be a list`, `Each access policy of ${what} must be a map`, member)) {
    const pwhat = `an access policy of ${what}`;
    const f = ctx.fields(item, ACCESS_POLICY_KEYS, pwhat, member);
    const policy: AccessPolicy = {
      loc: ctx.loc(item),
      role: ctx.string(f.get('role'), pwhat, member),
      group: ctx.string(f.get('group'), pwhat, member),
      groups: ctx.stringList(f.get('groups'), pwhat, member),
      props: propsOf(f),
    };
    const who = ['role', 'group', 'groups'].filter((k) => f.has(k));
    if (who.length === 0) ctx.error(C.MISSING_PROPERTY, `${pwhat} needs one of role, group or groups`, item, member);
    else if (who.length > 1) ctx.error(C.INVALID_VALUE, `${pwhat} sets ${who.join(' and ')}; use only one`, f.get(who[1]!)!, member);
    const ml = f.get('member_level');
    if (ml && !ctx.isOpaque(ml.value)) {
      if (ml.value.kind !== 'map') ctx.error(C.INVALID_VALUE, `'member_level' of ${pwhat} must be a map`, ml.value, member);
      else {
        const mf = ctx.fields(ml.value, new Set(['includes', 'excludes', 'includes_members', 'excludes_members']), `member_level of ${pwhat}`, member);
        const listOrStar = (e: RawEntry | undefined) =>
          e && e.value.kind === 'scalar' && e.value.value === '*' ? ('*' as const) : ctx.stringList(e, pwhat, member);
        policy.memberLevel = { includes: listOrStar(mf.get('includes')), excludes: listOrStar(mf.get('excludes')) };
      }
    }
    const rl = f.get('row_level');
    if (rl && !ctx.isOpaque(rl.value)) {
      if (rl.value.kind !== 'map') ctx.error(C.INVALID_VALUE, `'row_level' of ${pwhat} must be a map`, rl.value, member);
      else {
        const rf = ctx.fields(rl.value, new Set(['filters', 'allow_all']), `row_level of ${pwhat}`, member);
        const filters = rf.get('filters');
        policy.rowLevel = {
          allowAll: ctx.boolean(rf.get('allow_all'), pwhat, member),
          filters: filters && filters.value.kind === 'seq' ? filters.value.items.map(plain) : undefined,
        };
        if (rf.has('filters') === rf.has('allow_all')) ctx.error(C.INVALID_VALUE, `'row_level' of ${pwhat} needs exactly one of filters or allow_all`, rl.value, member);
      }
    }
    const conditions = f.get('conditions');
    if (conditions && conditions.value.kind === 'seq') {
      policy.conditions = conditions.value.items.map((c) => {
        const ifEntry = c.kind === 'map' ? c.entries.find((e) => e.key === 'if') : undefined;
        return { if: ifEntry && ifEntry.value.kind === 'scalar' ? String(ifEntry.value.value) : undefined };
      });
    }
    out.push(policy);
  }
  return out;
}

function readViewCubes(entry: RawEntry, ctx: Ctx, what: string, viewName: string): ViewCubeDef[] {
  const out: ViewCubeDef[] = [];
  const itemMessage = `Each item of 'cubes' in ${what} must be a map with join_path and includes`;
  for (const item of ctx.mapList(entry, C.MEMBERS_NOT_LIST, `'cubes' of ${what} must be a list`, itemMessage, viewName)) {
    const f = ctx.fields(item, VIEW_CUBE_KEYS, `a cube entry of ${what}`, viewName);
    const jp = f.get('join_path');
    const path = ctx.string(jp, what, viewName);
    if (!jp) {
      ctx.error(C.MISSING_PROPERTY, `A cube entry of ${what} has no 'join_path'`, item, viewName);
      continue;
    }
    if (path === undefined) continue;
    const joinPath = path.replace(/^\{|\}$/g, '').trim().split('.');
    const prefix = ctx.boolean(f.get('prefix'), what, viewName) ?? false;
    const split = ctx.boolean(f.get('split'), what, viewName) ?? false;
    if (prefix && split) ctx.error(C.VIEW_SPLIT_WITH_PREFIX, `Cube entry '${path}' of ${what} uses split together with prefix, which is not supported`, f.get('split')!, viewName);
    const cube: ViewCubeDef = {
      joinPath,
      joinPathLoc: ctx.loc(jp.value),
      alias: ctx.identifier(f.get('alias'), what, viewName),
      prefix,
      split,
      includes: [],
      excludes: [],
      loc: ctx.loc(item),
      dynamic: ctx.mayBeOpaque && hasOpaque(f),
    };
    const inc = f.get('includes');
    if (!inc) ctx.error(C.MISSING_PROPERTY, `Cube entry '${path}' of ${what} has no 'includes'`, item, viewName);
    else if (inc.value.kind === 'scalar' && inc.value.value === '*') cube.includes = '*';
    else if (inc.value.kind === 'seq') {
      const includes: ViewCubeInclude[] = [];
      for (const it of inc.value.items) {
        if (ctx.isOpaque(it)) continue;
        if (it.kind === 'scalar' && typeof it.value === 'string') includes.push({ name: it.value, loc: ctx.loc(it) });
        else if (it.kind === 'map') {
          const iw = `an include of ${what}`;
          const inf = ctx.fields(it, INCLUDE_KEYS, iw, viewName);
          const name = ctx.string(inf.get('name'), iw, viewName);
          if (name === undefined) {
            if (!inf.has('name')) ctx.error(C.MISSING_PROPERTY, `An include of ${what} has no 'name'`, it, viewName);
            continue;
          }
          includes.push({
            name,
            alias: ctx.identifier(inf.get('alias'), iw, viewName),
            title: ctx.string(inf.get('title'), iw, viewName),
            description: ctx.string(inf.get('description'), iw, viewName),
            format: inf.has('format') ? plain(inf.get('format')!.value) : undefined,
            meta: inf.has('meta') ? plain(inf.get('meta')!.value) : undefined,
            loc: ctx.loc(inf.get('name')!.value),
          });
        } else ctx.error(C.INVALID_VALUE, `Each include of ${what} must be a member name or a map with name`, it, viewName);
      }
      cube.includes = includes;
    } else if (!ctx.isOpaque(inc.value)) {
      ctx.error(C.INVALID_VALUE, `'includes' of ${what} must be "*" or a list of members`, inc.value, viewName);
    }
    const exc = f.get('excludes');
    if (exc && exc.value.kind === 'seq') {
      for (const it of exc.value.items) {
        if (it.kind === 'scalar' && typeof it.value === 'string') cube.excludes.push({ name: it.value, loc: ctx.loc(it) });
        else if (!ctx.isOpaque(it)) ctx.error(C.INVALID_VALUE, `'excludes' of ${what} must be a list of member names`, it, viewName);
      }
    } else if (exc && !ctx.isOpaque(exc.value)) {
      ctx.error(C.INVALID_VALUE, `'excludes' of ${what} must be a list of member names`, exc.value, viewName);
    }
    out.push(cube);
  }
  return out;
}

function readFolders(node: RawNode, ctx: Ctx, what: string, viewName: string): FolderDef[] {
  if (ctx.isOpaque(node)) return [];
  if (node.kind !== 'seq') {
    ctx.error(C.INVALID_VALUE, `'folders' of ${what} must be a list`, node, viewName);
    return [];
  }
  const out: FolderDef[] = [];
  for (const item of node.items) {
    if (ctx.isOpaque(item)) continue;
    if (item.kind !== 'map') {
      ctx.error(C.INVALID_VALUE, `Each folder of ${what} must be a map with name and includes`, item, viewName);
      continue;
    }
    const folder = readFolder(item, ctx, what, viewName);
    if (folder) out.push(folder);
  }
  return out;
}

function readFolder(map: RawMap, ctx: Ctx, what: string, viewName: string): FolderDef | null {
  const fw = `a folder of ${what}`;
  const f = ctx.fields(map, FOLDER_KEYS, fw, viewName);
  const name = ctx.string(f.get('name'), fw, viewName);
  if (name === undefined) {
    if (!f.has('name')) ctx.error(C.MISSING_PROPERTY, `A folder of ${what} has no 'name'`, map, viewName);
    return null;
  }
  const folder: FolderDef = { name, loc: ctx.loc(f.get('name')!.value), includes: [] };
  const inc = f.get('includes');
  if (!inc) ctx.error(C.MISSING_PROPERTY, `Folder '${name}' of ${what} has no 'includes'`, map, viewName);
  else if (inc.value.kind === 'scalar' && inc.value.value === '*') folder.includes = '*';
  else if (inc.value.kind === 'seq') {
    const items: (FolderDef | { name: string; loc: SourceLocation })[] = [];
    for (const it of inc.value.items) {
      if (ctx.isOpaque(it)) continue;
      if (it.kind === 'scalar' && typeof it.value === 'string') items.push({ name: it.value, loc: ctx.loc(it) });
      else if (it.kind === 'map') {
        const nested = readFolder(it, ctx, what, viewName);
        if (nested) items.push(nested);
      } else ctx.error(C.INVALID_VALUE, `Folder '${name}' of ${what} must include member names or folders`, it, viewName);
    }
    folder.includes = items;
  } else if (!ctx.isOpaque(inc.value)) {
    ctx.error(C.INVALID_VALUE, `'includes' of folder '${name}' in ${what} must be "*" or a list`, inc.value, viewName);
  }
  return folder;
}
