// The one table of the renderer: what a screen reader and the e2e suite find in it (the table's
// name, column headers, row headers, the row controls' column) for each of its options.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { controlsColumn, DataTable, RowActions, type Column } from '../../../src-renderer/src/lib/DataTable';
import { foldOrderOf, holderOf } from '../../../src-renderer/src/lib/table-fit';

type Row = { id: string; label: string; value: number };
const ROWS: Row[] = [
  { id: 'a', label: 'Alpha', value: 1 },
  { id: 'b', label: 'Beta', value: 2 },
];
const COLUMNS: Column<Row>[] = [
  { header: 'Name', rowHeader: true, cell: (r) => r.label },
  { header: 'Value', className: 'num', cell: (r) => r.value },
];

const html = (props: Partial<Parameters<typeof DataTable<Row>>[0]>) =>
  renderToStaticMarkup(createElement(DataTable<Row>, { label: 'Things', rows: ROWS, rowKey: (r) => r.id, columns: COLUMNS, ...props }));

describe('DataTable', () => {
  it('is a table named by its label, with a column header per column', () => {
    const out = html({});
    expect(out).toContain('<table class="table" aria-label="Things">');
    expect(out).toContain('<th scope="col">Name</th>');
    expect(out).toContain('<th scope="col" class="num">Value</th>');
  });

  it('a row-header column names each row with a th scope=row; the other cells stay td', () => {
    const out = html({});
    expect(out).toContain('<th scope="row">Alpha</th>');
    expect(out).toContain('<td class="num">2</td>');
  });

  it('plain drops the boxed list look but keeps the name and the screen’s own class', () => {
    expect(html({ plain: true, className: 'dash-table' })).toContain('<table class="dash-table" aria-label="Things">');
  });

  it('headless has no header row: every row is a data row', () => {
    const out = html({ headless: true });
    expect(out).not.toContain('<thead>');
    expect(out.match(/<tr/g)).toHaveLength(ROWS.length);
  });

  it('a full-width row is one cell across every column, with the row’s class', () => {
    const out = html({
      fullWidthRow: (r) => (r.id === 'a' ? `group ${r.label}` : null),
      rowClassName: (r) => `kind-${r.id}`,
      columns: [...COLUMNS, controlsColumn<Row>(() => 'x')],
    });
    expect(out).toContain('<tr class="kind-a"><td colSpan="3">group Alpha</td></tr>');
    expect(out).toContain('<tr class="kind-b"><th scope="row">Beta</th>');
  });

  it('a controls column is headed like the actions column: named “Actions”, no visible text', () => {
    const out = html({ columns: [...COLUMNS, controlsColumn<Row>((r) => `controls of ${r.id}`)] });
    expect(out).toContain('<th scope="col" class="actions-col" aria-label="Actions"></th>');
    expect(out).toContain('<td class="actions-col">controls of a</td>');
  });

  it('per-row cell classes tell rows of different kinds apart; index keys serve rows without identity', () => {
    const out = html({
      rowKey: (_, i) => i,
      columns: [{ header: 'Value', cellClassName: (r) => (r.value > 1 ? 'big' : undefined), cell: (r) => r.value }],
    });
    expect(out).toContain('<td>1</td>');
    expect(out).toContain('<td class="big">2</td>');
  });

  it('a row action that does not apply to a row stays focusable, says why, and is marked unavailable', () => {
    const out = renderToStaticMarkup(
      createElement(RowActions<Row>, {
        row: ROWS[0],
        actions: [{ label: 'Delete', ariaLabel: (r) => `Delete ${r.label}`, onClick: () => {}, unavailable: (r) => (r.id === 'a' ? 'You cannot delete your own account.' : null) }],
      }),
    );
    expect(out).toContain('aria-disabled="true"');
    expect(out).toContain('title="You cannot delete your own account."');
    expect(out).not.toContain('disabled=""');
  });
});

describe('DataTable fitting its box (issue 24)', () => {
  it('folds the highest priority number first, the rightmost of equals first; columns without a priority never fold', () => {
    const order = foldOrderOf([{}, { priority: 1 }, { priority: 3 }, {}, { priority: 1 }, { priority: 2 }]);
    expect(order).toEqual([2, 5, 4, 1]);
    expect(foldOrderOf([{}, {}])).toEqual([]);
  });

  it('the folded values go under the row header, else the first text column (not a checkbox, number or controls column)', () => {
    expect(holderOf([{ className: 'check-col' }, { className: 'num' }, {}, { priority: 1 }], new Set([3]))).toBe(2);
    expect(holderOf([{}, { rowHeader: true }, { priority: 1 }], new Set([2]))).toBe(1);
    expect(holderOf([{}, { holdsFolded: true }, { priority: 1 }], new Set([2]))).toBe(1);
  });
});
