// Resolving a view: its `extends` chain, the members each `cubes` entry selects along its join path
// (includes/excludes, prefix, alias), views split off by `split: true`, and folders.

import { DiagnosticCodes as C } from './codes';
import { byName, diagAt, extendsChain, mergeCommon, type ResolveEnv, type ResolvedView } from './resolve-extends';
import { resolveJoinPath } from './resolve-join-path';
import type { FolderDef, ViewCubeDef, ViewDef } from './schema';
import type {
  CompiledCube,
  CompiledView,
  Diagnostic,
  Dimension,
  Folder,
  Hierarchy,
  Measure,
  PlainValue,
  Segment,
  SourceLocation,
  ViewCube,
  ViewMember,
  ViewMemberKind,
} from './types';
import { dict, hashDict } from './dict';

const KIND_ORDER: ViewMemberKind[] = ['hierarchy', 'measure', 'dimension', 'segment'];

interface Selected {
  kind: ViewMemberKind;
  member: string;
  exposed: string;
  include?: { title?: string; description?: string; format?: PlainValue; meta?: PlainValue };
  loc: SourceLocation;
}

function memberKind(cube: CompiledCube, name: string): ViewMemberKind | undefined {
  if (cube.hierarchies[name]) return 'hierarchy';
  if (cube.measures[name]) return 'measure';
  if (cube.dimensions[name]) return 'dimension';
  if (cube.segments[name]) return 'segment';
  return undefined;
}

function sectionOf(kind: ViewMemberKind): string {
  return kind === 'hierarchy' ? 'hierarchies' : `${kind}s`;
}

function definitionOf(cube: CompiledCube, kind: ViewMemberKind, name: string): Dimension | Measure | Segment | Hierarchy | undefined {
  switch (kind) {
    case 'hierarchy':
      return cube.hierarchies[name];
    case 'measure':
      return cube.measures[name];
    case 'dimension':
      return cube.dimensions[name];
    default:
      return cube.segments[name];
  }
}


