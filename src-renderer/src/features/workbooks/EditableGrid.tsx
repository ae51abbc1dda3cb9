/**
 * The dashboard grid in the editor: widgets drawn as on the dashboard (charts with their real
 * numbers), moved by dragging their header and resized from their corner, or with the keyboard
 * (arrows move, Shift+arrows resize, Delete removes, Enter edits).
 *
 * Drag and resize are written here on pointer events rather than taken from a grid library: the
 * dashboard is already drawn as a CSS grid (shared with the read-only view and the promotion
 * diffs), and what the editor needs on top is small — turning a pointer's travel into whole cells
 * and applying the pure layout rules of `layout.ts`, which the keyboard uses as well. A library
 * such as react-grid-layout would bring a second, absolutely positioned drawing of the same
 * dashboard and no keyboard moves.
 */
import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import type { DashboardConfig, DashboardWidget, WidgetPosition } from '../../../../src-shared/api/workbooks';
import { gridMetrics, placement, themeColors, topLevelWidgets, widgetTitle, widgetTypeLabel } from './dashboard';
import { WidgetBody } from './DashboardGrid';
import { moveWidget } from './editing';
import { dragTarget, gridPitch, NUDGE_KEYS, nudge, samePosition } from './layout';

/** Rows of room below the lowest widget, to drag into. */
const ROOM_BELOW = 6;

interface Drag {
  id: string;
  mode: 'move' | 'resize';
  pointerId: number;
  startX: number;
  startY: number;
  start: WidgetPosition;
  target: WidgetPosition;
}

export const describePosition = (p: WidgetPosition): string => `column ${p.x + 1}, row ${p.y + 1}, ${p.w} wide, ${p.h} high`;

