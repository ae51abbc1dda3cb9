// Stage 4: checks on resolved entities: references inside SQL (`{CUBE}`, `{member}`, `{cube.member}`,
// `{CUBE.member}`, granularities, join paths), joins (unknown cube, equi-join columns), primary key required with
// joins, sql xor sql_table, hierarchy levels, members defined twice across kinds, pre-aggregation members
// (warnings), access-policy members, view folders and view groups.
// Accepted without error, like the platform: join cycles, pre-aggregations naming unknown members (warning),
// `extends` chains that resolve.

import { DiagnosticCodes as C } from './codes';
import { sqlLocOf } from './types';
import { parseEquiJoin, plainColumn, scanSql, selfMemberReference } from './references';
import type { EquiSide } from './references';
import { STANDARD_GRANULARITIES } from './query/types';
import { levelDimension } from './resolve';
import type { ResolvedView } from './resolve';
import type { CubeDef, FolderDef, ViewGroupDef } from './schema';
import type { CompiledCube, CompiledView, Diagnostic, Join, JoinColumn, PlainValue, Severity, SourceLocation } from './types';

export interface CheckEnv {
  /** Resolved cube or view of a name (records a dependency). */
  entity(name: string): CompiledCube | CompiledView | undefined;
  readonly opaqueProject: boolean;
}

const BUILTIN_GRANULARITIES: ReadonlySet<string> = new Set(STANDARD_GRANULARITIES);

function diagAt(severity: Severity, code: string, message: string, loc: SourceLocation, member?: string): Diagnostic {
  return { severity, code, message, file: loc.file, line: loc.line, column: loc.column, member };
}

type Owner = CompiledCube | CompiledView;

/**
 * Where a checked reference is written: how messages name the place (`where`) and the member a
 * diagnostic is filed under. Both texts are built only when a diagnostic needs them: built for
 * every member of every cube they were a tenth of what a 10,000-cube compile allocates (issue 28).
 */
interface Site {
  where(): string;
  member(): string;
}

const fixedSite = (where: string, member: string): Site => ({ where: () => where, member: () => member });

/** The member being checked (`dimension 'orders.status'`), one object reused from member to member. */
class MemberSite implements Site {
  private kind = '';
  private owner = '';
  private name = '';
  private prefix = '';

  /** This site, now at `kind` `owner.name`; `prefix` goes before the member's description (`a filter of `). */
  at(kind: string, owner: string, name: string, prefix = ''): this {
    this.kind = kind;
    this.owner = owner;
    this.name = name;
    this.prefix = prefix;
    return this;
  }

  where(): string {
    return `${this.prefix}${this.kind} '${this.owner}.${this.name}'`;
  }

  member(): string {
    return `${this.owner}.${this.name}`;
  }
}

/** A path as written inside braces (`{orders.status}`), for messages. */
const refText = (path: string[]) => `{${path.join('.')}}`;

function hasMember(owner: Owner, name: string): boolean {
  if (owner.kind === 'view') return !!owner.members[name];
  return !!(owner.dimensions[name] || owner.measures[name] || owner.segments[name]);
}

function membersUnknown(owner: Owner): boolean {
  return owner.kind === 'cube' ? owner.opaqueSections.length > 0 || (owner.dynamic && Object.keys(owner.dimensions).length === 0) : owner.dynamic;
}

function granularitiesOf(owner: Owner, name: string): string[] | null {
  if (owner.kind === 'cube') {
    const d = owner.dimensions[name];
    return d && d.type === 'time' ? d.granularities.map((g) => g.name) : null;
  }
  const m = owner.members[name];
  return m && m.kind === 'dimension' && m.type === 'time' ? [] : null;
}

class ReferenceChecker {
  constructor(
    private readonly self: Owner,
    private readonly env: CheckEnv,
    private readonly diagnostics: Diagnostic[],
  ) {}

  private lastFile = '';
  private lastIsJavaScript = false;

  /** Whether `file` is a JavaScript model; remembered for the last file (a regular-expression test allocates, and this runs for every SQL snippet). */
  private isJavaScript(file: string): boolean {
    if (file !== this.lastFile) {
      this.lastFile = file;
      this.lastIsJavaScript = /\.[cm]?js$/i.test(file);
    }
    return this.lastIsJavaScript;
  }