export function resolveView(def: ViewDef, env: ResolveEnv): { resolved: ResolvedView; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const chain = extendsChain(def, env, diagnostics);
  const view: CompiledView = {
    kind: 'view',
    name: def.name,
    file: def.file,
    loc: def.loc,
    format: def.format,
    public: true,
    extendsChain: chain.slice(0, -1).map((d) => d.name).reverse(),
    cubes: [],
    members: hashDict(),
    joinPaths: [],
    folders: [],
    accessPolicy: [],
    dimensions: dict(),
    measures: dict(),
    segments: dict(),
    viewGroups: [],
    templated: false,
    dynamic: false,
    props: dict(),
  };
  if (def.extends) view.extends = def.extends.name;
  const cubeDefs: ViewCubeDef[] = [];
  const folderDefs: FolderDef[] = [];
  for (const d of chain) {
    mergeCommon(view, d);
    cubeDefs.push(...d.cubes);
    if (d.folders) folderDefs.push(...d.folders);
    if (d.accessPolicy) view.accessPolicy = d.accessPolicy;
    byName(view.dimensions, d.dimensions);
    byName(view.measures, d.measures);
    byName(view.segments, d.segments);
    for (const g of d.viewGroups) if (!view.viewGroups.includes(g)) view.viewGroups.push(g);
    view.templated ||= d.templated;
    view.dynamic ||= d.dynamic;
  }

  // Members the view defines itself come first; included members must not clash with them.
  const own = (kind: ViewMemberKind, m: Dimension | Measure | Segment) => {
    view.members[m.name] = {
      name: m.name,
      kind,
      cube: def.name,
      member: m.name,
      path: [],
      type: 'type' in m ? m.type : undefined,
      title: m.title,
      description: m.description,
      meta: m.meta,
      format: m.format,
      loc: m.loc,
    };
  };
  for (const m of Object.values(view.measures)) own('measure', m);
  for (const m of Object.values(view.dimensions)) own('dimension', m);
  for (const m of Object.values(view.segments)) own('segment', m);

  const entries: { entry: ViewCubeDef; cube: ViewCube; target: CompiledCube; selected: Selected[] }[] = [];
  const seenPaths = new Set<string>();
  for (const entry of cubeDefs) {
    const path = resolveJoinPath(entry, def.name, env, diagnostics);
    if (!path) continue;
    const cubeName = path[path.length - 1]!;
    const target = env.cube(cubeName);
    if (!target) continue;
    const key = path.join('.');
    if (!seenPaths.has(key)) {
      seenPaths.add(key);
      view.joinPaths.push(path);
    }
    const viewCube: ViewCube = {
      joinPath: entry.joinPath,
      path,
      cube: cubeName,
      alias: entry.alias,
      prefix: entry.prefix,
      split: entry.split,
      includes: entry.includes,
      excludes: entry.excludes.map((e) => e.name),
      loc: entry.loc,
    };
    view.cubes.push(viewCube);
    entries.push({ entry, cube: viewCube, target, selected: [] });
  }
  const levels = hierarchyLevels(entries);
  for (const e of entries) e.selected = selectMembers(e.entry, e.cube.path, e.target, def, diagnostics, levels);
  if (view.joinPaths.length > 0 && view.joinPaths.every((p) => p[0] === view.joinPaths[0]![0])) view.root = view.joinPaths[0]![0];

  const splitViews = new Map<string, CompiledView>();
  // Indexed loops: this runs for every member of every view, and an iterator per loop and step
  // was 2 % of what a 10,000-cube compile allocates (issue 28).
  for (const kind of KIND_ORDER) {
    for (let e = 0; e < entries.length; e++) {
      const { entry, cube, target, selected } = entries[e]!;
      for (let i = 0; i < selected.length; i++) {
        const s = selected[i]!;
        if (s.kind !== kind) continue;
        const source = definitionOf(target, kind, s.member)!;
        const member: ViewMember = {
          name: s.exposed,
          kind,
          cube: target.name,
          member: s.member,
          path: cube.path,
          type: 'type' in source ? source.type : undefined,
          title: s.include?.title ?? source.title,
          description: s.include?.description ?? ('description' in source ? source.description : undefined),
          meta: s.include?.meta ?? ('meta' in source ? source.meta : undefined),
          format: s.include?.format ?? ('format' in source ? source.format : undefined),
          loc: s.loc,
        };
        let into = view;
        if (entry.split) {
          const splitName = `${def.name}_${entry.alias ?? target.name}`;
          into = splitViews.get(splitName) ?? newSplitView(splitName, view);
          splitViews.set(splitName, into);
        }
        const existing = into.members[s.exposed];
        if (existing) {
          // The same member through the same join path is one member; through another path it is
          // another (the platform refuses the clash).
          if (existing.cube === member.cube && existing.member === member.member && existing.kind === member.kind && existing.path.join('.') === member.path.join('.')) continue;
          diagnostics.push(
            diagAt(
              'error',
              C.VIEW_MEMBER_CONFLICT,
              `Included member '${s.exposed}' (${target.name}.${s.member}) conflicts with '${s.exposed}' (${existing.cube}.${existing.member}) already in view '${into.name}'; exclude one of them or give it an alias (${entry.loc.file})`,
              s.loc,
              `${def.name}.${s.exposed}`,
            ),
          );
          continue;
        }
        into.members[s.exposed] = member;
      }
    }
  }
  for (const split of splitViews.values()) {
    split.joinPaths = [...new Set(Object.values(split.members).map((m) => m.path.join('.')))].map((p) => p.split('.'));
    if (split.joinPaths.length > 0 && split.joinPaths.every((p) => p[0] === split.joinPaths[0]![0])) split.root = split.joinPaths[0]![0];
  }

  view.folders = folderDefs.map((f) => buildFolder(f, view));
  return { resolved: { view, splitViews: [...splitViews.values()], folderDefs }, diagnostics };
}

