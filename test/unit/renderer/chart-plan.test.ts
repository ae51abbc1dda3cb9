import { describe, expect, it } from 'vitest';
import { chartLayout, type ChartInput } from '../../../src-renderer/src/lib/charts/options';
import { labelPlan, LABEL_LINE } from '../../../src-renderer/src/lib/charts/plan';
import { axisLayout } from '../../../src-shared/model/query';

/** About 7 px a character at 12 px, as the app's font measures. */
const measure = (text: string) => text.length * 7;
const series = (name: string, peak: number, n = 4) => ({ name, values: Array.from({ length: n }, (_, i) => (peak * (n - i)) / n) });

describe('measures of different magnitude do not share one axis', () => {
  it('a count of ~27k beside an amount of ~23M gets a second axis, the first series on the left', () => {
    expect(axisLayout([series('Count', 27_000), series('Total amount', 23_000_000)], false)).toEqual({ kind: 'dual', left: [0], right: [1] });
    // The axis on the left is the first series' even when it is the larger one.
    expect(axisLayout([series('Total amount', 23_000_000), series('Count', 27_000)], false)).toEqual({ kind: 'dual', left: [0], right: [1] });
  });

  it('measures within a factor of ten share the axis', () => {
    expect(axisLayout([series('Revenue', 700_000), series('Cost', 90_000)], false)).toEqual({ kind: 'single' });
  });

  it('three magnitudes become small multiples, largest first, similar measures together', () => {
    const layout = axisLayout([series('Count', 27_000), series('Total', 23_000_000), series('Average', 850), series('Largest', 4_000)], false);
    expect(layout).toEqual({ kind: 'multiples', panels: [[1], [0, 3], [2]] });
  });

  it('one measure split by a dimension keeps one axis whatever the spread (same unit)', () => {
    expect(axisLayout([series('web', 10), series('store', 1_000_000)], true)).toEqual({ kind: 'single' });
  });

  it('an empty series goes with the largest and does not force a split', () => {
    expect(axisLayout([series('Count', 27_000), { name: 'Nothing', values: [null, 0, null] }], false)).toEqual({ kind: 'single' });
  });
});

describe('category labels are never dropped', () => {
  it('labels that fit stay straight', () => {
    expect(labelPlan(['completed', 'shipped', 'placed', 'returned'], 600, measure)).toMatchObject({ rotate: 0, window: 4 });
  });

  it('labels wider than their slot turn 45°, then upright, cut at most to an ellipsis', () => {
    const names = Array.from({ length: 12 }, (_, i) => `Product with a long name ${i}`);
    expect(labelPlan(names, 600, measure)).toMatchObject({ rotate: 45, window: 12, width: 140 });
    expect(labelPlan(names, 200, measure)).toMatchObject({ rotate: 90, window: 12 });
  });

  it('more categories than upright labels have room for show a window of them (a slider pans)', () => {
    const many = Array.from({ length: 80 }, (_, i) => `P${i}`);
    const plan = labelPlan(many, 280, measure);
    expect(plan.window).toBe(Math.floor(280 / LABEL_LINE));
    expect(plan.window).toBeLessThan(80);
  });
});

describe('the chart layout', () => {
  const theme = { text: '#000', muted: '#666', border: '#ddd', palette: ['#111', '#222', '#333'] };
  const input = (overrides: Partial<ChartInput>): ChartInput => ({
    kind: 'bar',
    shaped: { categories: ['completed', 'shipped', 'placed', 'returned'], series: [series('Count', 27_000), series('Total amount', 23_000_000)], xTitle: 'Status', byMeasure: true },
    compact: false,
    theme,
    box: { width: 700, height: 400 },
    measure,
    ...overrides,
  });

  it('puts the second measure on a right axis named after it, ticks aligned, the drawing inside the box', () => {
    const layout = chartLayout(input({}));
    const option = layout.option as { yAxis: { position: string; name: string; alignTicks?: boolean }[]; series: { yAxisIndex: number }[]; xAxis: { axisLabel: { interval: number } }[] };
    expect(option.yAxis.map((a) => [a.position, a.name])).toEqual([
      ['left', 'Count'],
      ['right', 'Total amount'],
    ]);
    expect(option.yAxis[1]!.alignTicks).toBe(true);
    expect(option.series.map((s) => s.yAxisIndex)).toEqual([0, 1]);
    // Every label is drawn (interval 0), and the drawing is the box's size.
    expect(option.xAxis[0]!.axisLabel.interval).toBe(0);
    expect([layout.width, layout.height]).toEqual([700, 400]);
  });

  it('small multiples get a panel each, category labels on the bottom one only', () => {
    const layout = chartLayout(input({ shaped: { categories: ['a', 'b'], series: [series('Count', 27_000, 2), series('Total', 23_000_000, 2), series('Average', 850, 2)], xTitle: null, byMeasure: true } }));
    const option = layout.option as { grid: { top: number; height: number }[]; xAxis: { axisLabel: { show: boolean } }[] };
    expect(option.grid).toHaveLength(3);
    expect(option.xAxis.map((a) => a.axisLabel.show)).toEqual([false, false, true]);
    // Panels follow each other without overlapping.
    for (let i = 1; i < option.grid.length; i++) expect(option.grid[i]!.top).toBeGreaterThanOrEqual(option.grid[i - 1]!.top + option.grid[i - 1]!.height);
  });

  it('too many categories for the width add a slider over the category axes instead of dropping labels', () => {
    const categories = Array.from({ length: 80 }, (_, i) => `Product ${i}`);
    const layout = chartLayout(input({ shaped: { categories, series: [series('Revenue', 700_000, 80)], xTitle: 'Product', byMeasure: false } }));
    const option = layout.option as { dataZoom: { type: string; endValue?: number }[] };
    expect(layout.window).toBeLessThan(80);
    expect(option.dataZoom[0]).toMatchObject({ type: 'slider', endValue: layout.window - 1 });
  });
});
