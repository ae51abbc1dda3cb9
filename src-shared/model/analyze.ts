// Stage 5: can a view be pushed as a warehouse semantic view (spec "Warehouse semantic view sync", push rules
// 5–6) or published as a lakehouse metric view (spec "Lakehouse metric view publication", rules 6–7)?

import { DiagnosticCodes as C } from './codes';
import { sqlLocOf } from './types';
import { modelIdentifier, resolvedName } from './generate/semantic-view/identifiers';
import { plainColumn, scanSql } from './references';
import type { CompiledCube, CompiledModel, CompiledView, Diagnostic, Join, Measure, Severity, SourceLocation, ViewMember } from './types';

/** Read access to the compiled model; the incremental compiler passes one that records dependencies. */
export interface ModelLookup {
  cube(name: string): CompiledCube | undefined;
  view(name: string): CompiledView | undefined;
}

export type SkippedFeature = 'segments' | 'access_policies' | 'hierarchies' | 'granularities' | 'view_filters' | 'pre_aggregations';

export interface WarehousePushAnalysis {
  pushable: boolean;
  issues: Diagnostic[];
  /** Features present in the view's scope that the push skips (rule 6). */
  skipped: SkippedFeature[];
  /** Which members or entities carry each skipped feature. */
  skippedDetails: { feature: SkippedFeature; items: string[] }[];
}

export interface LakehousePublishAnalysis {
  status: 'ok' | 'partial' | 'blocked';
  blockedReasons: Diagnostic[];
  warnings: Diagnostic[];
  /** Exposed names of the view's members withheld as fan-out unsafe. */
  withheldMembers: string[];
}

export interface LakehouseOptions {
  /** The target data source has a catalog setting, so two-part `schema.table` sources can be qualified. */
  catalogConfigured?: boolean;
  /**
   * The lakehouse data source the view would be published to. A view none of whose cubes use it
   * belongs to another data source and is blocked (`MODEL_PUBLISH_OTHER_DATA_SOURCE`).
   */
  dataSource?: string;
}

const PUSHABLE_MEASURE_TYPES = new Set(['count', 'count_distinct', 'sum', 'avg', 'min', 'max']);
const FAN_OUT_SAFE_TYPES = new Set(['count_distinct', 'count_distinct_approx', 'min', 'max']);

export function lookupOf(model: CompiledModel): ModelLookup {
  return { cube: (name) => model.cubes[name], view: (name) => model.views[name] };
}

function diagAt(severity: Severity, code: string, message: string, loc: SourceLocation, member?: string): Diagnostic {
  return { severity, code, message, file: loc.file, line: loc.line, column: loc.column, member };
}

interface Edge {
  from: CompiledCube;
  to: CompiledCube;
  join: Join;
}

interface Scope {
  view: CompiledView;
  cubes: CompiledCube[];
  edges: Edge[];
  /** Cube name → edges from the root to it. */
  pathEdges: Map<string, Edge[]>;
  /** A cube reached along two different routes, or a route revisiting a cube. */
  cyclic: { cube: string; loc: SourceLocation }[];
}

function scopeOf(view: CompiledView, lookup: ModelLookup): Scope {
  const cubes = new Map<string, CompiledCube>();
  const edges = new Map<string, Edge>();
  const pathEdges = new Map<string, Edge[]>();
  const routes = new Map<string, string>();
  const cyclic: Scope['cyclic'] = [];
  for (const path of view.joinPaths) {
    const route: Edge[] = [];
    for (let i = 0; i < path.length; i++) {
      const cube = lookup.cube(path[i]!);
      if (!cube) break;
      cubes.set(cube.name, cube);
      if (i > 0) {
        const from = cubes.get(path[i - 1]!)!;
        const join = from.joins.find((j) => j.name === cube.name);
        if (!join) break;
        const key = `${from.name}>${cube.name}`;
        const edge = edges.get(key) ?? { from, to: cube, join };
        edges.set(key, edge);
        route.push(edge);
      }
      const routeKey = path.slice(0, i + 1).join('.');
      const previous = routes.get(cube.name);
      if (path.indexOf(cube.name) !== i) cyclic.push({ cube: cube.name, loc: view.loc });
      else if (previous !== undefined && previous !== routeKey) cyclic.push({ cube: cube.name, loc: view.loc });
      else if (previous === undefined) {
        routes.set(cube.name, routeKey);
        pathEdges.set(cube.name, [...route]);
      }
    }
  }
  return { view, cubes: [...cubes.values()], edges: [...edges.values()], pathEdges, cyclic };
}

