// Whether a test's rows meet its expectations (issue 26): each expectation that does not hold is a
// failure on its own line, in words that show what was expected and what came back.

import { formatTime } from '../query/shape';
import type { Expectations, Pos } from './parse';

export type Row = Record<string, unknown>;

export interface Failure {
  message: string;
  pos: Pos;
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

const asNumber = (value: unknown): number | null => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && NUMBER.test(value.trim())) return Number(value);
  return null;
};

/** Equal as a test means it: numbers within the tolerance, times whatever their spelling, else as text. */
export function sameValue(expected: unknown, actual: unknown, tolerance: number): boolean {
  if (expected === null || expected === undefined || actual === null || actual === undefined) return (expected ?? null) === (actual ?? null);
  const e = asNumber(expected);
  const a = asNumber(actual);
  if (e !== null && a !== null) return Math.abs(e - a) <= Math.max(tolerance, 1e-12 * Math.max(Math.abs(e), Math.abs(a)));
  if (typeof expected === 'string' && typeof actual === 'string' && DATE.test(expected) && DATE.test(actual)) return formatTime(expected) === formatTime(actual);
  return String(expected) === String(actual);
}

const show = (value: unknown): string => (value === null || value === undefined ? 'null' : typeof value === 'string' ? JSON.stringify(value) : String(value));
const showRow = (row: Row, keys?: string[]) => `{ ${(keys ?? Object.keys(row)).map((k) => `${k}: ${show(row[k])}`).join(', ')} }`;

const matches = (expected: Row, actual: Row, tolerance: number) => Object.keys(expected).every((k) => sameValue(expected[k], actual[k], tolerance));

/** The one row of `rows` whose values match `where` (all rows when null), or why there is not one. */
export function pickRow(rows: Row[], where: Row | null, tolerance = 0): Row | string {
  const found = where ? rows.filter((r) => matches(where, r, tolerance)) : rows;
  if (found.length === 1) return found[0]!;
  const which = where ? ` where ${showRow(where)}` : '';
  return found.length === 0 ? `no row${which}` : `${found.length} rows${which} (expected one)`;
}

/** Sum of a member over rows; a string when a value is not a number. */
export function total(rows: Row[], member: string): number | string {
  let sum = 0;
  for (const row of rows) {
    if (!Object.hasOwn(row, member)) return `the rows have no ${member}`;
    const value = row[member];
    if (value === null || value === undefined) continue;
    const n = asNumber(value);
    if (n === null) return `${member} is not a number (${show(value)})`;
    sum += n;
  }
  return sum;
}

export interface ReferenceRows {
  /** Rows of each `values[i].of` query, by index. */
  values: (Row[] | null)[];
  /** Rows of each `totals_equal[i]` query, by index. */
  totals: (Row[] | null)[];
}

function checkRows(expect: Expectations, rows: Row[], failures: Failure[]): void {
  if (!expect.rows) return;
  const wanted = expect.rows.value;
  const tol = expect.tolerance;
  if (wanted.length !== rows.length) {
    failures.push({ message: `expected ${wanted.length} row${wanted.length === 1 ? '' : 's'}, got ${rows.length}${rows.length ? `: ${rows.slice(0, 5).map((r) => showRow(r)).join(', ')}${rows.length > 5 ? ', …' : ''}` : ''}`, pos: expect.rows.pos });
    return;
  }
  if (expect.ordered) {
    wanted.forEach((w, i) => {
      if (!matches(w, rows[i]!, tol)) failures.push({ message: `row ${i + 1}: expected ${showRow(w)}, got ${showRow(rows[i]!, Object.keys(w))}`, pos: expect.rows!.pos });
    });
    return;
  }
  const left = [...rows];
  for (const w of wanted) {
    const index = left.findIndex((r) => matches(w, r, tol));
    if (index >= 0) left.splice(index, 1);
    else failures.push({ message: `no row ${showRow(w)}${left.length ? `; rows not matched: ${left.slice(0, 3).map((r) => showRow(r, Object.keys(w))).join(', ')}` : ''}`, pos: expect.rows.pos });
  }
}

