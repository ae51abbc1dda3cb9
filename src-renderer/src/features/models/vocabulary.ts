// The model format's vocabulary for completion: keys of each kind of YAML mapping, with a line of
// documentation each, and the allowed values of enumerated keys. The compiler (src-shared/model/schema.ts)
// is the judge of what is valid; this list only suggests, so it names the keys authors use, not every
// legacy alias the compiler tolerates.

export interface KeyDoc {
  name: string;
  doc: string;
  /** How the value continues: a nested list of maps, a nested map, or a scalar on the same line. */
  shape?: 'list' | 'map' | 'scalar-list';
}

export interface ValueDoc {
  value: string;
  doc: string;
  deprecated?: boolean;
}

/** Kinds of YAML mappings of the format. */
export type NodeKind =
  | 'top'
  | 'cube'
  | 'view'
  | 'viewGroup'
  | 'dimension'
  | 'measure'
  | 'segment'
  | 'join'
  | 'hierarchy'
  | 'preAggregation'
  | 'accessPolicy'
  | 'memberLevel'
  | 'rowLevel'
  | 'granularity'
  | 'rollingWindow'
  | 'measureFilter'
  | 'viewCube'
  | 'viewInclude'
  | 'folder';

const MEMBER_COMMON: KeyDoc[] = [
  { name: 'name', doc: 'Member name: letters, digits and `_`, not starting with a digit.' },
  { name: 'title', doc: 'Human-readable name shown in tools.' },
  { name: 'description', doc: 'What the member means.' },
  { name: 'public', doc: 'false hides the member from the API and tools (default true).' },
  { name: 'meta', doc: 'Free-form metadata passed to tools.', shape: 'map' },
  { name: 'format', doc: 'Display format: percent, currency, number, id, link, imageUrl.' },
];

const ENTITY_COMMON: KeyDoc[] = [
  { name: 'name', doc: 'Name used in queries and references; unique across cubes and views.' },
  { name: 'title', doc: 'Human-readable name shown in tools.' },
  { name: 'description', doc: 'What the data is.' },
  { name: 'public', doc: 'false hides it from the API and tools (default true).' },
  { name: 'meta', doc: 'Free-form metadata passed to tools.', shape: 'map' },
  { name: 'extends', doc: 'Inherit members and joins from another cube (or view).' },
  { name: 'access_policy', doc: 'Who may see which members and rows.', shape: 'list' },
  { name: 'dimensions', doc: 'Attributes to group and filter by.', shape: 'list' },
  { name: 'measures', doc: 'Aggregations.', shape: 'list' },
  { name: 'segments', doc: 'Named, reusable filters.', shape: 'list' },
  { name: 'hierarchies', doc: 'Drill paths through dimensions of the cube.', shape: 'list' },
];

