/**
 * Drawing a widget's figure (figure.ts) inside its panel: on the PNG raster and as PDF content
 * operators. Both place the figure under the panel's label and detail, in the same proportions.
 */
import { ERROR_COLOR, SERIES_PALETTE, wrap, type Figure } from './figure';
import type { Color, DashboardLayoutPlan, WidgetBox } from './layout';
import { Raster } from './png';

/** The area a figure gets in plan units: below the label (and the detail when the panel is tall enough). */
export function figureArea(box: WidgetBox): { x: number; y: number; w: number; h: number } | null {
  const top = box.y + (box.h > 44 ? 48 : 28);
  const area = { x: box.x + 8, y: top, w: box.w - 16, h: box.y + box.h - 8 - top };
  return area.w >= 16 && area.h >= 10 ? area : null;
}

const colorOf = (box: WidgetBox, index: number): Color => (index === 0 ? box.accent : SERIES_PALETTE[(index - 1) % SERIES_PALETTE.length]!);

interface Pen {
  rect(x: number, y: number, w: number, h: number, color: Color): void;
  line(points: [number, number][], color: Color): void;
  /** Text with its top at `y`, about `size` units tall. */
  text(x: number, y: number, value: string, size: number, color: Color, maxWidth: number): void;
}

/** Lays the figure out with a pen in plan units (y down). */
function drawWith(pen: Pen, plan: DashboardLayoutPlan, box: WidgetBox, figure: Figure): void {
  const area = figureArea(box);
  if (!area) return;
  const { x, y, w, h } = area;
  switch (figure.kind) {
    case 'message': {
      const color = figure.tone === 'error' ? ERROR_COLOR : plan.muted;
      wrap(figure.text, Math.max(8, Math.floor(w / 6)))
        .slice(0, Math.max(1, Math.floor(h / 11)))
        .forEach((line, i) => pen.text(x, y + i * 11, line, 8, color, w));
      return;
    }
    case 'number':
      pen.text(x, y, figure.text, Math.min(28, h), box.accent, w);
      if (h > 44) pen.text(x, y + Math.min(28, h) + 6, figure.caption, 8, plan.muted, w);
      return;
    case 'table':
      figure.rows.slice(0, Math.max(1, Math.floor(h / 11))).forEach((cells, i) => pen.text(x, y + i * 11, cells.join('  |  '), 8, i === 0 ? plan.text : plan.muted, w));
      return;
    case 'share': {
      const total = figure.parts.reduce((sum, p) => sum + p.value, 0) || 1;
      const barH = Math.min(18, h);
      let at = x;
      figure.parts.forEach((part, i) => {
        const width = (part.value / total) * w;
        pen.rect(at, y, width, barH, colorOf(box, i));
        at += width;
      });
      if (h > barH + 14) pen.text(x, y + barH + 4, figure.parts.slice(0, 6).map((p) => `${p.name} ${Math.round((p.value / total) * 100)}%`).join('  '), 8, plan.muted, w);
      return;
    }
    case 'bars':
    case 'line': {
      const span = figure.max - figure.min || 1;
      const yOf = (v: number) => y + h - ((v - figure.min) / span) * h;
      const n = Math.max(1, figure.categories.length);
      const band = w / n;
      if (figure.kind === 'bars') {
        const each = (band * 0.75) / figure.series.length;
        figure.series.forEach((series, s) =>
          series.values.forEach((v, i) => {
            if (v === null) return;
            const [top, bottom] = [Math.min(yOf(v), yOf(0)), Math.max(yOf(v), yOf(0))];
            pen.rect(x + i * band + band * 0.125 + s * each, top, Math.max(1, each - 1), Math.max(1, bottom - top), colorOf(box, s));
          }),
        );
      } else {
        figure.series.forEach((series, s) => {
          const points = series.values.map((v, i) => (v === null ? null : ([x + (n === 1 ? w / 2 : (i / (n - 1)) * w), yOf(v)] as [number, number])));
          let run: [number, number][] = [];
          for (const p of [...points, null]) {
            if (p) run.push(p);
            else {
              if (run.length) pen.line(run, colorOf(box, s));
              run = [];
            }
          }
        });
      }
      pen.rect(x, yOf(0), w, 1, plan.muted);
    }
  }
}

export function drawFigurePng(raster: Raster, plan: DashboardLayoutPlan, box: WidgetBox): void {
  if (!box.figure) return;
  drawWith(
    {
      rect: (x, y, w, h, color) => raster.fillRect(x, y, w, h, color),
      line: (points, color) => points.slice(1).forEach((p, i) => raster.line(points[i]![0], points[i]![1], p[0], p[1], color, 2)),
      text: (x, y, value, size, color, maxWidth) => raster.text(x, y, value, color, Math.max(1, Math.floor(size / 7)), maxWidth),
    },
    plan,
    box,
    box.figure,
  );
}

/** PDF operators for the figure; `px`/`py` map plan units to page points, `scale` is points per unit. */
export function figurePdf(plan: DashboardLayoutPlan, box: WidgetBox, px: (x: number) => number, py: (y: number) => number, scale: number, text: (x: number, y: number, value: string, size: number, color: Color, maxWidth: number) => string): string {
  if (!box.figure) return '';
  const num = (n: number) => (Math.round(n * 100) / 100).toString();
  const rgb = (c: Color) => c.map((v) => num(v / 255)).join(' ');
  let out = '';
  drawWith(
    {
      rect: (x, y, w, h, color) => void (out += `${rgb(color)} rg ${num(px(x))} ${num(py(y + h))} ${num(w * scale)} ${num(Math.max(0.5, h * scale))} re f\n`),
      line: (points, color) => void (out += `${rgb(color)} RG 1.2 w ${points.map(([x, y], i) => `${num(px(x))} ${num(py(y))} ${i === 0 ? 'm' : 'l'}`).join(' ')} S\n`),
      text: (x, y, value, size, color, maxWidth) => void (out += text(px(x), py(y + size), value, size * scale * 1.2, color, maxWidth * scale)),
    },
    plan,
    box,
    box.figure,
  );
  return out;
}
