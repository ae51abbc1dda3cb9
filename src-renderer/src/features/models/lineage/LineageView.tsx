// Models › Lineage: for a cube or view, a layered graph of what it is built from (left) and what uses
// it (right) — cubes, views, pushed semantic views, published metric views, dashboards. Each node is
// a button: a cube or view opens its definition in the editor, the others open their job, run or
// workbook. Drawn as positioned buttons over an SVG of the edges, in a box that opens centred on the
// item at a zoom that shows it with its neighbours, and pans (drag, scroll, keys) and zooms.
import { useMemo } from 'react';
import { navigate } from '../../../app/router';
import { Spinner } from '../../../lib/ui';
import { useQuery } from '../../../lib/useQuery';
import { lakehousePath, warehouseJobPath } from '../../syncs/paths';
import { workbookPath } from '../../workbooks/links';
import { goTo } from '../navigation';
import { useModels } from '../store';
import { lineageOf, NO_FACTS, type LineageKind, type LineageNode } from './graph';
import { loadLineageFacts } from './facts';
import { entityHere, lineagePath } from './paths';
import { columnX, HEADS_H, layoutOf, MAX_ZOOM, MIN_ZOOM, NODE_H, NODE_W } from './layout';
import { useGraphViewport } from './useGraphViewport';
import './lineage.css';


const KIND_LABEL: Record<LineageKind, string> = {
  table: 'table',
  cube: 'cube',
  view: 'view',
  'semantic-view': 'semantic view',
  'metric-view': 'metric view',
  dashboard: 'dashboard',
};

export function LineageView({ deploymentId, name }: { deploymentId: number; name: string | undefined }) {
  const symbols = useModels((s) => s.analysis.symbols);
  const ready = useModels((s) => s.analysis.ready);
  const facts = useQuery((signal) => loadLineageFacts(deploymentId, signal), [deploymentId], 'Reading pushes, publications and dashboards');
  const entities = useMemo(() => Object.values(symbols.entities).sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name)), [symbols]);
  // Without a name in the address: the cube or view the editor's cursor is in.
  const here = useMemo(() => entityHere(), []);
  const wanted = name ?? here;
  const chosen = wanted && symbols.entities[wanted] ? wanted : undefined;
  const lineage = useMemo(() => (chosen ? lineageOf(chosen, symbols, facts.data?.facts ?? NO_FACTS) : null), [chosen, symbols, facts.data]);

  if (!ready && entities.length === 0) return <Spinner label="Compiling the branch…" />;

  const open = (node: LineageNode) => {
    const t = node.target;
    if (!t) return;
    if (t.kind === 'model') {
      const entity = symbols.entities[t.name];
      if (!entity) return;
      navigate(`/models/${deploymentId}`);
      goTo(entity.loc.file, { line: entity.loc.line, column: entity.loc.column });
    } else if (t.kind === 'push') navigate(warehouseJobPath(deploymentId, 'push', t.syncJobId));
    else if (t.kind === 'run') navigate(lakehousePath(deploymentId, t.dataSourceName, 'runs', t.runId));
    else navigate(workbookPath(deploymentId, t.workbookId));
  };

  return (
    <div className="lineage">
      <div className="lineage-toolbar">
        <label className="control">
          <span className="control-label">Lineage of</span>
          <select aria-label="Lineage of" value={chosen ?? ''} onChange={(e) => navigate(lineagePath(deploymentId, e.target.value), { replace: true })}>
            {!chosen && <option value="">Pick a cube or view…</option>}
            {entities.map((e) => (
              <option key={e.name} value={e.name}>
                {e.name} ({e.kind})
              </option>
            ))}
          </select>
        </label>
        <span className="lineage-legend muted">
          Built from ← <strong>{chosen ?? '…'}</strong> → used by. Dashed: joins. Click a node to open it.
        </span>
        {facts.loading && <span className="muted">Reading pushes, publications and dashboards…</span>}
      </div>
      {facts.data && facts.data.unavailable.length > 0 && (
        <p className="lineage-note muted" role="note">
          Not shown (could not be read): {facts.data.unavailable.join('; ')}.
        </p>
      )}
      {name && !chosen && ready && <p className="lineage-note">There is no cube or view “{name}” on this branch.</p>}
      {lineage && <Graph nodes={lineage.nodes} edges={lineage.edges} onOpen={open} />}
    </div>
  );
}