export const KEYS: Record<NodeKind, KeyDoc[]> = {
  top: [
    { name: 'cubes', doc: 'Cube definitions of this file.', shape: 'list' },
    { name: 'views', doc: 'View definitions of this file.', shape: 'list' },
    { name: 'view_groups', doc: 'Groups of views for navigation.', shape: 'list' },
  ],
  cube: [
    ...ENTITY_COMMON,
    { name: 'sql_table', doc: 'Table the cube reads (`schema.table`); use either this or `sql`.' },
    { name: 'sql', doc: 'SELECT the cube reads; use either this or `sql_table`.' },
    { name: 'sql_alias', doc: 'Alias of the cube in generated SQL.' },
    { name: 'data_source', doc: 'Data source of the cube (default: `default`).' },
    { name: 'refresh_key', doc: 'When cached results and pre-aggregations refresh.', shape: 'map' },
    { name: 'joins', doc: 'Cubes this cube joins to.', shape: 'list' },
    { name: 'pre_aggregations', doc: 'Rollups built ahead of queries.', shape: 'list' },
    { name: 'rewrite_queries', doc: 'Push filters down into the cube’s SQL.' },
    { name: 'calendar', doc: 'The cube is a calendar table.' },
  ],
  view: [
    ...ENTITY_COMMON.filter((k) => k.name !== 'extends' && k.name !== 'hierarchies'),
    { name: 'cubes', doc: 'Cubes (by join path) whose members the view exposes.', shape: 'list' },
    { name: 'folders', doc: 'Folders that organize the view’s members.', shape: 'list' },
    { name: 'extends', doc: 'Inherit from another view.' },
  ],
  viewGroup: [
    { name: 'name', doc: 'Name of the group.' },
    { name: 'title', doc: 'Human-readable name.' },
    { name: 'description', doc: 'What the group holds.' },
    { name: 'views', doc: 'Views in the group.', shape: 'scalar-list' },
  ],
  dimension: [
    ...MEMBER_COMMON,
    { name: 'sql', doc: 'SQL expression of the dimension (column or expression over `{CUBE}`).' },
    { name: 'type', doc: 'string, number, boolean, time, geo or switch.' },
    { name: 'primary_key', doc: 'true for the unique key of the cube (needed when the cube has joins).' },
    { name: 'sub_query', doc: 'Computed from a measure of another cube.' },
    { name: 'propagate_filters_to_sub_query', doc: 'Apply the query’s filters inside the sub-query.' },
    { name: 'case', doc: 'Values by condition (`when` / `else`).', shape: 'map' },
    { name: 'granularities', doc: 'Custom time granularities (time dimensions).', shape: 'list' },
    { name: 'latitude', doc: 'Latitude expression (geo dimensions).', shape: 'map' },
    { name: 'longitude', doc: 'Longitude expression (geo dimensions).', shape: 'map' },
    { name: 'multi_stage', doc: 'Computed on top of another query stage.' },
    { name: 'values', doc: 'Values of a switch dimension.', shape: 'scalar-list' },
    { name: 'order', doc: 'Default sort: asc or desc.' },
  ],
  measure: [
    ...MEMBER_COMMON,
    { name: 'sql', doc: 'Expression aggregated (required except for count).' },
    { name: 'type', doc: 'count, count_distinct, count_distinct_approx, sum, avg, min, max, number, string, time, boolean.' },
    { name: 'filters', doc: 'Only rows matching these SQL conditions are aggregated.', shape: 'list' },
    { name: 'rolling_window', doc: 'Aggregate over a moving window of time.', shape: 'map' },
    { name: 'drill_members', doc: 'Members shown when drilling into a value.', shape: 'scalar-list' },
    { name: 'multi_stage', doc: 'Computed on top of another query stage (allows number_agg and rank).' },
    { name: 'group_by', doc: 'Multi-stage: group by these dimensions only.', shape: 'scalar-list' },
    { name: 'reduce_by', doc: 'Multi-stage: remove these dimensions from the grouping.', shape: 'scalar-list' },
    { name: 'add_group_by', doc: 'Multi-stage: add these dimensions to the grouping.', shape: 'scalar-list' },
    { name: 'time_shift', doc: 'Multi-stage: compare with a shifted time period.', shape: 'list' },
    { name: 'order_by', doc: 'Multi-stage rank: ordering of the rank.', shape: 'list' },
  ],
  segment: [...MEMBER_COMMON.filter((k) => k.name !== 'format'), { name: 'sql', doc: 'The filter condition (required).' }],
  join: [
    { name: 'name', doc: 'Cube joined to.' },
    { name: 'sql', doc: 'Join condition, e.g. `{CUBE}.customer_id = {customers.id}`.' },
    { name: 'relationship', doc: 'many_to_one, one_to_many or one_to_one.' },
  ],
  hierarchy: [
    { name: 'name', doc: 'Name of the hierarchy.' },
    { name: 'title', doc: 'Human-readable name.' },
    { name: 'public', doc: 'false hides the hierarchy.' },
    { name: 'levels', doc: 'Dimensions of the cube, from coarse to fine.', shape: 'scalar-list' },
  ],
  preAggregation: [
    { name: 'name', doc: 'Name of the pre-aggregation.' },
    { name: 'type', doc: 'rollup (default), original_sql, rollup_join, rollup_lambda or auto_rollup.' },
    { name: 'measures', doc: 'Measures rolled up.', shape: 'scalar-list' },
    { name: 'dimensions', doc: 'Dimensions rolled up.', shape: 'scalar-list' },
    { name: 'segments', doc: 'Segments rolled up.', shape: 'scalar-list' },
    { name: 'time_dimension', doc: 'Time dimension of the rollup.' },
    { name: 'granularity', doc: 'Granularity of the time dimension.' },
    { name: 'partition_granularity', doc: 'Build one partition per period.' },
    { name: 'refresh_key', doc: 'When the rollup rebuilds.', shape: 'map' },
    { name: 'build_range_start', doc: 'Earliest data to build.', shape: 'map' },
    { name: 'build_range_end', doc: 'Latest data to build.', shape: 'map' },
    { name: 'indexes', doc: 'Indexes on the rollup table.', shape: 'list' },
    { name: 'scheduled_refresh', doc: 'Refresh in the background.' },
    { name: 'rollups', doc: 'Rollups joined (rollup_join / rollup_lambda).', shape: 'scalar-list' },
  ],
  accessPolicy: [
    { name: 'group', doc: 'Group the policy applies to (`*` for everyone).' },
    { name: 'groups', doc: 'Groups the policy applies to.', shape: 'scalar-list' },
    { name: 'member_level', doc: 'Which members the group sees.', shape: 'map' },
    { name: 'row_level', doc: 'Which rows the group sees.', shape: 'map' },
    { name: 'conditions', doc: 'When the policy applies (`if:` expressions).', shape: 'list' },
  ],
  memberLevel: [
    { name: 'includes', doc: 'Members visible (`*` for all).', shape: 'scalar-list' },
    { name: 'excludes', doc: 'Members hidden.', shape: 'scalar-list' },
  ],
  rowLevel: [
    { name: 'filters', doc: 'Row filters (`member`, `operator`, `values`).', shape: 'list' },
    { name: 'allow_all', doc: 'true lets the group see every row.' },
  ],
  granularity: [
    { name: 'name', doc: 'Name of the granularity.' },
    { name: 'title', doc: 'Human-readable name.' },
    { name: 'interval', doc: 'Length, e.g. `2 weeks` or `3 months`.' },
    { name: 'offset', doc: 'Shift of the period start, e.g. `1 month` or `-1 day`.' },
    { name: 'origin', doc: 'A timestamp the periods count from.' },
    { name: 'sql', doc: 'SQL computing the period start.' },
  ],
  rollingWindow: [
    { name: 'trailing', doc: 'Window before the date, e.g. `7 days` or `unbounded`.' },
    { name: 'leading', doc: 'Window after the date, e.g. `1 month`.' },
    { name: 'offset', doc: 'start or end of the period (default end).' },
    { name: 'type', doc: 'fixed (default) or to_date.' },
    { name: 'granularity', doc: 'Period of a to_date window: year, quarter, month…' },
  ],
  measureFilter: [{ name: 'sql', doc: 'SQL condition over the cube’s columns or members.' }],
  viewCube: [
    { name: 'join_path', doc: 'Path of cubes through joins, e.g. `orders.customers`.' },
    { name: 'includes', doc: 'Members exposed: `"*"` or a list.', shape: 'scalar-list' },
    { name: 'excludes', doc: 'Members left out of `"*"`.', shape: 'scalar-list' },
    { name: 'prefix', doc: 'Prefix members with the cube name (or alias).' },
    { name: 'alias', doc: 'Name used for the prefix.' },
    { name: 'split', doc: 'Expose the cube as its own view (not with prefix).' },
  ],
  viewInclude: [
    { name: 'name', doc: 'Member of the cube.' },
    { name: 'alias', doc: 'Name the view exposes it as.' },
    { name: 'title', doc: 'Title in the view.' },
    { name: 'description', doc: 'Description in the view.' },
    { name: 'format', doc: 'Display format in the view.' },
    { name: 'meta', doc: 'Metadata in the view.', shape: 'map' },
  ],
  folder: [
    { name: 'name', doc: 'Name of the folder.' },
    { name: 'includes', doc: 'Members (or nested folders) in the folder.', shape: 'scalar-list' },
  ],
};