  private get missingSeverity(): Severity {
    return this.env.opaqueProject ? 'warning' : 'error';
  }

  /** Check every reference of a SQL snippet written at `site` (e.g. "measure 'orders.total'"). */
  sql(sql: string | undefined, site: Site, loc: SourceLocation, missingMember: Severity = 'error'): void {
    if (!sql) return;
    const scan = scanSql(sql);
    // In a JavaScript model `${customers.}` never parses (a syntax error already) and `{…}` is literal text.
    if (scan.incomplete.length > 0 && !this.isJavaScript(loc.file)) {
      for (const text of scan.incomplete) {
        this.diagnostics.push(diagAt('error', C.INCOMPLETE_REFERENCE, `Incomplete reference ${text} in ${site.where()}: a member name must follow the dot (${loc.file})`, loc, site.member()));
      }
    }
    // The platform compiles `{CUBE}.` with nothing after it; the SQL fails once a query uses the member.
    if (scan.danglingDots.length > 0) for (const text of scan.danglingDots) {
      this.diagnostics.push(
        diagAt('warning', C.DANGLING_COLUMN_DOT, `${text.slice(0, -1)} is followed by a dot but no column in ${site.where()}: name the column (${text.slice(0, -1)}.column) or drop the dot; queries that use it fail (${loc.file})`, loc, site.member()),
      );
    }
    // Indexed, like the member loops of checkCube: this runs for every SQL snippet of the model, and
    // an iterator per loop was 5 % of what a 10,000-cube compile allocates (issue 28).
    const refs = scan.refs;
    for (let r = 0; r < refs.length; r++) this.path(refs[r]!.path, site, loc, refs[r]!.sqlCall, missingMember);
  }

  /** A member path written without braces (drill_members, levels): `x`, `CUBE.x`, `cube.x`. */
  path(path: string[], site: Site, loc: SourceLocation, cubeOnly = false, missingMember: Severity = 'error'): void {
    const head = path[0]!;
    let base: Owner | undefined;
    let i = 0;
    if (head === 'CUBE' || head === 'TABLE' || head === this.self.name) {
      base = this.self;
      i = 1;
    } else if (path.length <= 2 && hasMember(this.self, head)) {
      // `{member}` or `{member.granularity}` of the same cube.
      base = this.self;
    } else {
      base = this.env.entity(head);
      if (!base) {
        if (path.length === 1 && membersUnknown(this.self)) return;
        if (path.length === 1) {
          this.diagnostics.push(
            diagAt(this.missingSeverity, C.UNRESOLVED_REFERENCE, `Unresolved reference ${refText(path)} in ${site.where()}: '${head}' is neither a member of ${this.self.kind} '${this.self.name}' nor a cube or view (${loc.file})`, loc, site.member()),
          );
        } else {
          this.diagnostics.push(diagAt(this.missingSeverity, C.UNKNOWN_CUBE, `Unknown cube '${head}' in reference ${refText(path)} in ${site.where()} (${loc.file})`, loc, site.member()));
        }
        return;
      }
      i = 1;
      // `{a.b.member}`: follow a join path through further cubes.
      while (i < path.length - 1 && !hasMember(base, path[i]!)) {
        const next = this.env.entity(path[i]!);
        if (!next) break;
        base = next;
        i++;
      }
    }
    if (i >= path.length || cubeOnly) return;
    if (membersUnknown(base)) return;
    const name = path[i]!;
    if (!hasMember(base, name)) {
      const other = this.env.entity(name);
      if (other && i === path.length - 1 && base !== this.self) return; // `{a.b}`: join path ending at a cube
      this.diagnostics.push(
        diagAt(missingMember, C.UNRESOLVED_REFERENCE, `Unresolved reference ${refText(path)} in ${site.where()}: ${base.kind} '${base.name}' has no member '${name}' (${loc.file})`, loc, site.member()),
      );
      return;
    }
    if (i + 1 < path.length) {
      const granularity = path[i + 1]!;
      const custom = granularitiesOf(base, name);
      const ok = custom !== null && i + 2 === path.length && (BUILTIN_GRANULARITIES.has(granularity) || custom.includes(granularity));
      if (!ok) {
        this.diagnostics.push(
          diagAt('error', C.UNRESOLVED_REFERENCE, `Unresolved reference ${refText(path)} in ${site.where()}: '${granularity}' is not a granularity of time dimension '${base.name}.${name}' (${loc.file})`, loc, site.member()),
        );
      }
    }
  }
}

