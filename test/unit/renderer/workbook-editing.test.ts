import { describe, expect, it } from 'vitest';
import type { DashboardConfig } from '../../../src-shared/api/workbooks';
import { addWidget, emptyDashboard, isDirty, moveWidget, removeWidget, setWidgetConfig } from '../../../src-renderer/src/features/workbooks/editing';
import { EMPTY_PICK, fromQuery, toQuery } from '../../../src-renderer/src/features/models/data/pick';

const pos = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });

describe('editing a dashboard config', () => {
  it('adds widgets with fresh ids at the first free spot', () => {
    let config = emptyDashboard('Board');
    const first = addWidget(config, 'CHART');
    config = first.config;
    const second = addWidget(config, 'CHART');
    config = second.config;
    expect([first.id, second.id]).toEqual(['chart-1', 'chart-2']);
    expect(config.widgets!.map((w) => w.position)).toEqual([pos(0, 0, 6, 6), pos(6, 0, 6, 6)]);
    const divider = addWidget(config, 'DIVIDER');
    expect(divider.config.widgets!.at(-1)!.position).toEqual(pos(0, 6, 12, 1));
  });

  it('moves only top-level widgets; widgets inside a container keep their place and collide with nothing', () => {
    const config: DashboardConfig = {
      layout: { cols: { lg: 12 } },
      widgets: [
        { id: 'tabs', type: 'CONTAINER', position: pos(0, 0, 6, 4), config: { layout: 'tabs', tabs: ['A'] } },
        { id: 'inner', type: 'CHART', position: pos(6, 0, 6, 4), config: { parentId: 'tabs' } },
        { id: 'right', type: 'TEXT', position: pos(6, 0, 6, 4), config: {} },
      ],
    };
    const moved = moveWidget(config, 'tabs', pos(4, 0, 6, 4));
    const at = (id: string) => moved.widgets!.find((w) => w.id === id)!.position;
    expect(at('tabs')).toEqual(pos(4, 0, 6, 4));
    expect(at('right')).toEqual(pos(6, 4, 6, 4));
    expect(at('inner')).toEqual(pos(6, 0, 6, 4));
  });

  it('keeps a widget’s responsive lg position in step with its position', () => {
    const config: DashboardConfig = { widgets: [{ id: 'a', type: 'TEXT', position: pos(0, 0, 2, 2), responsiveLayouts: { lg: pos(0, 0, 2, 2), sm: pos(0, 0, 1, 1) } }] };
    const moved = moveWidget(config, 'a', pos(3, 1, 2, 2)).widgets![0]!;
    expect(moved.responsiveLayouts).toEqual({ lg: pos(3, 1, 2, 2), sm: pos(0, 0, 1, 1) });
  });

  it('removing a container removes the widgets inside it', () => {
    const config: DashboardConfig = {
      widgets: [
        { id: 'c', type: 'CONTAINER', position: pos(0, 0, 6, 4) },
        { id: 'inside', type: 'CHART', position: pos(0, 0, 6, 4), config: { parentId: 'c' } },
        { id: 'other', type: 'TEXT', position: pos(6, 0, 6, 4) },
      ],
    };
    expect(removeWidget(config, 'c').widgets!.map((w) => w.id)).toEqual(['other']);
  });

  it('is dirty when anything differs from the saved draft, whatever the key order the service answers in', () => {
    const saved = addWidget(emptyDashboard('Board'), 'CHART').config;
    const reordered = JSON.parse(JSON.stringify({ widgets: saved.widgets, layout: saved.layout, kind: saved.kind, title: saved.title })) as DashboardConfig;
    expect(isDirty(reordered, saved)).toBe(false);
    expect(isDirty(setWidgetConfig(saved, 'chart-1', { title: 'Revenue' }), saved)).toBe(true);
    expect(isDirty(saved, null)).toBe(true);
  });
});

describe('a widget query in the picker', () => {
  it('round-trips what the picker can show', () => {
    const query = {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2024-01-01', '2024-06-30'] }],
      filters: [{ member: 'orders.status', operator: 'equals', values: ['completed', 'shipped'] }],
      limit: 50,
    };
    const pick = fromQuery(query)!;
    expect(pick.filters).toEqual([{ member: 'orders.status', operator: 'equals', values: 'completed, shipped' }]);
    expect(toQuery(pick)).toEqual(query);
    expect(fromQuery(undefined)).toEqual(EMPTY_PICK);
  });

  it('hands queries the picker cannot show to the JSON editor', () => {
    expect(fromQuery({ measures: ['a.b'], order: { 'a.b': 'desc' } })).toBeNull();
    expect(fromQuery({ timeDimensions: [{ dimension: 'a.t' }, { dimension: 'a.u' }] })).toBeNull();
    expect(fromQuery({ timeDimensions: [{ dimension: 'a.t', dateRange: 'last 7 days' }] })).toBeNull();
    expect(fromQuery({ filters: [{ or: [] }] })).toBeNull();
    expect(fromQuery({ filters: [{ member: 'a.s', operator: 'equals', values: ['x,y'] }] })).toBeNull();
    expect(fromQuery('orders.count')).toBeNull();
  });
});