export const DIMENSION_TYPES: ValueDoc[] = [
  { value: 'string', doc: 'Text.' },
  { value: 'number', doc: 'A number.' },
  { value: 'boolean', doc: 'true or false.' },
  { value: 'time', doc: 'A timestamp; queried at a granularity.' },
  { value: 'geo', doc: 'A point: needs latitude and longitude.' },
  { value: 'switch', doc: 'One of fixed `values`, for multi-stage calculations.' },
];

export const MEASURE_TYPES: ValueDoc[] = [
  { value: 'count', doc: 'Number of rows (no `sql` needed).' },
  { value: 'count_distinct', doc: 'Number of distinct values of `sql`.' },
  { value: 'count_distinct_approx', doc: 'Approximate distinct count (HyperLogLog).' },
  { value: 'sum', doc: 'Sum of `sql`.' },
  { value: 'avg', doc: 'Average of `sql`.' },
  { value: 'min', doc: 'Smallest value of `sql`.' },
  { value: 'max', doc: 'Largest value of `sql`.' },
  { value: 'number', doc: 'A number computed from other measures.' },
  { value: 'string', doc: 'Text computed by an aggregate expression.' },
  { value: 'time', doc: 'A timestamp computed by an aggregate expression.' },
  { value: 'boolean', doc: 'A boolean computed by an aggregate expression.' },
  { value: 'number_agg', doc: 'Multi-stage only: a number aggregated again.' },
  { value: 'rank', doc: 'Multi-stage only: rank by `order_by`.' },
];

