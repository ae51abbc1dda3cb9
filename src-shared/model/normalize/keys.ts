// What a definition may say: the keys each kind of map accepts (snake_case; JS files may write
// them in camelCase), the member, pre-aggregation and rolling-window types, the relationship
// spellings, and the interval grammars of granularities and rolling windows. One table, so that
// aligning a rule with the platform's own validator is a change in one place.

import type { DimensionType, MeasureType, Relationship } from '../types';

export const DIMENSION_TYPES = new Set<DimensionType>(['string', 'number', 'boolean', 'time', 'geo', 'switch']);
export const MEASURE_TYPES = new Set<MeasureType>([
  'count',
  'count_distinct',
  'count_distinct_approx',
  'sum',
  'avg',
  'min',
  'max',
  'number',
  'string',
  'time',
  'boolean',
]);
export const MULTI_STAGE_ONLY_TYPES = new Set<MeasureType>(['number_agg', 'rank']);
/** Written relationship → the one it means. A Map: `constructor` is not a relationship (issue 23). */
export const RELATIONSHIPS = new Map<string, Relationship>([
  ['one_to_one', 'one_to_one'],
  ['has_one', 'one_to_one'],
  ['one_to_many', 'one_to_many'],
  ['has_many', 'one_to_many'],
  ['many_to_one', 'many_to_one'],
  ['belongs_to', 'many_to_one'],
]);
export const PRE_AGGREGATION_TYPES = new Set(['rollup', 'original_sql', 'rollup_join', 'rollup_lambda', 'auto_rollup']);
export const ROLLING_WINDOW_TYPES = new Set(['fixed', 'year_to_date', 'quarter_to_date', 'month_to_date', 'to_date']);
// Values the platform's validator enumerates for keys Drydock otherwise keeps as written (issue 27;
// test/conformance/value-rules.test.ts checks each against the validator's schema).
export const DIMENSION_ORDERS: ReadonlySet<string> = new Set(['asc', 'desc']);
export const FIELD_TYPES: ReadonlySet<string> = new Set(['string']);
export const STREAM_OFFSETS: ReadonlySet<string> = new Set(['earliest', 'latest']);
export const PARTITION_GRANULARITIES: ReadonlySet<string> = new Set(['hour', 'day', 'week', 'month', 'quarter', 'year']);
export const INDEX_TYPES: ReadonlySet<string> = new Set(['regular', 'aggregate']);
export const TIME_SHIFT_TYPES: ReadonlySet<string> = new Set(['next', 'prior']);
export const ORDER_DIRECTIONS: ReadonlySet<string> = new Set(['asc', 'desc']);
export const LINK_TARGETS: ReadonlySet<string> = new Set(['blank', 'self']);
export const FILTER_MODES: ReadonlySet<string> = new Set(['relative', 'fixed']);
export const TIME_INTERVAL = /^-?\d+ (minute|hour|day|week|month|quarter|year)s?$/;
const GRANULARITY_UNIT = '(second|minute|hour|day|week|month|quarter|year)s?';
export const GRANULARITY_INTERVAL = new RegExp(`^\\d+\\s+${GRANULARITY_UNIT}(\\s\\d+\\s+${GRANULARITY_UNIT}){0,7}$`);
export const GRANULARITY_OFFSET = new RegExp(`^-?\\d+\\s+${GRANULARITY_UNIT}(\\s-?\\d+\\s+${GRANULARITY_UNIT}){0,7}$`);

const ENTITY_KEYS = ['name', 'title', 'description', 'public', 'shown', 'meta', 'extends', 'access_policy'];
export const MEMBER_SECTION_KEYS = ['dimensions', 'measures', 'segments', 'hierarchies'];
/**
 * Sections of a cube or view read into typed records (members, joins, pre-aggregations, access
 * policies, a view's cubes and folders): an entity's `props` leaves them out rather than holding a
 * second, untyped copy of every member (issue 28).
 */