export function EditableGrid({
  config,
  deploymentId,
  selectedId,
  onSelect,
  onChange,
  onEdit,
  onDelete,
}: {
  config: DashboardConfig;
  deploymentId: number;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onChange: (next: DashboardConfig) => void;
  /** Enter on a widget: go to its settings. */
  onEdit: (id: string) => void;
  onDelete: (id: string) => void;
}) {
  const gridRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // While dragging, the grid shows where the widget would land and what it would push.
  const shown = drag ? moveWidget(config, drag.id, drag.target) : config;
  const widgets = topLevelWidgets(shown);
  const metrics = gridMetrics(shown, widgets);
  const rowHeight = Math.min(120, metrics.rowHeight);
  const [gapX, gapY] = metrics.margin;
  const rows = metrics.rows + ROOM_BELOW;
  const theme = themeColors(config);

  const latest = useRef({ config, onChange, drag });
  latest.current = { config, onChange, drag };

  useEffect(() => {
    if (!drag) return;
    const pitch = () => gridPitch(gridRef.current?.clientWidth ?? 1, metrics.cols, rowHeight, [gapX, gapY]);
    const move = (event: globalThis.PointerEvent) => {
      const d = latest.current.drag;
      if (!d || event.pointerId !== d.pointerId) return;
      const target = dragTarget(d.start, event.clientX - d.startX, event.clientY - d.startY, pitch(), d.mode, metrics.cols);
      if (!samePosition(target, d.target)) setDrag({ ...d, target });
    };
    const end = (event: globalThis.PointerEvent) => {
      const d = latest.current.drag;
      if (!d || event.pointerId !== d.pointerId) return;
      setDrag(null);
      if (event.type === 'pointerup' && !samePosition(d.target, d.start)) {
        latest.current.onChange(moveWidget(latest.current.config, d.id, d.target));
        setAnnouncement(`${nameOf(latest.current.config, d.id)} ${d.mode === 'move' ? 'moved' : 'resized'}: ${describePosition(d.target)}`);
      }
    };
    const cancel = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') setDrag(null);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    window.addEventListener('keydown', cancel);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      window.removeEventListener('keydown', cancel);
    };
    // One listener set per drag; the drag's own state is read from `latest`.
  }, [drag !== null, metrics.cols, rowHeight, gapX, gapY]);

  const startDrag = (event: PointerEvent, widget: DashboardWidget, mode: Drag['mode']) => {
    if (event.button !== 0 || (event.target as HTMLElement).closest('button')) return;
    event.preventDefault();
    onSelect(widget.id);
    (event.currentTarget.closest('.edit-widget') as HTMLElement | null)?.focus({ preventScroll: true });
    setDrag({ id: widget.id, mode, pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, start: widget.position, target: widget.position });
  };

  const onKey = (event: KeyboardEvent, widget: DashboardWidget) => {
    if (event.target !== event.currentTarget) return; // keys typed inside the card (a table, a tab) stay theirs
    const direction = NUDGE_KEYS[event.key];
    if (direction) {
      event.preventDefault();
      const next = moveWidget(config, widget.id, nudge(widget.position, direction, event.shiftKey));
      if (next === config) return;
      onChange(next);
      const position = next.widgets!.find((w) => w.id === widget.id)!.position;
      setAnnouncement(`${nameOf(config, widget.id)} ${event.shiftKey ? 'resized' : 'moved'}: ${describePosition(position)}`);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      onDelete(widget.id);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      onEdit(widget.id);
    }
  };

  const canvasStyle = { '--theme-accent': theme.accent ?? undefined, '--theme-canvas': theme.canvas ?? undefined, '--theme-card': theme.card ?? undefined } as CSSProperties;
  const gridStyle: CSSProperties = {
    gridTemplateColumns: `repeat(${metrics.cols}, minmax(0, 1fr))`,
    gridTemplateRows: `repeat(${rows}, ${rowHeight}px)`,
    gap: `${gapY}px ${gapX}px`,
  };

  return (
    <div className={`dash-canvas edit-canvas ${drag ? 'is-dragging' : ''}`} style={canvasStyle}>
      <p id="edit-grid-help" className="sr-only">
        Drag a widget by its header to move it, or by its lower right corner to resize it. With a widget focused: arrow keys move it one cell, Shift with arrow keys resizes it, Enter edits its settings, Delete removes it.
      </p>
      <div ref={gridRef} className="dash-grid edit-grid" style={gridStyle} role="list" aria-label="Dashboard layout" aria-describedby="edit-grid-help" data-cols={metrics.cols}>
        {Array.from({ length: rows * metrics.cols }, (_, i) => (
          <div key={`cell-${i}`} className="edit-cell" aria-hidden="true" style={{ gridColumn: (i % metrics.cols) + 1, gridRow: Math.floor(i / metrics.cols) + 1 }} />
        ))}
        {widgets.map((widget) => {
          const p = placement(widget.position, metrics.cols);
          const title = widgetTitle(widget) ?? widget.id;
          const active = drag?.id === widget.id;
          return (
            <div
              key={widget.id}
              role="listitem"
              tabIndex={0}
              aria-label={`${title} — ${widgetTypeLabel(widget.type)}, ${describePosition(widget.position)}`}
              aria-describedby="edit-grid-help"
              aria-current={selectedId === widget.id ? 'true' : undefined}
              data-widget-id={widget.id}
              data-position={`${widget.position.x},${widget.position.y},${widget.position.w},${widget.position.h}`}
              className={`dash-widget edit-widget dash-w-${widget.type.toLowerCase()} ${selectedId === widget.id ? 'is-selected' : ''} ${active ? 'is-active' : ''}`}
              style={{ gridColumn: `${p.colStart} / ${p.colEnd}`, gridRow: `${p.rowStart} / ${p.rowEnd}` }}
              onFocus={(e) => e.target === e.currentTarget && onSelect(widget.id)}
              onClick={() => onSelect(widget.id)}
              onKeyDown={(e) => onKey(e, widget)}
            >
              <div className="dash-widget-head edit-handle" onPointerDown={(e) => startDrag(e, widget, 'move')} title="Drag to move">
                <span className="dash-type">{widgetTypeLabel(widget.type)}</span>
                <span className="edit-size">
                  {widget.position.w}×{widget.position.h}
                </span>
                <button type="button" className="icon-button edit-delete" aria-label={`Delete ${title}`} onClick={() => onDelete(widget.id)}>
                  ×
                </button>
              </div>
              {widget.type !== 'DIVIDER' && widget.type !== 'SPACER' && <div className="dash-widget-title" title={title}>{title}</div>}
              <WidgetBody widget={widget} deploymentId={deploymentId} compact={false} />
              <div className="edit-resize" aria-hidden="true" title="Drag to resize" onPointerDown={(e) => startDrag(e, widget, 'resize')} />
            </div>
          );
        })}
      </div>
      <div className="sr-only" role="status" aria-live="polite">
        {announcement}
      </div>
    </div>
  );
}

const nameOf = (config: DashboardConfig, id: string): string => {
  const widget = config.widgets?.find((w) => w.id === id);
  return (widget && widgetTitle(widget)) ?? id;
};
