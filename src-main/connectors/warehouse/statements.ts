/**
 * The statements every connector sends to read semantic views, and the parsing of their result
 * rows. Shared by the Snowflake connector and the local one, so the emulator's answers go through
 * exactly the code that reads Snowflake's.
 */
import { formatQualifiedName, sqlStringLiteral } from './identifiers';
import { WarehouseError, WarehouseErrorCodes, type DescribeRow, type SemanticViewSummary, type WarehouseConnector } from './types';

export function showSemanticViewsSql(database: string, schema: string): string {
  return `SHOW SEMANTIC VIEWS IN SCHEMA ${formatQualifiedName(database, schema)}`;
}

export function describeSemanticViewSql(database: string, schema: string, name: string): string {
  return `DESCRIBE SEMANTIC VIEW ${formatQualifiedName(database, schema, name)}`;
}

/** GET_DDL takes the object name as a string, itself written as (quoted where needed) identifiers. */
export function getDdlSql(database: string, schema: string, name: string): string {
  return `SELECT GET_DDL('SEMANTIC_VIEW', ${sqlStringLiteral(formatQualifiedName(database, schema, name))})`;
}

/**
 * Reads a column whatever case the driver reports it in: Snowflake names SHOW and DESCRIBE
 * columns in lower case, but drivers and settings can change that.
 */
export function field(row: Record<string, unknown>, name: string): unknown {
  if (name in row) return row[name];
  const wanted = name.toLowerCase();
  for (const [column, value] of Object.entries(row)) if (column.toLowerCase() === wanted) return value;
  return undefined;
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}

/** Timestamps arrive as Date objects from snowflake-sdk, as strings from the emulator. */
export function toIsoTimestamp(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object' && typeof (value as { toISOString?: unknown }).toISOString === 'function') {
    return (value as { toISOString(): string }).toISOString();
  }
  const raw = text(value) ?? '';
  const parsed = new Date(raw);
  return raw !== '' && !Number.isNaN(parsed.getTime()) ? parsed.toISOString() : raw;
}

function required(row: Record<string, unknown>, name: string, statement: string): string {
  const value = text(field(row, name));
  if (value === null) {
    throw new WarehouseError(WarehouseErrorCodes.ERROR, `${statement} returned a row without the '${name}' column.`);
  }
  return value;
}

export function parseShowSemanticViews(rows: Record<string, unknown>[]): SemanticViewSummary[] {
  return rows.map((row) => {
    const comment = text(field(row, 'comment'));
    return {
      created_on: toIsoTimestamp(field(row, 'created_on')),
      name: required(row, 'name', 'SHOW SEMANTIC VIEWS'),
      database_name: required(row, 'database_name', 'SHOW SEMANTIC VIEWS'),
      schema_name: required(row, 'schema_name', 'SHOW SEMANTIC VIEWS'),
      // SHOW reports "no comment" as NULL or as an empty string depending on the object.
      comment: comment === '' ? null : comment,
      owner: text(field(row, 'owner')) ?? '',
    };
  });
}

export function parseDescribeSemanticView(rows: Record<string, unknown>[]): DescribeRow[] {
  return rows.map((row) => ({
    object_kind: text(field(row, 'object_kind')),
    object_name: text(field(row, 'object_name')),
    parent_entity: text(field(row, 'parent_entity')),
    property: required(row, 'property', 'DESCRIBE SEMANTIC VIEW'),
    property_value: text(field(row, 'property_value')) ?? '',
  }));
}

/** GET_DDL returns one row with one column named after the expression. */
export function parseGetDdl(rows: Record<string, unknown>[]): string {
  const first = rows[0];
  const value = first ? Object.values(first)[0] : undefined;
  if (typeof value !== 'string') throw new WarehouseError(WarehouseErrorCodes.ERROR, 'GET_DDL returned no DDL text.');
  return value;
}

/** The `name` column of SHOW DATABASES / SHOW SCHEMAS rows (Snowflake's drivers may upper-case column names). */
export function namesOf(rows: Record<string, unknown>[]): string[] {
  return rows.map((row) => row.name ?? row.NAME).filter((name): name is string => typeof name === 'string');
}

/**
 * The catalog reads every connector makes the same way: a statement through `execute`, then the
 * shared parser of Snowflake's result shape. Connectors supply `execute` and `close`.
 */
export abstract class SqlWarehouseConnector implements WarehouseConnector {
  abstract execute(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  abstract query(sql: string, binds?: unknown[], signal?: AbortSignal): Promise<Record<string, unknown>[]>;
  abstract close(): Promise<void>;

  async listSemanticViews(database: string, schema: string): Promise<SemanticViewSummary[]> {
    return parseShowSemanticViews((await this.execute(showSemanticViewsSql(database, schema))).rows);
  }

  async describeSemanticView(database: string, schema: string, name: string): Promise<DescribeRow[]> {
    return parseDescribeSemanticView((await this.execute(describeSemanticViewSql(database, schema, name))).rows);
  }

  async getDdl(database: string, schema: string, name: string): Promise<string> {
    return parseGetDdl((await this.execute(getDdlSql(database, schema, name))).rows);
  }

  async listDatabases(): Promise<string[]> {
    return namesOf((await this.execute('SHOW TERSE DATABASES')).rows);
  }

  async listSchemas(database: string): Promise<string[]> {
    return namesOf((await this.execute(`SHOW TERSE SCHEMAS IN DATABASE ${formatQualifiedName(database)}`)).rows);
  }
}
