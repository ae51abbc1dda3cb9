// Public and internal types of the data-model compiler (parse → normalize → resolve → check → analyze).

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  severity: Severity;
  /** Stable UPPER_SNAKE code, see `DiagnosticCodes`. */
  code: string;
  message: string;
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** `cube.member`, or the cube/view name for entity-level findings. */
  member?: string;
  /** Code frame around the offending position (syntax errors, duplicate keys). */
  frame?: string;
  /** For analyzer findings surfaced as MODEL_NOT_PUSHABLE / MODEL_NOT_PUBLISHABLE: the specific reason code. */
  reason?: string;
  /**
   * For an analyzer's finding on a view that is located in another file (a cube's member the view
   * exposes): the file defining the view, so the editor marks both. Not part of the validate response.
   */
  viewFile?: string;
}

/**
 * A diagnostic as the validate response and `drydock validate --format json` write it: the fixed
 * keys in a fixed order, the optional ones only when set (a compiler's diagnostic may carry more).
 */
export function diagnosticJson(d: Diagnostic): Diagnostic {
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    file: d.file,
    line: d.line,
    column: d.column,
    ...(d.member !== undefined ? { member: d.member } : {}),
    ...(d.frame !== undefined ? { frame: d.frame } : {}),
    ...(d.reason !== undefined ? { reason: d.reason } : {}),
  };
}

export interface ModelFile {
  path: string;
  content: string;
  /**
   * Size in bytes of a file too large to be read at all (far past MODEL_LIMITS.fileChars): its
   * content is then empty and the compiler reports it as too large without reading it.
   */
  unreadBytes?: number;
}

export interface CompileOptions {
  /** Surface warehouse-push and lakehouse-publish findings of every view as warnings (editor use). */
  analyzers?: boolean;
  /** Passed to the lakehouse analyzer when `analyzers` is on: the data source has a catalog configured. */
  catalogConfigured?: boolean;
  /**
   * The deployment's data sources by name, when known. With them, a view is checked for a warehouse
   * push only if its cubes read a warehouse source and for a lakehouse publication only if they read
   * a lakehouse source (with that source's catalog): a warehouse view is never published and a
   * lakehouse view never pushed, so their findings would be noise. Without them every view gets both.
   */
  dataSources?: Record<string, AnalyzerDataSource>;
}

export interface AnalyzerDataSource {
  kind: 'warehouse' | 'lakehouse' | 'other';
  /** Lakehouse: the catalog setting that qualifies two-part `schema.table` sources. */
  catalog?: string | null;
}

export interface CompileResult {
  model: CompiledModel;
  diagnostics: Diagnostic[];
  /** True when there is no error diagnostic. */
  valid: boolean;
}

/** A compile's verdict without the compiled model (what validation answers). */
export type CompileVerdict = Omit<CompileResult, 'model'>;

export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export type ModelFormat = 'yaml' | 'js' | 'ts';

export type DimensionType = 'string' | 'number' | 'boolean' | 'time' | 'geo' | 'switch';
export type MeasureType =
  | 'count'
  | 'count_distinct'
  | 'count_distinct_approx'
  | 'sum'
  | 'avg'
  | 'min'
  | 'max'
  | 'number'
  | 'string'
  | 'time'
  | 'boolean'
  | 'number_agg'
  | 'rank';
export type Relationship = 'one_to_one' | 'one_to_many' | 'many_to_one';

/** Plain JSON-like value of a model property; `undefined` where the source was dynamic. */
export type PlainValue = string | number | boolean | null | PlainValue[] | { [key: string]: PlainValue } | undefined;

export interface MemberBase {
  name: string;
  loc: SourceLocation;
  title?: string;
  description?: string;
  /** `public` (or legacy `shown`); defaults to true. */
  public: boolean;
  meta?: PlainValue;
  format?: PlainValue;
  /** Some property could not be evaluated statically (dynamic JS or Jinja). */
  dynamic: boolean;
  /** Every property as written (snake_case keys), for generators needing more than the typed fields. */
  props: Record<string, PlainValue>;
  /**
   * Line and column of the `sql` value in `loc`'s file; 0 when there is none (see `sqlLocOf`). Two
   * numbers, not a location object: 310,000 of those were 15 MB of a 10,000-cube model (issue 28).
   */
  sqlLine: number;
  sqlColumn: number;
}

/** Where a member's `sql` is written, or the member itself when it has none. */
export function sqlLocOf(member: MemberBase): SourceLocation {
  return member.sqlLine > 0 ? { file: member.loc.file, line: member.sqlLine, column: member.sqlColumn } : member.loc;
}

export interface Granularity {
  name: string;
  loc: SourceLocation;
  title?: string;
  interval?: string;
  offset?: string;
  origin?: string;
  sql?: string;
}