/** The data sources of a view's cubes; a view that joins no cube is on `default`, where the platform places it. */
/** The cubes of a circle of relationships (referencing → referenced) among the edges, or null. */
function relationshipCycle(edges: Edge[]): string[] | null {
  const next = new Map<string, string[]>();
  for (const { from, to, join } of edges) {
    // A one-to-many join is written the other way round: the joined cube references the joining one.
    const [referencing, referenced] = join.relationship === 'one_to_many' ? [to.name, from.name] : [from.name, to.name];
    next.set(referencing, [...(next.get(referencing) ?? []), referenced]);
  }
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (cube: string): string[] | null => {
    if (state.get(cube) === 'done') return null;
    if (state.get(cube) === 'open') return [...path.slice(path.indexOf(cube)), cube];
    state.set(cube, 'open');
    path.push(cube);
    for (const target of next.get(cube) ?? []) {
      const found = visit(target);
      if (found) return found;
    }
    path.pop();
    state.set(cube, 'done');
    return null;
  };
  for (const cube of next.keys()) {
    const found = visit(cube);
    if (found) return found;
  }
  return null;
}

function dataSourcesOf(scope: Scope): string[] {
  // One data source however its cubes spell its name (see usesDataSource): `lake` and `Lake` are not a mix.
  const byFolded = new Map<string, string>();
  for (const cube of scope.cubes) if (!byFolded.has(cube.dataSource.toLowerCase())) byFolded.set(cube.dataSource.toLowerCase(), cube.dataSource);
  return byFolded.size > 0 ? [...byFolded.values()] : ['default'];
}

/** Data source names are matched without regard to case, as the service matches them in its URLs. */
export function usesDataSource(sources: string[], dataSource: string): boolean {
  const wanted = dataSource.toLowerCase();
  return sources.some((s) => s.toLowerCase() === wanted);
}

/**
 * The data sources a view reads through its cubes (usually one). A lakehouse publication's scope
 * holds only the views on its own data source.
 */
export function viewDataSources(model: CompiledModel, viewName: string): string[] {
  const lookup = lookupOf(model);
  const view = lookup.view(viewName);
  return view ? dataSourcesOf(scopeOf(view, lookup)) : [];
}

function sourceMeasure(member: ViewMember, view: CompiledView, lookup: ModelLookup): Measure | undefined {
  if (member.kind !== 'measure') return undefined;
  return member.cube === view.name ? view.measures[member.member] : lookup.cube(member.cube)?.measures[member.member];
}

/** Does the measure's SQL reference another measure (a measure combining measures)? */
function combinesMeasures(measure: Measure, owner: string, lookup: ModelLookup, view?: CompiledView): boolean {
  if (!measure.sql) return false;
  for (const ref of scanSql(measure.sql).refs) {
    const p = ref.path;
    const selfRef = p.length === 1 || p[0] === 'CUBE' || p[0] === owner;
    const name = p.length === 1 ? p[0]! : p[1];
    if (!name) continue;
    if (selfRef) {
      if (view && owner === view.name ? view.members[name]?.kind === 'measure' : lookup.cube(owner)?.measures[name]) return true;
    } else if (lookup.cube(p[0]!)?.measures[name]) return true;
  }
  return false;
}