function newSplitView(name: string, parent: CompiledView): CompiledView {
  return {
    ...parent,
    name,
    splitOf: parent.name,
    cubes: [],
    members: hashDict(),
    joinPaths: [],
    folders: [],
    dimensions: dict(),
    measures: dict(),
    segments: dict(),
    extendsChain: [],
    extends: undefined,
  };
}

/** A hierarchy level as the cube and member it names (a granularity after it is dropped, as the platform drops it). */
function levelMember(level: string, cubeName: string): { cube: string; member: string } | null {
  const parts = level.split('.');
  if (parts.length === 1) return { cube: cubeName, member: parts[0]! };
  if (parts.length > 3) return null;
  return { cube: parts[0] === 'CUBE' ? cubeName : parts[0]!, member: parts[1]! };
}

/** Levels of the hierarchies a view includes, with the hierarchy each comes from: cube → member → hierarchy. */
type LevelMap = Map<string, Map<string, { cube: string; hierarchy: string; level: string; loc: SourceLocation }>>;

/**
 * The platform brings every level of an included hierarchy into each entry of the view that
 * lists its includes and reaches the level's cube (issue 27): `customers.id` as a level of an
 * `orders` hierarchy lands in the entry of `orders.customers`.
 */
function hierarchyLevels(entries: { entry: ViewCubeDef; target: CompiledCube }[]): LevelMap {
  const out: LevelMap = new Map();
  for (const { entry, target } of entries) {
    const excluded = new Set(entry.excludes.map((e) => e.name));
    const names = entry.includes === '*' ? Object.keys(target.hierarchies) : entry.includes.map((i) => i.name).filter((n) => target.hierarchies[n]);
    for (const name of names) {
      if (excluded.has(name)) continue;
      for (const level of target.hierarchies[name]!.levels) {
        const at = levelMember(level, target.name);
        if (!at) continue;
        const byMember = out.get(at.cube) ?? new Map();
        out.set(at.cube, byMember);
        const loc = entry.includes === '*' ? entry.loc : (entry.includes.find((i) => i.name === name)?.loc ?? entry.loc);
        if (!byMember.has(at.member)) byMember.set(at.member, { cube: target.name, hierarchy: name, level, loc });
      }
    }
  }
  return out;
}