export interface Dimension extends MemberBase {
  kind: 'dimension';
  type: DimensionType;
  sql?: string;
  primaryKey: boolean;
  subQuery: boolean;
  multiStage: boolean;
  granularities: Granularity[];
  /** `case` dimension definition as written. */
  case?: PlainValue;
  latitude?: string;
  longitude?: string;
  /** Values of a `switch` dimension. */
  values?: string[];
}

export interface RollingWindow {
  type: 'fixed' | 'year_to_date' | 'quarter_to_date' | 'month_to_date' | 'to_date';
  trailing?: string;
  leading?: string;
  offset?: 'start' | 'end';
  granularity?: string;
}

export interface MeasureFilter {
  sql: string;
  loc: SourceLocation;
}

export interface Measure extends MemberBase {
  kind: 'measure';
  type: MeasureType;
  sql?: string;
  filters: MeasureFilter[];
  rollingWindow?: RollingWindow;
  drillMembers: string[];
  multiStage: boolean;
}

export interface Segment extends MemberBase {
  kind: 'segment';
  sql?: string;
}

export interface Hierarchy {
  kind: 'hierarchy';
  name: string;
  loc: SourceLocation;
  title?: string;
  public: boolean;
  /** Dimension names of the cube, in order (as written, e.g. `country` or `CUBE.country`). */
  levels: string[];
  /** Position of each level entry, parallel to `levels`. */
  levelLocs: SourceLocation[];
  dynamic: boolean;
}

export interface PreAggregation {
  name: string;
  loc: SourceLocation;
  /** Normalized to snake_case: rollup (default), original_sql, rollup_join, rollup_lambda, auto_rollup. */
  type: string;
  measures: string[];
  dimensions: string[];
  segments: string[];
  timeDimension?: string;
  granularity?: string;
  partitionGranularity?: string;
  rollups: string[];
  dynamic: boolean;
  props: Record<string, PlainValue>;
}

export interface AccessPolicy {
  loc: SourceLocation;
  role?: string;
  group?: string;
  groups?: string[];
  memberLevel?: { includes?: '*' | string[]; excludes?: '*' | string[] };
  rowLevel?: { allowAll?: boolean; filters?: PlainValue[] };
  conditions?: { if?: string }[];
  props: Record<string, PlainValue>;
}

/** One side of an equi-join condition. */
export interface JoinColumn {
  cube: string;
  /** Set when the side is written as a member reference (`{cube.member}`, `{CUBE.member}`). */
  member?: string;
  /** Physical column when known: `{cube}.col`, or the member's SQL when it is a plain column. */
  column?: string;
}

export interface JoinColumnPair {
  /** Column of the cube that declares the join. */
  source: JoinColumn;
  /** Column of the joined cube. */
  target: JoinColumn;
}

export interface Join {
  /** Name of the joined cube. */
  name: string;
  loc: SourceLocation;
  sql: string;
  sqlLoc?: SourceLocation;
  relationship: Relationship;
  /** Relationship as written (e.g. `belongs_to`). */
  declaredRelationship: string;
  /** Column pairs when the SQL is a conjunction of `{CUBE}.a = {other}.b` equalities; null otherwise. */
  equi: JoinColumnPair[] | null;
  dynamic: boolean;
}

export interface CompiledCube {
  kind: 'cube';
  name: string;
  file: string;
  loc: SourceLocation;
  format: ModelFormat;
  sql?: string;
  sqlLoc?: SourceLocation;
  sqlTable?: string;
  sqlAlias?: string;
  /** Declared data source, or `default`. */
  dataSource: string;
  title?: string;
  description?: string;
  public: boolean;
  meta?: PlainValue;
  refreshKey?: PlainValue;
  /** Parent named in `extends`. */
  extends?: string;
  /** Ancestors, nearest first. */
  extendsChain: string[];
  joins: Join[];
  dimensions: Record<string, Dimension>;
  measures: Record<string, Measure>;
  segments: Record<string, Segment>;
  hierarchies: Record<string, Hierarchy>;
  preAggregations: Record<string, PreAggregation>;
  accessPolicy: AccessPolicy[];
  /** The single primary-key dimension, when there is exactly one. */
  primaryKey?: string;
  primaryKeys: string[];
  /** Defined in a file with Jinja templating. */
  templated: boolean;
  /** Defined by JS that is not fully static (or in a TS file). */
  dynamic: boolean;
  /** Sections whose members could not be read statically (their members are unknown). */
  opaqueSections: string[];
  props: Record<string, PlainValue>;
}

export type ViewMemberKind = 'dimension' | 'measure' | 'segment' | 'hierarchy';

