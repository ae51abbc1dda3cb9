/** Rows of a name/value editor and their conversion to the typed records the API takes. */
export type ValueType = 'string' | 'number' | 'boolean';

export interface KeyValueRow {
  /** Stable identity for React while keys are being typed. */
  rowId: number;
  key: string;
  value: string;
  type: ValueType;
}

let nextRowId = 1;
export const newRow = (key = '', value = '', type: ValueType = 'string'): KeyValueRow => ({ rowId: nextRowId++, key, value, type });

export const rowsFromRecord = (record: Record<string, string | number | boolean>): KeyValueRow[] =>
  Object.entries(record).map(([key, value]) => newRow(key, String(value), typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string'));

/** The typed value of a row, or an error message. */
export function typedValue(row: KeyValueRow): { value: string | number | boolean } | { error: string } {
  if (row.type === 'number') {
    const n = Number(row.value);
    return row.value.trim() !== '' && Number.isFinite(n) ? { value: n } : { error: `“${row.key}” needs a number.` };
  }
  if (row.type === 'boolean') return { value: row.value === 'true' };
  return { value: row.value };
}

/** Rows → record; throws a readable error for duplicate or empty keys and bad numbers. */
export function recordFromRows(rows: KeyValueRow[]): Record<string, string | number | boolean> {
  const record: Record<string, string | number | boolean> = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (!key) {
      if (row.value === '') continue;
      throw new Error('Every value needs a name.');
    }
    if (key in record) throw new Error(`“${key}” appears twice.`);
    const typed = typedValue({ ...row, key });
    if ('error' in typed) throw new Error(typed.error);
    record[key] = typed.value;
  }
  return record;
}
