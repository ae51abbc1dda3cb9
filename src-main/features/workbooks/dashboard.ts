import { randomBytes } from 'node:crypto';
import type { TSchema } from 'typebox';
import type { DashboardDiff } from '../../../src-shared/api/promotions';
import {
  DashboardConfigDraftInput,
  LEGACY_TABS_CONTAINER,
  type DashboardConfig,
  type DashboardWidget,
} from '../../../src-shared/api/workbooks';
import { ApiError, badRequest, pointerToken, unknownFieldsError } from '../../http/problem';
import { VALUELESS_OPERATORS, type DashboardFilter } from '../../../src-shared/api/notifications';
import { canonicalJson } from '../workspace-items';

/**
 * Keeps what a schema describes (recursively) and collects, in `unknown`, the pointer of every key
 * it does not describe. Free-form objects (`additionalProperties: true`) and records are kept whole.
 */
export function pickBySchema(value: unknown, schema: TSchema, pointer = '', unknown: string[] = []): unknown {
  const s = schema as unknown as {
    type?: string | string[];
    properties?: Record<string, TSchema>;
    additionalProperties?: boolean;
    patternProperties?: unknown;
    items?: TSchema;
  };
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return s.items ? value.map((v, i) => pickBySchema(v, s.items as TSchema, `${pointer}/${i}`, unknown)) : value;
  if (typeof value !== 'object') return value;
  if (!s.properties || s.additionalProperties === true || s.patternProperties) return value;
  const out: Record<string, unknown> = {};
  for (const [key, propSchema] of Object.entries(s.properties)) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = pickBySchema(v, propSchema, `${pointer}/${pointerToken(key)}`, unknown);
  }
  for (const key of Object.keys(value)) if (!Object.hasOwn(s.properties, key)) unknown.push(`${pointer}/${pointerToken(key)}`);
  return out;
}

interface LooseWidget {
  id?: string | null;
  type?: string;
  config?: Record<string, unknown> | null;
  [key: string]: unknown;
}

/**
 * The legacy widget type TABS_CONTAINER is a CONTAINER whose `config.layout` is `tabs`: rewrites
 * such widgets in place. Runs before validation (the legacy value is no longer advertised) and
 * again on anything read back.
 */
export function healLegacyWidgets(config: unknown): void {
  if (!config || typeof config !== 'object') return;
  const widgets = (config as { widgets?: unknown }).widgets;
  if (!Array.isArray(widgets)) return;
  for (const widget of widgets as LooseWidget[]) {
    if (!widget || typeof widget !== 'object' || widget.type !== LEGACY_TABS_CONTAINER) continue;
    widget.type = 'CONTAINER';
    const previous = widget.config && typeof widget.config === 'object' && !Array.isArray(widget.config) ? widget.config : {};
    widget.config = { ...previous, layout: 'tabs' };
  }
}

const newWidgetId = (taken: Set<string>): string => {
  for (;;) {
    const id = `w_${randomBytes(6).toString('hex')}`;
    if (!taken.has(id)) return id;
  }
};

/**
 * Turns a dashboard from a request into the stored config: unknown fields dropped, legacy widgets
 * healed, ids checked for duplicates. With `assignIds`, widgets without an id get one (drafts);
 * otherwise a missing id is a 400 (creating or publishing needs an id on every widget).
 */
export function normalizeDashboard(input: unknown, pointer: string, options: { assignIds: boolean }): DashboardConfig | null {
  if (input === null || input === undefined) return null;
  healLegacyWidgets(input);
  // One policy for unknown keys, at the top of a body and inside it: refused, each key named.
  const unknown: string[] = [];
  const config = pickBySchema(input, DashboardConfigDraftInput, pointer, unknown) as DashboardConfig & { widgets?: LooseWidget[] | null };
  if (unknown.length > 0) throw unknownFieldsError(unknown);
  const widgets = config.widgets;
  if (!Array.isArray(widgets)) return config;
  const taken = new Set<string>();
  widgets.forEach((widget, index) => {
    if (typeof widget.id !== 'string') return;
    if (taken.has(widget.id)) {
      throw badRequest('DUPLICATE_WIDGET_ID', `Widget id "${widget.id}" is used by more than one widget.`, {
        errors: [{ pointer: `${pointer}/widgets/${index}/id`, detail: 'duplicate widget id' }],
      });
    }
    taken.add(widget.id);
  });
  widgets.forEach((widget, index) => {
    if (typeof widget.id === 'string') return;
    if (!options.assignIds) {
      throw new ApiError(400, 'WIDGET_ID_REQUIRED', `Widget ${index} has no id; creating or publishing a dashboard needs an id on every widget.`, {
        errors: [{ pointer: `${pointer}/widgets/${index}/id`, detail: 'required' }],
      });
    }
    widget.id = newWidgetId(taken);
    taken.add(widget.id);
  });
  return config;
}

