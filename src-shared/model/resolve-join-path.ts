// A view's `join_path`: the cubes it passes through, each hop a join of the previous cube or else
// the shortest chain of joins between the two.

import { DiagnosticCodes as C } from './codes';
import { diagAt, type ResolveEnv } from './resolve-extends';
import type { ViewCubeDef } from './schema';
import type { Diagnostic } from './types';

/** Cube path for a `join_path`: each hop a join of the previous cube, else the shortest chain of joins. */
export function resolveJoinPath(entry: ViewCubeDef, view: string, env: ResolveEnv, diagnostics: Diagnostic[]): string[] | null {
  const missing = env.opaqueProject ? 'warning' : 'error';
  const hops = entry.joinPath;
  for (const hop of hops) {
    const def = env.definition(hop);
    if (!def || def.kind !== 'cube') {
      diagnostics.push(
        diagAt(
          def ? 'error' : missing,
          C.UNKNOWN_JOIN_PATH_CUBE,
          def
            ? `join_path '${hops.join('.')}' of view '${view}' names '${hop}', which is a view, not a cube (${entry.loc.file})`
            : `join_path '${hops.join('.')}' of view '${view}' names unknown cube '${hop}' (${entry.loc.file})`,
          entry.joinPathLoc,
          view,
        ),
      );
      return null;
    }
  }
  const path = [hops[0]!];
  for (let i = 1; i < hops.length; i++) {
    const from = path[path.length - 1]!;
    const to = hops[i]!;
    if (from === to) continue;
    const fromCube = env.cube(from);
    if (fromCube?.joins.some((j) => j.name === to)) {
      path.push(to);
      continue;
    }
    const chain = shortestJoinChain(env.joinTargets(), from, to);
    if (!chain) {
      // The platform's compiler accepts such a path (the join is looked up when a query runs and
      // fails then), so this is a warning: the view compiles, its queries across this hop fail.
      diagnostics.push(
        diagAt(
          'warning',
          C.JOIN_PATH_NOT_FOUND,
          `join_path '${hops.join('.')}' of view '${view}': cube '${from}' has no join path to cube '${to}'; queries through this view that need both will fail (${entry.loc.file})`,
          entry.joinPathLoc,
          view,
        ),
      );
      path.push(to);
      continue;
    }
    path.push(...chain.slice(1));
  }
  return path;
}

function shortestJoinChain(graph: Map<string, string[]>, from: string, to: string): string[] | null {
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    if (node === to) break;
    for (const next of graph.get(node) ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, node);
      queue.push(next);
    }
  }
  if (!previous.has(to)) return null;
  const chain = [to];
  while (chain[0] !== from) chain.unshift(previous.get(chain[0]!)!);
  return chain;
}
