/**
 * Layout rules of the dashboard editor, pure so the grid, the keyboard and the unit tests share
 * them. Positions are in grid cells (`x`, `w` in columns, `y`, `h` in rows), as the dashboard
 * config stores them.
 *
 * Moving or resizing a widget puts it exactly where the user dropped it and pushes the widgets it
 * now covers straight down, below it (and what those cover in turn). Nothing else moves: there is
 * no automatic upward compaction, so gaps the author left on purpose stay, and a widget the user did
 * not touch only ever moves to make room.
 */
import type { WidgetPosition } from '../../../../src-shared/api/workbooks';

export interface Placed {
  id: string;
  position: WidgetPosition;
}

/** Upper bound of a widget's height in rows, so a held key or a wild drag cannot grow a card without end. */
export const MAX_ROWS = 60;

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);
const whole = (value: number, fallback: number) => (Number.isFinite(value) ? Math.round(value) : fallback);

/** A position kept inside the grid: at least one cell, no wider than the grid, never left of column 0 or above row 0. */
export function clampPosition(position: WidgetPosition, cols: number): WidgetPosition {
  const w = clamp(whole(position.w, 1), 1, cols);
  const h = clamp(whole(position.h, 1), 1, MAX_ROWS);
  return { x: clamp(whole(position.x, 0), 0, cols - w), y: Math.max(0, whole(position.y, 0)), w, h };
}

export const overlaps = (a: WidgetPosition, b: WidgetPosition): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

export const samePosition = (a: WidgetPosition, b: WidgetPosition): boolean => a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;

/**
 * `items` with `id` at `next` (clamped to the grid) and every widget it now overlaps pushed down
 * below it, repeatedly, until nothing the move touched overlaps anything. Returns the same array
 * when nothing changes.
 */
export function placeWidget<T extends Placed>(items: T[], id: string, next: WidgetPosition, cols: number): T[] {
  const index = items.findIndex((item) => item.id === id);
  if (index < 0) return items;
  const target = clampPosition(next, cols);
  const positions = new Map(items.map((item) => [item.id, item.position]));
  positions.set(id, target);
  // Widgets that moved and may now cover others; each pushes what it overlaps below itself.
  const queue = [id];
  // A push always lands strictly lower, so this ends; the bound only guards against a bug.
  let budget = items.length * items.length * 4 + 16;
  while (queue.length > 0 && budget-- > 0) {
    const mover = queue.shift()!;
    const at = positions.get(mover)!;
    for (const item of items) {
      if (item.id === mover || item.id === id) continue;
      const other = positions.get(item.id)!;
      if (!overlaps(at, other)) continue;
      const pushed = { ...other, y: at.y + at.h };
      // Pushed onto the widget being placed, it goes below that one instead: the placed widget never moves.
      if (overlaps(pushed, target)) pushed.y = target.y + target.h;
      positions.set(item.id, pushed);
      queue.push(item.id);
    }
  }
  let changed = false;
  const out = items.map((item) => {
    const position = positions.get(item.id)!;
    if (samePosition(position, item.position)) return item;
    changed = true;
    return { ...item, position };
  });
  return changed ? out : items;
}

/** The first free spot of `w` × `h` cells, reading row by row from the top; below everything if none. */
export function firstFreeSpot(items: Placed[], w: number, h: number, cols: number): WidgetPosition {
  const size = clampPosition({ x: 0, y: 0, w, h }, cols);
  const bottom = items.reduce((max, item) => Math.max(max, item.position.y + item.position.h), 0);
  for (let y = 0; y <= bottom; y++) {
    for (let x = 0; x + size.w <= cols; x++) {
      const candidate = { x, y, w: size.w, h: size.h };
      if (!items.some((item) => overlaps(candidate, item.position))) return candidate;
    }
  }
  return { x: 0, y: bottom, w: size.w, h: size.h };
}

export type Nudge = 'left' | 'right' | 'up' | 'down';

/** One keyboard step: arrows move the widget one cell; with `resize` (Shift) they change its width or height. */
export function nudge(position: WidgetPosition, direction: Nudge, resize: boolean): WidgetPosition {
  const dx = direction === 'left' ? -1 : direction === 'right' ? 1 : 0;
  const dy = direction === 'up' ? -1 : direction === 'down' ? 1 : 0;
  return resize ? { ...position, w: position.w + dx, h: position.h + dy } : { ...position, x: position.x + dx, y: position.y + dy };
}

export const NUDGE_KEYS: Record<string, Nudge> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

/** Size of one step of the grid in pixels: a column with its gap, a row with its gap. */
export interface Pitch {
  col: number;
  row: number;
}

/** The pitch of a grid `width` px wide with `cols` columns, `rowHeight` px rows and `[gapX, gapY]` gaps. */
export function gridPitch(width: number, cols: number, rowHeight: number, gap: [number, number]): Pitch {
  return { col: (width + gap[0]) / cols, row: rowHeight + gap[1] };
}

/**
 * Where a drag that started on a widget at `start` ends after the pointer moved `dx`, `dy` pixels:
 * moved (`move`) or grown from its bottom-right corner (`resize`), snapped to whole cells.
 */
export function dragTarget(start: WidgetPosition, dx: number, dy: number, pitch: Pitch, mode: 'move' | 'resize', cols: number): WidgetPosition {
  const cols_ = Math.round(dx / pitch.col);
  const rows = Math.round(dy / pitch.row);
  const next = mode === 'move' ? { ...start, x: start.x + cols_, y: start.y + rows } : { ...start, w: start.w + cols_, h: start.h + rows };
  return clampPosition(next, cols);
}

/** `chart-3`: the first `<prefix>-<n>` no widget of the dashboard uses yet. */
export function newWidgetId(taken: Iterable<string>, prefix: string): string {
  const used = new Set(taken);
  for (let n = 1; ; n++) {
    const id = `${prefix}-${n}`;
    if (!used.has(id)) return id;
  }
}
