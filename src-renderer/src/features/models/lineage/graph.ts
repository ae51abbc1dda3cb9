// Lineage of a cube or view, free of the DOM so it is testable on its own: what it is built from
// (tables, the cube it extends, the cubes of a view's join paths, the cubes it joins) and what uses it
// (cubes that extend or join it, views over it, the semantic views pushed and the metric views
// published from those views, dashboards whose widget queries name its members), laid out in columns
// by distance: upstream on the left, the item in the middle, what uses it on the right.
import type { ModelSymbols } from '../protocol';

export type LineageKind = 'table' | 'cube' | 'view' | 'semantic-view' | 'metric-view' | 'dashboard';

/** What the model does not say: pushes, publications and dashboards, read from the service. */
export interface LineageFacts {
  /** The newest push of each view: the semantic view it wrote. */
  pushes: { viewName: string; semanticView: string; syncJobId: string; branchName: string }[];
  /** Views of the newest successful publication run of each lakehouse data source. */
  publications: { viewName: string; target: string; dataSourceName: string; runId: string }[];
  /** Dashboards and the cubes and views their widget queries name (`orders` for `orders.count`). */
  dashboards: { workbookId: number; name: string; uses: string[] }[];
}

export const NO_FACTS: LineageFacts = { pushes: [], publications: [], dashboards: [] };

export interface LineageNode {
  id: string;
  kind: LineageKind;
  label: string;
  /** Second line: the file, the branch pushed from, the data source, … */
  detail?: string;
  /** Columns from the item: negative upstream, 0 the item, positive what uses it. */
  depth: number;
  /** Where a click leads: a model item, a push job, a publication run, a workbook. */
  target?: { kind: 'model'; name: string } | { kind: 'push'; syncJobId: string } | { kind: 'run'; dataSourceName: string; runId: string } | { kind: 'workbook'; workbookId: number };
}

export interface LineageEdge {
  from: string;
  to: string;
  /** `joins` edges are shown dashed: a relation, not something built from the other. */
  kind: 'builds' | 'extends' | 'joins' | 'pushes' | 'publishes' | 'queries';
}

export interface Lineage {
  nodes: LineageNode[];
  edges: LineageEdge[];
}

/** Nodes beyond this many are left out (a project-wide graph is not readable anyway). */
const MAX_NODES = 150;

const modelId = (name: string) => `model:${name}`;

/** Every edge of the project, from what is used to what uses it. */
function allEdges(symbols: ModelSymbols, facts: LineageFacts): { nodes: Map<string, LineageNode>; edges: LineageEdge[] } {
  const nodes = new Map<string, LineageNode>();
  const edges: LineageEdge[] = [];
  for (const e of Object.values(symbols.entities)) {
    nodes.set(modelId(e.name), { id: modelId(e.name), kind: e.kind, label: e.name, detail: `${e.loc.file}:${e.loc.line}`, depth: 0, target: { kind: 'model', name: e.name } });
  }
  const known = (name: string) => nodes.has(modelId(name));
  for (const e of Object.values(symbols.entities)) {
    const id = modelId(e.name);
    if (e.table) {
      const table = `table:${e.table}`;
      if (!nodes.has(table)) nodes.set(table, { id: table, kind: 'table', label: e.table, detail: 'table', depth: 0 });
      edges.push({ from: table, to: id, kind: 'builds' });
    }
    if (e.extends && known(e.extends)) edges.push({ from: modelId(e.extends), to: id, kind: 'extends' });
    for (const source of e.sources ?? []) if (known(source)) edges.push({ from: modelId(source), to: id, kind: 'builds' });
    for (const joined of e.joins) if (known(joined)) edges.push({ from: modelId(joined), to: id, kind: 'joins' });
  }
  for (const p of facts.pushes) {
    if (!known(p.viewName)) continue;
    const id = `push:${p.semanticView}`;
    nodes.set(id, { id, kind: 'semantic-view', label: p.semanticView, detail: `semantic view · pushed from ${p.branchName}`, depth: 0, target: { kind: 'push', syncJobId: p.syncJobId } });
    edges.push({ from: modelId(p.viewName), to: id, kind: 'pushes' });
  }
  for (const p of facts.publications) {
    if (!known(p.viewName)) continue;
    const id = `metric:${p.dataSourceName}:${p.target}`;
    nodes.set(id, { id, kind: 'metric-view', label: p.target, detail: `metric view · ${p.dataSourceName}`, depth: 0, target: { kind: 'run', dataSourceName: p.dataSourceName, runId: p.runId } });
    edges.push({ from: modelId(p.viewName), to: id, kind: 'publishes' });
  }
  for (const d of facts.dashboards) {
    const id = `dashboard:${d.workbookId}`;
    const uses = d.uses.filter(known);
    if (uses.length === 0) continue;
    nodes.set(id, { id, kind: 'dashboard', label: d.name, detail: 'dashboard', depth: 0, target: { kind: 'workbook', workbookId: d.workbookId } });
    for (const name of uses) edges.push({ from: modelId(name), to: id, kind: 'queries' });
  }
  return { nodes, edges };
}

