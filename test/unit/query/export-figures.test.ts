// Dashboard exports draw each CHART widget's real query result (bars to scale, the KPI's number,
// table rows) and a failed query's reason — never a made-up series.
import { describe, expect, it } from 'vitest';
import type { DashboardConfig } from '../../../src-shared/api/workbooks';
import { figureArea, rasterize, renderDashboard, type WidgetQueryOutcome } from '../../../src-main/features/dashboard-exports/render';

const created = new Date('2026-05-01T00:00:00Z');
const RED = [255, 0, 0];
const col = (key: string, kind: 'measure' | 'dimension', title = key) => ({ key, title, kind, type: kind === 'measure' ? 'number' : 'string' });
const config = (widgets: DashboardConfig['widgets']): DashboardConfig => ({ title: 'Board', theme: { backgroundColor: '#ffffff', primaryColor: '#ff0000' }, widgets });

describe('figures in dashboard exports', () => {
  it('PNG: bars are drawn to scale from the result rows', () => {
    const board = config([{ id: 'bars', type: 'CHART', position: { x: 0, y: 0, w: 12, h: 8 }, config: { chartType: 'bar', query: { measures: ['m'], dimensions: ['d'] } } }]);
    const data: Record<string, WidgetQueryOutcome> = { bars: { ok: true, result: { columns: [col('d', 'dimension'), col('m', 'measure')], data: [{ d: 'a', m: '10' }, { d: 'b', m: '5' }] } } };
    const { raster, plan } = rasterize(board, { name: 'n', width: 800, data });
    const area = figureArea(plan.widgets[0]!)!;
    const redHeight = (x0: number, x1: number) => {
      let best = 0;
      for (let x = Math.round(x0); x < x1; x++) {
        let run = 0;
        for (let y = Math.round(area.y); y < area.y + area.h; y++) {
          const i = (y * raster.width + x) * 3;
          if ([raster.pixels[i], raster.pixels[i + 1], raster.pixels[i + 2]].every((v, k) => v === RED[k])) run++;
        }
        best = Math.max(best, run);
      }
      return best;
    };
    const left = redHeight(area.x, area.x + area.w / 2);
    const right = redHeight(area.x + area.w / 2, area.x + area.w);
    expect(left).toBeGreaterThan(50);
    expect(left / right).toBeCloseTo(2, 1);
  });

  it('PDF: a KPI prints its number, a table its rows, a failed query why; a chart without a query says so', () => {
    const board = config([
      { id: 'kpi', type: 'CHART', position: { x: 0, y: 0, w: 4, h: 4 }, config: { title: 'Revenue', chartType: 'number', query: { measures: ['m'] } } },
      { id: 'tbl', type: 'CHART', position: { x: 4, y: 0, w: 8, h: 6 }, config: { chartType: 'table', query: { measures: ['m'], dimensions: ['d'] } } },
      { id: 'bad', type: 'CHART', position: { x: 0, y: 6, w: 6, h: 4 }, config: { chartType: 'bar', query: { measures: ['x'] } } },
      { id: 'none', type: 'CHART', position: { x: 6, y: 6, w: 6, h: 4 }, config: { title: 'Idea' } },
    ]);
    const data: Record<string, WidgetQueryOutcome> = {
      kpi: { ok: true, result: { columns: [col('m', 'measure', 'Total')], data: [{ m: '1234567.5' }] } },
      tbl: { ok: true, result: { columns: [col('d', 'dimension', 'Country'), col('m', 'measure', 'Total')], data: [{ d: 'Germany', m: '1500' }, { d: 'France', m: '20' }] } },
      bad: { ok: false, message: "cube 'orders' has no measure named 'x'" },
    };
    const text = renderDashboard(board, 'pdf', { name: 'n', width: 1000, createdAt: created, data }).toString('latin1');
    expect(text).toContain('(1.23M) Tj');
    expect(text).toContain('(Country  |  Total) Tj');
    expect(text).toContain('(Germany  |  1.50k) Tj');
    expect(text).toMatch(/\(Query failed: cube 'orders' has no measure named/);
    expect(text).toContain('(This chart has no query in its config.) Tj');
  });
});
