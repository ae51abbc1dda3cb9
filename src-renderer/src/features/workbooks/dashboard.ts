import { chartKindOf } from '../../../../src-shared/model/query';
/**
 * How a dashboard config becomes a picture: grid metrics from its layout, widget placement, and
 * the human-readable bits (title, subtitle, tabs) read from each widget's free-form config.
 * Pure, so the renderer's components and unit tests share it.
 */
import type { DashboardConfig, DashboardLayout, DashboardWidget, WidgetPosition } from '../../../../src-shared/api/workbooks';

/** react-grid-layout's defaults, which dashboards without a layout are drawn with. */
export const DEFAULT_COLS = 12;
export const DEFAULT_ROW_HEIGHT = 40;
export const DEFAULT_MARGIN: [number, number] = [10, 10];

const BREAKPOINTS = ['lg', 'md', 'sm', 'xs', 'xxs'] as const;

export interface GridMetrics {
  cols: number;
  rowHeight: number;
  /** Horizontal and vertical gap between cells, in px. */
  margin: [number, number];
  /** Rows the widgets occupy (at least one). */
  rows: number;
}

const positive = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** Columns of the widest breakpoint the layout names (widget positions are for that one). */
export function columnsOf(layout: DashboardLayout | null | undefined): number {
  for (const bp of BREAKPOINTS) {
    const cols = layout?.cols?.[bp];
    if (positive(cols)) return Math.round(cols);
  }
  return DEFAULT_COLS;
}

export function gridMetrics(config: DashboardConfig | null | undefined, widgets: DashboardWidget[] = topLevelWidgets(config)): GridMetrics {
  const layout = config?.layout;
  const cols = columnsOf(layout);
  const rowHeight = positive(layout?.rowHeight) ? layout.rowHeight : DEFAULT_ROW_HEIGHT;
  const margin: [number, number] =
    Array.isArray(layout?.margin) && layout.margin.length >= 2 && layout.margin.every((m) => typeof m === 'number' && m >= 0)
      ? [layout.margin[0], layout.margin[1]]
      : DEFAULT_MARGIN;
  const rows = Math.max(1, ...widgets.map((w) => placement(w.position, cols).rowEnd - 1));
  return { cols, rowHeight, margin, rows };
}

export interface Placement {
  /** 1-based CSS grid lines. */
  colStart: number;
  colEnd: number;
  rowStart: number;
  rowEnd: number;
}

/** A position as CSS grid lines, kept inside the grid and at least one cell big. */
export function placement(position: WidgetPosition, cols: number): Placement {
  const x = Math.min(Math.max(0, Math.floor(position.x)), cols - 1);
  const w = Math.min(Math.max(1, Math.floor(position.w)), cols - x);
  const y = Math.max(0, Math.floor(position.y));
  const h = Math.max(1, Math.floor(position.h));
  return { colStart: x + 1, colEnd: x + 1 + w, rowStart: y + 1, rowEnd: y + 1 + h };
}

/** `(4, 0) 6×3`: column, row, then width × height in grid cells. */
export const formatPosition = (p: WidgetPosition): string => `(${p.x}, ${p.y}) ${p.w}×${p.h}`;

// ---- reading the free-form widget config ------------------------------------------------------------

type Loose = Record<string, unknown>;

const asObject = (value: unknown): Loose | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : null);
const firstString = (source: Loose | null, keys: string[]): string | null => {
  if (!source) return null;
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
};

