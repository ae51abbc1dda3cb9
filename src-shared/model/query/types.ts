// The platform's REST query format (`/cubejs-api/v1/load`), and what the planner makes of it.
// Pure types: shared by the service, the renderer's preview and the emulators' query engines.

export const FILTER_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export const STANDARD_GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type StandardGranularity = (typeof STANDARD_GRANULARITIES)[number];

/** `['2024-01-01', '2024-12-31']` or a relative phrase such as `last 7 days`, `this month`. */
export type DateRange = string | [string, string];

export interface MemberFilter {
  /** `cube.member` (or the legacy `dimension` key). */
  member?: string;
  dimension?: string;
  operator: FilterOperator;
  values?: (string | number | boolean | null)[];
}

export type QueryFilter = MemberFilter | { and: QueryFilter[] } | { or: QueryFilter[] };

export interface TimeDimension {
  dimension: string;
  granularity?: string;
  dateRange?: DateRange;
  compareDateRange?: DateRange[];
}

export type OrderDirection = 'asc' | 'desc';

/** One query as the REST API takes it. */
export interface LoadQuery {
  measures?: string[];
  dimensions?: string[];
  timeDimensions?: TimeDimension[];
  filters?: QueryFilter[];
  segments?: string[];
  order?: Record<string, OrderDirection> | [string, OrderDirection][];
  limit?: number;
  offset?: number;
  total?: boolean;
  timezone?: string;
  ungrouped?: boolean;
  renewQuery?: boolean;
}

/** Who asks: decides which access policies apply and fills `{ securityContext.x }` in row filters. */
export interface QuerySecurity {
  /** Group names the user belongs to (access policies' `group` / `groups`). */
  groups: string[];
  /** Role names (access policies' `role`). */
  roles: string[];
  /** `{ securityContext.x }` values. */
  securityContext: Record<string, unknown>;
  /** `{ userAttributes.x }` values. */
  userAttributes: Record<string, unknown>;
}

export type MemberKind = 'measure' | 'dimension' | 'segment';

/** One column of the planned SQL and the result key(s) it fills. */
export interface ResultColumn {
  /** SQL alias, e.g. `orders__created_at_month`. */
  alias: string;
  /** Result key, e.g. `orders.created_at.month`. */
  key: string;
  /** Also written under this key (a time dimension's bare name). */
  alsoKey?: string;
  kind: 'measure' | 'dimension' | 'timeDimension';
  /** Member type: number, string, time, boolean, count, sum, … (measures report their own type). */
  type: string;
  /** Hidden helper column (a measure a derived measure needs): not part of the result. */
  hidden?: boolean;
}

/** Annotation of one member, as `/load` returns it. */
export interface MemberAnnotation {
  title: string;
  shortTitle: string;
  type: string;
  meta?: unknown;
  format?: unknown;
  drillMembers?: string[];
  drillMembersGrouped?: { measures: string[]; dimensions: string[] };
  granularity?: { name: string; title: string; interval?: string; offset?: string; origin?: string };
}

export interface QueryAnnotation {
  measures: Record<string, MemberAnnotation>;
  dimensions: Record<string, MemberAnnotation>;
  segments: Record<string, MemberAnnotation>;
  timeDimensions: Record<string, MemberAnnotation>;
}

/** SQL ready to run, with positional `?` parameters. */
export interface PlannedSql {
  sql: string;
  params: unknown[];
}

export interface PlannedQuery {
  /** The query with defaults filled in (order, limit, timezone), as `/load` echoes it. */
  normalized: LoadQuery & { order: [string, OrderDirection][]; limit: number; timezone: string };
  main: PlannedSql;
  /** `SELECT count(*)` over the query without limit and offset, when `total` was asked. */
  total: PlannedSql | null;
  columns: ResultColumn[];
  annotation: QueryAnnotation;
  /** Data source of the cubes queried (they must share one). */
  dataSource: string;
  /**
   * The parts of `main` when it is one flat GROUP BY over the joined rows (no measure groups, no
   * HAVING): a caller running many queries over the same rows may compute them in one statement
   * (the change review, issue 26). Null for any other shape.
   */
  flat: FlatStatement | null;
}

/**
 * `SELECT <dimensions>, <measures> FROM <from> [WHERE <where>] GROUP BY <the dimensions> ORDER BY
 * <order> LIMIT <limit> OFFSET <offset>`: `main` is exactly this. Each part carries its own
 * parameters.
 */
export interface FlatStatement {
  from: PlannedSql;
  where: PlannedSql | null;
  /** In the order of `columns` (dimensions first, then measures); aliases as there. */
  dimensions: { alias: string; sql: PlannedSql }[];
  measures: { alias: string; sql: PlannedSql }[];
  order: { alias: string; direction: OrderDirection }[];
  limit: number;
  offset: number;
}

/** A query the model cannot answer: a stable code and a sentence a user can act on. */
export class QueryError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** 400 for a malformed query, 403 for access denied. */
    readonly status: 400 | 403 = 400,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

export const QueryErrorCodes = {
  INVALID_QUERY: 'INVALID_QUERY',
  UNKNOWN_MEMBER: 'UNKNOWN_MEMBER',
  WRONG_MEMBER_KIND: 'WRONG_MEMBER_KIND',
  INVALID_FILTER: 'INVALID_FILTER',
  INVALID_DATE_RANGE: 'INVALID_DATE_RANGE',
  UNKNOWN_GRANULARITY: 'UNKNOWN_GRANULARITY',
  NO_JOIN_PATH: 'NO_JOIN_PATH',
  MIXED_DATA_SOURCES: 'MIXED_DATA_SOURCES',
  NO_PRIMARY_KEY: 'NO_PRIMARY_KEY',
  UNSUPPORTED_MEMBER: 'UNSUPPORTED_MEMBER',
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
  ACCESS_DENIED: 'ACCESS_DENIED',
  INVALID_TIMEZONE: 'INVALID_TIMEZONE',
} as const;

/** Cube's defaults: 10,000 rows unless `limit` says otherwise, never more than 50,000. */
export const DEFAULT_QUERY_LIMIT = 10_000;
export const MAX_QUERY_LIMIT = 50_000;