/**
 * A number measure the view defines whose SQL only combines measures the view exposes
 * (`{cube.measure}`): it is pushed as a derived metric (defined at view level, without a table).
 */
export function isDerivedMetric(measure: Measure, member: ViewMember, view: CompiledView): boolean {
  if (member.cube !== view.name || measure.type !== 'number' || !measure.sql) return false;
  if (measure.multiStage || measure.filters.length > 0 || measure.rollingWindow) return false;
  const scan = scanSql(measure.sql);
  if (scan.templated || scan.contextual || scan.refs.length === 0) return false;
  const exposed = Object.values(view.members);
  return scan.refs.every((ref) => ref.path.length === 2 && exposed.some((m) => m.kind === 'measure' && m.cube === ref.path[0] && m.member === ref.path[1]));
}

export function analyzeWarehousePush(model: CompiledModel, viewName: string): WarehousePushAnalysis {
  return analyzeWarehousePushWith(lookupOf(model), viewName);
}

export function analyzeWarehousePushWith(lookup: ModelLookup, viewName: string): WarehousePushAnalysis {
  const view = lookup.view(viewName);
  if (!view) {
    const issue: Diagnostic = { severity: 'error', code: C.UNKNOWN_VIEW, message: `Unknown view '${viewName}'`, file: '', line: 1, column: 1, member: viewName };
    return { pushable: false, issues: [issue], skipped: [], skippedDetails: [] };
  }
  const scope = scopeOf(view, lookup);
  const issues: Diagnostic[] = [];
  const issue = (code: string, message: string, loc: SourceLocation, member?: string) =>
    issues.push(diagAt('error', code, `View '${view.name}': ${message}`, loc, member ?? view.name));

  // Rule 5: templated SQL.
  for (const cube of scope.cubes) {
    if (cube.templated || cube.dynamic) {
      issue(C.PUSH_TEMPLATED_SQL, `cube '${cube.name}' is defined by ${cube.templated ? 'Jinja templating' : 'dynamic JavaScript'} (${cube.file})`, cube.loc, cube.name);
      continue;
    }
    const sqls: [string | undefined, SourceLocation, string][] = [
      [cube.sql, cube.sqlLoc ?? cube.loc, cube.name],
      [cube.sqlTable, cube.loc, cube.name],
    ];
    for (const member of Object.values(view.members)) {
      if (member.cube !== cube.name) continue;
      const src = member.kind === 'dimension' ? cube.dimensions[member.member] : member.kind === 'measure' ? cube.measures[member.member] : undefined;
      if (src) sqls.push([src.sql, sqlLocOf(src), `${cube.name}.${src.name}`]);
    }
    for (const [sql, loc, member] of sqls) {
      if (!sql) continue;
      const scan = scanSql(sql);
      if (scan.templated || scan.contextual) {
        issue(C.PUSH_TEMPLATED_SQL, `the SQL of '${member}' is templated (${scan.templated ? 'Jinja' : 'context variables'}) (${loc.file})`, loc, member);
      }
    }
  }
  if (view.templated && !scope.cubes.some((c) => c.templated)) issue(C.PUSH_TEMPLATED_SQL, `the view is defined by Jinja templating (${view.file})`, view.loc);

  // Rule 5: a single-column primary key per entity.
  for (const cube of scope.cubes) {
    if (cube.primaryKeys.length === 0) issue(C.PUSH_PRIMARY_KEY, `cube '${cube.name}' has no primary key (${cube.file})`, cube.loc, cube.name);
    else if (cube.primaryKeys.length > 1) {
      issue(C.PUSH_PRIMARY_KEY, `cube '${cube.name}' has a composite primary key (${cube.primaryKeys.join(', ')}) (${cube.file})`, cube.loc, cube.name);
    } else {
      const pk = cube.dimensions[cube.primaryKey!]!;
      if (!plainColumn(pk.sql)) issue(C.PUSH_PRIMARY_KEY, `the primary key '${cube.name}.${pk.name}' is an expression, not a column (${pk.loc.file})`, pk.loc, `${cube.name}.${pk.name}`);
    }
  }

  // Relationships point from the "many" side to the "one" side; Snowflake refuses them in a circle,
  // even through other tables (issue 27). A route that comes back to a cube, or two routes joining
  // two cubes both ways, would write one.
  const circle = relationshipCycle(scope.edges);
  if (circle) {
    issue(C.VIEW_JOIN_NOT_REPRESENTABLE, `its joins would make circular relationships (${circle.join(' → ')}), which a semantic view may not have (${view.file})`, view.loc);
  }

  // Rule 5: equi-joins on the referenced entity's primary key.
  for (const { from, to, join } of scope.edges) {
    const where = `join '${from.name}' → '${to.name}'`;
    if (!join.equi || join.equi.length === 0) {
      issue(C.PUSH_JOIN_NOT_EQUI, `${where} is not an equality of columns (functions, inequalities or OR are not pushable) (${join.loc.file})`, join.loc, `${from.name}.${to.name}`);
      continue;
    }
    // The referenced side is the "one" side of the relationship.
    const referencedIsTarget = join.relationship !== 'one_to_many';
    const referenced = referencedIsTarget ? to : from;
    const pkColumn = referenced.primaryKey ? plainColumn(referenced.dimensions[referenced.primaryKey]?.sql) : null;
    const sides = join.equi.map((p) => (referencedIsTarget ? p.target : p.source));
    const onPk =
      sides.length === 1 &&
      referenced.primaryKeys.length === 1 &&
      (sides[0]!.member === referenced.primaryKey || (!!pkColumn && sides[0]!.column === pkColumn));
    if (!onPk) {
      issue(C.PUSH_JOIN_NOT_PRIMARY_KEY, `${where} does not reference the primary key of '${referenced.name}' (${join.loc.file})`, join.loc, `${from.name}.${to.name}`);
    }
  }

  // Rule 5: measure kinds.
  for (const member of Object.values(view.members)) {
    const measure = sourceMeasure(member, view, lookup);
    if (!measure) continue;
    const id = `${member.cube}.${member.member}`;
    if (isDerivedMetric(measure, member, view)) continue;
    const reasons: string[] = [];
    if (!PUSHABLE_MEASURE_TYPES.has(measure.type)) reasons.push(`type '${measure.type}'`);
    if (measure.multiStage) reasons.push('multi-stage calculation');
    if (measure.filters.length > 0) reasons.push('per-measure filters');
    if (measure.rollingWindow) reasons.push('a rolling window');
    if (PUSHABLE_MEASURE_TYPES.has(measure.type) && combinesMeasures(measure, member.cube, lookup, view)) reasons.push('SQL combining measures');
    if (reasons.length) {
      issue(C.PUSH_MEASURE_UNSUPPORTED, `measure '${id}' (exposed as '${member.name}') uses ${reasons.join(', ')}; only count, count_distinct, sum, avg, min and max measures are pushable, and number measures the view defines from the measures it exposes (as derived metrics) (${measure.loc.file})`, measure.loc, id);
    }
  }

  // Snowflake stores a bare name upper-cased, and the DDL writes all-lower and all-upper names
  // bare: two members that differ only in that case (`status`, `STATUS`) would be one name twice,
  // which the warehouse refuses (issue 27). With QUOTED_IDENTIFIERS_IGNORE_CASE on, the push finds
  // more (IDENTIFIER_CASE_COLLISION): the setting is the data source's, not the model's.
  const storedNames = new Map<string, string>();
  for (const member of Object.values(view.members)) {
    if (member.kind !== 'dimension' && member.kind !== 'measure') continue;
    const stored = resolvedName(modelIdentifier(member.name), false);
    const first = storedNames.get(stored);
    if (first === undefined) storedNames.set(stored, member.name);
    else if (first !== member.name) {
      issue(C.PUSH_NAME_COLLISION, `members '${first}' and '${member.name}' would both be stored as ${stored} in the warehouse`, member.loc, `${view.name}.${member.name}`);
    }
  }

  // Rule 6: skipped features.
  const details = new Map<SkippedFeature, string[]>();
  const skip = (feature: SkippedFeature, item: string) => {
    const list = details.get(feature) ?? [];
    if (!list.includes(item)) list.push(item);
    details.set(feature, list);
  };
  for (const member of Object.values(view.members)) {
    if (member.kind === 'segment') skip('segments', member.name);
    if (member.kind === 'hierarchy') skip('hierarchies', member.name);
    if (member.kind === 'dimension' && member.cube !== view.name) {
      const dim = lookup.cube(member.cube)?.dimensions[member.member];
      if (dim && dim.granularities.length > 0) skip('granularities', member.name);
    }
  }
  if (view.accessPolicy.length > 0) skip('access_policies', view.name);
  for (const cube of scope.cubes) {
    if (cube.accessPolicy.length > 0) skip('access_policies', cube.name);
    for (const pa of Object.keys(cube.preAggregations)) skip('pre_aggregations', `${cube.name}.${pa}`);
  }
  const order: SkippedFeature[] = ['segments', 'access_policies', 'hierarchies', 'granularities', 'view_filters', 'pre_aggregations'];
  const skippedDetails = order.filter((f) => details.has(f)).map((feature) => ({ feature, items: details.get(feature)! }));
  return { pushable: issues.length === 0, issues, skipped: skippedDetails.map((d) => d.feature), skippedDetails };
}