function forEachCaseSql(value: PlainValue, visit: (sql: string) => void): void {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) forEachCaseSql(v, visit);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k === 'sql' && typeof v === 'string') visit(v);
    else forEachCaseSql(v, visit);
  }
}

/** Checks of a resolved cube; returns the cube with equi-join columns filled in. */
export function checkCube(cube: CompiledCube, def: CubeDef, env: CheckEnv): { cube: CompiledCube; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  if (def.opaque) return { cube, diagnostics };
  const file = def.file;
  const refs = new ReferenceChecker(cube, env, diagnostics);

  if (cube.sql === undefined && cube.sqlTable === undefined) {
    diagnostics.push(diagAt('error', C.SQL_XOR_SQL_TABLE, `Cube '${cube.name}' needs either sql or sql_table (${file})`, cube.loc, cube.name));
  } else if (cube.sql !== undefined && cube.sqlTable !== undefined) {
    diagnostics.push(diagAt('error', C.SQL_XOR_SQL_TABLE, `Cube '${cube.name}' sets both sql and sql_table; use exactly one (${file})`, cube.loc, cube.name));
  }
  refs.sql(cube.sql, fixedSite(`the sql of cube '${cube.name}'`, cube.name), cube.sqlLoc ?? cube.loc);

  if (cube.joins.length > 0 && cube.primaryKeys.length === 0 && !cube.opaqueSections.includes('dimensions')) {
    diagnostics.push(
      diagAt('error', C.PRIMARY_KEY_REQUIRED, `Cube '${cube.name}' has joins but no primary key: mark a dimension with primary_key: true (${file})`, cube.loc, cube.name),
    );
  }

  const joins: Join[] = [];
  for (const join of cube.joins) {
    const target = env.entity(join.name);
    if (!target) {
      diagnostics.push(
        diagAt(env.opaqueProject ? 'warning' : 'error', C.UNKNOWN_JOIN_CUBE, `Cube '${cube.name}' joins unknown cube '${join.name}' (${join.loc.file})`, join.loc, `${cube.name}.${join.name}`),
      );
      joins.push(join);
      continue;
    }
    if (target.kind !== 'cube') {
      diagnostics.push(diagAt('error', C.UNKNOWN_JOIN_CUBE, `Cube '${cube.name}' joins '${join.name}', which is a view; joins must name cubes (${join.loc.file})`, join.loc, `${cube.name}.${join.name}`));
      joins.push(join);
      continue;
    }
    // The platform reads a join's SQL only when a query uses the join, so a member it does not
    // find there is a query-time error, not a compile error: a warning here.
    refs.sql(join.sql, fixedSite(`join '${cube.name}' → '${join.name}'`, `${cube.name}.${join.name}`), join.sqlLoc ?? join.loc, 'warning');
    const pairs = join.dynamic ? null : parseEquiJoin(join.sql, cube.name, target.name);
    joins.push({
      ...join,
      equi: pairs ? pairs.map((p) => ({ source: joinColumn(p.source, cube), target: joinColumn(p.target, target) })) : null,
    });
  }

  // Indexed loops over the members: no iterator per loop and member (see ReferenceChecker.sql).
  const site = new MemberSite();
  const dims = Object.values(cube.dimensions);
  for (let i = 0; i < dims.length; i++) {
    const dim = dims[i]!;
    refs.sql(dim.sql, site.at('dimension', cube.name, dim.name), sqlLocOf(dim));
    if (dim.latitude) refs.sql(dim.latitude, site.at('dimension', cube.name, dim.name), dim.loc);
    if (dim.longitude) refs.sql(dim.longitude, site.at('dimension', cube.name, dim.name), dim.loc);
    if (dim.case) forEachCaseSql(dim.case, (sql) => refs.sql(sql, site.at('dimension', cube.name, dim.name), dim.loc));
    if (dim.granularities.length > 0) for (const g of dim.granularities) refs.sql(g.sql, site.at('dimension', cube.name, dim.name, `granularity '${g.name}' of `), g.loc);
  }
  const measures = Object.values(cube.measures);
  for (let i = 0; i < measures.length; i++) {
    const m = measures[i]!;
    refs.sql(m.sql, site.at('measure', cube.name, m.name), sqlLocOf(m));
    if (m.filters.length > 0) for (const f of m.filters) refs.sql(f.sql, site.at('measure', cube.name, m.name, 'a filter of '), f.loc);
    if (m.drillMembers.length > 0) for (const d of m.drillMembers) refs.path(d.split('.'), site.at('measure', cube.name, m.name, 'drill_members of '), m.loc);
    if (m.props.case) forEachCaseSql(m.props.case, (sql) => refs.sql(sql, site.at('measure', cube.name, m.name), m.loc));
  }
  const segments = Object.values(cube.segments);
  for (let i = 0; i < segments.length; i++) refs.sql(segments[i]!.sql, site.at('segment', cube.name, segments[i]!.name), sqlLocOf(segments[i]!));

  // A level is any reference the platform resolves (a measure, a segment, a time dimension's
  // granularity, another cube's member: issue 27); one that does not resolve is refused as in SQL.
  // Only the cube's own dimensions make a drill-down, so anything else is a warning here, and an
  // error in a view that includes the hierarchy (see resolve-view.ts), where the platform refuses it.
  for (const h of Object.values(cube.hierarchies)) {
    h.levels.forEach((level, i) => {
      const loc = h.levelLocs[i] ?? h.loc;
      const member = `${cube.name}.${h.name}`;
      const before = diagnostics.length;
      refs.path(level.split('.'), fixedSite(`hierarchy '${member}'`, member), loc);
      if (diagnostics.length > before) return;
      const dim = levelDimension(level, cube.name);
      if (dim && cube.dimensions[dim]) return;
      if (cube.opaqueSections.length > 0) return;
      diagnostics.push(
        diagAt(
          'warning',
          C.HIERARCHY_LEVEL_NOT_DIMENSION,
          `Level '${level}' of hierarchy '${member}' is not a dimension of cube '${cube.name}': a view that includes the hierarchy refuses it (${loc.file})`,
          loc,
          member,
        ),
      );
    });
  }

  checkCrossKindDuplicates(cube, diagnostics);
  checkPreAggregations(cube, env, diagnostics);
  checkAccessPolicyMembers(cube, cube.accessPolicy, diagnostics);
  return { cube: { ...cube, joins }, diagnostics };
}