export const TYPED_SECTIONS: ReadonlySet<string> = new Set([...MEMBER_SECTION_KEYS, 'joins', 'pre_aggregations', 'access_policy', 'cubes', 'folders']);
export const CUBE_KEYS = new Set([
  ...ENTITY_KEYS,
  ...MEMBER_SECTION_KEYS,
  'sql',
  'sql_table',
  'sql_alias',
  'data_source',
  'refresh_key',
  'rewrite_queries',
  'calendar',
  'joins',
  'pre_aggregations',
]);
/** Keys the platform's validator accepts on views (they share the cube schema) but that mean nothing there: warned, not refused. */
export const VIEW_IGNORED_KEYS = new Set(['refresh_key', 'sql_alias', 'data_source', 'rewrite_queries', 'joins', 'pre_aggregations']);
export const VIEW_KEYS = new Set([...ENTITY_KEYS, ...MEMBER_SECTION_KEYS, 'cubes', 'folders', 'view_group', 'view_groups', 'default_filters', ...VIEW_IGNORED_KEYS]);
export const VIEW_GROUP_KEYS = new Set(['name', 'title', 'description', 'views', 'includes']);
const MEMBER_COMMON_KEYS = ['name', 'title', 'description', 'public', 'shown', 'meta', 'format', 'aliases'];
export const DIMENSION_KEYS = new Set([
  ...MEMBER_COMMON_KEYS,
  'sql',
  'type',
  'primary_key',
  'sub_query',
  'propagate_filters_to_sub_query',
  'case',
  'latitude',
  'longitude',
  'granularities',
  'multi_stage',
  'add_group_by',
  'values',
  'order',
  'time_shift',
  'suggest_filter_values',
  'enable_suggestions',
  'field_type',
  'values_as_segments',
  'links',
  'mask',
  'currency',
  'key',
  'key_reference',
  'filter',
]);
export const MEASURE_KEYS = new Set([
  ...MEMBER_COMMON_KEYS,
  'sql',
  'type',
  'filters',
  'rolling_window',
  'drill_members',
  'drill_filters',
  'cumulative',
  'visible',
  'multi_stage',
  'group_by',
  'reduce_by',
  'add_group_by',
  'time_shift',
  'order_by',
  'case',
  'mask',
  'drill_member_references',
  'currency',
  'filter',
  'grain',
]);
export const SEGMENT_KEYS = new Set([...MEMBER_COMMON_KEYS.filter((k) => k !== 'format'), 'sql']);
export const JOIN_KEYS = new Set(['name', 'sql', 'relationship']);
export const HIERARCHY_KEYS = new Set(['name', 'title', 'public', 'levels']);
export const GRANULARITY_KEYS = new Set(['name', 'title', 'interval', 'offset', 'origin', 'sql']);
export const ROLLING_WINDOW_KEYS = new Set(['type', 'trailing', 'leading', 'offset', 'granularity']);
export const PRE_AGGREGATION_KEYS = new Set([
  'name',
  'type',
  'measures',
  'dimensions',
  'segments',
  'time_dimension',
  'time_dimensions',
  'granularity',
  'partition_granularity',
  'refresh_key',
  'scheduled_refresh',
  'build_range_start',
  'build_range_end',
  'refresh_range_start',
  'refresh_range_end',
  'indexes',
  'use_original_sql_pre_aggregations',
  'union_with_source_data',
  'rollups',
  'external',
  'allow_non_strict_date_range_match',
  'unique_key_columns',
  'sql_alias',
  'read_only',
  'stream_offset',
  'output_column_types',
  'max_pre_aggregations',
  'time_dimension_reference',
  'measure_references',
  'dimension_references',
  'segment_references',
  'rollup_references',
]);
export const ACCESS_POLICY_KEYS = new Set(['group', 'groups', 'member_level', 'member_masking', 'row_level', 'conditions']);
export const VIEW_CUBE_KEYS = new Set(['join_path', 'prefix', 'split', 'alias', 'includes', 'excludes']);
export const INCLUDE_KEYS = new Set(['name', 'alias', 'title', 'description', 'format', 'meta']);
export const FOLDER_KEYS = new Set(['name', 'includes']);
export const REFRESH_KEY_KEYS = new Set(['every', 'sql', 'timezone', 'immutable']);
export const PRE_AGGREGATION_REFRESH_KEY_KEYS = new Set(['every', 'sql', 'timezone', 'incremental', 'update_window']);
export const MEMBER_LEVEL_KEYS = new Set(['includes', 'excludes', 'includes_members', 'excludes_members']);
export const ROW_LEVEL_KEYS = new Set(['filters', 'allow_all']);
export const MEASURE_FILTER_KEYS = new Set(['sql']);

/** `every` of a refresh key as an interval (the platform's grammar: seconds up to weeks). */
export const EVERY_INTERVAL = /^\d+ (second|minute|hour|day|week)s?$/;
const CRON_NAMES = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)$/i;
const CRON_FIELD = /^[\d*/,\-?LW#A-Za-z]+$/;

/** A cron expression of 5 or 6 fields (seconds optional), with month and weekday names allowed. */
export function isCronExpression(text: string): boolean {
  const fields = text.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 6) return false;
  return fields.every((field) => CRON_FIELD.test(field) && (field.match(/[A-Za-z]{2,}/g) ?? []).every((word) => CRON_NAMES.test(word)));
}

/** A time zone the runtime's time-zone database knows (as the platform checks `timezone`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
