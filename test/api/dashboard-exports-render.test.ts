import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { DashboardConfig } from '../../src-shared/api/workbooks';
import { figureArea, pdfString, planDashboard, renderDashboard } from '../../src-main/features/dashboard-exports/render';
import { glyph } from '../../src-main/features/dashboard-exports/render/font';

const created = new Date('2026-05-01T00:00:00Z');

function pixels(png: Buffer) {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.subarray(at + 4, at + 8).toString('latin1') === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const at = (x: number, y: number) => {
    const i = y * (width * 3 + 1) + 1 + x * 3;
    return [raw[i], raw[i + 1], raw[i + 2]];
  };
  return { width, height, at };
}

describe('dashboard renderers', () => {
  it('PNG: draws the title in the bitmap font, cut to the canvas width', () => {
    const config: DashboardConfig = { title: 'X'.repeat(500), theme: { backgroundColor: '#ffffff' }, widgets: [] };
    const png = pixels(renderDashboard(config, 'png', { name: 'n', width: 480, createdAt: created }));
    let inkLeft = 0;
    let inkRight = 0;
    for (let y = 16; y < 16 + 21; y++) {
      for (let x = 0; x < png.width; x++) {
        const [r] = png.at(x, y);
        if (r < 128) {
          if (x < png.width - 16) inkLeft++;
          else inkRight++;
        }
      }
    }
    expect(inkLeft).toBeGreaterThan(100);
    expect(inkRight).toBe(0);
  });

  it('PNG: a count beside an amount a thousand times larger gets its own scale, as in the app, not bars flattened to a line', () => {
    const config: DashboardConfig = {
      theme: { backgroundColor: '#ffffff', primaryColor: '#2563eb' },
      widgets: [{ id: 'c', type: 'CHART', position: { x: 0, y: 0, w: 12, h: 6 }, config: { chartType: 'bar', query: { measures: ['o.count', 'o.amount'], dimensions: ['o.status'] } } }],
    };
    const columns = [
      { key: 'o.status', title: 'Status', kind: 'dimension' as const, type: 'string' },
      { key: 'o.count', title: 'Count', kind: 'measure' as const, type: 'number' },
      { key: 'o.amount', title: 'Amount', kind: 'measure' as const, type: 'number' },
    ];
    const data = ['completed', 'shipped', 'placed'].map((status, i) => ({ 'o.status': status, 'o.count': 27_000 - i * 5_000, 'o.amount': 23_000_000 - i * 4_000_000 }));
    const options = { name: 'n', width: 800, data: { c: { ok: true as const, result: { columns, data } } } };
    const [box] = planDashboard(config, options).widgets;
    expect(box.figure).toMatchObject({ kind: 'bars', layout: 'dual', scales: [{ series: [0] }, { series: [1] }] });
    const png = pixels(renderDashboard(config, 'png', { ...options, createdAt: created }));
    // The count's bars (the widget's accent) stand tall in the figure, not 1 px high.
    const area = figureArea(box)!;
    let tallest = 0;
    for (let x = Math.ceil(area.x); x < area.x + area.w; x++) {
      let run = 0;
      for (let y = Math.ceil(area.y); y < area.y + area.h; y++) {
        const [r, g, b] = png.at(x, y);
        run = r === 37 && g === 99 && b === 235 ? run + 1 : 0;
        tallest = Math.max(tallest, run);
      }
    }
    expect(tallest).toBeGreaterThan(area.h / 3);
  });

  it('PNG: the marks the app’s labels use (a detail’s ·, an empty number’s –, a null category’s ∅, …) are drawn, not as the unknown box', () => {
    const unknown = glyph('\u{1F600}');
    for (const mark of ['·', '–', '—', '…', '∅', '→', '’', '“', '”']) expect(glyph(mark), mark).not.toEqual(unknown);
  });

  it('PNG: spacers leave the background, dividers draw a line', () => {
    const config: DashboardConfig = {
      theme: { backgroundColor: '#ffffff' },
      widgets: [
        { id: 's', type: 'SPACER', position: { x: 0, y: 0, w: 12, h: 2 } },
        { id: 'd', type: 'DIVIDER', position: { x: 0, y: 2, w: 12, h: 1 } },
      ],
    };
    const plan = planDashboard(config, { name: 'n', width: 800 });
    const [spacer, divider] = plan.widgets;
    const png = pixels(renderDashboard(config, 'png', { name: 'n', width: 800, createdAt: created }));
    expect(png.at(Math.round(spacer.x + spacer.w / 2), Math.round(spacer.y + spacer.h / 2))).toEqual([255, 255, 255]);
    expect(png.at(Math.round(divider.x + divider.w / 2), Math.round(divider.y + divider.h / 2))).not.toEqual([255, 255, 255]);
  });

  it('PDF: a dashboard taller than a page is cut into pages, each page listed in /Kids and counted', () => {
    const widgets = Array.from({ length: 12 }, (_, i) => ({ id: `w${i}`, type: 'CHART' as const, position: { x: 0, y: i * 6, w: 12, h: 6 }, config: { title: `Chart ${i}` } }));
    const text = renderDashboard({ title: 'Tall', widgets }, 'pdf', { name: 'n', width: 1280, createdAt: created }).toString('latin1');
    const count = Number(/\/Count (\d+)/.exec(text)![1]);
    expect(count).toBeGreaterThan(3);
    expect(text.match(/\/Type \/Page /g)).toHaveLength(count);
    expect(/\/Kids \[([^\]]*)\]/.exec(text)![1].split(' 0 R').filter((s) => s.trim()).length).toBe(count);
    for (let i = 0; i < 12; i++) expect(text).toContain(`(Chart ${i}) Tj`);
    expect(text).toContain(`(${count} / ${count}) Tj`);
  });

  it('PDF: an APP dashboard (no widgets) is exported with a note saying its files render in the browser', () => {
    const config: DashboardConfig = { title: 'App', kind: 'APP', app: { entry: 'index.html' } };
    const text = renderDashboard(config, 'pdf', { name: 'n', width: 1280, createdAt: created }).toString('latin1');
    expect(text).toContain('App dashboard \\(entry index.html\\)');
  });

  it('PDF strings escape parentheses and backslashes, keep Latin-1 as octal and replace other characters', () => {
    expect(pdfString('a(b)c\\d')).toBe('(a\\(b\\)c\\\\d)');
    expect(pdfString('café')).toBe('(caf\\351)');
    expect(pdfString('日本')).toBe('(??)');
  });

  it('lays widgets on the dashboard grid (columns, row height, margins, padding)', () => {
    const plan = planDashboard(
      {
        layout: { cols: { lg: 4 }, rowHeight: 30, margin: [20, 10], containerPadding: [5, 5] },
        widgets: [{ id: 'a', type: 'CHART', position: { x: 1, y: 2, w: 2, h: 3 } }],
      },
      { name: 'Grid', width: 425 },
    );
    // Column width: (425 - 2·5 - 3·20) / 4 = 88.75.
    expect(plan.widgets[0]).toMatchObject({ x: 5 + 1 * (88.75 + 20), y: 56 + 5 + 2 * (30 + 10), w: 2 * 88.75 + 20, h: 3 * 30 + 2 * 10, label: 'Chart' });
    expect(plan.title).toBe('Grid');
  });
});
