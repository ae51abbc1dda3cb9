import { useState, type CSSProperties } from 'react';
import type { DashboardConfig, DashboardWidget, WidgetPosition } from '../../../../src-shared/api/workbooks';
import {
  chartKind,
  childrenOf,
  containerTabs,
  formatPosition,
  gridMetrics,
  isTabbedContainer,
  parentOf,
  placement,
  themeColors,
  topLevelWidgets,
  widgetSubtitle,
  widgetText,
  widgetTitle,
  widgetTypeLabel,
} from './dashboard';
import './workbooks.css';

/** How a widget fares in a promotion (the diff colours it). */
export type WidgetMark = 'added' | 'removed' | 'moved' | 'changed';

export const MARK_LABELS: Record<WidgetMark, string> = { added: 'added', removed: 'removed', moved: 'moved', changed: 'changed' };

/** Where a widget was before it moved: drawn as a dashed outline under the widgets. */
export interface GridGhost {
  id: string;
  position: WidgetPosition;
  label: string;
}

export interface DashboardGridProps {
  config: DashboardConfig | null;
  /** Accessible name of the grid (a list of widgets). */
  label: string;
  marks?: Map<string, WidgetMark>;
  ghosts?: GridGhost[];
  /** Fade widgets without a mark, so the changes stand out. */
  dimUnmarked?: boolean;
  /** Smaller rows and gaps, for side-by-side comparisons. */
  compact?: boolean;
  /** The widget to emphasise (hovered in a change list), and who to tell on hover. */
  focusId?: string | null;
  onFocus?: (id: string | null) => void;
  emptyText?: string;
}

/**
 * A dashboard drawn from its config: a CSS grid with `layout.cols` columns and `layout.rowHeight`
 * rows, each widget placed at its `position` (x, y, w, h), themed with the dashboard's colours.
 */
export function DashboardGrid({ config, label, marks, ghosts = [], dimUnmarked = false, compact = false, focusId = null, onFocus, emptyText = 'No widgets' }: DashboardGridProps) {
  const widgets = topLevelWidgets(config);
  const metrics = gridMetrics(config, [...widgets, ...ghosts.map((g) => ({ id: g.id, type: 'SPACER' as const, position: g.position }))]);
  const theme = themeColors(config);
  const rowHeight = compact ? Math.min(36, Math.max(16, Math.round(metrics.rowHeight * 0.6))) : Math.min(120, metrics.rowHeight);
  const [gapX, gapY] = compact ? [6, 6] : metrics.margin;
  // The stylesheet decides how much of the theme to honour (all of it in light mode, the accent in dark).
  const canvasStyle = {
    '--theme-accent': theme.accent ?? undefined,
    '--theme-canvas': theme.canvas ?? undefined,
    '--theme-card': theme.card ?? undefined,
    '--theme-title': theme.title ?? undefined,
    '--theme-text': theme.text ?? undefined,
    fontFamily: theme.font ?? undefined,
  } as CSSProperties;
  const gridStyle: CSSProperties = {
    gridTemplateColumns: `repeat(${metrics.cols}, minmax(0, 1fr))`,
    gridTemplateRows: `repeat(${metrics.rows}, ${rowHeight}px)`,
    gap: `${gapY}px ${gapX}px`,
  };

  return (
    <div className={`dash-canvas ${compact ? 'dash-compact' : ''}`} style={canvasStyle}>
      {widgets.length === 0 && ghosts.length === 0 ? (
        <div className="dash-empty">{emptyText}</div>
      ) : (
        <div className="dash-grid" style={gridStyle} role="list" aria-label={label} data-cols={metrics.cols}>
          {ghosts.map((ghost) => {
            const p = placement(ghost.position, metrics.cols);
            return (
              <div
                key={`ghost-${ghost.id}`}
                className={`dash-ghost ${focusId === ghost.id ? 'is-focused' : ''}`}
                style={{ gridColumn: `${p.colStart} / ${p.colEnd}`, gridRow: `${p.rowStart} / ${p.rowEnd}` }}
                aria-hidden="true"
                title={`${ghost.label} was here ${formatPosition(ghost.position)}`}
              >
                <span>was here</span>
              </div>
            );
          })}
          {widgets.map((widget) => (
            <WidgetCard
              key={widget.id}
              widget={widget}
              config={config}
              cols={metrics.cols}
              mark={marks?.get(widget.id) ?? null}
              dim={dimUnmarked && !marks?.has(widget.id)}
              focused={focusId === widget.id}
              onFocus={onFocus}
              compact={compact}
            />
          ))}
        </div>
      )}
    </div>
  );
}

