import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  clampPosition,
  dragTarget,
  firstFreeSpot,
  gridPitch,
  MAX_ROWS,
  newWidgetId,
  nudge,
  overlaps,
  placeWidget,
  type Placed,
} from '../../../src-renderer/src/features/workbooks/layout';

const pos = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });
const at = (items: Placed[], id: string) => items.find((i) => i.id === id)!.position;

describe('clamping to the grid', () => {
  it('keeps a widget at least one cell big, no wider than the grid and inside it', () => {
    expect(clampPosition(pos(-3, -1, 0, 0), 12)).toEqual(pos(0, 0, 1, 1));
    expect(clampPosition(pos(10, 2, 6, 3), 12)).toEqual(pos(6, 2, 6, 3));
    expect(clampPosition(pos(0, 0, 40, 3), 12)).toEqual(pos(0, 0, 12, 3));
    expect(clampPosition(pos(0, 0, 2, 500), 12).h).toBe(MAX_ROWS);
  });
});

describe('placing a widget', () => {
  const items: Placed[] = [
    { id: 'a', position: pos(0, 0, 4, 3) },
    { id: 'b', position: pos(4, 0, 4, 3) },
    { id: 'c', position: pos(4, 3, 4, 2) },
    { id: 'd', position: pos(8, 0, 4, 2) },
  ];

  it('puts the widget where it was dropped and pushes what it covers below it, and what that covers in turn', () => {
    const next = placeWidget(items, 'a', pos(3, 1, 4, 3), 12);
    expect(at(next, 'a')).toEqual(pos(3, 1, 4, 3));
    expect(at(next, 'b')).toEqual(pos(4, 4, 4, 3)); // below a
    expect(at(next, 'c')).toEqual(pos(4, 7, 4, 2)); // below b, which now covered it
    expect(at(next, 'd')).toEqual(pos(8, 0, 4, 2)); // untouched
  });

  it('leaves widgets the move does not touch where they are, gaps included (no compaction)', () => {
    const next = placeWidget(items, 'd', pos(8, 10, 4, 2), 12);
    expect(at(next, 'd')).toEqual(pos(8, 10, 4, 2));
    for (const id of ['a', 'b', 'c']) expect(at(next, id)).toEqual(at(items, id));
  });

  it('a resize pushes the widgets the larger card now covers', () => {
    const next = placeWidget(items, 'b', pos(4, 0, 8, 4), 12);
    expect(at(next, 'd')).toEqual(pos(8, 4, 4, 2));
    expect(at(next, 'c')).toEqual(pos(4, 4, 4, 2));
  });

  it('a widget pushed onto the placed one goes below it instead', () => {
    const stack: Placed[] = [
      { id: 'top', position: pos(0, 0, 6, 2) },
      { id: 'mid', position: pos(0, 2, 6, 2) },
    ];
    // top grows to cover mid and be placed one row lower: mid must end below top, not on it.
    const next = placeWidget(stack, 'top', pos(0, 1, 6, 3), 12);
    expect(at(next, 'mid')).toEqual(pos(0, 4, 6, 2));
  });

  it('returns the same array when nothing changes, and ignores an unknown id', () => {
    expect(placeWidget(items, 'a', pos(0, 0, 4, 3), 12)).toBe(items);
    expect(placeWidget(items, 'zz', pos(0, 0, 4, 3), 12)).toBe(items);
  });

  it('clamps the drop to the grid', () => {
    expect(at(placeWidget(items, 'a', pos(11, -2, 4, 3), 12), 'a')).toEqual(pos(8, 0, 4, 3));
  });

  it('never leaves an overlap, never moves an untouched widget up, and keeps the placed widget where it was put (any layout)', () => {
    const cols = 12;
    const layout = fc.array(fc.record({ x: fc.nat(11), y: fc.nat(12), w: fc.integer({ min: 1, max: 12 }), h: fc.integer({ min: 1, max: 6 }) }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(layout, fc.nat(20), fc.record({ x: fc.integer({ min: -2, max: 14 }), y: fc.integer({ min: -2, max: 20 }), w: fc.integer({ min: 0, max: 14 }), h: fc.integer({ min: 0, max: 8 }) }), (raw, pick, drop) => {
        // Start from a valid dashboard: place each generated widget in turn (which resolves overlaps).
        let items: Placed[] = [];
        raw.forEach((p, i) => {
          items = [...items, { id: `w${i}`, position: pos(0, 1000, 1, 1) }];
          items = placeWidget(items, `w${i}`, p, cols);
        });
        const id = `w${pick % items.length}`;
        const next = placeWidget(items, id, drop, cols);
        expect(at(next, id)).toEqual(clampPosition(drop, cols));
        for (let i = 0; i < next.length; i++) {
          for (let j = i + 1; j < next.length; j++) expect(overlaps(next[i]!.position, next[j]!.position), `${next[i]!.id} / ${next[j]!.id}`).toBe(false);
        }
        for (const item of next) {
          if (item.id === id) continue;
          const before = at(items, item.id);
          expect(item.position.x).toBe(before.x);
          expect(item.position.w).toBe(before.w);
          expect(item.position.h).toBe(before.h);
          expect(item.position.y).toBeGreaterThanOrEqual(before.y);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('new widgets', () => {
  it('go to the first free spot from the top, or below everything', () => {
    const items: Placed[] = [
      { id: 'a', position: pos(0, 0, 6, 3) },
      { id: 'b', position: pos(6, 0, 2, 3) },
    ];
    expect(firstFreeSpot(items, 4, 3, 12)).toEqual(pos(8, 0, 4, 3));
    expect(firstFreeSpot(items, 6, 3, 12)).toEqual(pos(0, 3, 6, 3));
    expect(firstFreeSpot([], 4, 3, 12)).toEqual(pos(0, 0, 4, 3));
  });

  it('get an id no widget of the dashboard has', () => {
    expect(newWidgetId(['chart-1', 'chart-2', 'text-1'], 'chart')).toBe('chart-3');
    expect(newWidgetId(['chart-2'], 'chart')).toBe('chart-1');
  });
});

describe('keyboard and pointer steps', () => {
  it('arrows move one cell; with Shift they resize', () => {
    expect(nudge(pos(2, 2, 4, 3), 'right', false)).toEqual(pos(3, 2, 4, 3));
    expect(nudge(pos(2, 2, 4, 3), 'up', false)).toEqual(pos(2, 1, 4, 3));
    expect(nudge(pos(2, 2, 4, 3), 'left', true)).toEqual(pos(2, 2, 3, 3));
    expect(nudge(pos(2, 2, 4, 3), 'down', true)).toEqual(pos(2, 2, 4, 4));
  });

  it('a drag snaps to whole cells from the grid pitch (columns share the width with their gaps)', () => {
    const pitch = gridPitch(1190, 12, 40, [10, 10]);
    expect(pitch).toEqual({ col: 100, row: 50 });
    expect(dragTarget(pos(0, 0, 4, 3), 240, 70, pitch, 'move', 12)).toEqual(pos(2, 1, 4, 3));
    expect(dragTarget(pos(0, 0, 4, 3), 160, -40, pitch, 'resize', 12)).toEqual(pos(0, 0, 6, 2));
    expect(dragTarget(pos(2, 2, 4, 3), -900, -900, pitch, 'move', 12)).toEqual(pos(0, 0, 4, 3));
    expect(dragTarget(pos(0, 0, 4, 3), -900, -900, pitch, 'resize', 12)).toEqual(pos(0, 0, 1, 1));
  });
});
