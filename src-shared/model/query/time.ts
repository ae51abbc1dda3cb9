// Time dimensions: the zone-converted timestamp of a member and its bucket for a granularity
// (the standard ones, or a custom granularity of the dimension: `interval` with `offset` or
// `origin`, or its own `sql`).

import type { Dimension } from '../types';
import { parseInterval, resolveDateRange, type Interval, type WallTime } from './dates';
import { defaultOrigin, type Dialect } from './dialects';
import { QueryError, QueryErrorCodes, STANDARD_GRANULARITIES, type StandardGranularity } from './types';

export interface GranularityPlan {
  name: string;
  title: string;
  /** Bucket start of a (converted) timestamp expression. */
  bucket(expr: string): string;
  /** One bucket's length, to step from bucket to bucket. */
  step: Interval;
  /** For annotations. */
  interval?: string;
  offset?: string;
  origin?: string;
}

const isStandard = (g: string): g is StandardGranularity => (STANDARD_GRANULARITIES as readonly string[]).includes(g);

function parseOrigin(text: string, member: string, name: string): WallTime {
  try {
    return resolveDateRange([text, text], 'UTC', new Date(0))[0];
  } catch {
    throw new QueryError(QueryErrorCodes.UNKNOWN_GRANULARITY, `Granularity '${name}' of ${member} has an origin '${text}' that is not a date or timestamp.`);
  }
}

/**
 * The plan of `granularity` on a time dimension; `renderSql` renders a custom granularity's own SQL
 * (which names the dimension's columns).
 */
export function granularityPlan(dialect: Dialect, dim: Dimension, member: string, granularity: string, renderSql: (sql: string) => string): GranularityPlan {
  const custom = dim.granularities.find((g) => g.name === granularity);
  if (custom) {
    const title = custom.title ?? custom.name.replace(/_/g, ' ');
    if (custom.sql) {
      const sql = renderSql(custom.sql);
      const step = custom.interval ? parseInterval(custom.interval) : null;
      if (!step) throw new QueryError(QueryErrorCodes.UNKNOWN_GRANULARITY, `Granularity '${granularity}' of ${member} has SQL but no interval to step by.`);
      return { name: granularity, title, bucket: () => dialect.toTimestamp(sql), step, interval: custom.interval };
    }
    const interval = custom.interval ? parseInterval(custom.interval) : null;
    if (!interval) throw new QueryError(QueryErrorCodes.UNKNOWN_GRANULARITY, `Granularity '${granularity}' of ${member} has no valid interval (e.g. '3 months').`);
    const offset = custom.offset ? parseInterval(custom.offset) : null;
    if (custom.offset && !offset) throw new QueryError(QueryErrorCodes.UNKNOWN_GRANULARITY, `Granularity '${granularity}' of ${member} has an invalid offset '${custom.offset}'.`);
    const origin = custom.origin ? parseOrigin(custom.origin, member, granularity) : defaultOrigin(interval, offset);
    return {
      name: granularity,
      title,
      bucket: (expr) => dialect.bucket(expr, interval, origin),
      step: interval,
      interval: custom.interval,
      ...(custom.offset ? { offset: custom.offset } : {}),
      ...(custom.origin ? { origin: custom.origin } : {}),
    };
  }
  if (!isStandard(granularity)) {
    const known = [...STANDARD_GRANULARITIES, ...dim.granularities.map((g) => g.name)];
    throw new QueryError(QueryErrorCodes.UNKNOWN_GRANULARITY, `${member} has no granularity '${granularity}'; use one of ${known.join(', ')}.`);
  }
  return {
    name: granularity,
    title: granularity, // a standard granularity's title is its name
    bucket: (expr) => dialect.truncate(granularity, expr),
    step: [{ amount: 1, unit: granularity }],
  };
}

/** A time dimension's value as a timestamp in the query's zone (source timestamps are UTC). */
export function zonedTime(dialect: Dialect, sql: string, timeZone: string): string {
  const ts = dialect.toTimestamp(sql);
  return timeZone === 'UTC' || timeZone === 'Etc/UTC' ? ts : dialect.convertTz(ts, timeZone);
}
