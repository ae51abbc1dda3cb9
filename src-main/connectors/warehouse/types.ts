/**
 * The one interface every warehouse connector implements (Snowflake through snowflake-sdk, and the
 * local emulator), plus the error type both raise.
 */

/**
 * One row of `DESCRIBE SEMANTIC VIEW`: one property of one object of the view.
 * Snowflake reports the view's own COMMENT with `object_kind`, `object_name` and `parent_entity`
 * all NULL, so those three are nullable here too.
 */
export interface DescribeRow {
  object_kind: string | null;
  object_name: string | null;
  parent_entity: string | null;
  property: string;
  property_value: string;
}

/** One row of `SHOW SEMANTIC VIEWS`, reduced to what Drydock reads. */
export interface SemanticViewSummary {
  /** ISO-8601 UTC timestamp. */
  created_on: string;
  name: string;
  database_name: string;
  schema_name: string;
  comment: string | null;
  owner: string;
}

/**
 * Object names passed to these methods are exact, as the warehouse stores them (an unquoted
 * identifier `orders` is stored as `ORDERS`); connectors quote them where needed.
 */
export interface WarehouseConnector {
  /** Runs exactly one SQL statement. */
  execute(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  /**
   * Runs one query with `?` binds and returns its rows: a model query's SQL, or Snowflake's own
   * `SELECT ... FROM SEMANTIC_VIEW(...)`. Aborting `signal` cancels it.
   */
  query(sql: string, binds?: unknown[], signal?: AbortSignal): Promise<Record<string, unknown>[]>;
  /** `SHOW SEMANTIC VIEWS IN SCHEMA db.schema`. */
  listSemanticViews(database: string, schema: string): Promise<SemanticViewSummary[]>;
  /** `DESCRIBE SEMANTIC VIEW db.schema.name`. */
  describeSemanticView(database: string, schema: string, name: string): Promise<DescribeRow[]>;
  /** `SELECT GET_DDL('SEMANTIC_VIEW', 'db.schema.name')`. */
  getDdl(database: string, schema: string, name: string): Promise<string>;
  /** `SHOW DATABASES`: the names of the databases the session's role may use. */
  listDatabases(): Promise<string[]>;
  /** `SHOW SCHEMAS IN DATABASE db`: the names of its schemas the session's role may use. */
  listSchemas(database: string): Promise<string[]>;
  close(): Promise<void>;
}

export const WarehouseErrorCodes = {
  INSUFFICIENT_PRIVILEGES: 'WAREHOUSE_INSUFFICIENT_PRIVILEGES',
  DDL_DISABLED: 'WAREHOUSE_DDL_DISABLED',
  SYNTAX_ERROR: 'WAREHOUSE_SYNTAX_ERROR',
  OBJECT_NOT_FOUND: 'WAREHOUSE_OBJECT_NOT_FOUND',
  OBJECT_EXISTS: 'WAREHOUSE_OBJECT_EXISTS',
  INVALID_IDENTIFIER: 'WAREHOUSE_INVALID_IDENTIFIER',
  /** The statement parses but breaks a semantic-view rule (aggregates, keys, cycles, ...). */
  INVALID_DEFINITION: 'WAREHOUSE_INVALID_DEFINITION',
  NO_ACTIVE_WAREHOUSE: 'WAREHOUSE_NO_ACTIVE_WAREHOUSE',
  /** An unqualified name was used while the session has no current database or schema. */
  NO_CURRENT_SCHEMA: 'WAREHOUSE_NO_CURRENT_SCHEMA',
  /** More than one statement was sent where exactly one is expected. */
  STATEMENT_COUNT: 'WAREHOUSE_STATEMENT_COUNT',
  /** Valid warehouse SQL that the local emulator does not execute. */
  UNSUPPORTED: 'WAREHOUSE_UNSUPPORTED',
  AUTHENTICATION_FAILED: 'WAREHOUSE_AUTHENTICATION_FAILED',
  CONNECTION_FAILED: 'WAREHOUSE_CONNECTION_FAILED',
  CONNECTION_CLOSED: 'WAREHOUSE_CONNECTION_CLOSED',
  /** Anything the connector cannot classify more precisely. */
  ERROR: 'WAREHOUSE_ERROR',
} as const;
export type WarehouseErrorCode = (typeof WarehouseErrorCodes)[keyof typeof WarehouseErrorCodes];

/** The privilege a failed statement lacked, for callers that report it structurally. */
export interface MissingPrivilege {
  role: string;
  privilege: string;
  /** e.g. `SCHEMA`, `DATABASE`, `WAREHOUSE`, `TABLE`, `SEMANTIC VIEW`. */
  objectType: string;
  /** Qualified display name, e.g. `ANALYTICS.PUBLIC`. */
  objectName: string;
}

export interface WarehouseErrorOptions {
  sqlState?: string;
  /** The warehouse's own error number as text, e.g. Snowflake's `003001`. */
  vendorCode?: string;
  /** Where in the statement the error is (1-based line, 0-based position, as Snowflake reports). */
  position?: { line: number; column: number };
  missingPrivilege?: MissingPrivilege;
  cause?: unknown;
}

export class WarehouseError extends Error {
  readonly code: WarehouseErrorCode;
  readonly sqlState?: string;
  readonly vendorCode?: string;
  readonly position?: { line: number; column: number };
  readonly missingPrivilege?: MissingPrivilege;

  constructor(code: WarehouseErrorCode, message: string, options: WarehouseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WarehouseError';
    this.code = code;
    if (options.sqlState !== undefined) this.sqlState = options.sqlState;
    if (options.vendorCode !== undefined) this.vendorCode = options.vendorCode;
    if (options.position !== undefined) this.position = options.position;
    if (options.missingPrivilege !== undefined) this.missingPrivilege = options.missingPrivilege;
  }
}

export function isWarehouseError(value: unknown): value is WarehouseError {
  return value instanceof WarehouseError;
}
