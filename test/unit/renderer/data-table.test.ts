// The one table of the renderer: what a screen reader and the e2e suite find in it (the table's
// name, column headers, row headers, the row controls' column) for each of its options.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { controlsColumn, DataTable, type Column } from '../../../src-renderer/src/lib/DataTable';

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
});
