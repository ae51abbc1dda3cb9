import { Fragment, type HTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { foldOrderOf, holderOf, useFolding } from './table-fit';
import type { CursorPages } from './useCursorPages';
import { Button, Spinner } from './ui';

/**
 * The one table of the renderer: a labelled `<table>`, its columns, and the row buttons
 * (Edit, Delete …) that every list offers. Screens describe columns and actions; markup, class
 * names and accessible names stay the same everywhere, so the e2e suite and keyboard users meet
 * one table, not a variant per screen. Lists, result grids, dialogs' small tables and side-by-side
 * comparisons all use it; `plain` drops the boxed list look for a compact table inside other
 * content (a report, a dashboard widget).
 *
 * Tables fit their box (issue 24): when the columns are wider than the room, the columns with a
 * `priority` give way one by one (the highest number first) and their values move into a details
 * line under the row's main cell, so nothing pushes the page sideways at 1024 px; row actions
 * always stay.
 */
export interface Column<T> {
  /** Header content; an empty header should still say what the column is (`label`). */
  header: ReactNode;
  /** Accessible name of a header without visible text (a checkbox column, an icon column). */
  label?: string;
  cell: (row: T) => ReactNode;
  /** Classes of both the header and the cells (`num`, `wrap-cell`, `check-col` …). */
  className?: string;
  /** Classes of the cells only (`strong`, `value-cell` …), or per row where rows differ in kind. */
  cellClassName?: string | ((row: T) => string | undefined);
  /** A tooltip on the cell: the whole text of a shortened value. */
  cellTitle?: (row: T) => string | undefined;
  /** The cell names its row (`<th scope="row">`): the field a comparison row is about. */
  rowHeader?: boolean;
  /**
   * A column that may give way when the table is wider than its box: the highest number folds
   * first. Without one the column always shows (names, statuses, what a user acts on).
   */
  priority?: number;
  /** The column's name in the details line once folded, when `header` is not plain text. */
  foldLabel?: string;
  /** This cell carries the details line of folded columns (default: the row header, else the first text column). */
  holdsFolded?: boolean;
}

export interface RowAction<T> {
  label: string | ((row: T) => string);
  /** The button's accessible name, naming the row: “Delete group Sales”. */
  ariaLabel: (row: T) => string;
  onClick: (row: T) => void;
  /** Destructive actions are drawn in the danger colour. */
  danger?: boolean;
  /** Rows this action does not apply to (the button is left out, not disabled). */
  hidden?: (row: T) => boolean;
  disabled?: (row: T) => boolean;
  /**
   * Why the action does not apply to this row (your own account cannot be deleted …), or nothing:
   * the button stays in its place and in the tab order, marked unavailable, with the reason as its
   * tooltip and description, and does nothing.
   */
  unavailable?: (row: T) => string | null | undefined;
}

export function DataTable<T>({
  label,
  rows,
  rowKey,
  columns,
  actions = [],
  className,
  rowClassName,
  selection,
  onRowClick,
  wrapClassName,
  rowDetail,
  rowProps,
  plain = false,
  headless = false,
  fullWidthRow,
}: {
  label: string;
  rows: readonly T[];
  /** Rows without an identity of their own (sample rows, diff lines) may use their index. */
  rowKey: (row: T, index: number) => string | number;
  columns: readonly Column<T>[];
  actions?: readonly RowAction<T>[];
  /** Extra table classes (`table-hover`, a screen's own layout class). */
  className?: string;
  rowClassName?: (row: T) => string | undefined;
  /** Master-detail lists: a click on a row selects it; the selected row is marked for sight and for screen readers. */
  selection?: { isSelected: (row: T) => boolean; onSelect: (row: T) => void };
  /** Lists whose rows open an item (a link in the row does the same for the keyboard); the event lets Ctrl/⌘-click through. */
  onRowClick?: (row: T, event: MouseEvent) => void;
  /** A scrolling box around the table (`log-view` …); without it the table stands alone. */
  wrapClassName?: string;
  /** A full-width row under a row (an expanded view's detail, a row's own error); null for none. */
  rowDetail?: { render: (row: T) => ReactNode; className?: string };
  /** Further attributes of a row: `data-*` ids the tests find rows by, `aria-expanded` … */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number>;
  /** Without the boxed `.table` look (border, shadow, header band): a compact table inside other content styled by `className`. */
  plain?: boolean;
  /** No header row, for a table whose columns explain themselves (a diff: line numbers, then the line). */
  headless?: boolean;
  /** Rows drawn as one cell across the whole table instead of the columns (a diff's hunk header, a group title); null for ordinary rows. */
  fullWidthRow?: (row: T) => ReactNode;
}) {
  const foldOrder = foldOrderOf(columns);
  const fit = useFolding(foldOrder.length, rows);
  const folded = new Set(foldOrder.slice(0, fit.folded));
  const shown = columns.map((c, i) => ({ c, i })).filter(({ i }) => !folded.has(i));
  const foldedColumns = columns.filter((_, i) => folded.has(i));
  const holder = holderOf(columns, folded);
  const width = shown.length + (actions.length > 0 ? 1 : 0);
  const table = (
    <table className={[!plain && 'table', className].filter(Boolean).join(' ') || undefined} aria-label={label}>
      {!headless && (
        <thead>
          <tr>
            {shown.map(({ c, i }) => (
              <th key={i} scope="col" className={c.className} aria-label={c.label}>
                {c.header}
              </th>
            ))}
            {actions.length > 0 && <th className="actions-col" aria-label="Actions" />}
          </tr>
        </thead>
      )}
      <tbody>
        {rows.map((row, index) => {
          const detail = rowDetail?.render(row);
          const whole = fullWidthRow?.(row);
          if (whole !== null && whole !== undefined && whole !== false) {
            return (
              <tr key={rowKey(row, index)} className={rowClassName?.(row)}>
                <td colSpan={width}>{whole}</td>
              </tr>
            );
          }
          return (
            <Fragment key={rowKey(row, index)}>
              <tr
                {...rowProps?.(row)}
                className={[(selection || onRowClick) && 'clickable', selection?.isSelected(row) && 'selected', rowClassName?.(row)].filter(Boolean).join(' ') || undefined}
                onClick={selection ? () => selection.onSelect(row) : onRowClick ? (event) => onRowClick(row, event) : undefined}
                aria-selected={selection ? selection.isSelected(row) : undefined}
              >
                {shown.map(({ c, i }) => {
                  const Cell = c.rowHeader ? 'th' : 'td';
                  return (
                    <Cell
                      key={i}
                      scope={c.rowHeader ? 'row' : undefined}
                      className={[c.className, typeof c.cellClassName === 'function' ? c.cellClassName(row) : c.cellClassName].filter(Boolean).join(' ') || undefined}
                      title={c.cellTitle?.(row)}
                    >
                      {c.cell(row)}
                      {i === holder && foldedColumns.length > 0 && <FoldedDetails row={row} columns={foldedColumns} />}
                    </Cell>
                  );
                })}
                {actions.length > 0 && (
                  <td className="actions-col">
                    <RowActions row={row} actions={actions} />
                  </td>
                )}
              </tr>
              {detail !== null && detail !== undefined && detail !== false && (
                <tr className={rowDetail?.className}>
                  <td colSpan={width}>{detail}</td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
  if (foldOrder.length === 0) return wrapClassName ? <div className={wrapClassName}>{table}</div> : table;
  return (
    <div ref={fit.ref} className={['table-fit', fit.overflowing && 'table-fit-scroll', wrapClassName].filter(Boolean).join(' ')}>
      {table}
    </div>
  );
}

/** The values of folded columns under a row's main cell: “Label value · Label value”. */
function FoldedDetails<T>({ row, columns }: { row: T; columns: readonly Column<T>[] }) {
  const parts = columns
    .map((c, i) => ({ key: i, name: c.foldLabel ?? (typeof c.header === 'string' ? c.header : c.label), value: c.cell(row) }))
    .filter((p) => p.value !== null && p.value !== undefined && p.value !== false && p.value !== '');
  if (parts.length === 0) return null;
  return (
    <div className="table-folded">
      {parts.map((p) => (
        <span key={p.key} className="table-folded-item">
          {p.name && <span className="table-folded-name">{p.name}</span>} {p.value}
        </span>
      ))}
    </div>
  );
}

/**
 * A last column of row controls that are more than plain row actions (a button with a busy
 * state, a retry menu, an icon button): it looks and is named like the `actions` column.
 */
export function controlsColumn<T>(cell: (row: T) => ReactNode, label = 'Actions'): Column<T> {
  return { header: null, label, className: 'actions-col', cell };
}

/** The small ghost buttons at the end of a row; also usable outside a DataTable. */
export function RowActions<T>({ row, actions }: { row: T; actions: readonly RowAction<T>[] }) {
  return (
    <>
      {actions
        .filter((a) => !a.hidden?.(row))
        .map((a) => {
          const text = typeof a.label === 'function' ? a.label(row) : a.label;
          const reason = a.unavailable?.(row) ?? undefined;
          return (
            <button
              key={text}
              type="button"
              className={`btn btn-ghost btn-small${a.danger ? ' danger-text' : ''}`}
              disabled={a.disabled?.(row)}
              aria-disabled={reason ? true : undefined}
              title={reason}
              onClick={(event) => {
                // A row may be clickable itself (it opens the item); the button must not do both.
                event.stopPropagation();
                if (!reason) a.onClick(row);
              }}
              aria-label={a.ariaLabel(row)}
              aria-description={reason}
            >
              {text}
            </button>
          );
        })}
    </>
  );
}

/** The first cell of a selectable row: a button, so the row is reachable by keyboard. */
export function SelectLink({ onSelect, children }: { onSelect: () => void; children: ReactNode }) {
  return (
    <button type="button" className="link strong" onClick={onSelect}>
      {children}
    </button>
  );
}

/**
 * The three states of a loaded list in one place: still loading (a spinner, only while the
 * first answer is awaited), loaded and empty (the screen's own explanation), loaded with rows.
 */
export function ListState<T>({
  rows,
  loading,
  loadingLabel,
  empty,
  children,
}: {
  rows: readonly T[] | null | undefined;
  loading: boolean;
  loadingLabel?: string;
  empty: ReactNode;
  children: (rows: readonly T[]) => ReactNode;
}) {
  if (!rows) return loading ? <Spinner label={loadingLabel} /> : null;
  if (rows.length === 0) return <>{empty}</>;
  return <>{children(rows)}</>;
}

/** Title of a panel with the number of its items, and the panel's buttons on the right. */
export function PanelHead({ title, count, children }: { title: string; count?: number | null; children?: ReactNode }) {
  return (
    <div className="panel-head">
      <h2>
        {title} {count !== undefined && count !== null && <span className="count">{count}</span>}
      </h2>
      {children}
    </div>
  );
}

/** Previous/Next over the pages of a cursor list; `children` go before the page number. */
export function CursorPager({ pages, label, children }: { pages: Pick<CursorPages<unknown>, 'page' | 'hasNext' | 'hasPrevious' | 'next' | 'previous' | 'loading'>; label?: string; children?: ReactNode }) {
  return (
    <div className="pager" aria-label={label}>
      {children}
      <span>Page {pages.page}</span>
      <Button className="btn-small" onClick={pages.previous} disabled={!pages.hasPrevious || pages.loading}>
        ‹ Previous
      </Button>
      <Button className="btn-small" onClick={pages.next} disabled={!pages.hasNext || pages.loading}>
        Next ›
      </Button>
    </div>
  );
}

/** A name cell with its optional description beneath (groups, policies, embed groups …). */
export function NameAndDescription({ name, description }: { name: ReactNode; description?: string | null }) {
  return (
    <>
      <div className="strong">{name}</div>
      {description && <div className="muted small">{description}</div>}
    </>
  );
}
