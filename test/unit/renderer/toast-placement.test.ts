import { describe, expect, it } from 'vitest';
import { overlap, stackRect, toastCorner } from '../../../src-renderer/src/lib/toast-placement';

const viewport = { width: 1024, height: 768 };
const stack = { width: 380, height: 140 };

describe('toasts never cover the control that was just used', () => {
  it('stay bottom right when the control is elsewhere (or none was used)', () => {
    expect(toastCorner(stack, viewport, null)).toBe('bottom-right');
    expect(toastCorner(stack, viewport, { x: 20, y: 80, width: 120, height: 32 })).toBe('bottom-right');
  });
  it('move to the top right when the control sits under the bottom-right stack', () => {
    const retry = { x: 900, y: 700, width: 70, height: 28 };
    const corner = toastCorner(stack, viewport, retry);
    expect(corner).toBe('top-right');
    expect(overlap(stackRect(corner, stack, viewport), retry)).toBe(false);
  });
  it('go left when a control spans the whole right side', () => {
    const column = { x: 600, y: 0, width: 424, height: 768 };
    expect(toastCorner(stack, viewport, column)).toBe('bottom-left');
  });
  it('whatever the control, the chosen corner does not cover it when some corner can', () => {
    for (let x = 0; x < viewport.width; x += 64) {
      for (let y = 0; y < viewport.height; y += 48) {
        const control = { x, y, width: 90, height: 30 };
        expect(overlap(stackRect(toastCorner(stack, viewport, control), stack, viewport), control), `control at ${x},${y}`).toBe(false);
      }
    }
  });
});
