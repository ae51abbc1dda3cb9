// Where the guided tour's card goes and how far a step scrolls (issue 24: a step scrolled its target
// under the sticky top bar, and the card, always in the bottom-right corner, covered the Problems
// panel it was talking about). Pure, so the rules are unit-tested; GuidedTour.tsx measures and applies.
import { toastCorner, type Rect, type ToastCorner } from '../../lib/toast-placement';

export type TourCorner = ToastCorner;

/** The corner of the window for the card: the first, in the toasts' order, whose box keeps clear of the step's target. */
export const tourCorner = (card: { width: number; height: number }, viewport: { width: number; height: number }, target: Rect | null): TourCorner =>
  toastCorner(card, viewport, target);

/**
 * How far to scroll a container so `target` is wholly in its visible band (from `top`, below a sticky
 * bar, to `bottom`): 0 when it already is; a target taller than the band shows its top.
 */
export function revealDelta(target: { top: number; bottom: number }, band: { top: number; bottom: number }): number {
  if (target.top < band.top) return target.top - band.top;
  if (target.bottom > band.bottom) return Math.min(target.bottom - band.bottom, target.top - band.top);
  return 0;
}
