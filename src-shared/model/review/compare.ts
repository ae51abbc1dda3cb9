// Row-by-row comparison of one query's results on the two sides of a review (issue 26): rows are
// matched on their dimension values; a row found on one side only, or whose measures differ beyond
// the tolerance, is a difference; and per measure, the total over the rows before and after.

export interface Tolerance {
  /** Numbers closer than this are equal. */
  absolute: number;
  /** …or closer than this fraction of the larger one. */
  relative: number;
}

export const DEFAULT_TOLERANCE: Tolerance = { absolute: 1e-9, relative: 1e-9 };

export interface SideRows {
  /** Result columns in order, keyed in the base model's names; hidden ones are skipped. */
  columns: { key: string; kind: 'measure' | 'dimension' | 'timeDimension'; hidden?: boolean }[];
  rows: unknown[][];
}

export type RowValues = Record<string, unknown>;

export interface ChangedRow {
  /** The row's dimension values. */
  key: RowValues;
  values: { member: string; before: unknown; after: unknown }[];
}

export interface MeasureTotal {
  member: string;
  before: number | null;
  after: number | null;
  /** after − before (null when either is not a number). */
  delta: number | null;
}

export interface RowsDiff {
  baseRows: number;
  headRows: number;
  onlyBase: { count: number; samples: RowValues[] };
  onlyHead: { count: number; samples: RowValues[] };
  changed: { count: number; samples: ChangedRow[] };
  totals: MeasureTotal[];
  /** Members present on one side only (not compared). */
  unmatchedColumns: string[];
  same: boolean;
}

const toNumber = (value: unknown): number | null => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value.trim())) return Number(value);
  return null;
};

export function valuesEqual(a: unknown, b: unknown, tolerance: Tolerance): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  const x = toNumber(a);
  const y = toNumber(b);
  if (x !== null && y !== null) return Math.abs(x - y) <= Math.max(tolerance.absolute, tolerance.relative * Math.max(Math.abs(x), Math.abs(y)));
  return String(a) === String(b);
}

const keyOf = (values: unknown[]) => JSON.stringify(values.map((v) => (v === null || v === undefined ? null : String(v))));

export function compareRows(base: SideRows, head: SideRows, options: { tolerance?: Tolerance; samples?: number } = {}): RowsDiff {
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const sampleLimit = options.samples ?? 10;
  const visible = (side: SideRows) => side.columns.map((c, i) => ({ ...c, index: i })).filter((c) => !c.hidden);
  const baseCols = visible(base);
  const headCols = visible(head);
  const headIndex = new Map(headCols.map((c) => [c.key, c.index]));
  const baseKeys = new Set(baseCols.map((c) => c.key));
  const shared = baseCols.filter((c) => headIndex.has(c.key));
  const unmatchedColumns = [...baseCols.filter((c) => !headIndex.has(c.key)).map((c) => c.key), ...headCols.filter((c) => !baseKeys.has(c.key)).map((c) => c.key)];
  const dims = shared.filter((c) => c.kind !== 'measure');
  const measures = shared.filter((c) => c.kind === 'measure');

  const rowObject = (row: unknown[], cols: { key: string; index: number }[]) => Object.fromEntries(cols.map((c) => [c.key, row[c.index] ?? null]));
  const headRowsByKey = new Map<string, unknown[][]>();
  for (const row of head.rows) {
    const k = keyOf(dims.map((d) => row[headIndex.get(d.key)!]));
    const list = headRowsByKey.get(k);
    if (list) list.push(row);
    else headRowsByKey.set(k, [row]);
  }
  const onlyBase: RowValues[] = [];
  let onlyBaseCount = 0;
  const changed: ChangedRow[] = [];
  let changedCount = 0;
  for (const row of base.rows) {
    const k = keyOf(dims.map((d) => row[d.index]));
    const match = headRowsByKey.get(k)?.shift();
    if (!match) {
      onlyBaseCount++;
      if (onlyBase.length < sampleLimit) onlyBase.push(rowObject(row, baseCols));
      continue;
    }
    const values = measures
      .map((m) => ({ member: m.key, before: row[m.index] ?? null, after: match[headIndex.get(m.key)!] ?? null }))
      .filter((v) => !valuesEqual(v.before, v.after, tolerance));
    if (values.length > 0) {
      changedCount++;
      if (changed.length < sampleLimit) changed.push({ key: rowObject(row, dims), values });
    }
  }
  const onlyHead: RowValues[] = [];
  let onlyHeadCount = 0;
  for (const rows of headRowsByKey.values()) {
    for (const row of rows) {
      onlyHeadCount++;
      if (onlyHead.length < sampleLimit) onlyHead.push(rowObject(row, headCols));
    }
  }
  const sum = (rows: unknown[][], index: number): number | null => {
    let total = 0;
    for (const row of rows) {
      const value = row[index];
      if (value === null || value === undefined) continue;
      const n = toNumber(value);
      if (n === null) return null;
      total += n;
    }
    return total;
  };
  const totals = measures.map((m) => {
    const before = sum(base.rows, m.index);
    const after = sum(head.rows, headIndex.get(m.key)!);
    return { member: m.key, before, after, delta: before !== null && after !== null ? after - before : null };
  });
  return {
    baseRows: base.rows.length,
    headRows: head.rows.length,
    onlyBase: { count: onlyBaseCount, samples: onlyBase },
    onlyHead: { count: onlyHeadCount, samples: onlyHead },
    changed: { count: changedCount, samples: changed },
    totals,
    unmatchedColumns,
    same: onlyBaseCount === 0 && onlyHeadCount === 0 && changedCount === 0 && unmatchedColumns.length === 0,
  };
}
