// Layout checks run inside the page (page.evaluate): what a user at 1024×768 would see cut off. Each
// function is self-contained (it is serialised into the page) and returns plain descriptions of what
// is wrong, at most `limit` of them, so a failing test names the element and its sizes.

/**
 * Elements under `scope` (a CSS selector; main content, dialogs) that clip:
 * - sticking out past the window's right edge with no scroll container to reach them;
 * - text cut by its own box (scrollWidth > clientWidth, overflow hidden) without an ellipsis and its
 *   full text in a title;
 * - text pushed out of an ancestor that hides its overflow (and does not scroll);
 * - chart labels (SVG text) outside their drawing;
 * - dialogs taller or wider than the window without scrolling inside.
 */
export function clippingProblems({ scope, limit }: { scope: string; limit: number }): string[] {
  const viewportWidth = document.documentElement.clientWidth;
  const viewportHeight = document.documentElement.clientHeight;
  const found: string[] = [];
  const name = (el: Element) => {
    const classes = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    return `${el.tagName.toLowerCase()}${classes} “${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60)}”`;
  };
  const overflowX = (el: Element) => getComputedStyle(el).overflowX;
  const scrolls = (el: Element) => ['auto', 'scroll'].includes(overflowX(el));
  const hides = (el: Element) => ['hidden', 'clip'].includes(overflowX(el));
  const ownText = (el: Element) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
  /** Cut on purpose and said so: an ellipsis, and the whole text in a tooltip. */
  const ellipsised = (el: Element) => getComputedStyle(el).textOverflow === 'ellipsis' && el.closest('[title]') !== null;
  /** Screen-reader-only text (1 px boxes, clip) is not seen. */
  const hiddenByDesign = (el: Element, rect: DOMRect) => rect.width <= 1 || rect.height <= 1 || getComputedStyle(el).clip.startsWith('rect');
  const elements = new Set<Element>();
  if (document.documentElement.scrollWidth > viewportWidth + 1) found.push(`the page scrolls sideways (${document.documentElement.scrollWidth}px in ${viewportWidth}px)`);
  // The app scrolls inside its main area; the window itself scrolling drags the sidebar away.
  if (document.documentElement.scrollHeight > viewportHeight + 1) found.push(`the window scrolls (${document.documentElement.scrollHeight}px in ${viewportHeight}px)`);
  for (const root of document.querySelectorAll(scope)) {
    // The scope itself (the main area, a dialog) must not scroll sideways either (issue 24).
    if (root.scrollWidth > root.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(root).overflowX)) {
      found.push(`${name(root).slice(0, 40)} scrolls sideways (${root.scrollWidth}px in ${root.clientWidth}px)`);
    }
    elements.add(root);
    for (const el of root.querySelectorAll('*')) elements.add(el);
  }
  for (const el of elements) {
    if (found.length >= limit) break;
    if (el.closest('.monaco-editor, .monaco-diff-editor, .monaco-aria-container') || !el.checkVisibility({ opacityProperty: false, visibilityProperty: true })) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0 || hiddenByDesign(el, rect)) continue;

    if (el instanceof SVGTextElement) {
      const drawing = el.ownerSVGElement?.getBoundingClientRect();
      if (drawing && (rect.left < drawing.left - 1 || rect.right > drawing.right + 1 || rect.top < drawing.top - 1 || rect.bottom > drawing.bottom + 1)) {
        found.push(`chart label “${el.textContent}” (${Math.round(rect.left)}–${Math.round(rect.right)}px) is outside its chart (${Math.round(drawing.left)}–${Math.round(drawing.right)}px)`);
      }
      continue;
    }
    if (el instanceof SVGElement) continue;

    let scrollable = false;
    for (let parent = el.parentElement; parent; parent = parent.parentElement) {
      if (scrolls(parent) && parent.scrollWidth > parent.clientWidth) {
        scrollable = true;
        break;
      }
    }
    // Inside a box that hides its overflow within the window, it is cut by that box (checked below), not by the window.
    let clipper: Element | null = el.parentElement;
    while (clipper && !hides(clipper)) clipper = clipper.parentElement;
    const clippedInside = clipper !== null && clipper.getBoundingClientRect().right <= viewportWidth + 1;
    if (rect.right > viewportWidth + 1 && !scrollable && !clippedInside) {
      found.push(`${name(el)} ends at ${Math.round(rect.right)}px, past the window (${viewportWidth}px)`);
      continue;
    }
    if (!ownText(el)) continue;
    const html = el as HTMLElement;
    if (hides(el) && html.scrollWidth > html.clientWidth + 1 && !ellipsised(el)) {
      found.push(`${name(el)} is cut (${html.scrollWidth}px of text in ${html.clientWidth}px) without an ellipsis and its full text as a title`);
      continue;
    }
    for (let parent = el.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
      if (scrolls(parent)) break;
      if (!hides(parent)) continue;
      const box = parent.getBoundingClientRect();
      if ((rect.right > box.right + 1 || rect.left < box.left - 1) && !ellipsised(parent) && !ellipsised(el)) {
        found.push(`${name(el)} (${Math.round(rect.left)}–${Math.round(rect.right)}px) is cut by ${name(parent).slice(0, 40)} (${Math.round(box.left)}–${Math.round(box.right)}px)`);
      }
      break;
    }
  }
  for (const dialog of document.querySelectorAll('[role="dialog"], [role="alertdialog"]')) {
    if (found.length >= limit || !dialog.checkVisibility()) continue;
    const box = dialog.getBoundingClientRect();
    if (box.left < -1 || box.top < -1 || box.right > viewportWidth + 1 || box.bottom > viewportHeight + 1) {
      found.push(`dialog ${name(dialog).slice(0, 60)} (${Math.round(box.width)}×${Math.round(box.height)} at ${Math.round(box.left)},${Math.round(box.top)}) does not fit the window (${viewportWidth}×${viewportHeight})`);
    }
  }
  return found;
}

/** An element's box as playwright's boundingBox() gives it. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
/** Two boxes share some area. */
export const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
