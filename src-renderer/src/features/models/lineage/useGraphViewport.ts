// Pan and zoom of the lineage graph. The box scrolls natively (scroll bars, wheel, arrow keys, a
// focused node scrolled into sight), a drag on the background scrolls it too, and the zoom scales the
// drawing inside a sizer of the scaled size, keeping the point under the cursor (or the box's middle)
// where it was.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { clampZoom, fitZoom, HEADS_H, openingView, type GraphLayout } from './layout';

const MIN_BOX_HEIGHT = 280;
/** The page's own bottom padding (.content) and a little air: the page itself does not scroll. */
const BOTTOM_MARGIN = 44;

interface Anchor {
  /** A point of the box (px from its top left) … */
  boxX: number;
  boxY: number;
  /** … and the point of the drawing (unscaled px) that must stay under it. */
  x: number;
  y: number;
}

export function useGraphViewport(layout: GraphLayout, focusId: string | undefined) {
  const box = useRef<HTMLDivElement>(null);
  const sizer = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(1);
  const zoomNow = useRef(zoom);
  zoomNow.current = zoom;
  const [dragging, setDragging] = useState(false);
  /** Scroll to set once the sizer has its new size: an opening view's, or one that keeps an anchor. */
  const pending = useRef<{ left: number; top: number } | Anchor | null>(null);
  /** The reader moved or zoomed: a resized box no longer re-opens the view. */
  const touched = useRef(false);

  const open = useCallback(() => {
    const el = box.current;
    if (!el || el.clientWidth === 0) return;
    const view = openingView(layout, focusId, { width: el.clientWidth, height: el.clientHeight - HEADS_H });
    if (view.zoom === zoomNow.current) el.scrollTo(view.scrollLeft, view.scrollTop);
    else {
      pending.current = { left: view.scrollLeft, top: view.scrollTop };
      setZoom(view.zoom);
    }
  }, [layout, focusId]);

  // A new graph (another item) opens afresh.
  useLayoutEffect(() => {
    touched.current = false;
    open();
  }, [open]);

  useLayoutEffect(() => {
    const el = box.current;
    const target = pending.current;
    if (!el || !target) return;
    pending.current = null;
    if ('left' in target) el.scrollTo(target.left, target.top);
    else {
      const offsetX = sizer.current?.offsetLeft ?? 0;
      const offsetY = sizer.current?.offsetTop ?? 0;
      el.scrollTo(target.x * zoom + offsetX - target.boxX, target.y * zoom + offsetY + HEADS_H - target.boxY);
    }
  }, [zoom]);

  // The box reaches down to the window's bottom edge (less a margin), whatever sits above it.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const fill = () => {
      const top = el.getBoundingClientRect().top + (el.closest('.main')?.scrollTop ?? 0);
      el.style.height = `${Math.max(MIN_BOX_HEIGHT, Math.round(window.innerHeight - top - BOTTOM_MARGIN))}px`;
    };
    fill();
    window.addEventListener('resize', fill);
    return () => window.removeEventListener('resize', fill);
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let width = el.clientWidth;
    let height = el.clientHeight;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth === width && el.clientHeight === height) return;
      width = el.clientWidth;
      height = el.clientHeight;
      if (!touched.current) open();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [open]);

  /** Zoom to `next`, keeping the drawing's point under (boxX, boxY) — the box's middle by default. */
  const zoomTo = useCallback(
    (next: number, at?: { boxX: number; boxY: number }) => {
      const el = box.current;
      if (!el) return;
      touched.current = true;
      const clamped = clampZoom(next);
      const boxX = at?.boxX ?? el.clientWidth / 2;
      const boxY = at?.boxY ?? el.clientHeight / 2;
      const offsetX = sizer.current?.offsetLeft ?? 0;
      const offsetY = sizer.current?.offsetTop ?? 0;
      pending.current = { boxX, boxY, x: (el.scrollLeft + boxX - offsetX) / zoom, y: (el.scrollTop + boxY - offsetY - HEADS_H) / zoom };
      setZoom(clamped);
    },
    [zoom],
  );

  // Ctrl/⌘ + wheel zooms at the cursor (a listener that may cancel the page's own zoom; React's is passive).
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const rect = el.getBoundingClientRect();
      zoomTo(zoom * Math.exp(-event.deltaY / 400), { boxX: event.clientX - rect.left, boxY: event.clientY - rect.top });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoom, zoomTo]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const el = box.current;
    // Nodes are buttons: a press on one is a click, not a drag.
    if (!el || event.button !== 0 || (event.target as Element).closest('button')) return;
    touched.current = true;
    const start = { x: event.clientX, y: event.clientY, left: el.scrollLeft, top: el.scrollTop };
    el.setPointerCapture(event.pointerId);
    setDragging(true);
    const move = (e: globalThis.PointerEvent) => el.scrollTo(start.left - (e.clientX - start.x), start.top - (e.clientY - start.y));
    const end = () => {
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', end);
      el.removeEventListener('pointercancel', end);
      setDragging(false);
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', end);
  };

  const fit = () => {
    const el = box.current;
    if (!el) return;
    touched.current = true;
    pending.current = { left: 0, top: 0 };
    setZoom(fitZoom(layout, { width: el.clientWidth, height: el.clientHeight - HEADS_H }));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === '+' || event.key === '=') zoomTo(zoom * 1.25);
    else if (event.key === '-') zoomTo(zoom / 1.25);
    else if (event.key === '0') fit();
    else return;
    event.preventDefault();
  };

  return {
    box,
    sizer,
    zoom,
    dragging,
    zoomBy: (factor: number) => zoomTo(zoom * factor),
    fit,
    reset: () => {
      touched.current = false;
      open();
    },
    onPointerDown,
    onKeyDown,
  };
}
