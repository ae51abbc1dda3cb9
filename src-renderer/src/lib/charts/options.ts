// The ECharts option of a query chart, from its series, the room it has and the theme: the one place
// every chart of the app (Models › Data, vendor SQL, dashboards) is laid out (see plan.ts for the rules).
import type { ChartSeries } from '../../../../src-shared/model/query';
import { axisLayout, formatNumber, type AxisLayout } from '../../../../src-shared/model/query';
import { labelDepth, labelPlan } from './plan';

export type ChartKind = 'bar' | 'line' | 'pie';

export interface ChartTheme {
  text: string;
  muted: string;
  border: string;
  palette: string[];
}

export interface ChartInput {
  kind: ChartKind;
  shaped: ChartSeries;
  compact: boolean;
  theme: ChartTheme;
  /** The chart's box, px. */
  box: { width: number; height: number };
  /** Width of a 12 px label, px. */
  measure: (text: string) => number;
}

export interface ChartLayout {
  option: Record<string, unknown>;
  /** The drawing's size: the box's width, taller than the box when small multiples need it (the box scrolls). */
  width: number;
  height: number;
  axes: AxisLayout;
  /** Categories shown at once (fewer than all: a slider pans through them). */
  window: number;
}

/** Room beside the plot for a value axis's labels and the outer margin, px. */
const VALUE_AXIS = 64;
const MARGIN = 12;
/** A small multiple's panel is never shorter than this, px. */
const PANEL_MIN = 90;
const PANEL_GAP = 30;
/** The slider that pans through the categories when not all fit, px. */
const SLIDER = 34;

const fullNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const tooltipValue = (value: unknown) => (typeof value === 'number' ? fullNumber.format(value) : '–');

function pieOption({ shaped, compact, theme }: ChartInput): Record<string, unknown> {
  const first = shaped.series[0];
  return {
    color: theme.palette,
    animation: false,
    tooltip: { trigger: 'item', valueFormatter: tooltipValue },
    legend: compact || shaped.categories.length < 2 ? { show: false } : { type: 'scroll', bottom: 0, textStyle: { color: theme.muted } },
    series: [
      {
        type: 'pie',
        radius: compact ? ['35%', '70%'] : ['40%', '66%'],
        avoidLabelOverlap: true,
        label: { show: !compact, color: theme.text, overflow: 'truncate', width: 120, ellipsis: '…' },
        data: shaped.categories.map((name, i) => ({ name, value: first?.values[i] ?? 0 })),
      },
    ],
  };
}

const axisName = (names: string[]) => names.join(' · ');

