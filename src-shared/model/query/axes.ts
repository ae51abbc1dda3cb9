// Measures of different magnitude (a count of ~27k beside an amount of ~23M) do not share one axis
// (issue 24): two magnitudes get a second axis, more get small multiples (one panel per magnitude).
// Shared by the app's charts and the PNG/PDF dashboard export, so both show a chart alike.

export interface AxisSeries {
  name: string;
  values: (number | null)[];
}

/** Peaks further apart than this do not share an axis. */
export const MAGNITUDE_RATIO = 10;

export type AxisLayout =
  | { kind: 'single' }
  /** Series indexes on the left axis and on the right one. */
  | { kind: 'dual'; left: number[]; right: number[] }
  /** One panel per group of series of one magnitude, largest first. */
  | { kind: 'multiples'; panels: number[][] };

const peakOf = (values: (number | null)[]) => values.reduce<number>((peak, v) => (v === null || !Number.isFinite(v) ? peak : Math.max(peak, Math.abs(v))), 0);

/**
 * Groups the series by magnitude: each group holds series whose peaks are within `MAGNITUDE_RATIO`
 * of the group's largest. Series of one measure split by a dimension (`sameUnit`) always share an axis.
 */
export function axisLayout(series: readonly AxisSeries[], sameUnit: boolean): AxisLayout {
  if (sameUnit || series.length < 2) return { kind: 'single' };
  const peaks = series.map((s, index) => ({ index, peak: peakOf(s.values) }));
  // A series with nothing to show (all empty or zero) goes with the largest.
  const shown = peaks.filter((p) => p.peak > 0).sort((a, b) => b.peak - a.peak);
  if (shown.length < 2) return { kind: 'single' };
  const groups: { top: number; members: number[] }[] = [];
  for (const p of shown) {
    const group = groups.find((g) => g.top / p.peak < MAGNITUDE_RATIO);
    if (group) group.members.push(p.index);
    else groups.push({ top: p.peak, members: [p.index] });
  }
  for (const p of peaks) if (p.peak === 0) groups[0]!.members.push(p.index);
  const ordered = groups.map((g) => g.members.sort((a, b) => a - b));
  if (ordered.length === 1) return { kind: 'single' };
  // The axis on the left carries the first series (as the legend reads).
  if (ordered.length === 2) {
    const [a, b] = ordered as [number[], number[]];
    return a.includes(0) ? { kind: 'dual', left: a, right: b } : { kind: 'dual', left: b, right: a };
  }
  return { kind: 'multiples', panels: ordered };
}
