// A long list drawn a step at a time: the first rows, then more on request. The Problems panel of a
// 10,000-cube branch has thousands of findings, and a row for each held the window's thread for
// seconds whenever the analysis changed.
import { useState, type ReactNode } from 'react';

/** Rows drawn at first, and added by each "Show more". */
export const ROWS_STEP = 200;

/** The first rows of `rows` (ROWS_STEP more at each "Show more"), as list items of the list it is put in. */
export function SteppedRows<T>({ rows, render }: { rows: readonly T[]; render: (row: T, index: number) => ReactNode }) {
  const [limit, setLimit] = useState(ROWS_STEP);
  const hidden = rows.length - limit;
  return (
    <>
      {rows.slice(0, limit).map(render)}
      {hidden > 0 && (
        <li className="rows-more">
          <button type="button" className="link" onClick={() => setLimit((n) => n + ROWS_STEP)}>
            Show {Math.min(ROWS_STEP, hidden).toLocaleString('en-US')} more
          </button>
          <span className="muted"> of {hidden.toLocaleString('en-US')} not shown</span>
        </li>
      )}
    </>
  );
}
