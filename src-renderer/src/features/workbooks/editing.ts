/**
 * Edits of a dashboard config in the editor, pure: add, change, move and remove widgets, and tell
 * whether anything differs from what the service holds. The config stays in the shape the service
 * answered (unknown parts of widgets the editor does not touch are carried through unchanged).
 */
import type { DashboardConfig, DashboardConfigDraftInput, DashboardConfigInput, DashboardWidget, WidgetPosition } from '../../../../src-shared/api/workbooks';
import { columnsOf, DEFAULT_COLS, DEFAULT_MARGIN, DEFAULT_ROW_HEIGHT, parentOf, topLevelWidgets } from './dashboard';
import { firstFreeSpot, newWidgetId, placeWidget } from './layout';

/** A new, empty CLASSIC dashboard on the default grid. */
export function emptyDashboard(title: string): DashboardConfig {
  return { title, kind: 'CLASSIC', layout: { cols: { lg: DEFAULT_COLS }, rowHeight: DEFAULT_ROW_HEIGHT, margin: [...DEFAULT_MARGIN] }, widgets: [] };
}

/** Widget kinds the editor adds, with the size a new one starts at. */
export const NEW_WIDGETS = {
  CHART: { label: 'Chart', w: 6, h: 6, config: { title: 'New chart', chartType: 'bar' } },
  TEXT: { label: 'Text', w: 4, h: 3, config: { title: 'Text', text: '' } },
  DIVIDER: { label: 'Divider', w: 12, h: 1, config: {} },
} as const satisfies Record<string, { label: string; w: number; h: number; config: Record<string, unknown> }>;
export type NewWidgetType = keyof typeof NEW_WIDGETS;

/** Chart types offered for a CHART widget (`config.chartType`), as the picture draws them. */
export const CHART_TYPES = [
  { value: 'bar', label: 'Bar' },
  { value: 'line', label: 'Line' },
  { value: 'pie', label: 'Pie' },
  { value: 'table', label: 'Table' },
  { value: 'number', label: 'KPI (single number)' },
] as const;

const widgetsOf = (config: DashboardConfig): DashboardWidget[] => config.widgets ?? [];

/** Adds a widget of `type` at the first free spot; returns the config and the new widget's id. */
export function addWidget(config: DashboardConfig, type: NewWidgetType): { config: DashboardConfig; id: string } {
  const spec = NEW_WIDGETS[type];
  const cols = columnsOf(config.layout);
  const widgets = widgetsOf(config);
  const id = newWidgetId(
    widgets.map((w) => w.id),
    type.toLowerCase(),
  );
  const position = firstFreeSpot(topLevelWidgets(config), Math.min(spec.w, cols), spec.h, cols);
  const widget: DashboardWidget = { id, type, position, config: { ...spec.config } };
  return { config: { ...config, widgets: [...widgets, widget] }, id };
}

/** Replaces widget `id`'s config (title, chart type, query, text…). */
export function setWidgetConfig(config: DashboardConfig, id: string, widgetConfig: Record<string, unknown>): DashboardConfig {
  return { ...config, widgets: widgetsOf(config).map((w) => (w.id === id ? { ...w, config: widgetConfig } : w)) };
}

/** Removes widget `id` and, for a container, the widgets inside it. */
export function removeWidget(config: DashboardConfig, id: string): DashboardConfig {
  return { ...config, widgets: widgetsOf(config).filter((w) => w.id !== id && parentOf(w)?.parentId !== id) };
}

/**
 * Puts top-level widget `id` at `position` (clamped to the grid), pushing the widgets it covers
 * down. Widgets inside containers are placed by their container, so they neither move nor collide.
 * A widget's `responsiveLayouts.lg`, where it has one, follows its position (both name the widest grid).
 */
export function moveWidget(config: DashboardConfig, id: string, position: WidgetPosition): DashboardConfig {
  const cols = columnsOf(config.layout);
  const top = topLevelWidgets(config);
  const placed = placeWidget(top, id, position, cols);
  if (placed === top) return config;
  const moved = new Map(placed.map((w) => [w.id, w.position]));
  return {
    ...config,
    widgets: widgetsOf(config).map((w) => {
      const next = moved.get(w.id);
      if (!next || next === w.position) return w;
      const lg = w.responsiveLayouts?.lg ? { responsiveLayouts: { ...w.responsiveLayouts, lg: next } } : {};
      return { ...w, position: next, ...lg };
    }),
  };
}

/** Whether `config` differs from `saved` (null: nothing saved yet, so any dashboard is a change). */
export function isDirty(config: DashboardConfig | null, saved: DashboardConfig | null): boolean {
  if (config === null) return false;
  if (saved === null) return true;
  return stableJson(config) !== stableJson(saved);
}

/** JSON with object keys sorted, so a config read back from the service compares equal to the one sent. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, inner]) => inner !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * The config as a publish or create body: the response shape with every widget's id, which the
 * editor always gives (server-assigned ids came back with the saved draft).
 */
export const asInput = (config: DashboardConfig): DashboardConfigInput => config as DashboardConfigInput;
/** The config as a draft body (the theme read back is the theme the service accepted). */
export const asDraftInput = (config: DashboardConfig): DashboardConfigDraftInput => config as DashboardConfigDraftInput;

/** A widget's config as a plain object to edit (null and arrays become an empty object). */
export function widgetConfigOf(widget: Pick<DashboardWidget, 'config'>): Record<string, unknown> {
  const c = widget.config;
  return c !== null && c !== undefined && typeof c === 'object' && !Array.isArray(c) ? (c as Record<string, unknown>) : {};
}