function joinColumn(side: EquiSide, cube: CompiledCube): JoinColumn {
  if (side.column) return { cube: cube.name, column: side.column };
  const member = side.member!;
  const dim = cube.dimensions[member];
  let column = plainColumn(dim?.sql) ?? undefined;
  // `{CUBE.id}` where id is itself `{CUBE.user_id}`: follow one self reference.
  if (!column && dim) {
    const via = selfMemberReference(dim.sql, cube.name);
    if (via && cube.dimensions[via]) column = plainColumn(cube.dimensions[via]!.sql) ?? undefined;
  }
  return column ? { cube: cube.name, member, column } : { cube: cube.name, member };
}

function checkCrossKindDuplicates(cube: CompiledCube, diagnostics: Diagnostic[]): void {
  const kinds: [string, Record<string, { loc: SourceLocation }>][] = [
    ['dimension', cube.dimensions],
    ['measure', cube.measures],
    ['segment', cube.segments],
    ['hierarchy', cube.hierarchies],
    ['pre-aggregation', cube.preAggregations],
  ];
  // Each member is compared with the kinds before its own; plain key lookups, no intermediate collections.
  for (let k = 1; k < kinds.length; k++) {
    const [kind, members] = kinds[k]!;
    for (const name of Object.keys(members)) {
      for (let p = 0; p < k; p++) {
        const [previous, earlier] = kinds[p]!;
        if (!Object.hasOwn(earlier, name)) continue;
        const m = members[name]!;
        diagnostics.push(
          diagAt('error', C.DUPLICATE_MEMBER, `'${name}' is defined more than once in cube '${cube.name}' (as a ${previous} and as a ${kind}) (${m.loc.file})`, m.loc, `${cube.name}.${name}`),
        );
        break;
      }
    }
  }
}

