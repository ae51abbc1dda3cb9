// Where the lineage graph's nodes sit and how it first opens in its box, free of the DOM so it is
// testable on its own (issue 24: a 1,354 px graph in a 766 px box opened at its left edge, with
// "Used by" out of sight).
import type { LineageNode } from './graph';

export const NODE_W = 210;
export const NODE_H = 50;
export const GAP_X = 70;
export const GAP_Y = 14;
export const PAD = 12;
/** Height of the column titles above the drawing (they stay in sight while it scrolls). */
export const HEADS_H = 26;

/** Below this zoom node labels get hard to read: the graph opens on its middle instead of whole. */
export const READABLE_ZOOM = 0.8;
export const MIN_ZOOM = 0.3;
export const MAX_ZOOM = 2;

export interface GraphLayout {
  at: Map<string, { x: number; y: number }>;
  width: number;
  height: number;
  /** Depths of the leftmost and rightmost columns. */
  min: number;
  max: number;
}

/** Columns by depth (upstream left, the item in the middle column, users right), each centred vertically. */
export function layoutOf(nodes: readonly LineageNode[]): GraphLayout {
  const min = Math.min(...nodes.map((n) => n.depth));
  const max = Math.max(...nodes.map((n) => n.depth));
  const columns = new Map<number, LineageNode[]>();
  for (const n of nodes) columns.set(n.depth, [...(columns.get(n.depth) ?? []), n]);
  const tallest = Math.max(...[...columns.values()].map((c) => c.length));
  const height = PAD * 2 + tallest * NODE_H + (tallest - 1) * GAP_Y;
  const at = new Map<string, { x: number; y: number }>();
  for (const [depth, column] of columns) {
    const top = (height - (column.length * NODE_H + (column.length - 1) * GAP_Y)) / 2;
    column.forEach((n, i) => at.set(n.id, { x: columnX(depth, min), y: top + i * (NODE_H + GAP_Y) }));
  }
  return { at, width: PAD * 2 + (max - min + 1) * NODE_W + (max - min) * GAP_X, height, min, max };
}

/** Left edge of the column of `depth`. */
export const columnX = (depth: number, min: number): number => PAD + (depth - min) * (NODE_W + GAP_X);

export const clampZoom = (zoom: number): number => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));

export interface Box {
  width: number;
  height: number;
}

/**
 * How the graph first shows in a box: whole, when that keeps it readable; else zoomed so that the
 * item with what it is built from and what uses it (the three middle columns) fill the width. Either
 * way centred on the item, so "Built from", the item and "Used by" are in sight without scrolling.
 * `scrollLeft`/`scrollTop` are of the box, at that zoom.
 */
export function openingView(layout: GraphLayout, focusId: string | undefined, box: Box): { zoom: number; scrollLeft: number; scrollTop: number } {
  const room = { width: Math.max(1, box.width - 2 * PAD), height: Math.max(1, box.height - 2 * PAD) };
  const whole = Math.min(1, room.width / layout.width, room.height / layout.height);
  let zoom = whole;
  if (whole < READABLE_ZOOM) {
    const lo = Math.max(layout.min, -1);
    const hi = Math.min(layout.max, 1);
    const coreWidth = columnX(hi, layout.min) + NODE_W - columnX(lo, layout.min) + 2 * PAD;
    zoom = clampZoom(Math.max(whole, Math.min(1, room.width / coreWidth)));
  }
  const focus = focusId ? layout.at.get(focusId) : undefined;
  const centre = focus ? { x: focus.x + NODE_W / 2, y: focus.y + NODE_H / 2 } : { x: layout.width / 2, y: layout.height / 2 };
  return {
    zoom,
    scrollLeft: Math.max(0, Math.min(layout.width * zoom - box.width, centre.x * zoom - box.width / 2)),
    scrollTop: Math.max(0, Math.min(layout.height * zoom - box.height, centre.y * zoom - box.height / 2)),
  };
}

/** The whole graph in the box (never above 100 %). */
export const fitZoom = (layout: GraphLayout, box: Box): number =>
  clampZoom(Math.min(1, (box.width - 2 * PAD) / layout.width, (box.height - 2 * PAD) / layout.height));
