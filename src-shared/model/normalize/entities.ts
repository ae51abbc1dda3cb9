// Stage 2 for one whole definition: a view group, or a cube or view with its common keys
// (title, description, public, meta, extends, access_policy), its member sections, and then the
// cube-only (sql, sql_table, data_source, refresh_key, joins, pre-aggregations) or view-only
// (cubes, folders, view groups) parts, each read by its module.

import { DiagnosticCodes as C } from '../codes';
import type {
  Diagnostic,
  ModelFormat,
  RawEntity,
  SourceLocation,
} from '../types';
import { Ctx, plain, propsOf, readMembers } from './context';
import { isIdentifier, type CubeDef, type EntityCommon, type EntityDef, type ViewDef, type ViewGroupDef } from './defs';
import { readAccessPolicies, readJoins, readPreAggregation, readRefreshKey } from './entity-parts';
import { CUBE_KEYS, MEMBER_SECTION_KEYS, TYPED_SECTIONS, VIEW_GROUP_KEYS, VIEW_IGNORED_KEYS, VIEW_KEYS } from './keys';
import { readDimension, readHierarchy, readMeasure, readSegment } from './members';
import { readFolders, readViewCubes } from './view-parts';

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
  const includes = f.get('includes');
  if (includes) ctx.warning(C.IGNORED_PROPERTY, `'includes' of ${what} (nested view groups) is accepted by the platform but not read by Drydock; list the views under 'views'`, includes, entity.name);
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
    title: ctx.text(f.get('title'), what),
    description: ctx.text(f.get('description'), what),
    views,
  };
}

function normalizeCubeOrView(entity: RawEntity, ctx: Ctx): CubeDef | ViewDef {
  const isView = entity.kind === 'view';
  const label = isView ? 'view' : 'cube';
  const what = `${label} '${entity.name}' (${ctx.file})`;
  const f = ctx.fields(entity.def, isView ? VIEW_KEYS : CUBE_KEYS, what, entity.name);
  if (!isIdentifier(entity.name)) {
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
    props: propsOf(f, TYPED_SECTIONS),
    title: ctx.text(f.get('title'), what),
    description: ctx.text(f.get('description'), what),
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
    for (const key of VIEW_IGNORED_KEYS) {
      const entry = f.get(key);
      if (entry) ctx.warning(C.IGNORED_PROPERTY, `'${entry.key}' of ${what} is accepted on views but has no effect there (it belongs on the cubes)`, entry, entity.name);
    }
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
