import { useLayoutEffect, useReducer, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/** What DataTable's fitting needs of a column. */
interface Foldable {
  priority?: number;
  rowHeader?: boolean;
  holdsFolded?: boolean;
  className?: string;
}

/**
 * The columns that may fold, in the order they fold: the highest `priority` number first, and of
 * equal ones the rightmost first (what a reader meets last goes first).
 */
export function foldOrderOf(columns: readonly Foldable[]): number[] {
  return columns
    .map((c, i) => ({ i, p: c.priority }))
    .filter((c): c is { i: number; p: number } => c.p !== undefined)
    .sort((a, b) => b.p - a.p || b.i - a.i)
    .map((c) => c.i);
}

const isNarrowColumn = (c: Foldable) => /\b(check-col|num|actions-col)\b/.test(c.className ?? '');

/**
 * The column whose cell carries the details line of folded columns: the one marked `holdsFolded`,
 * else the row header, else the first shown text column (not a checkbox, number or controls column).
 */
export function holderOf(columns: readonly Foldable[], folded: ReadonlySet<number>): number {
  const shown = columns.map((c, i) => ({ c, i })).filter(({ i }) => !folded.has(i));
  return (
    shown.find(({ c }) => c.holdsFolded)?.i ??
    shown.find(({ c }) => c.rowHeader)?.i ??
    shown.find(({ c }) => !isNarrowColumn(c))?.i ??
    shown[0]?.i ??
    0
  );
}

/**
 * How many of a table's foldable columns are folded now: after each render the table is measured
 * against its box, and while it is wider one more column folds (a layout effect, so the reader never
 * sees the wide table). A box that grows, or new rows, start again from every column shown. When even
 * with every foldable column folded the table is wider, `overflowing` lets its box scroll (the table
 * scrolls, never the page).
 */
export function useFolding(foldable: number, rows: unknown): { ref: RefObject<HTMLDivElement | null>; folded: number; overflowing: boolean } {
  const ref = useRef<HTMLDivElement | null>(null);
  const [folded, setFolded] = useState(0);
  const [overflowing, setOverflowing] = useState(false);
  const [, remeasure] = useReducer((n: number) => n + 1, 0);
  const width = useRef(0);
  const measuredFor = useRef({ rows, foldable });

  // After every render, before paint (the reader never sees the too-wide table).
  useLayoutEffect(() => {
    // New rows may be narrower: start again from the full table.
    if (measuredFor.current.rows !== rows || measuredFor.current.foldable !== foldable) {
      measuredFor.current = { rows, foldable };
      if (folded !== 0 || overflowing) {
        setFolded(0);
        setOverflowing(false);
        return;
      }
    }
    const box = ref.current;
    const table = box?.firstElementChild as HTMLElement | null | undefined;
    if (!box || !table) return;
    const tooWide = table.offsetWidth > box.clientWidth + 1;
    if (tooWide && folded < foldable) setFolded(folded + 1);
    else if (tooWide !== overflowing) setOverflowing(tooWide);
  });

  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    width.current = box.clientWidth;
    const observer = new ResizeObserver(() => {
      const now = box.clientWidth;
      if (now === width.current) return;
      const grew = now > width.current;
      width.current = now;
      // Synchronously, so the table is refitted in the frame the box changed in.
      flushSync(() => {
        if (grew) {
          setFolded(0);
          setOverflowing(false);
        } else remeasure(); // shrinking: the measuring effect folds more as needed
      });
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, [foldable]);

  return { ref, folded: Math.min(folded, foldable), overflowing };
}
