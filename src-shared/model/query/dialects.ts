// The SQL differences between the engines a model query runs on: DuckDB (the local emulators'
// data plane), Snowflake and Databricks SQL. Everything else in the planner is dialect-neutral.

import { addToWall, formatWall, intervalMonths, intervalSeconds, type Interval, type IntervalUnit, type WallTime } from './dates';
import type { StandardGranularity } from './types';

export type DialectName = 'duckdb' | 'snowflake' | 'databricks';

export interface Dialect {
  readonly name: DialectName;
  /** A quoted identifier (aliases Drydock makes; user SQL passes through as written). */
  quote(name: string): string;
  /** An expression cast to the engine's zone-less timestamp type. */
  toTimestamp(expr: string): string;
  /** A timestamp literal from a wall-clock time Drydock computed (never user text). */
  timestampLiteral(t: WallTime): string;
  truncate(unit: StandardGranularity, expr: string): string;
  addInterval(expr: string, interval: Interval): string;
  /**
   * The start of the bucket of `interval` containing `expr`, buckets aligned on `origin`
   * (a custom granularity).
   */
  bucket(expr: string, interval: Interval, origin: WallTime): string;
  /** A UTC timestamp as the wall-clock time of `timeZone`. */
  convertTz(expr: string, timeZone: string): string;
  countDistinctApprox(expr: string): string;
  /** A `SELECT` of one column `d_from` with every bucket start from `fromExpr` to `toExpr` (inclusive). */
  seriesStarts(fromExpr: string, toExpr: string, step: Interval, fromClause: string): string;
}

const plural = (n: number, unit: string) => `${n} ${unit}${Math.abs(n) === 1 ? '' : 's'}`;

/** `INTERVAL '3 months'` (quarters as months: every engine reads months). */
function duckInterval(interval: Interval): string {
  const text = interval.map((p) => plural(p.unit === 'quarter' ? p.amount * 3 : p.amount, DUCK_UNITS[p.unit])).join(' ');
  return `INTERVAL '${text}'`;
}

const wallText = (t: WallTime) => formatWall(t).replace('T', ' ');

/** Time zone names come from the query and are checked against the runtime's zone list; quotes are still escaped. */
const zoneLiteral = (zone: string) => `'${zone.replace(/'/g, "''")}'`;

/** The SQL unit of each standard granularity: a lookup rather than the name itself, so only these words reach the SQL. */
const STANDARD_UNIT: Record<StandardGranularity, string> = {
  second: 'second',
  minute: 'minute',
  hour: 'hour',
  day: 'day',
  week: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
};

/** Interval units in DuckDB's words: quarters are written as months (see `duckInterval`). */
const DUCK_UNITS: Record<IntervalUnit, string> = { ...STANDARD_UNIT, quarter: 'month' };

export const duckdbDialect: Dialect = {
  name: 'duckdb',
  quote: (name) => `"${name.replace(/"/g, '""')}"`,
  toTimestamp: (expr) => `CAST(${expr} AS TIMESTAMP)`,
  timestampLiteral: (t) => `TIMESTAMP '${wallText(t)}'`,
  truncate: (unit, expr) => `date_trunc('${STANDARD_UNIT[unit]}', ${expr})`,
  addInterval: (expr, interval) => `(${expr} + ${duckInterval(interval)})`,
  bucket(expr, interval, origin) {
    const months = intervalMonths(interval);
    const width = months !== null ? `INTERVAL '${plural(months, 'month')}'` : `INTERVAL '${plural(intervalSeconds(interval) ?? 0, 'second')}'`;
    return `time_bucket(${width}, ${expr}, ${duckdbDialect.timestampLiteral(origin)})`;
  },
  // ICU: a naive timestamp read as UTC, then shown as the zone's wall-clock time.
  convertTz: (expr, zone) => `((${expr} AT TIME ZONE 'UTC') AT TIME ZONE ${zoneLiteral(zone)})`,
  countDistinctApprox: (expr) => `approx_count_distinct(${expr})`,
  seriesStarts: (fromExpr, toExpr, step, fromClause) =>
    `SELECT unnest(generate_series(${fromExpr}, ${toExpr}, ${duckInterval(step)})) AS "d_from" FROM ${fromClause}`,
};