export function chartLayout(input: ChartInput): ChartLayout {
  const { kind, shaped, compact, theme, box } = input;
  const axes = axisLayout(shaped.series, !shaped.byMeasure);
  if (kind === 'pie') return { option: pieOption(input), width: box.width, height: box.height, axes: { kind: 'single' }, window: shaped.categories.length };

  const legend = shaped.series.length > 1 && !compact;
  const top = legend ? 28 : 8;
  const valueAxes = axes.kind === 'dual' ? 2 : 1;
  const plotWidth = Math.max(40, box.width - VALUE_AXIS * valueAxes - MARGIN * 2);
  // Turned labels take at most a third of the height, so the bars keep the rest.
  const labels = labelPlan(shaped.categories, plotWidth, input.measure);
  const cut = { ...labels, width: Math.max(40, Math.min(labels.width, labels.rotate === 0 ? labels.width : Math.floor(box.height / 3))) };
  const panning = !compact && labels.window < shaped.categories.length;
  const panels = axes.kind === 'multiples' ? axes.panels : [shaped.series.map((_, i) => i)];
  // Each panel's rect holds its axis labels and names (ECharts fits the plot inside it); the last
  // one also holds the category labels, and the slider goes under it.
  const depth = compact ? 0 : labelDepth(cut);
  const bottom = panning ? SLIDER : compact ? 0 : 4;
  const panelHeight = Math.max(compact ? 20 : PANEL_MIN, Math.floor((box.height - top - depth - bottom - PANEL_GAP * (panels.length - 1)) / panels.length));
  const height = Math.max(box.height, top + depth + bottom + panelHeight * panels.length + PANEL_GAP * (panels.length - 1));
  const width = box.width;

  const categoryAxis = (gridIndex: number, last: boolean) => ({
    type: 'category',
    gridIndex,
    data: shaped.categories,
    axisLine: { lineStyle: { color: theme.border } },
    axisTick: { alignWithLabel: true },
    axisLabel: {
      show: !compact && last,
      color: theme.muted,
      interval: 0,
      rotate: cut.rotate,
      width: cut.width,
      overflow: 'truncate',
      ellipsis: '…',
      hideOverlap: false,
    },
  });
  const valueAxis = (gridIndex: number, names: string[], position: 'left' | 'right', color: string | undefined, splitLine: boolean) => ({
    type: 'value',
    gridIndex,
    position,
    // Which measures an axis carries, in their colour, when it is not the only one.
    name: axes.kind === 'single' || compact ? undefined : axisName(names),
    nameLocation: 'end',
    nameTextStyle: { color: color ?? theme.muted, fontWeight: 600, align: position === 'left' ? 'left' : 'right' },
    axisLabel: { show: !compact, color: color ?? theme.muted, formatter: (v: number) => formatNumber(v) },
    axisLine: axes.kind === 'dual' ? { show: true, lineStyle: { color: color ?? theme.border } } : undefined,
    splitLine: { show: splitLine, lineStyle: { color: theme.border } },
    // The right axis's ticks fall on the left one's grid lines.
    alignTicks: position === 'right' ? true : undefined,
  });
  const colorOf = (index: number) => theme.palette[index % theme.palette.length];

  const grids = panels.map((_, p) => ({
    left: compact ? 6 : MARGIN,
    right: compact ? 6 : MARGIN,
    top: top + p * (panelHeight + PANEL_GAP),
    height: panelHeight + (p === panels.length - 1 ? depth : 0),
    // Axis labels and names stay inside the drawing.
    outerBoundsMode: compact ? 'none' : 'same',
    outerBoundsContain: 'all',
  }));
  const xAxis = panels.map((_, p) => categoryAxis(p, p === panels.length - 1));
  const yAxis =
    axes.kind === 'dual'
      ? [valueAxis(0, axes.left.map((i) => shaped.series[i]!.name), 'left', colorOf(axes.left[0]!), true), valueAxis(0, axes.right.map((i) => shaped.series[i]!.name), 'right', colorOf(axes.right[0]!), false)]
      : panels.map((members, p) => valueAxis(p, members.map((i) => shaped.series[i]!.name), 'left', panels.length > 1 && members.length === 1 ? colorOf(members[0]!) : undefined, true));
  const placeOf = (index: number) => {
    if (axes.kind === 'dual') return { xAxisIndex: 0, yAxisIndex: axes.right.includes(index) ? 1 : 0 };
    const panel = panels.findIndex((members) => members.includes(index));
    return { xAxisIndex: panel, yAxisIndex: panel };
  };

  return {
    width,
    height,
    axes,
    window: panning ? labels.window : shaped.categories.length,
    option: {
      dataZoom: panning
        ? [
            { type: 'slider', xAxisIndex: panels.map((_, p) => p), startValue: 0, endValue: labels.window - 1, bottom: 8, height: 18, showDetail: false, brushSelect: false },
            { type: 'inside', xAxisIndex: panels.map((_, p) => p), zoomOnMouseWheel: false, moveOnMouseWheel: true },
          ]
        : [],
      color: theme.palette,
      animation: false,
      tooltip: { trigger: 'axis', confine: true, valueFormatter: tooltipValue },
      axisPointer: { link: [{ xAxisIndex: 'all' }] },
      legend: legend ? { type: 'scroll', top: 0, left: 'center', textStyle: { color: theme.muted } } : { show: false },
      grid: grids,
      xAxis,
      yAxis,
      series: shaped.series.map((s, i) => ({
        name: s.name,
        type: kind,
        data: s.values,
        ...placeOf(i),
        showSymbol: kind === 'line' && shaped.categories.length < 40 && !compact,
        ...(kind === 'line' && shaped.series.length === 1 ? { areaStyle: { opacity: 0.12 } } : {}),
      })),
    },
  };
}