/** Markdown and HTML reduced to their first line of text, for a card's title. */
function plainFirstLine(text: string, max = 80): string {
  const line =
    text
      .replace(/<[^>]*>/g, ' ')
      .split(/\r?\n/)
      .map((l) => l.replace(/^[#>*\-\s]+/, '').replace(/[*_`]/g, '').trim())
      .find(Boolean) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What the widget is called: its config's title (or name, label…), a TEXT widget's first line. */
export function widgetTitle(widget: Pick<DashboardWidget, 'type' | 'config'>): string | null {
  const config = asObject(widget.config);
  const titled = firstString(config, ['title', 'name', 'label', 'heading']);
  if (titled) return titled;
  if (widget.type === 'TEXT') {
    const text = firstString(config, ['text', 'content', 'markdown', 'html']);
    if (text) return plainFirstLine(text) || null;
  }
  return null;
}

/** A TEXT widget's body as plain text, without the line already used as its title. */
export function widgetText(widget: Pick<DashboardWidget, 'type' | 'config'>, max = 280): string | null {
  if (widget.type !== 'TEXT') return null;
  const config = asObject(widget.config);
  const text = firstString(config, ['text', 'content', 'markdown', 'html']);
  if (!text) return null;
  const lines = text
    .replace(/<[^>]*>/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.replace(/^[#>*\-\s]+/, '').replace(/[*_`]/g, '').trim())
    .filter(Boolean);
  const body = (firstString(config, ['title', 'name', 'label', 'heading']) ? lines : lines.slice(1)).join(' ');
  if (!body) return null;
  return body.length > max ? `${body.slice(0, max - 1)}…` : body;
}

/** A second line: chart type, the field a filter or field widget is bound to, a prompt… */
export function widgetSubtitle(widget: Pick<DashboardWidget, 'type' | 'config'>): string | null {
  const config = asObject(widget.config);
  switch (widget.type) {
    case 'CHART': {
      const chart = firstString(config, ['chartType', 'visualization', 'vizType']) ?? firstString(asObject(config?.visualization), ['type']);
      const query = firstString(config, ['query', 'measure', 'member', 'explorationName', 'exploration']);
      return [chart && `${chart} chart`, query].filter(Boolean).join(' · ') || null;
    }
    case 'FILTER':
    case 'FIELD':
    case 'TIME_GRAIN':
      return firstString(config, ['field', 'member', 'dimension', 'measure', 'timeDimension', 'grain']);
    case 'AI':
      return firstString(config, ['prompt', 'question']);
    case 'TEXT': {
      const title = firstString(config, ['title', 'name', 'label', 'heading']);
      const text = firstString(config, ['text', 'content', 'markdown', 'html']);
      // With a title, the text is the subtitle; without one, the text already is the title.
      return title && text ? plainFirstLine(text) : null;
    }
    default:
      return null;
  }
}

/** Chart kinds the card's small drawing distinguishes. */
export function chartKind(widget: Pick<DashboardWidget, 'type' | 'config'>): 'bar' | 'line' | 'pie' | 'table' | 'number' | null {
  return chartKindOf(widget.type, widget.config);
}

export interface ContainerTab {
  key: string;
  title: string;
}

/** A CONTAINER with `config.layout: "tabs"` is a tabbed container. */
export const isTabbedContainer = (widget: Pick<DashboardWidget, 'type' | 'config'>): boolean =>
  widget.type === 'CONTAINER' && asObject(widget.config)?.layout === 'tabs';

/** The tabs of a tabbed container (`config.tabs`: names, or objects with a title/name/label and id). */
export function containerTabs(widget: Pick<DashboardWidget, 'type' | 'config'>): ContainerTab[] {
  const tabs = asObject(widget.config)?.tabs;
  if (!Array.isArray(tabs)) return [];
  return tabs.flatMap((tab, index): ContainerTab[] => {
    if (typeof tab === 'string') return [{ key: tab, title: tab }];
    const object = asObject(tab);
    if (!object) return [];
    const title = firstString(object, ['title', 'name', 'label', 'id']) ?? `Tab ${index + 1}`;
    const key = firstString(object, ['id', 'key', 'name', 'title', 'label']) ?? String(index);
    return [{ key, title }];
  });
}

/** The container a widget sits in (`config.parentId` / `containerId`), and the tab it is on. */
export function parentOf(widget: Pick<DashboardWidget, 'config'>): { parentId: string; tab: string | null } | null {
  const config = asObject(widget.config);
  const parentId = firstString(config, ['parentId', 'containerId']);
  return parentId ? { parentId, tab: firstString(config, ['tabId', 'tab']) } : null;
}

/** Widgets laid out on the dashboard grid itself: those not inside a container of the dashboard. */
export function topLevelWidgets(config: DashboardConfig | null | undefined): DashboardWidget[] {
  const widgets = config?.widgets ?? [];
  const containers = new Set(widgets.filter((w) => w.type === 'CONTAINER').map((w) => w.id));
  return widgets.filter((w) => {
    const parent = parentOf(w);
    return !parent || !containers.has(parent.parentId);
  });
}

/** The widgets inside a container, by tab key (`null`: not on a particular tab). */
export function childrenOf(config: DashboardConfig | null | undefined, containerId: string): DashboardWidget[] {
  return (config?.widgets ?? []).filter((w) => parentOf(w)?.parentId === containerId);
}

export const WIDGET_TYPE_LABELS: Record<string, string> = {
  CHART: 'Chart',
  TEXT: 'Text',
  FILTER: 'Filter',
  AI: 'AI',
  TIME_GRAIN: 'Time grain',
  FIELD: 'Field',
  PARENT: 'Parent',
  SPACER: 'Spacer',
  DIVIDER: 'Divider',
  CONTAINER: 'Container',
};
export const widgetTypeLabel = (type: string): string => WIDGET_TYPE_LABELS[type] ?? type;

// ---- theme ------------------------------------------------------------------------------------------

export interface ThemeColors {
  canvas: string | null;
  card: string | null;
  accent: string | null;
  title: string | null;
  text: string | null;
  font: string | null;
}

/** A colour the page may use as given: named, hex, rgb()/hsl() — nothing that could break out of a declaration. */
const safeCss = (value: string | null): string | null => (value && /^[#\w\s(),.%'"-]+$/.test(value) ? value : null);

/** The parts of a dashboard theme the picture shows (null where the theme says nothing). */
export function themeColors(config: DashboardConfig | null | undefined): ThemeColors {
  const theme = asObject(config?.theme);
  const widgets = asObject(theme?.widgets);
  return {
    canvas: safeCss(firstString(asObject(theme?.dashboard), ['backgroundColor']) ?? firstString(theme, ['backgroundColor'])),
    card: safeCss(firstString(widgets, ['backgroundColor'])),
    accent: safeCss(firstString(theme, ['primaryColor'])),
    title: safeCss(firstString(asObject(widgets?.title), ['color'])),
    text: safeCss(firstString(asObject(widgets?.text), ['color'])),
    font: safeCss(firstString(theme, ['fontFamily'])),
  };
}
