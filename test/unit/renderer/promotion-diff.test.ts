import { describe, expect, it } from 'vitest';
import type { DashboardDiff } from '../../../src-shared/api/promotions';
import type { DashboardConfig } from '../../../src-shared/api/workbooks';
import { dashboardChangeDetail, looksLikeColor, valueChanges, widgetMarks } from '../../../src-renderer/src/features/promotions/diff';
import {
  containerTabs,
  gridMetrics,
  placement,
  themeColors,
  topLevelWidgets,
  widgetTitle,
} from '../../../src-renderer/src/features/workbooks/dashboard';

const pos = (x: number, y: number, w = 4, h = 3) => ({ x, y, w, h });
const noDiff: DashboardDiff = {
  changed: false,
  presence: 'both',
  widgetsAdded: [],
  widgetsRemoved: [],
  widgetsMoved: [],
  widgetsChanged: [],
  themeChanged: false,
  layoutChanged: false,
  settingsChanged: false,
  appChanged: false,
  fieldsChanged: [],
};

describe('value changes', () => {
  it('lists each differing leaf with its path and both values', () => {
    expect(valueChanges({ a: 1, b: { c: 'x', d: 'y' } }, { a: 1, b: { c: 'z', d: 'y' }, e: true })).toEqual([
      { path: 'b.c', before: 'x', after: 'z' },
      { path: 'e', before: null, after: true },
    ]);
  });

  it('treats null like an absent member, as the service’s hash does', () => {
    expect(valueChanges({ a: null, b: 1 }, { b: 1 })).toEqual([]);
  });

  it('quotes keys that are not identifiers and indexes equal-length arrays', () => {
    expect(valueChanges({ files: { 'index.js': 'a' } }, { files: { 'index.js': 'b' } })).toEqual([{ path: 'files["index.js"]', before: 'a', after: 'b' }]);
    expect(valueChanges({ margin: [10, 10] }, { margin: [10, 12] })).toEqual([{ path: 'margin[1]', before: 10, after: 12 }]);
    expect(valueChanges({ tabs: ['A'] }, { tabs: ['A', 'B'] })).toEqual([{ path: 'tabs', before: ['A'], after: ['A', 'B'] }]);
  });
});

describe('dashboard change detail', () => {
  const target: DashboardConfig = {
    title: 'Old',
    theme: { primaryColor: '#111111' },
    widgets: [
      { id: 'gone', type: 'TEXT', position: pos(0, 0) },
      { id: 'mover', type: 'CHART', position: pos(4, 0), config: { title: 'Revenue' } },
      { id: 'edit', type: 'CHART', position: pos(8, 0), config: { title: 'Orders', chartType: 'bar' } },
    ],
  };
  const source: DashboardConfig = {
    title: 'New',
    theme: { primaryColor: '#2563c9' },
    widgets: [
      { id: 'mover', type: 'CHART', position: pos(0, 0), config: { title: 'Revenue' } },
      { id: 'edit', type: 'CHART', position: pos(8, 0), config: { title: 'Orders', chartType: 'line' } },
      { id: 'new', type: 'FILTER', position: pos(0, 3) },
    ],
  };
  const diff: DashboardDiff = {
    ...noDiff,
    changed: true,
    widgetsAdded: ['new'],
    widgetsRemoved: ['gone'],
    widgetsMoved: ['mover'],
    widgetsChanged: ['edit'],
    themeChanged: true,
    fieldsChanged: ['title'],
  };
  const detail = dashboardChangeDetail(diff, source, target);

  it('gives a moved widget its position before and after', () => {
    const mover = detail.widgets.find((w) => w.id === 'mover');
    expect(mover?.kinds).toEqual(['moved']);
    expect(mover?.move).toEqual({ before: pos(4, 0), after: pos(0, 0) });
  });

  it('gives a changed widget the config values that differ', () => {
    expect(detail.widgets.find((w) => w.id === 'edit')?.values).toEqual([{ path: 'config.chartType', before: 'bar', after: 'line' }]);
  });

  it('keeps added and removed widgets with the side they exist on', () => {
    expect(detail.widgets.find((w) => w.id === 'new')).toMatchObject({ kinds: ['added'], before: null, after: { id: 'new' } });
    expect(detail.widgets.find((w) => w.id === 'gone')).toMatchObject({ kinds: ['removed'], before: { id: 'gone' }, after: null });
  });

  it('details theme and field changes only when the service says they changed', () => {
    expect(detail.theme).toEqual([{ path: 'primaryColor', before: '#111111', after: '#2563c9' }]);
    expect(detail.fields).toEqual([{ path: 'title', before: 'Old', after: 'New' }]);
    expect(detail.layout).toEqual([]);
  });

  it('marks each widget with one change kind for the grid', () => {
    expect(Object.fromEntries(widgetMarks(detail))).toEqual({ new: 'added', gone: 'removed', mover: 'moved', edit: 'changed' });
  });
});

describe('dashboard picture', () => {
  it('reads columns from the widest breakpoint and row height from the layout', () => {
    const config: DashboardConfig = { layout: { cols: { lg: 24, md: 12 }, rowHeight: 60 }, widgets: [{ id: 'a', type: 'CHART', position: pos(0, 2, 4, 5) }] };
    expect(gridMetrics(config)).toMatchObject({ cols: 24, rowHeight: 60, rows: 7 });
    expect(gridMetrics(null)).toMatchObject({ cols: 12, rowHeight: 40, rows: 1 });
  });

  it('keeps a widget inside the grid and at least one cell big', () => {
    expect(placement({ x: 10, y: 0, w: 6, h: 0 }, 12)).toEqual({ colStart: 11, colEnd: 13, rowStart: 1, rowEnd: 2 });
  });

  it('names widgets from their config and reads a tabbed container’s tabs', () => {
    expect(widgetTitle({ type: 'TEXT', config: { text: '## Quarterly **revenue**\nmore' } })).toBe('Quarterly revenue');
    expect(widgetTitle({ type: 'CHART', config: { name: 'Orders' } })).toBe('Orders');
    expect(containerTabs({ type: 'CONTAINER', config: { layout: 'tabs', tabs: ['A', { id: 't2', title: 'B' }] } })).toEqual([
      { key: 'A', title: 'A' },
      { key: 't2', title: 'B' },
    ]);
  });

  it('draws widgets that sit in a container inside it, not on the grid', () => {
    const config: DashboardConfig = {
      widgets: [
        { id: 'box', type: 'CONTAINER', position: pos(0, 0), config: { layout: 'tabs', tabs: ['A'] } },
        { id: 'inner', type: 'CHART', position: pos(0, 0), config: { parentId: 'box', tabId: 'A' } },
        { id: 'orphan', type: 'CHART', position: pos(4, 0), config: { parentId: 'missing' } },
      ],
    };
    expect(topLevelWidgets(config).map((w) => w.id)).toEqual(['box', 'orphan']);
  });

  it('uses theme colours but refuses values that could escape a CSS declaration', () => {
    expect(themeColors({ theme: { primaryColor: '#2563c9', dashboard: { backgroundColor: 'red;}body{x:y' } } })).toMatchObject({ accent: '#2563c9', canvas: null });
    expect(looksLikeColor('rgb(1, 2, 3)')).toBe(true);
    expect(looksLikeColor('12px')).toBe(false);
  });
});