function checkPreAggregations(cube: CompiledCube, env: CheckEnv, diagnostics: Diagnostic[]): void {
  for (const pa of Object.values(cube.preAggregations)) {
    const warn = (ref: string, what: string) =>
      diagnostics.push(
        diagAt('warning', C.PRE_AGGREGATION_UNKNOWN_MEMBER, `Pre-aggregation '${cube.name}.${pa.name}' names ${what} '${ref}', which does not exist (${pa.loc.file})`, pa.loc, `${cube.name}.${pa.name}`),
      );
    const check = (ref: string, kinds: ('dimensions' | 'measures' | 'segments' | 'preAggregations')[], what: string) => {
      const parts = ref.split('.');
      const owner = parts.length === 1 || parts[0] === 'CUBE' || parts[0] === cube.name ? cube : env.entity(parts[0]!);
      const name = parts[parts.length === 1 ? 0 : 1]!;
      if (!owner) return warn(ref, what);
      if (owner.kind !== 'cube') return;
      if (owner.opaqueSections.length > 0) return;
      if (!kinds.some((k) => owner[k][name])) warn(ref, what);
    };
    for (const r of pa.measures) check(r, ['measures'], 'measure');
    for (const r of pa.dimensions) check(r, ['dimensions'], 'dimension');
    for (const r of pa.segments) check(r, ['segments'], 'segment');
    if (pa.timeDimension) check(pa.timeDimension, ['dimensions'], 'time dimension');
    for (const r of pa.rollups) check(r, ['preAggregations'], 'rollup');
  }
}

function checkAccessPolicyMembers(owner: Owner, policies: CompiledCube['accessPolicy'], diagnostics: Diagnostic[]): void {
  if (membersUnknown(owner)) return;
  for (const policy of policies) {
    const lists = [policy.memberLevel?.includes, policy.memberLevel?.excludes];
    for (const list of lists) {
      if (!Array.isArray(list)) continue;
      for (const name of list) {
        const member = name.split('.').pop()!;
        if (!hasMember(owner, member)) {
          diagnostics.push(
            diagAt('warning', C.UNRESOLVED_REFERENCE, `Access policy of ${owner.kind} '${owner.name}' names member '${name}', which does not exist (${policy.loc.file})`, policy.loc, owner.name),
          );
        }
      }
    }
  }
}

export function checkView(resolved: ResolvedView, env: CheckEnv): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const view = resolved.view;
  const refs = new ReferenceChecker(view, env, diagnostics);
  const site = new MemberSite();
  for (const m of Object.values(view.measures)) refs.sql(m.sql, site.at('measure', view.name, m.name), sqlLocOf(m));
  for (const d of Object.values(view.dimensions)) refs.sql(d.sql, site.at('dimension', view.name, d.name), sqlLocOf(d));
  for (const s of Object.values(view.segments)) refs.sql(s.sql, site.at('segment', view.name, s.name), sqlLocOf(s));
  checkAccessPolicyMembers(view, view.accessPolicy, diagnostics);

  const folderNames = new Set<string>();
  const walk = (folders: FolderDef[], nested: boolean) => {
    for (const folder of folders) {
      if (!nested) {
        if (folderNames.has(folder.name)) {
          diagnostics.push(diagAt('error', C.DUPLICATE_FOLDER, `Folder '${folder.name}' is defined more than once in view '${view.name}' (${folder.loc.file})`, folder.loc, view.name));
        }
        folderNames.add(folder.name);
      }
      if (folder.includes === '*') continue;
      for (const item of folder.includes) {
        if ('includes' in item) walk([item], true);
        else if (!view.members[item.name] && !view.dynamic) {
          diagnostics.push(
            diagAt('error', C.FOLDER_UNKNOWN_MEMBER, `Folder '${folder.name}' of view '${view.name}' names '${item.name}', which is not a member of the view (${item.loc.file})`, item.loc, `${view.name}.${item.name}`),
          );
        }
      }
    }
  };
  walk(resolved.folderDefs, false);
  return diagnostics;
}

export function checkViewGroup(group: ViewGroupDef, env: CheckEnv): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const v of group.views) {
    const target = env.entity(v.name);
    if (!target || target.kind !== 'view') {
      diagnostics.push(
        diagAt(env.opaqueProject && !target ? 'warning' : 'error', C.UNKNOWN_VIEW_IN_GROUP, `View group '${group.name}' lists '${v.name}', which is not a view (${v.loc.file})`, v.loc, group.name),
      );
    }
  }
  return diagnostics;
}
