// Where the toast stack goes so it never covers the control the user just used (a Retry button at
// the bottom right, a dialog's footer): the first corner, in a fixed order, whose box stays clear of
// that control. Pure, so the rule is unit-tested; lib/toast.tsx measures and applies it.

export type ToastCorner = 'bottom-right' | 'top-right' | 'bottom-left' | 'top-left';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Distance of the stack from the window's edges. */
export const TOAST_MARGIN = 18;
/** Top corners start below the app header. */
export const TOAST_TOP = 56;

const ORDER: readonly ToastCorner[] = ['bottom-right', 'top-right', 'bottom-left', 'top-left'];

export const overlap = (a: Rect, b: Rect): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The stack's box in `corner` of a `viewport`-sized window. */
export function stackRect(corner: ToastCorner, stack: { width: number; height: number }, viewport: { width: number; height: number }): Rect {
  const x = corner.endsWith('right') ? viewport.width - TOAST_MARGIN - stack.width : TOAST_MARGIN;
  const y = corner.startsWith('bottom') ? viewport.height - TOAST_MARGIN - stack.height : TOAST_TOP;
  return { x, y, width: stack.width, height: stack.height };
}

/**
 * The corner for the stack: bottom right unless that covers `control` (the box of the control used
 * last), then the first other corner that does not. If every corner would cover it (a huge control),
 * the one covering least.
 */
export function toastCorner(stack: { width: number; height: number }, viewport: { width: number; height: number }, control: Rect | null): ToastCorner {
  if (!control) return 'bottom-right';
  let best: ToastCorner = 'bottom-right';
  let least = Infinity;
  for (const corner of ORDER) {
    const box = stackRect(corner, stack, viewport);
    if (!overlap(box, control)) return corner;
    const area = (Math.min(box.x + box.width, control.x + control.width) - Math.max(box.x, control.x)) * (Math.min(box.y + box.height, control.y + control.height) - Math.max(box.y, control.y));
    if (area < least) {
      least = area;
      best = corner;
    }
  }
  return best;
}
