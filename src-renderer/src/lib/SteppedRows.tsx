// A long list drawn a step at a time: the first rows, then more on request. The Problems panel of a
// 10,000-cube branch has thousands of findings, and a row for each held the window's thread for
// seconds whenever the analysis changed.
import { useState, type ReactNode } from 'react';

/** Rows drawn at first, and added by each "Show more". */
export const ROWS_STEP = 200;

/**
 * The first rows of `rows` (ROWS_STEP more at each "Show more"), as list items of the list it is put
 * in. The row at `pinned` (one the user must see, such as the open file) is drawn after them when it
 * is not among them. `moreItem` gives the "Show more" item the attributes its list needs (a tree's
 * items are treeitems); `indent` its left padding.
 */
export function SteppedRows<T>({
  rows,
  render,
  pinned = -1,
  moreItem,
  indent,
}: {
  rows: readonly T[];
  render: (row: T, index: number) => ReactNode;
  pinned?: number;
  moreItem?: Record<string, string | boolean>;
  indent?: number;
}) {
  const [limit, setLimit] = useState(ROWS_STEP);
  const beyond = pinned >= limit && pinned < rows.length;
  const hidden = rows.length - limit - (beyond ? 1 : 0);
  return (
    <>
      {rows.slice(0, limit).map(render)}
      {hidden > 0 && (
        <li className="rows-more" {...moreItem} style={indent === undefined ? undefined : { paddingLeft: indent }}>
          <button type="button" className="link" onClick={() => setLimit(limit + ROWS_STEP)}>
            Show {Math.min(ROWS_STEP, hidden).toLocaleString('en-US')} more
          </button>
          <span className="muted"> of {hidden.toLocaleString('en-US')} not shown</span>
        </li>
      )}
      {beyond && render(rows[pinned]!, pinned)}
    </>
  );
}
