// Intervals (`7 days`, `3 months`), date ranges (absolute and relative, the way the platform reads
// them) and wall-clock times in a time zone. Pure: Intl only, no Node APIs.

import { QueryError, QueryErrorCodes, type DateRange } from './types';

export type IntervalUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

/** `3 months` → [{ amount: 3, unit: 'month' }]; `1 year 2 months` has two parts. */
export type Interval = { amount: number; unit: IntervalUnit }[];

const UNIT_RE = /^(second|minute|hour|day|week|month|quarter|year)s?$/i;

export function parseInterval(text: string): Interval | null {
  const tokens = text.trim().split(/\s+/);
  if (tokens.length === 0 || tokens.length % 2 !== 0) return null;
  const parts: Interval = [];
  for (let i = 0; i < tokens.length; i += 2) {
    const amount = Number(tokens[i]);
    const unit = UNIT_RE.exec(tokens[i + 1]!)?.[1]?.toLowerCase() as IntervalUnit | undefined;
    if (!Number.isInteger(amount) || !unit) return null;
    parts.push({ amount, unit });
  }
  return parts;
}

export const negateInterval = (interval: Interval): Interval => interval.map((p) => ({ amount: -p.amount, unit: p.unit }));

/** Months in an interval made only of months, quarters and years; null when it has fixed-length parts. */
export function intervalMonths(interval: Interval): number | null {
  let months = 0;
  for (const p of interval) {
    if (p.unit === 'month') months += p.amount;
    else if (p.unit === 'quarter') months += 3 * p.amount;
    else if (p.unit === 'year') months += 12 * p.amount;
    else return null;
  }
  return months;
}

const UNIT_SECONDS: Partial<Record<IntervalUnit, number>> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800 };

/** Seconds in an interval of fixed-length parts; null when it has months, quarters or years. */
export function intervalSeconds(interval: Interval): number | null {
  let seconds = 0;
  for (const p of interval) {
    const s = UNIT_SECONDS[p.unit];
    if (s === undefined) return null;
    seconds += s * p.amount;
  }
  return seconds;
}

// ---------------------------------------------------------------------------- wall-clock times

