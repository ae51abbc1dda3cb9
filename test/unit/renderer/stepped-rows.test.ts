// A long list is drawn a step at a time (the Problems panel of a 10,000-cube branch): the first
// ROWS_STEP rows, and a "Show more" item that says how many are left.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ROWS_STEP, SteppedRows } from '../../../src-renderer/src/lib/SteppedRows';

const list = (count: number, pinned?: number) =>
  renderToStaticMarkup(
    createElement(
      'ul',
      null,
      createElement(SteppedRows<number>, { rows: Array.from({ length: count }, (_, i) => i), pinned, render: (n) => createElement('li', { key: n }, `row ${n}`) }),
    ),
  );

describe('a list drawn a step at a time', () => {
  it('draws every row of a short list and no "Show more"', () => {
    const out = list(ROWS_STEP);
    expect(out.match(/<li>row \d+<\/li>/g)).toHaveLength(ROWS_STEP);
    expect(out).not.toContain('Show');
  });

  it('draws the first rows of a long one, then a button that says how many more it shows and how many are left', () => {
    const out = list(2_500);
    expect(out.match(/<li>row \d+<\/li>/g)).toHaveLength(ROWS_STEP);
    expect(out).toContain(`<li>row ${ROWS_STEP - 1}</li>`);
    expect(out).not.toContain(`<li>row ${ROWS_STEP}</li>`);
    expect(out).toContain(`<li class="rows-more"><button type="button" class="link">Show ${ROWS_STEP} more</button><span class="muted"> of 2,300 not shown</span></li>`);
  });

  it('offers only what is left when fewer than a step remain', () => {
    expect(list(ROWS_STEP + 30)).toContain('Show 30 more');
  });

  it('draws a pinned row (the open file) after the "Show more" item when it is not among the first, and counts it as shown', () => {
    const out = list(1_000, 900);
    expect(out.match(/<li>row \d+<\/li>/g)).toHaveLength(ROWS_STEP + 1);
    expect(out).toMatch(new RegExp(`<li>row ${ROWS_STEP - 1}</li><li class="rows-more">.*of 799 not shown</span></li><li>row 900</li></ul>$`));
    expect(list(1_000, 5).match(/<li>row \d+<\/li>/g)).toHaveLength(ROWS_STEP);
  });
});
