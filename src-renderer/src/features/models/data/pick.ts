// What a query picker holds, and its two-way mapping to the REST query format. Pure (no session),
// so Models › Data, the dashboard editor and unit tests share it.
import type { MetaMember } from '../../../../../src-shared/model/query';

export interface PickedQuery {
  measures: string[];
  dimensions: string[];
  time: { dimension: string; granularity: string; from: string; to: string } | null;
  segments: string[];
  filters: { member: string; operator: string; values: string }[];
  limit: number;
  timezone: string;
}

export const EMPTY_PICK: PickedQuery = { measures: [], dimensions: [], time: null, segments: [], filters: [], limit: 1000, timezone: 'UTC' };

const NO_VALUES = new Set(['set', 'notSet']);

/** The REST query of what was picked. */
export function toQuery(pick: PickedQuery): Record<string, unknown> {
  const q: Record<string, unknown> = {};
  if (pick.measures.length) q.measures = pick.measures;
  if (pick.dimensions.length) q.dimensions = pick.dimensions;
  if (pick.segments.length) q.segments = pick.segments;
  if (pick.time) {
    const td: Record<string, unknown> = { dimension: pick.time.dimension };
    if (pick.time.granularity) td.granularity = pick.time.granularity;
    if (pick.time.from && pick.time.to) td.dateRange = [pick.time.from, pick.time.to];
    q.timeDimensions = [td];
  }
  const filters = pick.filters
    .filter((f) => f.member && f.operator)
    .map((f) => ({ member: f.member, operator: f.operator, ...(NO_VALUES.has(f.operator) ? {} : { values: f.values.split(',').map((v) => v.trim()).filter(Boolean) }) }));
  if (filters.length) q.filters = filters;
  q.limit = pick.limit;
  if (pick.timezone && pick.timezone !== 'UTC') q.timezone = pick.timezone;
  return q;
}

const strings = (value: unknown): string[] | null => (value === undefined ? [] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null);
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A REST query back into what the picker shows, or null when the picker cannot show all of it
 * (several time dimensions, relative date ranges, and/or filters, order…): edit those as JSON.
 */
export function fromQuery(query: unknown): PickedQuery | null {
  if (query === undefined || query === null) return { ...EMPTY_PICK };
  if (!isObject(query)) return null;
  const known = new Set(['measures', 'dimensions', 'segments', 'timeDimensions', 'filters', 'limit', 'timezone']);
  if (Object.keys(query).some((key) => !known.has(key))) return null;
  const measures = strings(query.measures);
  const dimensions = strings(query.dimensions);
  const segments = strings(query.segments);
  if (!measures || !dimensions || !segments) return null;
  let time: PickedQuery['time'] = null;
  if (query.timeDimensions !== undefined) {
    const tds = query.timeDimensions;
    if (!Array.isArray(tds) || tds.length > 1) return null;
    if (tds.length === 1) {
      const td = tds[0] as unknown;
      if (!isObject(td) || typeof td.dimension !== 'string' || Object.keys(td).some((k) => !['dimension', 'granularity', 'dateRange'].includes(k))) return null;
      if (td.granularity !== undefined && typeof td.granularity !== 'string') return null;
      let from = '';
      let to = '';
      if (td.dateRange !== undefined) {
        const range = td.dateRange;
        if (!Array.isArray(range) || range.length !== 2 || !range.every((d) => typeof d === 'string' && DATE.test(d))) return null;
        [from, to] = range as [string, string];
      }
      time = { dimension: td.dimension, granularity: (td.granularity as string | undefined) ?? '', from, to };
    }
  }
  const filters: PickedQuery['filters'] = [];
  if (query.filters !== undefined) {
    if (!Array.isArray(query.filters)) return null;
    for (const f of query.filters as unknown[]) {
      if (!isObject(f) || typeof f.member !== 'string' || typeof f.operator !== 'string' || Object.keys(f).some((k) => !['member', 'operator', 'values'].includes(k))) return null;
      const values = strings(f.values);
      // The picker joins values with commas, so a value holding a comma cannot round-trip.
      if (!values || values.some((v) => v.includes(','))) return null;
      filters.push({ member: f.member, operator: f.operator, values: values.join(', ') });
    }
  }
  const limit = query.limit === undefined ? EMPTY_PICK.limit : query.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) return null;
  const timezone = query.timezone === undefined ? 'UTC' : query.timezone;
  if (typeof timezone !== 'string') return null;
  return { measures, dimensions, segments, time, filters, limit, timezone };
}

export const memberLabel = (m: MetaMember) => m.shortTitle || m.name;
