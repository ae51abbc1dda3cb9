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
import { formatCategory, formatNumber, toNumber } from '../../../../src-shared/model/query';
import { QueryChart } from '../../lib/charts/QueryChart';
import { DataTable } from '../../lib/DataTable';
import { useWidgetData, widgetQuery } from './widgetData';
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
  /** Run each chart's query on this deployment; without it charts name their query (side-by-side views). */
  deploymentId?: number | null;
}

/**
 * A dashboard drawn from its config: a CSS grid with `layout.cols` columns and `layout.rowHeight`
 * rows, each widget placed at its `position` (x, y, w, h), themed with the dashboard's colours.
 */
export function DashboardGrid({ config, label, marks, ghosts = [], dimUnmarked = false, compact = false, focusId = null, onFocus, emptyText = 'No widgets', deploymentId = null }: DashboardGridProps) {
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
              deploymentId={deploymentId}
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
  deploymentId,
}: {
  widget: DashboardWidget;
  config: DashboardConfig | null;
  cols: number;
  mark: WidgetMark | null;
  dim: boolean;
  focused: boolean;
  onFocus?: (id: string | null) => void;
  compact: boolean;
  deploymentId: number | null;
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
      <div className="dash-widget-title" title={title ?? widget.id}>
        {title ?? <span className="dash-untitled">{widget.id}</span>}
      </div>
      {subtitle && !compact && <div className="dash-widget-sub">{subtitle}</div>}
      {isTabbedContainer(widget) ? <Tabs widget={widget} config={config} compact={compact} /> : <WidgetBody widget={widget} deploymentId={deploymentId} compact={compact} />}
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

export function WidgetBody({ widget, deploymentId, compact }: { widget: DashboardWidget; deploymentId: number | null; compact: boolean }) {
  const kind = chartKind(widget);
  if (kind) return <ChartBody widget={widget} kind={kind} deploymentId={deploymentId} compact={compact} />;
  if (widget.type === 'TEXT') {
    const text = widgetText(widget);
    return text ? <p className="dash-text">{text}</p> : null;
  }
  if (widget.type === 'FILTER' || widget.type === 'TIME_GRAIN' || widget.type === 'FIELD') {
    return <div className="dash-control" aria-hidden="true" />;
  }
  return null;
}

/** `orders.count, orders.total_amount by orders.status`: what a chart shows, where it is not run. */
function querySummary(query: Record<string, unknown>): string {
  const list = (key: string) => (Array.isArray(query[key]) ? (query[key] as unknown[]) : []);
  const measures = list('measures').filter((m): m is string => typeof m === 'string');
  const by = [
    ...list('timeDimensions').map((t) => (t as { dimension?: string; granularity?: string }).dimension + ((t as { granularity?: string }).granularity ? ` by ${(t as { granularity?: string }).granularity}` : '')),
    ...list('dimensions').filter((d): d is string => typeof d === 'string'),
  ];
  return `${measures.join(', ') || 'no measure'}${by.length ? ` · ${by.join(', ')}` : ''}`;
}

/**
 * A CHART widget drawn from its query's real result (`config.query`, run on the deployment). Without
 * a deployment (side-by-side promotion views) it names what it would show; a failing query says why.
 */
function ChartBody({ widget, kind, deploymentId, compact }: { widget: DashboardWidget; kind: NonNullable<ReturnType<typeof chartKind>>; deploymentId: number | null; compact: boolean }) {
  const query = widgetQuery(widget);
  const data = useWidgetData(deploymentId, query);
  if (!query) return <div className="dash-nodata">This chart has no query in its config.</div>;
  if (deploymentId === null) return <div className="dash-query-summary" title={JSON.stringify(query)}>{querySummary(query)}</div>;
  if (!data || data.state === 'loading') {
    return (
      <div className="dash-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading…
      </div>
    );
  }
  if (data.state === 'error') {
    return (
      <div className="dash-error" role="alert">
        This chart’s query failed: {data.message}
      </div>
    );
  }
  const { columns, data: rows } = data.result;
  if (rows.length === 0) return <div className="dash-nodata">The query returned no rows.</div>;
  const label = widgetTitle(widget) ?? widget.id;
  if (kind === 'number') {
    const measure = columns.find((c) => c.kind === 'measure');
    const value = measure ? toNumber(rows[0]![measure.key]) : null;
    return (
      <div className="dash-number" aria-label={`${label}: ${value ?? 'no value'}`} title={value === null ? undefined : value.toLocaleString()}>
        {formatNumber(value)}
        {measure && !compact && <div className="dash-number-label">{measure.title}</div>}
      </div>
    );
  }
  if (kind === 'table') {
    return (
      <DataTable
        plain
        label={label}
        className="dash-table"
        wrapClassName="dash-table-wrap"
        rows={rows.slice(0, compact ? 3 : 50)}
        rowKey={(_, i) => i}
        columns={columns.map((c) => ({
          header: c.title,
          cellClassName: c.kind === 'measure' ? 'num' : undefined,
          cell: (row: (typeof rows)[number]) => (c.kind === 'measure' ? formatNumber(toNumber(row[c.key])) : formatCategory(row[c.key], c.type)),
        }))}
      />
    );
  }
  return (
    <div className="dash-chart">
      <QueryChart kind={kind} columns={columns} data={rows} label={label} compact={compact} />
    </div>
  );
}
