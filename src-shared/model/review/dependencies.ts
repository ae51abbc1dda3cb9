// What uses what inside one compiled model, member by member (issue 26): a member's SQL, filters,
// case and ordering read other members; a view exposes cube members through joins; every member
// of a cube reads the cube's own definition. Reversed, this says what a change reaches.

import { scanSql } from '../references';
import type { CompiledCube, CompiledModel, CompiledView, Dimension, Measure, PlainValue, Segment } from '../types';

/** Node ids: `cube.member` / `view.member` for members, the entity name for a cube or view, `a->b` for a join. */
export type NodeId = string;

export const joinId = (from: string, to: string): NodeId => `${from}->${to}`;

/** SQL texts of a member that can read other members. */
function sqlTextsOf(member: Dimension | Measure | Segment): string[] {
  const texts: string[] = [];
  if (member.sql) texts.push(member.sql);
  if (member.kind === 'measure') for (const f of member.filters) texts.push(f.sql);
  const collect = (value: PlainValue) => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  for (const key of ['case', 'order_by', 'latitude', 'longitude']) collect(member.props[key]);
  return texts;
}

/** Member names listed without SQL (`reduce_by`, `group_by`…), read by multi-stage measures. */
function listedMembers(member: Measure | Dimension | Segment): string[] {
  const names: string[] = [];
  for (const key of ['reduce_by', 'group_by', 'add_group_by']) {
    const value = member.props[key];
    if (Array.isArray(value)) for (const v of value) if (typeof v === 'string') names.push(v);
  }
  return names;
}

const membersOf = (entity: CompiledCube | CompiledView) => ({ ...entity.dimensions, ...entity.measures, ...entity.segments });

/** The node a `{…}` reference inside `owner`'s SQL names, when it names one. */
function referenced(model: CompiledModel, owner: CompiledCube | CompiledView, path: string[]): NodeId | null {
  const own = membersOf(owner);
  if (path.length === 1) {
    const [name] = path as [string];
    if (name === 'CUBE') return owner.name;
    if (own[name]) return `${owner.name}.${name}`;
    if (owner.kind === 'view' && owner.members[name]) return `${owner.name}.${name}`;
    if (model.cubes[name]) return name;
    return null;
  }
  const member = path[path.length - 1]!;
  const entityName = path[path.length - 2]!;
  const entity = entityName === 'CUBE' ? owner : (model.cubes[entityName] ?? model.views[entityName]);
  if (!entity) return null;
  return `${entity.name}.${member}`;
}

export interface Dependencies {
  /** node → nodes that read it. */
  readers: Map<NodeId, Set<NodeId>>;
  /** Member nodes and their kind (cube and view members, view-exposed ones included). */
  members: Map<NodeId, 'dimension' | 'measure' | 'segment'>;
}

export function dependenciesOf(model: CompiledModel): Dependencies {
  const readers = new Map<NodeId, Set<NodeId>>();
  const members = new Map<NodeId, 'dimension' | 'measure' | 'segment'>();
  const edge = (from: NodeId, to: NodeId) => {
    if (from === to) return;
    let set = readers.get(from);
    if (!set) readers.set(from, (set = new Set()));
    set.add(to);
  };
  const readSql = (owner: CompiledCube | CompiledView, reader: NodeId, texts: string[]) => {
    for (const text of texts) for (const ref of scanSql(text).refs) {
      const node = referenced(model, owner, ref.path);
      if (node) edge(node, reader);
    }
  };

  for (const cube of Object.values(model.cubes)) {
    if (cube.sql) readSql(cube, cube.name, [cube.sql]);
    for (const member of Object.values(membersOf(cube))) {
      const id = `${cube.name}.${member.name}`;
      members.set(id, member.kind);
      edge(cube.name, id);
      readSql(cube, id, sqlTextsOf(member));
      for (const name of listedMembers(member)) edge(name.includes('.') ? name : `${cube.name}.${name}`, id);
    }
    for (const join of cube.joins) {
      const id = joinId(cube.name, join.name);
      readSql(cube, id, [join.sql]);
    }
  }

  for (const view of Object.values(model.views)) {
    const own = membersOf(view);
    for (const [name, exposed] of Object.entries(view.members)) {
      if (exposed.kind === 'hierarchy') continue;
      const id = `${view.name}.${name}`;
      members.set(id, exposed.kind);
      edge(view.name, id);
      const definedHere = own[name];
      if (definedHere) {
        readSql(view, id, sqlTextsOf(definedHere));
        continue;
      }
      edge(`${exposed.cube}.${exposed.member}`, id);
      // Every join on the way from the view's root to the member's cube, whichever side declares it.
      for (let i = 0; i + 1 < exposed.path.length; i++) {
        const [a, b] = [exposed.path[i]!, exposed.path[i + 1]!];
        edge(joinId(a, b), id);
        edge(joinId(b, a), id);
      }
    }
  }
  return { readers, members };
}

/** Everything that reads `start` directly or through others, with the first changed node it came from. */
export function readersOf(deps: Dependencies, start: Iterable<NodeId>): Map<NodeId, NodeId> {
  const reached = new Map<NodeId, NodeId>();
  const queue: [NodeId, NodeId][] = [];
  for (const node of start) queue.push([node, node]);
  for (let i = 0; i < queue.length; i++) {
    const [node, origin] = queue[i]!;
    for (const reader of deps.readers.get(node) ?? []) {
      if (reached.has(reader)) continue;
      reached.set(reader, origin);
      queue.push([reader, origin]);
    }
  }
  return reached;
}
