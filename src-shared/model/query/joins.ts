// The join tree of a query and which of its cubes have their rows repeated by it.
//
// Joins are directed: a cube joins the cubes its `joins` name, LEFT JOIN, as the platform does.
// A query over cubes picks the first of its cubes (in query order) from which every other one is
// reachable, and the shortest join chain to each; a query over a view follows the view's join paths.

import type { CompiledModel, Join } from '../types';
import { QueryError, QueryErrorCodes } from './types';
import { own } from '../dict';

export interface JoinEdge {
  parent: string;
  child: string;
  join: Join;
}

export interface JoinTree {
  root: string;
  /** In join order (every parent before its children). */
  edges: JoinEdge[];
  cubes: string[];
}

function edgeOf(model: CompiledModel, parent: string, child: string): JoinEdge {
  const join = own(model.cubes, parent)?.joins.find((j) => j.name === child);
  if (!join) throw new QueryError(QueryErrorCodes.NO_JOIN_PATH, `Cube '${parent}' declares no join to '${child}'.`);
  return { parent, child, join };
}

/** Shortest join chains from `root`: parent of each reachable cube. */
function bfs(model: CompiledModel, root: string): Map<string, string | null> {
  const parent = new Map<string, string | null>([[root, null]]);
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    const from = queue[i]!;
    for (const join of own(model.cubes, from)?.joins ?? []) {
      if (parent.has(join.name) || !own(model.cubes, join.name)) continue;
      parent.set(join.name, from);
      queue.push(join.name);
    }
  }
  return parent;
}

/** The join tree over `cubes` (query order), or NO_JOIN_PATH saying which cubes cannot be joined. */
export function cubeJoinTree(model: CompiledModel, cubes: string[]): JoinTree {
  const wanted = [...new Set(cubes)];
  for (const root of wanted) {
    const parent = bfs(model, root);
    if (!wanted.every((c) => parent.has(c))) continue;
    const inTree = new Set<string>([root]);
    for (const cube of wanted) {
      for (let c: string | null | undefined = cube; c && !inTree.has(c); c = parent.get(c)) inTree.add(c);
    }
    return treeFrom(model, root, (c) => (c === root ? null : parent.get(c)!), inTree);
  }
  const [first, ...rest] = wanted;
  const reach = bfs(model, first!);
  const unreachable = rest.filter((c) => !reach.has(c));
  throw new QueryError(
    QueryErrorCodes.NO_JOIN_PATH,
    `Cubes ${wanted.map((c) => `'${c}'`).join(', ')} cannot be queried together: no cube among them reaches all the others through joins ` +
      `(from '${first}', ${unreachable.map((c) => `'${c}'`).join(', ')} cannot be reached). Add a join, or query them through a view.`,
  );
}

/** The join tree of a view query: the union of the view's join paths to the cubes used. */
export function viewJoinTree(model: CompiledModel, viewName: string, paths: string[][]): JoinTree {
  const root = paths[0]?.[0];
  if (!root) throw new QueryError(QueryErrorCodes.NO_JOIN_PATH, `View '${viewName}' has no join path to query.`);
  const parents = new Map<string, string | null>([[root, null]]);
  for (const path of paths) {
    if (path[0] !== root) {
      throw new QueryError(QueryErrorCodes.NO_JOIN_PATH, `View '${viewName}' has join paths from '${root}' and from '${path[0]}'; a query needs one root.`);
    }
    for (let i = 1; i < path.length; i++) {
      const known = parents.get(path[i]!);
      if (known !== undefined && known !== path[i - 1]) {
        throw new QueryError(QueryErrorCodes.NO_JOIN_PATH, `View '${viewName}' reaches cube '${path[i]}' by two join paths; a query can join a cube once.`);
      }
      parents.set(path[i]!, path[i - 1]!);
    }
  }
  return treeFrom(model, root, (c) => parents.get(c) ?? null, new Set(parents.keys()));
}

function treeFrom(model: CompiledModel, root: string, parentOf: (c: string) => string | null, members: Set<string>): JoinTree {
  const children = new Map<string, string[]>();
  for (const c of members) {
    const p = parentOf(c);
    if (p !== null) children.set(p, [...(children.get(p) ?? []), c]);
  }
  const edges: JoinEdge[] = [];
  const order = [root];
  for (let i = 0; i < order.length; i++) {
    for (const child of (children.get(order[i]!) ?? []).sort()) {
      edges.push(edgeOf(model, order[i]!, child));
      order.push(child);
    }
  }
  return { root, edges, cubes: order };
}

/**
 * Cubes whose rows the tree repeats: across a `one_to_many` join every cube on the "one" side is
 * repeated once per matching row on the "many" side (and the other way round for `many_to_one`).
 * Sums, counts and averages of those cubes must be taken over distinct primary keys.
 */
export function multipliedCubes(tree: JoinTree): Set<string> {
  const children = new Map<string, string[]>();
  for (const e of tree.edges) children.set(e.parent, [...(children.get(e.parent) ?? []), e.child]);
  const subtree = (top: string): Set<string> => {
    const out = new Set<string>();
    const stack = [top];
    while (stack.length) {
      const c = stack.pop()!;
      out.add(c);
      stack.push(...(children.get(c) ?? []));
    }
    return out;
  };
  const multiplied = new Set<string>();
  for (const e of tree.edges) {
    if (e.join.relationship === 'one_to_one') continue;
    const below = subtree(e.child);
    const side = e.join.relationship === 'many_to_one' ? [...below] : tree.cubes.filter((c) => !below.has(c));
    for (const c of side) multiplied.add(c);
  }
  return multiplied;
}
