// The forms the platform's validator gives each type of pre-aggregation (issue 27): which keys a
// type takes beyond the ones all share, and which keys must come together (a rollup's
// time_dimension and granularity, an original_sql's time_dimension and partition_granularity, the
// rollups of rollup_join and rollup_lambda). The key table of keys.ts is their union.

import { DiagnosticCodes as C } from '../codes';
import type { RawMap } from '../types';
import type { Ctx } from './context';
import type { Fields } from './fields';

const SHARED = ['name', 'type', 'refresh_key', 'sql_alias', 'use_original_sql_pre_aggregations', 'external', 'scheduled_refresh', 'indexes', 'refresh_range_start', 'refresh_range_end', 'build_range_start', 'build_range_end', 'read_only', 'stream_offset', 'output_column_types', 'partition_granularity'];
const MEMBERS = ['measures', 'dimensions', 'segments', 'measure_references', 'dimension_references', 'segment_references'];

interface Form {
  keys: ReadonlySet<string>;
  /** [key, companion]: when the key is written, the companion must be too. */
  together: readonly (readonly [string, string])[];
  required: readonly string[];
}

const form = (keys: string[], together: [string, string][] = [], required: string[] = []): Form => ({ keys: new Set(keys), together, required });

const FORMS: Readonly<Record<string, Form>> = {
  rollup: form(
    [...SHARED, ...MEMBERS, 'time_dimension', 'time_dimension_reference', 'time_dimensions', 'granularity', 'allow_non_strict_date_range_match', 'unique_key_columns'],
    [
      ['time_dimension', 'granularity'],
      ['time_dimension_reference', 'granularity'],
      ['granularity', 'time_dimension'],
    ],
  ),
  original_sql: form(
    [...SHARED, 'unique_key_columns', 'time_dimension', 'time_dimension_reference', 'allow_non_strict_date_range_match'],
    [
      ['time_dimension', 'partition_granularity'],
      ['partition_granularity', 'time_dimension'],
    ],
  ),
  rollup_join: form(
    [...SHARED, ...MEMBERS, 'granularity', 'time_dimension', 'time_dimension_reference', 'allow_non_strict_date_range_match', 'rollups', 'rollup_references'],
    [
      ['granularity', 'time_dimension'],
      ['time_dimension', 'granularity'],
    ],
    ['rollups'],
  ),
  // The platform's rollup_lambda form does not take the keys all other types share.
  rollup_lambda: form(['name', 'type', 'granularity', 'time_dimension', 'rollups', 'measures', 'dimensions', 'segments', 'union_with_source_data'], [['granularity', 'time_dimension'], ['time_dimension', 'granularity']], ['rollups']),
  auto_rollup: form([...SHARED, 'max_pre_aggregations']),
};

/** Written key → the reference spelling it may stand in for (the platform takes either). */
const REFERENCE_SPELLING: Readonly<Record<string, string>> = { rollups: 'rollup_references', time_dimension: 'time_dimension_reference' };

/** Checks a pre-aggregation's keys against its type's form; `type` is already known to be a type. */
export function checkPreAggregationForm(map: RawMap, f: Fields, type: string, ctx: Ctx, what: string, member: string): void {
  const shape = FORMS[type];
  if (!shape) return;
  const aType = `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  const has = (key: string) => f.has(key) || (REFERENCE_SPELLING[key] !== undefined && f.has(REFERENCE_SPELLING[key]!));
  for (const [key, entry] of f) {
    if (!shape.keys.has(key)) ctx.error(C.KEY_NOT_ALLOWED, `'${key}' is not allowed in ${what}: ${aType} pre-aggregation takes ${[...shape.keys].filter((k) => k !== 'name').join(', ')}`, entry, member);
  }
  for (const [key, companion] of shape.together) {
    if (f.has(key) && shape.keys.has(key) && !has(companion)) ctx.error(C.COMPANION_REQUIRED, `${what} sets '${key}' without '${companion}'; ${aType} pre-aggregation needs both`, f.get(key)!, member);
  }
  for (const key of shape.required) if (!has(key)) ctx.error(C.MISSING_PROPERTY, `Missing '${key}' in ${what}: ${aType} pre-aggregation needs it`, map, member);
  const max = f.get('max_pre_aggregations');
  if (max && !ctx.isOpaque(max.value) && !(max.value.kind === 'scalar' && typeof max.value.value === 'number')) {
    ctx.error(C.INVALID_VALUE, `'max_pre_aggregations' of ${what} must be a number`, max.value, member);
  }
}
