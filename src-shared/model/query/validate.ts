// The shape of a `load` query, checked before anything is resolved, with messages that say what to fix.

import { isValidTimeZone } from './dates';
import { checkFilter } from './filters';
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT, QueryError, QueryErrorCodes, type LoadQuery, type OrderDirection } from './types';

const KEYS = new Set([
  'measures',
  'dimensions',
  'timeDimensions',
  'filters',
  'segments',
  'order',
  'limit',
  'rowLimit',
  'offset',
  'total',
  'timezone',
  'ungrouped',
  'renewQuery',
  'responseFormat',
]);

const bad = (detail: string) => new QueryError(QueryErrorCodes.INVALID_QUERY, detail);

function stringList(value: unknown, key: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw bad(`'${key}' must be a list of member names.`);
  return value as string[];
}

export interface CheckedQuery {
  measures: string[];
  dimensions: string[];
  segments: string[];
  timeDimensions: NonNullable<LoadQuery['timeDimensions']>;
  filters: NonNullable<LoadQuery['filters']>;
  order: [string, OrderDirection][] | null;
  limit: number;
  offset: number;
  total: boolean;
  timezone: string;
  ungrouped: boolean;
}

export function checkQuery(input: unknown): CheckedQuery {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw bad('A query is a JSON object with measures, dimensions, filters, …');
  const q = input as Record<string, unknown>;
  for (const key of Object.keys(q)) if (!KEYS.has(key)) throw bad(`Unknown query key '${key}'.`);
  const measures = stringList(q.measures, 'measures');
  const dimensions = stringList(q.dimensions, 'dimensions');
  const segments = stringList(q.segments, 'segments');
  const timeDimensions = q.timeDimensions ?? [];
  if (!Array.isArray(timeDimensions)) throw bad(`'timeDimensions' must be a list.`);
  timeDimensions.forEach((td, i) => {
    if (td === null || typeof td !== 'object' || typeof (td as { dimension?: unknown }).dimension !== 'string') {
      throw bad(`timeDimensions[${i}] needs a 'dimension' (cube.member).`);
    }
    const g = (td as { granularity?: unknown }).granularity;
    if (g !== undefined && g !== null && typeof g !== 'string') throw bad(`timeDimensions[${i}].granularity must be a string.`);
    const r = (td as { dateRange?: unknown }).dateRange;
    if (r !== undefined && typeof r !== 'string' && !Array.isArray(r)) throw bad(`timeDimensions[${i}].dateRange must be a string or [from, to].`);
    if ((td as { compareDateRange?: unknown }).compareDateRange !== undefined) throw bad(`timeDimensions[${i}].compareDateRange is not supported by local queries.`);
  });
  const filters = q.filters ?? [];
  if (!Array.isArray(filters)) throw bad(`'filters' must be a list.`);
  filters.forEach((f, i) => checkFilter(f, `filters[${i}]`));

  let order: [string, OrderDirection][] | null = null;
  if (q.order !== undefined && q.order !== null) {
    const entries = Array.isArray(q.order) ? q.order : typeof q.order === 'object' ? Object.entries(q.order as object) : null;
    if (!entries) throw bad(`'order' must be an object { member: 'asc' | 'desc' } or a list of [member, direction].`);
    order = entries.map((e, i) => {
      const pair = Array.isArray(e) ? e : null;
      if (!pair || typeof pair[0] !== 'string' || (pair[1] !== 'asc' && pair[1] !== 'desc')) throw bad(`order[${i}] must be [member, 'asc' | 'desc'].`);
      return [pair[0], pair[1]];
    });
  }
  const rawLimit = q.limit ?? q.rowLimit;
  if (rawLimit !== undefined && (!Number.isInteger(rawLimit) || (rawLimit as number) < 0)) throw bad(`'limit' must be a whole number of rows.`);
  const limit = (rawLimit as number | undefined) ?? DEFAULT_QUERY_LIMIT;
  if (limit > MAX_QUERY_LIMIT) throw new QueryError(QueryErrorCodes.LIMIT_EXCEEDED, `'limit' may be at most ${MAX_QUERY_LIMIT} rows; ${limit} was asked.`);
  if (q.offset !== undefined && (!Number.isInteger(q.offset) || (q.offset as number) < 0)) throw bad(`'offset' must be a whole number of rows.`);
  const timezone = q.timezone ?? 'UTC';
  if (typeof timezone !== 'string' || !isValidTimeZone(timezone)) throw new QueryError(QueryErrorCodes.INVALID_TIMEZONE, `'timezone' ${JSON.stringify(timezone)} is not an IANA time zone such as Europe/Berlin.`);
  if (measures.length + dimensions.length + timeDimensions.length === 0) throw bad('The query selects nothing: give at least one measure, dimension or time dimension.');
  return {
    measures,
    dimensions,
    segments,
    timeDimensions: timeDimensions as CheckedQuery['timeDimensions'],
    filters: filters as CheckedQuery['filters'],
    order,
    limit,
    offset: (q.offset as number | undefined) ?? 0,
    total: q.total === true,
    timezone,
    ungrouped: q.ungrouped === true,
  };
}
