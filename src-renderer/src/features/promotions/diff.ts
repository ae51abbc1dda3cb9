/**
 * The details behind a promotion preview. The service says WHICH widgets are added, removed,
 * moved or changed (DashboardDiff); this works out HOW from the two contents it also returns:
 * positions before → after, and every changed config/style/theme/layout value with both sides.
 * "Before" is the target as it is; "after" is the source that would replace it.
 */
import type { DashboardDiff, PromotableContent, PromotionPreview } from '../../../../src-shared/api/promotions';
import type { DashboardConfig, DashboardWidget, WidgetPosition } from '../../../../src-shared/api/workbooks';

export interface ValueChange {
  /** `config.title`, `widgets.border.color`, `files["index.js"]`… (empty for the value itself). */
  path: string;
  before: unknown;
  after: unknown;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The service treats a null member like an absent one; so does the diff. */
const isAbsent = (value: unknown): boolean => value === null || value === undefined;

const keySegment = (key: string, parent: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? (parent ? `${parent}.${key}` : key) : `${parent}[${JSON.stringify(key)}]`;

/** Leaf-level differences between two JSON values, in key order. */
export function valueChanges(before: unknown, after: unknown, path = ''): ValueChange[] {
  if (isAbsent(before) && isAbsent(after)) return [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => valueChanges(before[key], after[key], keySegment(key, path)));
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((item, index) => valueChanges(item, after[index], `${path}[${index}]`));
  }
  if (sameJson(before, after)) return [];
  return [{ path, before: isAbsent(before) ? null : before, after: isAbsent(after) ? null : after }];
}

function sameJson(a: unknown, b: unknown): boolean {
  if (isAbsent(a) && isAbsent(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) return valueChanges(a, b).length === 0;
  return a === b;
}

export type WidgetChangeKind = 'added' | 'removed' | 'moved' | 'changed';

export interface WidgetChange {
  id: string;
  /** In display order: added | removed, else moved and/or changed. */
  kinds: WidgetChangeKind[];
  /** The widget in the target (null when added). */
  before: DashboardWidget | null;
  /** The widget in the source (null when removed). */
  after: DashboardWidget | null;
  /** Both positions when the widget moves or is resized. */
  move: { before: WidgetPosition; after: WidgetPosition } | null;
  /** Only the responsive (per-breakpoint) layouts differ. */
  responsiveOnly: boolean;
  /** type, config.* and style.* differences. */
  values: ValueChange[];
}

export interface DashboardChangeDetail {
  diff: DashboardDiff;
  widgets: WidgetChange[];
  /** title, description, kind. */
  fields: ValueChange[];
  theme: ValueChange[];
  layout: ValueChange[];
  settings: ValueChange[];
  app: ValueChange[];
  /** The same widgets, in another order in the document. */
  orderChanged: boolean;
}

const byId = (config: DashboardConfig | null): Map<string, DashboardWidget> => new Map((config?.widgets ?? []).map((w) => [w.id, w]));

export function dashboardChangeDetail(diff: DashboardDiff, source: DashboardConfig | null, target: DashboardConfig | null): DashboardChangeDetail {
  const after = byId(source);
  const before = byId(target);
  const moved = new Set(diff.widgetsMoved);
  const changed = new Set(diff.widgetsChanged);
  const widgets: WidgetChange[] = [];
  for (const id of diff.widgetsAdded) {
    widgets.push({ id, kinds: ['added'], before: null, after: after.get(id) ?? null, move: null, responsiveOnly: false, values: [] });
  }
  for (const id of diff.widgetsRemoved) {
    widgets.push({ id, kinds: ['removed'], before: before.get(id) ?? null, after: null, move: null, responsiveOnly: false, values: [] });
  }
  // Moved and changed widgets in the source's order, each once.
  for (const widget of source?.widgets ?? []) {
    if (!moved.has(widget.id) && !changed.has(widget.id)) continue;
    const old = before.get(widget.id) ?? null;
    const kinds: WidgetChangeKind[] = [...(moved.has(widget.id) ? (['moved'] as const) : []), ...(changed.has(widget.id) ? (['changed'] as const) : [])];
    const positionDiffers = old !== null && !sameJson(old.position, widget.position);
    widgets.push({
      id: widget.id,
      kinds,
      before: old,
      after: widget,
      move: moved.has(widget.id) && old ? { before: old.position, after: widget.position } : null,
      responsiveOnly: moved.has(widget.id) && !positionDiffers,
      values: changed.has(widget.id) && old ? valueChanges({ type: old.type, config: old.config, style: old.style }, { type: widget.type, config: widget.config, style: widget.style }) : [],
    });
  }
  const pick = <K extends keyof DashboardConfig>(key: K) => valueChanges(target?.[key] ?? null, source?.[key] ?? null);
  const sourceOrder = (source?.widgets ?? []).map((w) => w.id).filter((id) => before.has(id));
  const targetOrder = (target?.widgets ?? []).map((w) => w.id).filter((id) => after.has(id));
  return {
    diff,
    widgets,
    fields: (['title', 'description', 'kind'] as const).flatMap((key) => valueChanges(target?.[key] ?? null, source?.[key] ?? null, key)),
    theme: diff.themeChanged ? pick('theme') : [],
    layout: diff.layoutChanged ? pick('layout') : [],
    settings: diff.settingsChanged ? pick('settings') : [],
    app: diff.appChanged ? pick('app') : [],
    orderChanged: !sameJson(sourceOrder, targetOrder),
  };
}

/** What the grid highlights: each widget's most telling change. */
export function widgetMarks(detail: DashboardChangeDetail): Map<string, WidgetChangeKind> {
  return new Map(detail.widgets.map((w) => [w.id, w.kinds.includes('changed') && !w.kinds.includes('moved') ? 'changed' : w.kinds[0]]));
}

export type DashboardSide = 'dashboardPublished' | 'dashboardDraft';

export interface PromotionDetail {
  /** name, description of the workbook. */
  fields: ValueChange[];
  dashboards: Record<DashboardSide, DashboardChangeDetail>;
}

export function promotionDetail(preview: Pick<PromotionPreview, 'changes' | 'sourceContent' | 'targetContent'>): PromotionDetail {
  const source: PromotableContent = preview.sourceContent;
  const target = preview.targetContent;
  return {
    fields: preview.changes.fieldsChanged.map((key) => ({ path: key, before: target?.[key as 'name' | 'description'] ?? null, after: source[key as 'name' | 'description'] ?? null })),
    dashboards: {
      dashboardPublished: dashboardChangeDetail(preview.changes.dashboardPublished, source.dashboardPublished, target?.dashboardPublished ?? null),
      dashboardDraft: dashboardChangeDetail(preview.changes.dashboardDraft, source.dashboardDraft, target?.dashboardDraft ?? null),
    },
  };
}

/** `+2 −1 ↔1 ~3`-style counts of a dashboard diff. */
export function changeCounts(diff: DashboardDiff): { added: number; removed: number; moved: number; changed: number } {
  return { added: diff.widgetsAdded.length, removed: diff.widgetsRemoved.length, moved: diff.widgetsMoved.length, changed: diff.widgetsChanged.length };
}

/** A JSON value as one short line for a change list. */
export function formatValue(value: unknown, max = 120): string {
  if (value === null || value === undefined) return '—';
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Whether a value reads as a CSS colour (the change list then shows a swatch). */
export const looksLikeColor = (value: unknown): value is string =>
  typeof value === 'string' && /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|hsla?\([\d\s.,%deg]+\))$/i.test(value.trim());