export const RELATIONSHIPS: ValueDoc[] = [
  { value: 'many_to_one', doc: 'Many rows of this cube match one of the joined cube.' },
  { value: 'one_to_many', doc: 'One row of this cube matches many of the joined cube.' },
  { value: 'one_to_one', doc: 'One row matches at most one.' },
  { value: 'belongs_to', doc: 'Legacy name of many_to_one.', deprecated: true },
  { value: 'has_many', doc: 'Legacy name of one_to_many.', deprecated: true },
  { value: 'has_one', doc: 'Legacy name of one_to_one.', deprecated: true },
];

export const ROLLING_WINDOW_TYPES: ValueDoc[] = [
  { value: 'fixed', doc: 'A fixed trailing/leading window (default).' },
  { value: 'to_date', doc: 'From the start of the `granularity` period.' },
];

export const PRE_AGGREGATION_TYPES: ValueDoc[] = [
  { value: 'rollup', doc: 'Measures by dimensions (default).' },
  { value: 'original_sql', doc: 'The cube’s SQL, materialized.' },
  { value: 'rollup_join', doc: 'Joins rollups of different data sources.' },
  { value: 'rollup_lambda', doc: 'Unions a rollup with fresh source data.' },
  { value: 'auto_rollup', doc: 'Rollups chosen from the queries.' },
];

export const TIME_GRANULARITIES: ValueDoc[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'].map((value) => ({ value, doc: `One ${value}.` }));

export const BOOLEANS: ValueDoc[] = [
  { value: 'true', doc: '' },
  { value: 'false', doc: '' },
];

export const FORMATS: ValueDoc[] = ['percent', 'currency', 'number', 'id', 'link', 'imageUrl'].map((value) => ({ value, doc: `Display as ${value}.` }));

/** Keys whose value is a boolean, wherever they appear. */
export const BOOLEAN_KEYS = new Set(['public', 'shown', 'primary_key', 'sub_query', 'propagate_filters_to_sub_query', 'multi_stage', 'prefix', 'split', 'scheduled_refresh', 'rewrite_queries', 'allow_all', 'calendar']);

/** Which kind of mapping a key of a mapping of kind `parent` holds. */
export const CHILD_KIND: Partial<Record<NodeKind, Record<string, NodeKind>>> = {
  top: { cubes: 'cube', views: 'view', view_groups: 'viewGroup' },
  cube: {
    dimensions: 'dimension',
    measures: 'measure',
    segments: 'segment',
    joins: 'join',
    hierarchies: 'hierarchy',
    pre_aggregations: 'preAggregation',
    access_policy: 'accessPolicy',
  },
  view: { dimensions: 'dimension', measures: 'measure', segments: 'segment', cubes: 'viewCube', folders: 'folder', access_policy: 'accessPolicy' },
  dimension: { granularities: 'granularity' },
  measure: { rolling_window: 'rollingWindow', filters: 'measureFilter' },
  accessPolicy: { member_level: 'memberLevel', row_level: 'rowLevel' },
  viewCube: { includes: 'viewInclude' },
  folder: { folders: 'folder' },
};

/** The kind of mapping at a path of keys from the top of a YAML model file, or null when it is not one the format knows. */
export function nodeKindAt(path: string[]): NodeKind | null {
  let kind: NodeKind = 'top';
  for (const key of path) {
    const next: NodeKind | undefined = CHILD_KIND[kind]?.[key];
    if (!next) return null;
    kind = next;
  }
  return kind;
}