function WidgetCard({
  widget,
  config,
  cols,
  mark,
  dim,
  focused,
  onFocus,
  compact,
}: {
  widget: DashboardWidget;
  config: DashboardConfig | null;
  cols: number;
  mark: WidgetMark | null;
  dim: boolean;
  focused: boolean;
  onFocus?: (id: string | null) => void;
  compact: boolean;
}) {
  const p = placement(widget.position, cols);
  const title = widgetTitle(widget);
  const subtitle = widgetSubtitle(widget);
  const type = widgetTypeLabel(widget.type);
  const name = `${title ?? widget.id} — ${type}${mark ? `, ${MARK_LABELS[mark]}` : ''}`;
  const classes = ['dash-widget', `dash-w-${widget.type.toLowerCase()}`, mark ? `mark-${mark}` : '', dim ? 'is-dim' : '', focused ? 'is-focused' : ''].filter(Boolean).join(' ');

  if (widget.type === 'DIVIDER' || widget.type === 'SPACER') {
    return (
      <div role="listitem" aria-label={name} className={classes} style={{ gridColumn: `${p.colStart} / ${p.colEnd}`, gridRow: `${p.rowStart} / ${p.rowEnd}` }} title={`${type} ${widget.id} ${formatPosition(widget.position)}`} onMouseEnter={() => onFocus?.(widget.id)} onMouseLeave={() => onFocus?.(null)}>
        {widget.type === 'DIVIDER' ? <hr className="dash-divider" /> : <span className="dash-spacer-label">{title ?? 'spacer'}</span>}
        {mark && <span className={`dash-mark dash-mark-${mark}`}>{MARK_LABELS[mark]}</span>}
      </div>
    );
  }

  return (
    <div
      role="listitem"
      aria-label={name}
      className={classes}
      style={{ gridColumn: `${p.colStart} / ${p.colEnd}`, gridRow: `${p.rowStart} / ${p.rowEnd}` }}
      title={`${type} ${widget.id} ${formatPosition(widget.position)}`}
      onMouseEnter={() => onFocus?.(widget.id)}
      onMouseLeave={() => onFocus?.(null)}
    >
      <div className="dash-widget-head">
        <span className="dash-type">{type}</span>
        {mark && <span className={`dash-mark dash-mark-${mark}`}>{MARK_LABELS[mark]}</span>}
      </div>
      <div className="dash-widget-title">
        {title ?? <span className="dash-untitled">{widget.id}</span>}
      </div>
      {subtitle && !compact && <div className="dash-widget-sub">{subtitle}</div>}
      {isTabbedContainer(widget) ? <Tabs widget={widget} config={config} compact={compact} /> : <WidgetBody widget={widget} />}
    </div>
  );
}

function Tabs({ widget, config, compact }: { widget: DashboardWidget; config: DashboardConfig | null; compact: boolean }) {
  const tabs = containerTabs(widget);
  const [active, setActive] = useState(0);
  const current = tabs[Math.min(active, tabs.length - 1)];
  const children = childrenOf(config, widget.id).filter((child) => {
    const tab = parentOf(child)?.tab ?? null;
    return tab === null || (current !== undefined && (tab === current.key || tab === current.title));
  });
  if (tabs.length === 0) return <div className="dash-widget-sub">Tabbed container without tabs</div>;
  return (
    <div className="dash-tabs">
      <div className="dash-tab-strip" role="tablist" aria-label={`Tabs of ${widgetTitle(widget) ?? widget.id}`}>
        {tabs.map((tab, index) => (
          <button
            key={`${tab.key}-${index}`}
            type="button"
            role="tab"
            aria-selected={tab === current}
            className={`dash-tab ${tab === current ? 'active' : ''}`}
            onClick={() => setActive(index)}
          >
            {tab.title}
          </button>
        ))}
      </div>
      {!compact && (
        <div className="dash-tab-body">
          {children.length === 0 ? (
            <span className="dash-widget-sub">No widgets on this tab</span>
          ) : (
            children.map((child) => (
              <span key={child.id} className="dash-child">
                <span className="dash-type">{widgetTypeLabel(child.type)}</span> {widgetTitle(child) ?? child.id}
              </span>
            ))
          )}
        </div>
      )}
    </div>
  );
}

/** A deterministic pseudo-random series per widget, so its drawing is stable between renders. */
function seriesFor(id: string, count: number): number[] {
  let seed = 0;
  for (const char of id) seed = (seed * 31 + char.charCodeAt(0)) >>> 0;
  return Array.from({ length: count }, () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return 0.25 + ((seed >>> 8) % 1000) / 1333;
  });
}

function WidgetBody({ widget }: { widget: DashboardWidget }) {
  const kind = chartKind(widget);
  if (kind === 'bar') {
    const values = seriesFor(widget.id, 8);
    return (
      <svg className="dash-chart" viewBox="0 0 100 40" preserveAspectRatio="none" aria-hidden="true">
        {values.map((v, i) => (
          <rect key={i} x={i * 12.5 + 2} width={8.5} y={40 - v * 38} height={v * 38} rx={1} />
        ))}
      </svg>
    );
  }
  if (kind === 'line') {
    // Smoothed and trending upwards: reads as a time series rather than noise.
    const raw = seriesFor(widget.id, 10);
    const values = raw.map((v, i) => ((raw[Math.max(0, i - 1)] + v + raw[Math.min(raw.length - 1, i + 1)]) / 3) * 0.6 + (i / raw.length) * 0.35);
    const points = values.map((v, i) => `${(i / (values.length - 1)) * 100},${40 - v * 36}`).join(' ');
    return (
      <svg className="dash-chart dash-chart-line" viewBox="0 0 100 40" preserveAspectRatio="none" aria-hidden="true">
        <polyline points={`0,40 ${points} 100,40`} className="area" />
        <polyline points={points} className="stroke" vectorEffect="non-scaling-stroke" />
      </svg>
    );
  }
  if (kind === 'pie') {
    return (
      <svg className="dash-chart dash-chart-pie" viewBox="0 0 40 40" aria-hidden="true">
        <circle cx="20" cy="20" r="15" className="slice-a" />
        <path d="M20 20 L20 5 A15 15 0 0 1 34.3 24.6 Z" className="slice-b" />
      </svg>
    );
  }
  if (kind === 'table') {
    return (
      <div className="dash-table-lines" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
    );
  }
  if (kind === 'number') return <div className="dash-number" aria-hidden="true">123</div>;
  if (widget.type === 'TEXT') {
    const text = widgetText(widget);
    return text ? <p className="dash-text">{text}</p> : null;
  }
  if (widget.type === 'FILTER' || widget.type === 'TIME_GRAIN' || widget.type === 'FIELD') {
    return <div className="dash-control" aria-hidden="true" />;
  }
  return null;
}