/** A stored dashboard (JSON text) as a config; legacy widgets healed. */
export function parseDashboard(text: string | null): DashboardConfig | null {
  if (text === null) return null;
  const config = JSON.parse(text) as DashboardConfig;
  healLegacyWidgets(config);
  return config;
}

export const serializeDashboard = (config: DashboardConfig | null): string | null => (config === null ? null : JSON.stringify(config));

/** The first widget without an id, if any (the saved draft must not be published then). */
export function widgetMissingId(config: DashboardConfig | null): number | null {
  const index = (config?.widgets ?? []).findIndex((w) => typeof w.id !== 'string' || w.id.length === 0);
  return index < 0 ? null : index;
}

const same = (a: unknown, b: unknown): boolean => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/** What changes when `target` is replaced by `source`. */
export function diffDashboards(source: DashboardConfig | null, target: DashboardConfig | null): DashboardDiff {
  const presence = source && target ? 'both' : source ? 'added' : target ? 'removed' : 'neither';
  const s = source ?? {};
  const t = target ?? {};
  const sourceWidgets = new Map<string, DashboardWidget>((s.widgets ?? []).map((w) => [w.id, w]));
  const targetWidgets = new Map<string, DashboardWidget>((t.widgets ?? []).map((w) => [w.id, w]));
  const widgetsAdded = [...sourceWidgets.keys()].filter((id) => !targetWidgets.has(id));
  const widgetsRemoved = [...targetWidgets.keys()].filter((id) => !sourceWidgets.has(id));
  const widgetsMoved: string[] = [];
  const widgetsChanged: string[] = [];
  for (const [id, sw] of sourceWidgets) {
    const tw = targetWidgets.get(id);
    if (!tw) continue;
    if (!same(sw.position, tw.position) || !same(sw.responsiveLayouts, tw.responsiveLayouts)) widgetsMoved.push(id);
    if (sw.type !== tw.type || !same(sw.config, tw.config) || !same(sw.style, tw.style)) widgetsChanged.push(id);
  }
  // Same widgets in another order is a change of the document too.
  const orderChanged = !same((s.widgets ?? []).map((w) => w.id), (t.widgets ?? []).map((w) => w.id));
  const fieldsChanged = (['title', 'description', 'kind'] as const).filter((key) => !same(s[key], t[key]));
  const themeChanged = !same(s.theme, t.theme);
  const layoutChanged = !same(s.layout, t.layout);
  const settingsChanged = !same(s.settings, t.settings);
  const appChanged = !same(s.app, t.app);
  const changed =
    presence === 'added' ||
    presence === 'removed' ||
    widgetsAdded.length + widgetsRemoved.length + widgetsMoved.length + widgetsChanged.length + fieldsChanged.length > 0 ||
    orderChanged ||
    themeChanged ||
    layoutChanged ||
    settingsChanged ||
    appChanged;
  return { changed, presence, widgetsAdded, widgetsRemoved, widgetsMoved, widgetsChanged, themeChanged, layoutChanged, settingsChanged, appChanged, fieldsChanged };
}

/**
 * Dashboard filters as a notification or a Python run receives them: `is_empty` / `is_not_empty`
 * take no values; every other operator needs at least one (400 with the filter's pointer).
 */
export function checkDashboardFilters(filters: DashboardFilter[]): { member: string; operator: string; values: string[] }[] {
  return filters.map((filter, index) => {
    const values = filter.values ?? [];
    const valueless = VALUELESS_OPERATORS.includes(filter.operator);
    if (valueless && values.length > 0) {
      throw badRequest('FILTER_VALUES_NOT_ALLOWED', `Filter ${index} (${filter.operator}) tests the member itself and takes no values.`, {
        errors: [{ pointer: `/body/filters/${index}/values`, detail: `${filter.operator} takes no values` }],
      });
    }
    if (!valueless && values.length === 0) {
      throw badRequest('FILTER_VALUES_REQUIRED', `Filter ${index} (${filter.operator}) needs at least one value.`, {
        errors: [{ pointer: `/body/filters/${index}/values`, detail: `${filter.operator} needs values` }],
      });
    }
    return { member: filter.member, operator: filter.operator, values };
  });
}
