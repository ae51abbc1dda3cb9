/**
 * Drawing a widget's figure (figure.ts) inside its panel: on the PNG raster and as PDF content
 * operators. Both place the figure under the panel's label and detail, in the same proportions.
 */
import { formatNumber } from '../../../../src-shared/model/query';
import { ERROR_COLOR, SERIES_PALETTE, wrap, type Figure, type FigureScale } from './figure';
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
      // A panel per scale for small multiples; otherwise one panel, with a left and a right scale when dual.
      const panels = figure.layout === 'multiples' ? figure.scales.map((scale) => [scale]) : [figure.scales];
      const gap = 6;
      const panelH = (h - gap * (panels.length - 1)) / panels.length;
      panels.forEach((scales, p) => drawSeries(pen, plan, box, figure, scales, { x, y: y + p * (panelH + gap), w, h: panelH }));
    }
  }
}

type SeriesFigure = Extract<Figure, { kind: 'bars' | 'line' }>;

/** Height of a scale's label above its panel (plan units). */
const SCALE_LABEL = 10;
/** About how wide a character of 8-unit text is (plan units), to set a label flush right. */
const CHAR_WIDTH = 6;

/** The series of `scales` in one panel, each against its own scale; the scales' tops named when there are several. */
function drawSeries(pen: Pen, plan: DashboardLayoutPlan, box: WidgetBox, figure: SeriesFigure, scales: FigureScale[], area: { x: number; y: number; w: number; h: number }): void {
  const named = figure.scales.length > 1 && area.h > SCALE_LABEL * 3;
  const { x, w } = area;
  const y = named ? area.y + SCALE_LABEL : area.y;
  const h = named ? area.h - SCALE_LABEL : area.h;
  if (named) {
    scales.forEach((scale, i) => {
      const label = `${scale.series.map((s) => figure.series[s]!.name).join(', ')}: ${formatNumber(scale.max)}`;
      const width = Math.min(w / scales.length, label.length * CHAR_WIDTH);
      pen.text(i === 0 ? x : x + w - width, area.y, label, 8, plan.muted, width);
    });
  }
  const yOf = (scale: FigureScale) => {
    const span = scale.max - scale.min || 1;
    return (v: number) => y + h - ((v - scale.min) / span) * h;
  };
  const n = Math.max(1, figure.categories.length);
  const band = w / n;
  const drawn = scales.flatMap((scale) => scale.series.map((s) => ({ s, at: yOf(scale) }))).sort((a, b) => a.s - b.s);
  if (figure.kind === 'bars') {
    const each = (band * 0.75) / drawn.length;
    drawn.forEach(({ s, at }, slot) =>
      figure.series[s]!.values.forEach((v, i) => {
        if (v === null) return;
        const [top, bottom] = [Math.min(at(v), at(0)), Math.max(at(v), at(0))];
        pen.rect(x + i * band + band * 0.125 + slot * each, top, Math.max(1, each - 1), Math.max(1, bottom - top), colorOf(box, s));
      }),
    );
  } else {
    for (const { s, at } of drawn) {
      const points = figure.series[s]!.values.map((v, i) => (v === null ? null : ([x + (n === 1 ? w / 2 : (i / (n - 1)) * w), at(v)] as [number, number])));
      let run: [number, number][] = [];
      for (const p of [...points, null]) {
        if (p) run.push(p);
        else {
          if (run.length) pen.line(run, colorOf(box, s));
          run = [];
        }
      }
    }
  }
  pen.rect(x, yOf(scales[0]!)(0), w, 1, plan.muted);
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