function selectMembers(entry: ViewCubeDef, path: string[], target: CompiledCube, def: ViewDef, diagnostics: Diagnostic[], levels: LevelMap): Selected[] {
  const view = def.name;
  const cubeLabel = entry.alias ?? target.name;
  const expose = (name: string) => (entry.prefix ? `${cubeLabel}_${name}` : name);
  const opaque = (kind: ViewMemberKind) => target.opaqueSections.includes(sectionOf(kind));
  const selected: Selected[] = [];
  if (entry.includes === '*') {
    for (const kind of KIND_ORDER) {
      const section = kind === 'hierarchy' ? target.hierarchies : kind === 'measure' ? target.measures : kind === 'dimension' ? target.dimensions : target.segments;
      const names = Object.keys(section);
      for (let i = 0; i < names.length; i++) selected.push({ kind, member: names[i]!, exposed: expose(names[i]!), loc: entry.loc });
    }
  } else {
    for (const inc of entry.includes) {
      if (inc.name.includes('.')) {
        diagnostics.push(
          diagAt('error', C.VIEW_INCLUDE_PATH, `Paths are not allowed in includes of view '${view}' but '${inc.name}' was given; use join_path to reach the cube (${inc.loc.file})`, inc.loc, view),
        );
        continue;
      }
      const kind = memberKind(target, inc.name);
      if (!kind) {
        if (KIND_ORDER.some(opaque)) continue;
        diagnostics.push(
          diagAt(
            'error',
            C.VIEW_INCLUDE_UNKNOWN_MEMBER,
            `Member '${inc.name}' is included in view '${view}' but cube '${target.name}' does not define it (join_path ${path.join('.')}, ${inc.loc.file})`,
            inc.loc,
            `${view}.${inc.alias ?? inc.name}`,
          ),
        );
        continue;
      }
      selected.push({ kind, member: inc.name, exposed: expose(inc.alias ?? inc.name), include: inc, loc: inc.loc });
    }
    // Levels of the view's hierarchies on this cube come along, as dimensions.
    for (const [name, from] of levels.get(target.name) ?? []) {
      if (selected.some((x) => x.member === name)) continue;
      if (target.dimensions[name]) selected.push({ kind: 'dimension', member: name, exposed: expose(name), loc: entry.loc });
      else if (memberKind(target, name)) levelNotDimension(from, memberKind(target, name)!, view, diagnostics);
    }
  }
  if (entry.excludes.length === 0) return checkHierarchyLevels(target, selected, view, diagnostics, levels);
  const excluded = new Set<string>();
  for (const exc of entry.excludes) {
    if (exc.name.includes('.')) {
      diagnostics.push(diagAt('error', C.VIEW_INCLUDE_PATH, `Paths are not allowed in excludes of view '${view}' but '${exc.name}' was given (${exc.loc.file})`, exc.loc, view));
      continue;
    }
    if (!memberKind(target, exc.name) && !KIND_ORDER.some(opaque)) {
      diagnostics.push(
        diagAt('warning', C.VIEW_EXCLUDE_UNKNOWN_MEMBER, `View '${view}' excludes '${exc.name}', which cube '${target.name}' does not define (${exc.loc.file})`, exc.loc, view),
      );
    }
    excluded.add(exc.name);
  }
  return checkHierarchyLevels(target, selected.filter((s) => !excluded.has(s.member)), view, diagnostics, levels);
}

/**
 * A view that includes a hierarchy refuses a level that is a measure or segment it also includes
 * (listed or through `*`), as the platform does ("Only dimensions can be part of a hierarchy").
 * The cube itself only warns (check.ts).
 */
function checkHierarchyLevels(target: CompiledCube, selected: Selected[], view: string, diagnostics: Diagnostic[], levels: LevelMap): Selected[] {
  const onCube = levels.get(target.name);
  if (!onCube) return selected;
  for (const s of selected) {
    if (s.kind !== 'measure' && s.kind !== 'segment') continue;
    const from = onCube.get(s.member);
    if (from) levelNotDimension(from, s.kind, view, diagnostics);
  }
  return selected;
}

function levelNotDimension(from: { cube: string; hierarchy: string; level: string; loc: SourceLocation }, kind: ViewMemberKind, view: string, diagnostics: Diagnostic[]): void {
  const loc = from.loc;
  diagnostics.push(
    diagAt(
      'error',
      C.HIERARCHY_LEVEL_NOT_DIMENSION,
      `View '${view}' includes hierarchy '${from.cube}.${from.hierarchy}', whose level '${from.level}' is a ${kind}: only dimensions can be levels of a hierarchy in a view (${loc.file})`,
      loc,
      `${view}.${from.hierarchy}`,
    ),
  );
}

/**
 * Dimension name of a hierarchy level written `dim`, `CUBE.dim`, `<cube>.dim` or with a
 * granularity (`CUBE.created_at.month`, which brings the time dimension into a view as the
 * platform does); null for another cube's member.
 */
export function levelDimension(level: string, cubeName: string): string | null {
  const at = levelMember(level, cubeName);
  return at && at.cube === cubeName ? at.member : null;
}

function buildFolder(def: FolderDef, view: CompiledView): Folder {
  const folder: Folder = { name: def.name, loc: def.loc, members: [], folders: [] };
  if (def.includes === '*') folder.members = Object.keys(view.members);
  else {
    for (const item of def.includes) {
      if ('includes' in item) folder.folders.push(buildFolder(item, view));
      else folder.members.push(item.name);
    }
  }
  return folder;
}