export function evaluate(expect: Expectations, rows: Row[], references: ReferenceRows): Failure[] {
  const failures: Failure[] = [];
  if (expect.rowCount && rows.length !== expect.rowCount.value) {
    failures.push({ message: `expected ${expect.rowCount.value} row${expect.rowCount.value === 1 ? '' : 's'}, got ${rows.length}`, pos: expect.rowCount.pos });
  }
  checkRows(expect, rows, failures);
  if (expect.notNull) {
    for (const member of expect.notNull.members) {
      const nulls = rows.filter((r) => r[member] === null || r[member] === undefined).length;
      if (nulls > 0) failures.push({ message: `${member} is null in ${nulls} row${nulls === 1 ? '' : 's'}`, pos: expect.notNull.pos });
    }
  }
  if (expect.unique) {
    const seen = new Map<string, number>();
    for (const r of rows) {
      const key = JSON.stringify(expect.unique.members.map((m) => r[m] ?? null));
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    const repeated = [...seen].filter(([, n]) => n > 1);
    if (repeated.length > 0) {
      const [key, n] = repeated[0]!;
      failures.push({ message: `${expect.unique.members.join(', ')} is not unique: ${key} appears ${n} times${repeated.length > 1 ? ` (and ${repeated.length - 1} more values repeat)` : ''}`, pos: expect.unique.pos });
    }
  }
  expect.values.forEach((check, i) => {
    const row = pickRow(rows, check.where);
    if (typeof row === 'string') return failures.push({ message: `${check.member}: ${row}`, pos: check.pos });
    if (!Object.hasOwn(row, check.member)) return failures.push({ message: `the query does not return ${check.member}`, pos: check.pos });
    const actual = row[check.member];
    if (check.hasEquals) {
      if (!sameValue(check.equals, actual, check.tolerance)) failures.push({ message: `${check.member}: expected ${show(check.equals)}${check.tolerance > 1e-9 ? ` ± ${check.tolerance}` : ''}, got ${show(actual)}`, pos: check.pos });
      return;
    }
    const refRows = references.values[i];
    if (!refRows) return failures.push({ message: `${check.member}: the reference query did not run`, pos: check.pos });
    const ref = pickRow(refRows, null);
    if (typeof ref === 'string') return failures.push({ message: `${check.member}: the reference query returns ${ref}`, pos: check.pos });
    const a = asNumber(actual);
    const r = asNumber(ref[check.of!.member]);
    if (a === null || r === null) return failures.push({ message: `${check.member}: ${show(actual)} and the reference ${show(ref[check.of!.member])} are not both numbers`, pos: check.pos });
    const off = r === 0 ? (a === 0 ? 0 : Infinity) : (100 * Math.abs(a - r)) / Math.abs(r);
    if (off > check.withinPercent! + 1e-9) {
      failures.push({ message: `${check.member}: ${show(actual)} is ${Number.isFinite(off) ? `${off.toFixed(2)} %` : 'infinitely'} off the reference ${check.of!.member} ${show(ref[check.of!.member])} (allowed ${check.withinPercent} %)`, pos: check.pos });
    }
  });
  expect.totals.forEach((check, i) => {
    const mine = total(rows, check.member);
    const refRows = references.totals[i];
    if (!refRows) return failures.push({ message: `${check.member}: the other query did not run`, pos: check.pos });
    const theirs = total(refRows, check.reference);
    if (typeof mine === 'string' || typeof theirs === 'string') return failures.push({ message: typeof mine === 'string' ? mine : (theirs as string), pos: check.pos });
    if (!sameValue(mine, theirs, check.tolerance)) failures.push({ message: `total of ${check.member} is ${mine}, the other query’s ${check.reference} totals ${theirs}`, pos: check.pos });
  });
  return failures;
}