/** Snowflake's DATEADD part names. */
const SF_UNITS: Record<IntervalUnit, string> = { second: 'second', minute: 'minute', hour: 'hour', day: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year' };

export const snowflakeDialect: Dialect = {
  name: 'snowflake',
  quote: (name) => `"${name.replace(/"/g, '""')}"`,
  toTimestamp: (expr) => `CAST(${expr} AS TIMESTAMP_NTZ)`,
  timestampLiteral: (t) => `CAST('${wallText(t)}' AS TIMESTAMP_NTZ)`,
  truncate: (unit, expr) => `DATE_TRUNC('${STANDARD_UNIT[unit]}', ${expr})`,
  addInterval: (expr, interval) => interval.reduce((acc, p) => `DATEADD(${SF_UNITS[p.unit]}, ${p.amount}, ${acc})`, expr),
  bucket(expr, interval, origin) {
    const o = snowflakeDialect.timestampLiteral(origin);
    const months = intervalMonths(interval);
    if (months !== null) {
      // DATEDIFF counts month boundaries; step back one when the origin's day and time are not reached yet.
      const crossed = `DATEDIFF(month, ${o}, ${expr})`;
      const whole = `(${crossed} - IFF(DATEADD(month, ${crossed}, ${o}) > ${expr}, 1, 0))`;
      return `DATEADD(month, FLOOR(${whole} / ${months}) * ${months}, ${o})`;
    }
    const seconds = intervalSeconds(interval) ?? 1;
    return `DATEADD(second, FLOOR(DATEDIFF(second, ${o}, ${expr}) / ${seconds}) * ${seconds}, ${o})`;
  },
  convertTz: (expr, zone) => `CONVERT_TIMEZONE('UTC', ${zoneLiteral(zone)}, ${expr})`,
  countDistinctApprox: (expr) => `APPROX_COUNT_DISTINCT(${expr})`,
  // GENERATOR needs a constant row count: enough buckets for 100 years of days, cut at the end bound.
  seriesStarts(fromExpr, toExpr, step, fromClause) {
    const n = '(ROW_NUMBER() OVER (ORDER BY SEQ4()) - 1)';
    const start = step.reduce((acc, p) => `DATEADD(${SF_UNITS[p.unit]}, ${p.amount} * ${n}, ${acc})`, '"r"."s"');
    return (
      `SELECT "d_from" FROM (SELECT ${start} AS "d_from", "r"."e" AS "e" ` +
      `FROM (SELECT ${fromExpr} AS "s", ${toExpr} AS "e" FROM ${fromClause}) AS "r", TABLE(GENERATOR(ROWCOUNT => 36600))) WHERE "d_from" <= "e"`
    );
  },
};

const DBX_UNITS: Record<IntervalUnit, string> = { second: 'SECOND', minute: 'MINUTE', hour: 'HOUR', day: 'DAY', week: 'WEEK', month: 'MONTH', quarter: 'QUARTER', year: 'YEAR' };

function dbxInterval(interval: Interval): string {
  return `INTERVAL ${interval.map((p) => `${p.unit === 'quarter' ? p.amount * 3 : p.unit === 'week' ? p.amount * 7 : p.amount} ${p.unit === 'quarter' ? 'MONTH' : p.unit === 'week' ? 'DAY' : DBX_UNITS[p.unit]}`).join(' ')}`;
}

export const databricksDialect: Dialect = {
  name: 'databricks',
  quote: (name) => `\`${name.replace(/`/g, '``')}\``,
  toTimestamp: (expr) => `CAST(${expr} AS TIMESTAMP)`,
  timestampLiteral: (t) => `TIMESTAMP'${wallText(t)}'`,
  truncate: (unit, expr) => `date_trunc('${STANDARD_UNIT[unit].toUpperCase()}', ${expr})`,
  addInterval: (expr, interval) => interval.reduce((acc, p) => `TIMESTAMPADD(${DBX_UNITS[p.unit]}, ${p.amount}, ${acc})`, expr),
  bucket(expr, interval, origin) {
    const o = databricksDialect.timestampLiteral(origin);
    const months = intervalMonths(interval);
    if (months !== null) {
      // TIMESTAMPDIFF counts whole months, so no correction is needed.
      return `TIMESTAMPADD(MONTH, CAST(FLOOR(TIMESTAMPDIFF(MONTH, ${o}, ${expr}) / ${months}) * ${months} AS INT), ${o})`;
    }
    const seconds = intervalSeconds(interval) ?? 1;
    return `TIMESTAMPADD(SECOND, CAST(FLOOR(TIMESTAMPDIFF(SECOND, ${o}, ${expr}) / ${seconds}) * ${seconds} AS BIGINT), ${o})`;
  },
  convertTz: (expr, zone) => `from_utc_timestamp(${expr}, ${zoneLiteral(zone)})`,
  countDistinctApprox: (expr) => `approx_count_distinct(${expr})`,
  seriesStarts: (fromExpr, toExpr, step, fromClause) =>
    `SELECT explode(sequence(${fromExpr}, ${toExpr}, ${dbxInterval(step)})) AS \`d_from\` FROM ${fromClause}`,
};

export const DIALECTS: Record<DialectName, Dialect> = { duckdb: duckdbDialect, snowflake: snowflakeDialect, databricks: databricksDialect };

/**
 * The default alignment of a custom granularity without `origin` (an assumption, documented in
 * the README): intervals of months, quarters or years count from 1970-01-01, intervals of weeks
 * from Monday 1969-12-29 (so `1 week` means ISO weeks), anything else from 1970-01-01 00:00;
 * `offset` shifts that origin.
 */
export function defaultOrigin(interval: Interval, offset: Interval | null): WallTime {
  const weekly = interval.every((p) => p.unit === 'week');
  let origin: WallTime = weekly ? { y: 1969, mo: 12, d: 29, h: 0, mi: 0, s: 0, ms: 0 } : { y: 1970, mo: 1, d: 1, h: 0, mi: 0, s: 0, ms: 0 };
  for (const p of offset ?? []) origin = addToWall(origin, p.amount, p.unit);
  return origin;
}