export interface ViewMember {
  /** Name as exposed by the view (after prefix/alias). */
  name: string;
  kind: ViewMemberKind;
  /** Source cube (the view itself for members the view defines). */
  cube: string;
  /** Member name in the source cube. */
  member: string;
  /** Cube path from the view's root to the source cube. */
  path: string[];
  /** Member type (dimension or measure type). */
  type?: string;
  title?: string;
  description?: string;
  meta?: PlainValue;
  format?: PlainValue;
  /** Where the member was included (the include item, or the cube entry for `*`). */
  loc: SourceLocation;
}

export interface ViewCubeInclude {
  name: string;
  alias?: string;
  title?: string;
  description?: string;
  format?: PlainValue;
  meta?: PlainValue;
  loc: SourceLocation;
}

export interface ViewCube {
  /** `join_path` as written, split on dots. */
  joinPath: string[];
  /** Cube path actually joined (intermediate cubes added when hops are not direct joins). */
  path: string[];
  /** Cube whose members are included (last of the path). */
  cube: string;
  alias?: string;
  prefix: boolean;
  split: boolean;
  includes: '*' | ViewCubeInclude[];
  excludes: string[];
  loc: SourceLocation;
}

export interface Folder {
  name: string;
  loc: SourceLocation;
  /** Member names (as exposed) directly in this folder; `*` expands to every member. */
  members: string[];
  folders: Folder[];
}

export interface CompiledView {
  kind: 'view';
  name: string;
  file: string;
  loc: SourceLocation;
  format: ModelFormat;
  title?: string;
  description?: string;
  public: boolean;
  meta?: PlainValue;
  extends?: string;
  extendsChain: string[];
  cubes: ViewCube[];
  /** Exposed members keyed by exposed name, in inclusion order. */
  members: Record<string, ViewMember>;
  /** Distinct resolved cube paths, from the root. */
  joinPaths: string[][];
  /** First cube of every join path when they all agree. */
  root?: string;
  folders: Folder[];
  accessPolicy: AccessPolicy[];
  /** Members defined by the view itself. */
  dimensions: Record<string, Dimension>;
  measures: Record<string, Measure>;
  segments: Record<string, Segment>;
  viewGroups: string[];
  /** Set on views generated by `split: true` (name `<view>_<cube>`). */
  splitOf?: string;
  templated: boolean;
  dynamic: boolean;
  props: Record<string, PlainValue>;
}

export interface ViewGroup {
  name: string;
  loc: SourceLocation;
  title?: string;
  description?: string;
  views: string[];
}

export interface JoinGraphEdge {
  from: string;
  to: string;
  relationship: Relationship;
  equi: boolean;
}

export interface ModelFileInfo {
  format: ModelFormat;
  templated: boolean;
  dynamic: boolean;
  /** The file may define cubes or views whose names could not be read statically. */
  opaqueDefinitions: boolean;
}

export interface CompiledModel {
  cubes: Record<string, CompiledCube>;
  views: Record<string, CompiledView>;
  viewGroups: Record<string, ViewGroup>;
  /** Adjacency: cube → joins it declares (to existing cubes). */
  joinGraph: Record<string, JoinGraphEdge[]>;
  files: Record<string, ModelFileInfo>;
}

// ---------------------------------------------------------------------------
// Raw tree produced by parse.ts (format independent, keys snake_case).

export interface RawPos {
  line: number;
  column: number;
}

export interface RawScalar extends RawPos {
  kind: 'scalar';
  value: string | number | boolean | null;
}

export interface RawEntry extends RawPos {
  key: string;
  value: RawNode;
}

export interface RawMap extends RawPos {
  kind: 'map';
  entries: RawEntry[];
}

export interface RawSeq extends RawPos {
  kind: 'seq';
  items: RawNode[];
}

/** A value that could not be evaluated statically (dynamic JS expression, Jinja). */
export interface RawOpaque extends RawPos {
  kind: 'opaque';
  reason: 'js' | 'jinja';
}

export type RawNode = RawScalar | RawMap | RawSeq | RawOpaque;

export interface RawEntity {
  kind: 'cube' | 'view' | 'view_group';
  name: string;
  /** Position of the name (or of the definition when the name is implicit). */
  nameLoc: RawPos;
  def: RawMap;
  /** Index of the definition in its file, for deterministic ordering. */
  index: number;
  /** The whole definition is dynamic (e.g. `cube('x', makeCube())`). */
  opaque: boolean;
  /** Touched by the file's Jinja (YAML only; when unset, the file's `templated` applies). */
  templated?: boolean;
}

export interface ParsedFile {
  path: string;
  format: ModelFormat;
  templated: boolean;
  dynamic: boolean;
  opaqueDefinitions: boolean;
  diagnostics: Diagnostic[];
  entities: RawEntity[];
}
