/**
 * Rows as the platform's data API returns them: keyed by member (`orders.count`), a time dimension
 * with a granularity under both `orders.created_at.month` and `orders.created_at`, times written
 * `2024-05-01T00:00:00.000` (no zone: they are in the query's time zone), numbers as strings (so
 * decimals and 64-bit counts keep every digit), booleans and NULLs as JSON has them.
 */
import type { PlannedQuery } from './types';

/** Rows as an engine returned them: column names and values in column order. */
export interface EngineRows {
  columns: string[];
  rows: unknown[][];
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `2024-05-01 00:00:00[.ffffff]`, `2024-05-01`, a Date → `2024-05-01T00:00:00.000`. */
export function formatTime(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    return `${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}T${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}.${pad(value.getUTCMilliseconds(), 3)}`;
  }
  const text = String(value);
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?)?/.exec(text);
  if (!m) return text;
  return `${m[1]}T${m[2] ?? '00:00:00'}.${(m[3] ?? '').slice(0, 3).padEnd(3, '0')}`;
}

function formatNumber(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return value;
}

/** The result rows of a plan from the rows the engine returned (matched by column alias). */
export function shapeRows(plan: PlannedQuery, result: EngineRows): Record<string, unknown>[] {
  const lower = result.columns.map((c) => c.toLowerCase());
  const columns = plan.columns
    .filter((c) => !c.hidden)
    .map((c) => {
      let index = result.columns.indexOf(c.alias);
      if (index < 0) index = lower.indexOf(c.alias.toLowerCase());
      const convert = c.type === 'time' ? formatTime : c.type === 'number' ? formatNumber : (v: unknown) => (v === undefined ? null : v);
      return { ...c, index, convert };
    });
  const out: Record<string, unknown>[] = new Array(result.rows.length);
  for (let r = 0; r < result.rows.length; r++) {
    const row = result.rows[r]!;
    const obj: Record<string, unknown> = {};
    for (const c of columns) {
      const value = c.index < 0 ? null : c.convert(row[c.index]);
      obj[c.key] = value;
      if (c.alsoKey) obj[c.alsoKey] = value;
    }
    out[r] = obj;
  }
  return out;
}