export function analyzeLakehousePublish(model: CompiledModel, viewName: string, opts: LakehouseOptions = {}): LakehousePublishAnalysis {
  return analyzeLakehousePublishWith(lookupOf(model), viewName, opts);
}

export function analyzeLakehousePublishWith(lookup: ModelLookup, viewName: string, opts: LakehouseOptions = {}): LakehousePublishAnalysis {
  const view = lookup.view(viewName);
  if (!view) {
    const reason: Diagnostic = { severity: 'error', code: C.UNKNOWN_VIEW, message: `Unknown view '${viewName}'`, file: '', line: 1, column: 1, member: viewName };
    return { status: 'blocked', blockedReasons: [reason], warnings: [], withheldMembers: [] };
  }
  const scope = scopeOf(view, lookup);
  const blockedReasons: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const block = (code: string, message: string, loc: SourceLocation, member?: string) =>
    blockedReasons.push(diagAt('error', code, `View '${view.name}': ${message}`, loc, member ?? view.name));
  const warn = (code: string, message: string, loc: SourceLocation, member?: string) =>
    warnings.push(diagAt('warning', code, `View '${view.name}': ${message}`, loc, member ?? view.name));

  // Rule 6: dynamic or templated models, unflattened extends, access policies.
  const entities: (CompiledView | CompiledCube)[] = [view, ...scope.cubes];
  for (const e of entities) {
    const where = `${e.kind} '${e.name}' (${e.file})`;
    if (e.templated || e.dynamic) {
      const kind = e.templated ? 'Jinja' : e.format === 'ts' ? 'TypeScript' : 'JavaScript';
      block(C.PUBLISH_DYNAMIC_MODEL, `${where} is a dynamic ${kind} model`, e.loc, e.name);
    }
    if (e.extendsChain.length > 0) block(C.PUBLISH_UNFLATTENED_EXTENDS, `${where} uses extends (${[e.name, ...e.extendsChain].join(' → ')}); flatten it first`, e.loc, e.name);
    if (e.accessPolicy.length > 0) block(C.PUBLISH_ACCESS_POLICY, `${where} has an access policy`, e.accessPolicy[0]!.loc, e.name);
  }

  // Rule 6: one data source, one root, qualified sources.
  const sources = dataSourcesOf(scope);
  if (opts.dataSource !== undefined && !usesDataSource(sources, opts.dataSource)) {
    block(C.PUBLISH_OTHER_DATA_SOURCE, `its cubes use data source ${sources.map((s) => `'${s}'`).join(', ')}, not '${opts.dataSource}' that this publication writes to`, view.loc);
  }
  if (sources.length > 1) block(C.PUBLISH_MIXED_DATA_SOURCES, `its cubes use several data sources (${sources.join(', ')})`, view.loc);
  if (view.joinPaths.length > 0 && !view.root) {
    block(C.PUBLISH_AMBIGUOUS_ROOT, `its join paths start from different cubes (${[...new Set(view.joinPaths.map((p) => p[0]))].join(', ')}); a metric view needs one root`, view.loc);
  }
  for (const cube of scope.cubes) {
    if (!opts.catalogConfigured && cube.sqlTable && /^[^.\s]+\.[^.\s]+$/.test(cube.sqlTable.trim())) {
      block(C.PUBLISH_CATALOG_REQUIRED, `cube '${cube.name}' reads two-part source '${cube.sqlTable}' but the data source has no catalog setting (${cube.file})`, cube.loc, cube.name);
    }
  }

  // Rule 6: joins a metric view can represent: equality, acyclic, never one-to-many from the root.
  for (const { from, to, join } of scope.edges) {
    const where = `join '${from.name}' → '${to.name}'`;
    if (!join.equi || join.equi.length === 0) {
      block(C.VIEW_JOIN_NOT_REPRESENTABLE, `${where} is not an equality join (${join.loc.file})`, join.loc, `${from.name}.${to.name}`);
    }
    if (join.relationship === 'one_to_many') {
      block(C.VIEW_JOIN_NOT_REPRESENTABLE, `${where} is one-to-many (${join.declaredRelationship}); metric views join many-to-one or one-to-one only (${join.loc.file})`, join.loc, `${from.name}.${to.name}`);
    }
  }
  for (const c of scope.cyclic) {
    block(C.VIEW_JOIN_NOT_REPRESENTABLE, `cube '${c.cube}' is reached along more than one join route (cyclic joins) (${view.file})`, c.loc, c.cube);
  }

  // Rule 6: unsupported expressions, types, multi-stage, window and ranking calculations.
  for (const member of Object.values(view.members)) {
    const owner = member.cube === view.name ? view : lookup.cube(member.cube);
    if (!owner) continue;
    const id = `${member.cube}.${member.member}`;
    const reasons: string[] = [];
    let loc = member.loc;
    if (member.kind === 'measure') {
      const m = owner.measures[member.member];
      if (!m) continue;
      loc = m.loc;
      if (m.multiStage) reasons.push('a multi-stage calculation');
      if (m.type === 'rank') reasons.push('a ranking calculation');
      else if (m.type === 'number_agg') reasons.push(`type '${m.type}'`);
      if (m.rollingWindow) reasons.push('a rolling window');
      if (m.sql && /\bover\s*\(/i.test(m.sql)) reasons.push('a window function');
      if (m.sql && scanSql(m.sql).contextual) reasons.push('context variables');
    } else if (member.kind === 'dimension') {
      const d = owner.dimensions[member.member];
      if (!d) continue;
      loc = d.loc;
      if (d.multiStage) reasons.push('a multi-stage calculation');
      if (d.subQuery) reasons.push('a sub-query');
      if (d.type === 'geo' || d.type === 'switch') reasons.push(`type '${d.type}'`);
      if (d.sql && /\bover\s*\(/i.test(d.sql)) reasons.push('a window function');
      if (d.sql && scanSql(d.sql).contextual) reasons.push('context variables');
    }
    if (reasons.length) block(C.PUBLISH_UNSUPPORTED, `member '${id}' (exposed as '${member.name}') uses ${reasons.join(', ')} (${loc.file})`, loc, id);
  }
  // Databricks resolves a metric view's columns without regard to case, so two members whose names
  // differ only in case would be one column defined twice, which the lakehouse refuses (issue 27).
  const byFoldedName = new Map<string, string>();
  for (const member of Object.values(view.members)) {
    const first = byFoldedName.get(member.name.toLowerCase());
    if (first === undefined) byFoldedName.set(member.name.toLowerCase(), member.name);
    else if (first !== member.name) {
      block(C.PUBLISH_UNSUPPORTED, `members '${first}' and '${member.name}' differ only in case; metric view column names are case-insensitive`, member.loc, `${view.name}.${member.name}`);
    }
  }

  // Rule 7: metadata the lakehouse cannot represent.
  for (const member of Object.values(view.members)) {
    const what: string[] = [];
    if (member.kind === 'segment') what.push('segment');
    if (member.kind === 'hierarchy') what.push('hierarchy');
    if (member.meta !== undefined) what.push('meta');
    if (member.format !== undefined && typeof member.format === 'object') what.push('link format');
    const m = sourceMeasure(member, view, lookup);
    if (m && m.drillMembers.length > 0) what.push('drill_members');
    if (member.kind === 'dimension' && member.cube !== view.name) {
      const d = lookup.cube(member.cube)?.dimensions[member.member];
      if (d && d.granularities.length > 0) what.push('custom granularities');
    }
    if (what.length) warn(C.METADATA_NOT_REPRESENTABLE, `member '${member.name}' has ${what.join(', ')}, which the metric view cannot represent`, member.loc, `${view.name}.${member.name}`);
  }
  if (view.folders.length > 0) warn(C.METADATA_NOT_REPRESENTABLE, `folders cannot be represented in a metric view`, view.folders[0]!.loc);

  // Rule 7: fan-out-unsafe measures are withheld.
  const unsafe = fanOutUnsafeCubes(scope);
  const withheldMembers: string[] = [];
  const isWithheld = (member: ViewMember, m: Measure): boolean => {
    // Members the view defines itself aggregate at the root's grain.
    const cube = member.cube === view.name ? view.root : member.cube;
    return !!cube && unsafe.has(cube) && !FAN_OUT_SAFE_TYPES.has(m.type);
  };
  for (const member of Object.values(view.members)) {
    const m = sourceMeasure(member, view, lookup);
    if (!m || !isWithheld(member, m)) continue;
    withheldMembers.push(member.name);
    const route = (scope.pathEdges.get(member.cube) ?? []).map((e) => `${e.from.name} → ${e.to.name} (${e.join.relationship})`).join(', ');
    warn(
      C.MEMBER_WITHHELD,
      `measure '${member.name}' (${member.cube}.${member.member}, ${m.type}) is withheld: rows of '${member.cube}' can repeat after the view's joins${route ? ` [${route}]` : ''}, so the aggregate would fan out`,
      member.loc,
      `${view.name}.${member.name}`,
    );
  }
  const status = blockedReasons.length > 0 ? 'blocked' : withheldMembers.length > 0 ? 'partial' : 'ok';
  return { status, blockedReasons, warnings, withheldMembers };
}

/**
 * Cubes whose rows may repeat in the view's flattened join: reached through a many-to-one join (one row joined
 * to many rows of the route), or sharing the view with a one-to-many join off their own route.
 */
function fanOutUnsafeCubes(scope: Scope): Set<string> {
  const unsafe = new Set<string>();
  for (const cube of scope.cubes) {
    const route = scope.pathEdges.get(cube.name) ?? [];
    const onRoute = new Set(route);
    const repeatedByRoute = route.some((e) => e.join.relationship === 'many_to_one');
    const repeatedElsewhere = scope.edges.some((e) => !onRoute.has(e) && e.join.relationship === 'one_to_many');
    if (repeatedByRoute || repeatedElsewhere) unsafe.add(cube.name);
  }
  return unsafe;
}
