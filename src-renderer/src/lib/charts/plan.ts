// How a query chart is laid out so people can read it (issue 24), decided before ECharts draws it:
// - measures of different magnitude do not share one axis (axisLayout, shared with the PNG/PDF
//   export: src-shared/model/query/axes.ts);
// - no category label is dropped: straight when it fits, else turned 45° or 90° and cut with an
//   ellipsis (the tooltip names the category in full); when even upright labels would overlap, a
//   window of the categories shows at a time with a slider under the chart to pan through them.
// Pure, so the rules are unit-tested (test/unit/renderer/chart-plan.test.ts).

export interface LabelPlan {
  /** Degrees the labels turn. */
  rotate: 0 | 45 | 90;
  /** Width a label may take before it is cut with an ellipsis, px. */
  width: number;
  /**
   * How many categories show at once: all of them, or — when even upright labels would overlap —
   * as many as have room, the rest reached by panning (a zoom window under the chart).
   */
  window: number;
}

/** Height of a line of axis labels (12 px text), px. */
export const LABEL_LINE = 14;
/** Longest a turned label may be before it is cut, px. */
export const LABEL_MAX = 140;

/**
 * Category labels that all show: `measure(text)` is the label's width in px, `plotWidth` the room
 * along the axis.
 */
export function labelPlan(categories: readonly string[], plotWidth: number, measure: (text: string) => number): LabelPlan {
  const n = Math.max(categories.length, 1);
  // Upright, a label needs a line's height: fewer pixels than that each and only a window of them shows.
  const window = Math.min(n, Math.max(1, Math.floor(plotWidth / LABEL_LINE)));
  const slot = plotWidth / window;
  const widest = categories.reduce((w, c) => Math.max(w, measure(c)), 0);
  if (widest + 8 <= slot) return { rotate: 0, width: Math.floor(slot - 4), window };
  // Turned 45°, neighbours clear each other when the slot is a line's height over sin 45°.
  if (slot >= LABEL_LINE / Math.SQRT1_2) return { rotate: 45, width: Math.min(Math.ceil(widest), LABEL_MAX), window };
  return { rotate: 90, width: Math.min(Math.ceil(widest), LABEL_MAX), window };
}

/** Room the labels take below the axis once turned, px (what the chart's height must allow for). */
export function labelDepth(plan: LabelPlan): number {
  if (plan.rotate === 0) return LABEL_LINE + 6;
  if (plan.rotate === 45) return Math.ceil(plan.width * Math.SQRT1_2 + LABEL_LINE) + 6;
  return plan.width + 6;
}
