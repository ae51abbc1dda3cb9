// What the incremental compiler (compiler.ts) keeps per file and per entity, and how it turns those
// caches into its answer: the diagnostics of clashing names, a stable diagnostic order, and the
// compiled model assembled from the winning definitions.

import { DiagnosticCodes as C } from './codes';
import type { ResolvedView } from './resolve';
import type { CubeDef, EntityDef, ViewDef, ViewGroupDef } from './schema';
import type { CompiledCube, CompiledModel, Diagnostic, JoinGraphEdge, ModelFileInfo, ViewGroup } from './types';
import { dict } from './dict';

/**
 * What the compiler keeps of a file once it is read: the facts the model reports and its
 * definitions, not its parse tree (issue 28: the tree of a 50 MB model is several times its size,
 * and nothing after normalizing reads it).
 */
export interface FileState {
  facts: ModelFileInfo;
  defs: EntityDef[];
  /** Parse and per-definition diagnostics. */
  diagnostics: Diagnostic[];
}

export interface EntityState {
  def: CubeDef | ViewDef | ViewGroupDef;
  shapeValid: boolean;
  resolving: boolean;
  cube?: CompiledCube;
  view?: ResolvedView;
  shapeDiagnostics: Diagnostic[];
  shapeDeps: Set<string>;
  /** The shape read every cube's joins (a join path hop that is not a direct join). */
  readsAllJoins: boolean;
  checkedCube?: CompiledCube;
  checkDiagnostics: Diagnostic[];
  checkDeps: Set<string>;
}

/** Cube/view name → definitions, first one wins (ordered by file path, then position). */
export type Registry = Map<string, (CubeDef | ViewDef)[]>;
export type GroupRegistry = Map<string, ViewGroupDef[]>;

export function compareDefs(a: { file: string; index: number }, b: { file: string; index: number }): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.index - b.index;
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.column !== b.column) return a.column - b.column;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  if (a.message !== b.message) return a.message < b.message ? -1 : 1;
  if (a.severity !== b.severity) return a.severity < b.severity ? -1 : 1;
  return (a.member ?? '') < (b.member ?? '') ? -1 : (a.member ?? '') > (b.member ?? '') ? 1 : 0;
}

/** One error for every definition that lost its name to an earlier one. */
export function registryDiagnostics(registry: Registry, groupRegistry: GroupRegistry): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [name, defs] of registry) {
    if (defs.length < 2) continue;
    const first = defs[0]!;
    for (const def of defs.slice(1)) {
      const sameKind = def.kind === first.kind;
      const code = !sameKind ? C.CUBE_VIEW_NAME_CONFLICT : def.kind === 'cube' ? C.DUPLICATE_CUBE : C.DUPLICATE_VIEW;
      const message = sameKind
        ? `${def.kind === 'cube' ? 'Cube' : 'View'} '${name}' in ${def.file} is already defined in ${first.file}:${first.loc.line}`
        : `${def.kind === 'cube' ? 'Cube' : 'View'} '${name}' in ${def.file} has the same name as the ${first.kind} in ${first.file}:${first.loc.line}; cubes and views share one namespace`;
      out.push({ severity: 'error', code, message, file: def.file, line: def.loc.line, column: def.loc.column, member: name });
    }
  }
  for (const [name, defs] of groupRegistry) {
    const first = defs[0]!;
    for (const def of defs.slice(1)) {
      out.push({
        severity: 'error',
        code: C.DUPLICATE_VIEW_GROUP,
        message: `View group '${name}' in ${def.file} is already defined in ${first.file}:${first.loc.line}`,
        file: def.file,
        line: def.loc.line,
        column: def.loc.column,
        member: name,
      });
    }
  }
  return out;
}

/** The compiled model: the checked winners, their join graph, view groups and per-file facts. */
export function assembleModel(registry: Registry, groupRegistry: GroupRegistry, entities: Map<string, EntityState>, files: Map<string, FileState>): CompiledModel {
  const model: CompiledModel = { cubes: dict(), views: dict(), viewGroups: dict(), joinGraph: dict(), files: dict() };
  const winners = [...registry.values()].map((defs) => defs[0]!).sort(compareDefs);
  for (const def of winners) {
    const state = entities.get(def.name);
    if (!state) continue;
    if (def.kind === 'cube' && state.checkedCube) model.cubes[def.name] = state.checkedCube;
  }
  for (const def of winners) {
    const state = entities.get(def.name);
    if (!state || def.kind !== 'view' || !state.view) continue;
    model.views[def.name] = state.view.view;
    for (const split of state.view.splitViews) if (!registry.has(split.name) && !model.views[split.name]) model.views[split.name] = split;
  }
  for (const cube of Object.values(model.cubes)) {
    const edges: JoinGraphEdge[] = [];
    for (const join of cube.joins) {
      if (model.cubes[join.name]) edges.push({ from: cube.name, to: join.name, relationship: join.relationship, equi: !!join.equi });
    }
    model.joinGraph[cube.name] = edges;
  }
  const groups = [...groupRegistry.values()].map((defs) => defs[0]!).sort(compareDefs);
  for (const g of groups) {
    const group: ViewGroup = { name: g.name, loc: g.loc, title: g.title, description: g.description, views: g.views.map((v) => v.name) };
    model.viewGroups[g.name] = group;
  }
  for (const view of Object.values(model.views)) {
    for (const name of view.viewGroups) {
      const group = (model.viewGroups[name] ??= { name, loc: view.loc, views: [] });
      if (!group.views.includes(view.name)) group.views.push(view.name);
    }
  }
  const paths = [...files.keys()].sort();
  for (const path of paths) {
    const p = files.get(path)!.facts;
    model.files[path] = { format: p.format, templated: p.templated, dynamic: p.dynamic, opaqueDefinitions: p.opaqueDefinitions };
  }
  return model;
}