/**
 * The lineage of cube or view `name`: everything it is built from (transitively) and everything
 * built on it (transitively). Joins are followed one step only — the cubes it joins and the cubes
 * that join it — since a join is a relation, not a source, and following them would draw the project.
 */
export function lineageOf(name: string, symbols: ModelSymbols, facts: LineageFacts = NO_FACTS): Lineage {
  const start = modelId(name);
  const { nodes: all, edges } = allEdges(symbols, facts);
  if (!all.has(start)) return { nodes: [], edges: [] };
  const depth = new Map<string, number>([[start, 0]]);
  const walk = (direction: 1 | -1) => {
    let frontier = [start];
    for (let d = 1; frontier.length > 0 && depth.size < MAX_NODES; d++) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const edge of edges) {
          const [here, there] = direction === 1 ? [edge.from, edge.to] : [edge.to, edge.from];
          if (here !== id || depth.has(there)) continue;
          if (edge.kind === 'joins' && id !== start) continue;
          depth.set(there, d * direction);
          next.push(there);
          if (depth.size >= MAX_NODES) break;
        }
      }
      frontier = next;
    }
  };
  walk(-1);
  walk(1);
  const nodes = [...depth].map(([id, d]) => ({ ...all.get(id)!, depth: d }));
  const shown = new Set(depth.keys());
  // Edges between shown nodes that run left to right (a join between two upstream cubes is left out).
  const kept = edges.filter((e) => shown.has(e.from) && shown.has(e.to) && depth.get(e.from)! < depth.get(e.to)! && (e.kind !== 'joins' || e.from === start || e.to === start));
  const order: Record<LineageKind, number> = { table: 0, cube: 1, view: 2, 'semantic-view': 3, 'metric-view': 4, dashboard: 5 };
  nodes.sort((a, b) => a.depth - b.depth || order[a.kind] - order[b.kind] || a.label.localeCompare(b.label));
  return { nodes, edges: kept };
}

/** Cubes and views a widget query names: `orders` for `orders.count`, `orders.created_at.month`, a filter's member. */
export function queryUses(query: Record<string, unknown>): string[] {
  const names = new Set<string>();
  const add = (member: unknown) => {
    if (typeof member === 'string' && member.includes('.')) names.add(member.split('.')[0]!);
  };
  for (const key of ['measures', 'dimensions', 'segments']) for (const m of (query[key] as unknown[] | undefined) ?? []) add(m);
  for (const td of (query.timeDimensions as { dimension?: unknown }[] | undefined) ?? []) add(td?.dimension);
  const filters = (list: unknown) => {
    for (const f of (Array.isArray(list) ? list : []) as Record<string, unknown>[]) {
      add(f?.member ?? f?.dimension);
      filters(f?.and);
      filters(f?.or);
    }
  };
  filters(query.filters);
  for (const key of Object.keys((query.order as Record<string, unknown> | undefined) ?? {})) add(key);
  return [...names];
}
