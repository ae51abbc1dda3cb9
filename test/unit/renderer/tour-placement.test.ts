// The guided tour never covers what a step points at, and a step scrolls only as far as needed to
// show its target below the sticky top bar (issue 24).
import { describe, expect, it } from 'vitest';
import { revealDelta, tourCorner } from '../../../src-renderer/src/features/tour/placement';

const card = { width: 360, height: 200 };
const window1024 = { width: 1024, height: 768 };

describe('tour card placement', () => {
  it('sits bottom right when that is clear of the target (a sidebar item)', () => {
    expect(tourCorner(card, window1024, { x: 8, y: 110, width: 192, height: 30 })).toBe('bottom-right');
  });

  it('moves to the top right when the target fills the bottom of the window (the Problems panel)', () => {
    expect(tourCorner(card, window1024, { x: 232, y: 540, width: 768, height: 210 })).toBe('top-right');
  });

  it('moves left when the target runs down the right side', () => {
    expect(tourCorner(card, window1024, { x: 640, y: 40, width: 370, height: 720 })).toBe('bottom-left');
  });
});

describe('revealing a step’s target', () => {
  const band = { top: 60, bottom: 760 };

  it('does not scroll when the target is in sight', () => {
    expect(revealDelta({ top: 100, bottom: 300 }, band)).toBe(0);
  });

  it('scrolls up so a target under the top bar comes out below it', () => {
    expect(revealDelta({ top: 20, bottom: 120 }, band)).toBe(-40);
  });

  it('scrolls down just enough to show a target below the window, never past its top', () => {
    expect(revealDelta({ top: 700, bottom: 820 }, band)).toBe(60);
    expect(revealDelta({ top: 300, bottom: 1500 }, band)).toBe(240);
  });
});