function Graph({ nodes, edges, onOpen }: { nodes: LineageNode[]; edges: ReturnType<typeof lineageOf>['edges']; onOpen: (node: LineageNode) => void }) {
  const layout = useMemo(() => layoutOf(nodes), [nodes]);
  const focus = nodes.find((n) => n.depth === 0);
  const view = useGraphViewport(layout, focus?.id);
  const { zoom } = view;

  const heads = [];
  for (let d = layout.min; d <= layout.max; d++) heads.push(d);

  return (
    <div className="lineage-graph">
      <div className="lineage-controls" role="toolbar" aria-label="Graph view">
        <button type="button" className="btn btn-small" onClick={() => view.zoomBy(1 / 1.25)} disabled={zoom <= MIN_ZOOM} aria-label="Zoom out">
          −
        </button>
        <span className="lineage-zoom" aria-live="polite">
          {Math.round(zoom * 100)} %
        </span>
        <button type="button" className="btn btn-small" onClick={() => view.zoomBy(1.25)} disabled={zoom >= MAX_ZOOM} aria-label="Zoom in">
          +
        </button>
        <button type="button" className="btn btn-small" onClick={view.fit}>
          Fit
        </button>
        {focus && (
          <button type="button" className="btn btn-small" onClick={view.reset} title={`Centre the view on ${focus.label} again`}>
            Centre
          </button>
        )}
        <span className="muted small lineage-hint">Drag or scroll to move · Ctrl + wheel or + / − to zoom</span>
      </div>
      <div
        ref={view.box}
        className={`lineage-viewport${view.dragging ? ' dragging' : ''}`}
        role="group"
        aria-label="Lineage graph"
        tabIndex={0}
        onKeyDown={view.onKeyDown}
        onPointerDown={view.onPointerDown}
      >
        <div className="lineage-sizer" ref={view.sizer} style={{ width: layout.width * zoom, height: layout.height * zoom + HEADS_H }}>
          <div className="lineage-heads" style={{ width: layout.width * zoom }}>
            {heads.map((d) => {
              const title = d < 0 ? (d === -1 ? 'Built from' : 'Built from (further)') : d === 0 ? 'This item' : d === 1 ? 'Used by' : 'Used by (further)';
              return (
                <span key={d} style={{ left: columnX(d, layout.min) * zoom, width: NODE_W * zoom }} title={title}>
                  {title}
                </span>
              );
            })}
          </div>
          <div className="lineage-canvas" style={{ width: layout.width, height: layout.height, transform: `scale(${zoom})` }}>
            <svg width={layout.width} height={layout.height} aria-hidden="true">
              <defs>
                <marker id="lineage-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto">
                  <path d="M0,0 L8,4 L0,8 z" className="lineage-arrow" />
                </marker>
              </defs>
              {edges.map((e) => {
                const a = layout.at.get(e.from)!;
                const b = layout.at.get(e.to)!;
                const x1 = a.x + NODE_W;
                const y1 = a.y + NODE_H / 2;
                const x2 = b.x;
                const y2 = b.y + NODE_H / 2;
                const bend = Math.max(30, (x2 - x1) / 2);
                return <path key={`${e.from}>${e.to}`} className={`lineage-edge edge-${e.kind}`} d={`M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`} markerEnd="url(#lineage-arrow)" />;
              })}
            </svg>
            {nodes.map((n) => {
              const p = layout.at.get(n.id)!;
              const style = { left: p.x, top: p.y, width: NODE_W, height: NODE_H };
              const body = (
                <>
                  <span className="lineage-kind">{KIND_LABEL[n.kind]}</span>
                  <span className="lineage-label">{n.label}</span>
                  {n.detail && <span className="lineage-detail">{n.detail}</span>}
                </>
              );
              const className = `lineage-node kind-${n.kind}${n.depth === 0 ? ' focus' : ''}`;
              return n.target ? (
                <button key={n.id} type="button" className={className} style={style} title={`${KIND_LABEL[n.kind]} ${n.label}${n.detail ? ` · ${n.detail}` : ''}`} onClick={() => onOpen(n)}>
                  {body}
                </button>
              ) : (
                <div key={n.id} className={className} style={style} title={`${KIND_LABEL[n.kind]} ${n.label}`}>
                  {body}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
