import type { DashboardConfig, DashboardWidget } from '../../../../src-shared/api/workbooks';
import { figureOf, type Figure, type WidgetQueryOutcome } from './figure';

/**
 * Where everything of a published dashboard goes on a canvas `width` units wide: the title block,
 * then the widgets on the dashboard's grid (columns, row height, margins and padding of its
 * `layout`, react-grid-layout semantics, large breakpoint). Both renderers draw this.
 */

export type Color = [number, number, number];

export interface WidgetBox {
  id: string;
  type: DashboardWidget['type'];
  label: string;
  detail: string;
  x: number;
  y: number;
  w: number;
  h: number;
  fill: Color;
  accent: Color;
  /** What the panel shows from the widget's query result (null: label and detail only). */
  figure: Figure | null;
}

export interface DashboardLayoutPlan {
  width: number;
  height: number;
  title: string;
  subtitle: string | null;
  background: Color;
  text: Color;
  muted: Color;
  headerHeight: number;
  /** Shown under the header when there are no widgets to draw (an APP dashboard, an empty one). */
  note: string | null;
  widgets: WidgetBox[];
}

export const DEFAULT_COLS = 12;
export const DEFAULT_ROW_HEIGHT = 40;
export const MAX_HEIGHT = 16_000;

/** `#rgb` / `#rrggbb` → RGB; null for anything else. */
export function parseColor(value: unknown): Color | null {
  if (typeof value !== 'string') return null;
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value.trim());
  if (short) return [short[1], short[2], short[3]].map((h) => parseInt(h + h, 16)) as Color;
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value.trim());
  return long ? ([long[1], long[2], long[3]].map((h) => parseInt(h, 16)) as Color) : null;
}

const mix = (a: Color, b: Color, t: number): Color => [0, 1, 2].map((i) => Math.round(a[i] * (1 - t) + b[i] * t)) as Color;
const luminance = (c: Color) => (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255;

const TYPE_ACCENTS: Record<DashboardWidget['type'], Color> = {
  CHART: [37, 99, 235],
  TEXT: [71, 85, 105],
  FILTER: [5, 150, 105],
  AI: [147, 51, 234],
  TIME_GRAIN: [217, 119, 6],
  FIELD: [8, 145, 178],
  PARENT: [100, 116, 139],
  SPACER: [203, 213, 225],
  DIVIDER: [148, 163, 184],
  CONTAINER: [71, 85, 105],
};

const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** What a widget is called: its configured title or name, a TEXT widget's text, else its type. */
export function widgetLabel(widget: DashboardWidget): string {
  const config = (widget.config ?? {}) as Record<string, unknown>;
  const text = str(config.text) ?? str(config.content) ?? str(config.markdown);
  const label = str(config.title) ?? str(config.name) ?? str(config.label) ?? (text ? text.replace(/[#*_`>]/g, '').replace(/\s+/g, ' ').trim() : null);
  return label ?? widget.type.replace('_', ' ').toLowerCase().replace(/^./, (c) => c.toUpperCase());
}

function widgetDetail(widget: DashboardWidget): string {
  const config = (widget.config ?? {}) as Record<string, unknown>;
  const chart = str(config.chartType) ?? str(config.visualization) ?? str((config.chart as Record<string, unknown> | undefined)?.type);
  const query = config.query as Record<string, unknown> | undefined;
  const measures = Array.isArray(query?.measures) ? (query.measures as unknown[]).filter((m): m is string => typeof m === 'string') : [];
  const parts = [widget.type, chart, measures.length ? measures.slice(0, 3).join(', ') : null].filter(Boolean);
  return parts.join(' · ');
}

export function planDashboard(config: DashboardConfig, options: { width: number; name: string; data?: Record<string, WidgetQueryOutcome> }): DashboardLayoutPlan {
  const theme = (config.theme ?? {}) as Record<string, unknown>;
  const background = parseColor(theme.backgroundColor) ?? parseColor((theme.dashboard as Record<string, unknown> | undefined)?.backgroundColor) ?? [241, 245, 249];
  const primary = parseColor(theme.primaryColor);
  const dark = luminance(background) < 0.5;
  const text: Color = dark ? [241, 245, 249] : [15, 23, 42];
  const muted: Color = mix(text, background, 0.45);
  const panel: Color = dark ? mix(background, [255, 255, 255], 0.08) : [255, 255, 255];

  const layout = config.layout ?? {};
  const cols = Math.max(1, layout.cols?.lg ?? DEFAULT_COLS);
  const rowHeight = Math.max(1, layout.rowHeight ?? DEFAULT_ROW_HEIGHT);
  const [marginX, marginY] = [layout.margin?.[0] ?? 10, layout.margin?.[1] ?? layout.margin?.[0] ?? 10];
  const [padX, padY] = [layout.containerPadding?.[0] ?? marginX, layout.containerPadding?.[1] ?? layout.containerPadding?.[0] ?? marginY];
  const width = options.width;
  const colWidth = Math.max(1, (width - 2 * padX - (cols - 1) * marginX) / cols);

  const title = str(config.title) ?? options.name;
  const subtitle = str(config.description);
  const headerHeight = subtitle ? 78 : 56;

  const widgets: WidgetBox[] = [];
  for (const widget of config.widgets ?? []) {
    const position = widget.responsiveLayouts?.lg ?? widget.position;
    if (position.w <= 0 || position.h <= 0) continue;
    const w = Math.min(cols, position.w);
    const x = Math.min(position.x, cols - w);
    const accent = widget.type === 'CHART' && primary ? primary : TYPE_ACCENTS[widget.type];
    widgets.push({
      id: widget.id,
      type: widget.type,
      label: widgetLabel(widget),
      detail: widgetDetail(widget),
      x: padX + x * (colWidth + marginX),
      y: headerHeight + padY + position.y * (rowHeight + marginY),
      w: w * colWidth + (w - 1) * marginX,
      h: position.h * rowHeight + (position.h - 1) * marginY,
      fill: widget.type === 'SPACER' ? background : panel,
      accent,
      figure: figureOf(widget, options.data?.[widget.id]),
    });
  }
  // Reading order: top to bottom, then left to right.
  widgets.sort((a, b) => a.y - b.y || a.x - b.x);
  const app = config.kind === 'APP' ? config.app : null;
  const note =
    widgets.length > 0
      ? null
      : config.kind === 'APP'
        ? `App dashboard${str(app?.entry) ? ` (entry ${str(app?.entry)})` : ''}: its authored files render in the browser, not in exports.`
        : 'This dashboard has no widgets.';
  const bottom = widgets.reduce((max, box) => Math.max(max, box.y + box.h), headerHeight + (note ? 60 : 0));
  return {
    width,
    height: Math.min(MAX_HEIGHT, Math.ceil(bottom + padY)),
    title,
    subtitle,
    background,
    text,
    muted,
    headerHeight,
    note,
    widgets,
  };
}