/** A wall-clock time (no zone), as the query's time zone sees it. Months are 1-based. */
export interface WallTime {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  ms: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2024-05-01T00:00:00.000`: the platform's format for time values (no zone suffix). */
export function formatWall(t: WallTime): string {
  return `${pad(t.y, 4)}-${pad(t.mo)}-${pad(t.d)}T${pad(t.h)}:${pad(t.mi)}:${pad(t.s)}.${pad(t.ms, 3)}`;
}

const fromUtcDate = (d: Date): WallTime => ({
  y: d.getUTCFullYear(),
  mo: d.getUTCMonth() + 1,
  d: d.getUTCDate(),
  h: d.getUTCHours(),
  mi: d.getUTCMinutes(),
  s: d.getUTCSeconds(),
  ms: d.getUTCMilliseconds(),
});

const toUtcDate = (t: WallTime): Date => new Date(Date.UTC(t.y, t.mo - 1, t.d, t.h, t.mi, t.s, t.ms));

/** Adds (or with a negative amount subtracts) calendar units; months clamp to the month's last day. */
export function addToWall(t: WallTime, amount: number, unit: IntervalUnit): WallTime {
  if (unit === 'month' || unit === 'quarter' || unit === 'year') {
    const months = amount * (unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12);
    const index = t.y * 12 + (t.mo - 1) + months;
    const y = Math.floor(index / 12);
    const mo = index - y * 12 + 1;
    const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
    return { ...t, y, mo, d: Math.min(t.d, last) };
  }
  const ms = (UNIT_SECONDS[unit] ?? 0) * 1000 * amount;
  return fromUtcDate(new Date(toUtcDate(t).getTime() + ms));
}

export type Span = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

/** Start of the span containing `t` (weeks start on Monday, as ISO weeks do). */
export function startOf(t: WallTime, span: Span): WallTime {
  const r = { ...t, ms: 0 };
  if (span === 'second') return r;
  r.s = 0;
  if (span === 'minute') return r;
  r.mi = 0;
  if (span === 'hour') return r;
  r.h = 0;
  if (span === 'day') return r;
  if (span === 'week') {
    const weekday = (toUtcDate(r).getUTCDay() + 6) % 7; // Monday = 0
    return addToWall(r, -weekday, 'day');
  }
  r.d = 1;
  if (span === 'month') return r;
  if (span === 'quarter') return { ...r, mo: Math.floor((r.mo - 1) / 3) * 3 + 1 };
  return { ...r, mo: 1 };
}

/** Last millisecond of the span containing `t`. */
export function endOf(t: WallTime, span: Span): WallTime {
  const next = addToWall(startOf(t, span), 1, span);
  return fromUtcDate(new Date(toUtcDate(next).getTime() - 1));
}

/** The wall-clock time of an instant in an IANA time zone. */
export function wallTimeIn(instant: Date, timeZone: string): WallTime {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return fromUtcDate(instant);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { y: get('year'), mo: get('month'), d: get('day'), h: get('hour') % 24, mi: get('minute'), s: get('second'), ms: instant.getUTCMilliseconds() };
}

const knownZones = new Map<string, boolean>([['UTC', true]]);

/** True when the runtime knows the IANA zone name (remembered: asking Intl costs about a millisecond). */
export function isValidTimeZone(timeZone: string): boolean {
  let known = knownZones.get(timeZone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
      known = true;
    } catch {
      known = false;
    }
    if (knownZones.size < 1000) knownZones.set(timeZone, known);
  }
  return known;
}

const ABSOLUTE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** An absolute date or timestamp; `end` fills a bare date's missing time with the end of that day. */
function parseAbsolute(text: string, end: boolean): WallTime | null {
  const m = ABSOLUTE.exec(text.trim());
  if (!m) return null;
  const t: WallTime = { y: +m[1]!, mo: +m[2]!, d: +m[3]!, h: 0, mi: 0, s: 0, ms: 0 };
  if (t.mo < 1 || t.mo > 12 || t.d < 1 || t.d > new Date(Date.UTC(t.y, t.mo, 0)).getUTCDate()) return null;
  if (m[4] === undefined) return end ? { ...t, h: 23, mi: 59, s: 59, ms: 999 } : t;
  t.h = +m[4];
  t.mi = +m[5]!;
  t.s = m[6] ? +m[6] : end ? 59 : 0;
  t.ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : m[6] || !end ? 0 : 999;
  if (t.h > 23 || t.mi > 59 || t.s > 59) return null;
  return t;
}

const SPAN_RE = '(second|minute|hour|day|week|month|quarter|year)';

/**
 * A date range as `[from, to]` wall-clock bounds (both inclusive, millisecond precision) in the
 * query's time zone. Relative phrases follow the platform: `this|last|next <unit>`,
 * `last|next N <units>` (whole units, not counting the current one), `today`, `yesterday`,
 * `tomorrow`, `from N <units> ago to now`, `from now to N <units> from now`.
 */
export function resolveDateRange(range: DateRange, timeZone: string, now: Date): [WallTime, WallTime] {
  const [from, to] = dateRangeBounds(range, timeZone, now);
  // `last 99999999999 years` or year 275760 are no dates SQL can hold (NaN past JavaScript's own
  // range): a 400 here, not a failed statement on the warehouse (issue 23).
  if (!withinSqlYears(from) || !withinSqlYears(to)) {
    throw new QueryError(QueryErrorCodes.INVALID_DATE_RANGE, `Invalid dateRange ${JSON.stringify(range)}: it reaches outside the years ${MIN_YEAR} to ${MAX_YEAR}.`);
  }
  return [from, to];
}

/** The years a date range may reach: those a four-digit SQL date literal can write. */
const MIN_YEAR = 1;
const MAX_YEAR = 9999;

function withinSqlYears(t: WallTime): boolean {
  return [t.y, t.mo, t.d, t.h, t.mi, t.s, t.ms].every(Number.isFinite) && t.y >= MIN_YEAR && t.y <= MAX_YEAR;
}

function dateRangeBounds(range: DateRange, timeZone: string, now: Date): [WallTime, WallTime] {
  const bad = (detail: string) => new QueryError(QueryErrorCodes.INVALID_DATE_RANGE, `Invalid dateRange ${JSON.stringify(range)}: ${detail}`);
  if (Array.isArray(range)) {
    if (range.length !== 2 || typeof range[0] !== 'string' || typeof range[1] !== 'string') throw bad('give [from, to] as two date strings.');
    const from = parseAbsolute(range[0], false);
    const to = parseAbsolute(range[1], true);
    if (!from || !to) throw bad('dates are written YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss.');
    if (toUtcDate(from) > toUtcDate(to)) throw bad('the start is after the end.');
    return [from, to];
  }
  if (typeof range !== 'string') throw bad('expected a string or [from, to].');
  const text = range.trim().toLowerCase();
  const today = wallTimeIn(now, timeZone);
  const absolute = parseAbsolute(text, false);
  if (absolute) return [absolute, parseAbsolute(text, true)!];
  if (text === 'today') return [startOf(today, 'day'), endOf(today, 'day')];
  if (text === 'yesterday') {
    const d = addToWall(today, -1, 'day');
    return [startOf(d, 'day'), endOf(d, 'day')];
  }
  if (text === 'tomorrow') {
    const d = addToWall(today, 1, 'day');
    return [startOf(d, 'day'), endOf(d, 'day')];
  }
  let m = new RegExp(`^(this|last|next)\\s+${SPAN_RE}$`).exec(text);
  if (m) {
    const unit = m[2] as Span;
    const shift = m[1] === 'last' ? -1 : m[1] === 'next' ? 1 : 0;
    const at = addToWall(today, shift, unit);
    return [startOf(at, unit), endOf(at, unit)];
  }
  m = new RegExp(`^(last|next)\\s+(\\d+)\\s+${SPAN_RE}s?$`).exec(text);
  if (m) {
    const n = Number(m[2]);
    const unit = m[3] as Span;
    if (m[1] === 'last') return [startOf(addToWall(today, -n, unit), unit), endOf(addToWall(today, -1, unit), unit)];
    return [startOf(addToWall(today, 1, unit), unit), endOf(addToWall(today, n, unit), unit)];
  }
  m = new RegExp(`^from\\s+(\\d+)\\s+${SPAN_RE}s?\\s+ago\\s+to\\s+now$`).exec(text);
  if (m) return [addToWall(today, -Number(m[1]), m[2] as Span), today];
  m = new RegExp(`^from\\s+now\\s+to\\s+(\\d+)\\s+${SPAN_RE}s?\\s+from\\s+now$`).exec(text);
  if (m) return [today, addToWall(today, Number(m[1]), m[2] as Span)];
  throw bad('use [from, to], a date, or a phrase such as "last 7 days", "this month", "yesterday".');
}
