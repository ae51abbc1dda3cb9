/**
 * One SELECT in a data source's own SQL, run as its users would run it: on the local emulators a
 * `SEMANTIC_VIEW(...)` query (warehouse) or a `MEASURE()` query over a metric view (lakehouse) is
 * answered from their table data; on a real Snowflake or Databricks data source the statement goes
 * through the driver, so the vendor does the work. This is how "what I pushed gives the numbers my
 * model gives" is checked. Only SELECT statements are sent; a client that goes away cancels the query.
 */
import { MAX_SQL_ROWS, QueryErrorCodes as Codes } from '../../../src-shared/api/queries';
import { DuckDbQueryError, QueryCancelledError } from '../../connectors/duckdb/engine';
import { isPunct, isWord, SqlTextError, tokenizeSql } from '../../connectors/duckdb/sql-text';
import { LakehouseError } from '../../connectors/lakehouse';
import { WarehouseError, WarehouseErrorCodes } from '../../connectors/warehouse';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { getDataSource, type DataSource } from '../deployments';
import { openLakehouseConnector } from '../lakehouse';
import { openWarehouseConnector } from '../warehouse-sync';

export interface VendorSqlAnswer {
  dataSource: string;
  engine: string;
  columns: string[];
  rows: Record<string, unknown>[];
  rowCount: number;
  truncated: boolean;
  durationMs: number;
}

const invalid = (message: string) => new ApiError(400, Codes.SQL_INVALID, message, { error: message });

function engineOf(ds: DataSource): string {
  if (ds.connector === 'emulator') return ds.kind === 'warehouse' ? 'local warehouse' : 'local lakehouse';
  return ds.kind === 'warehouse' ? 'snowflake' : 'databricks';
}

/** Refuses anything but one SELECT (or WITH … SELECT) before it reaches an engine. */
function requireOneSelect(sql: string, quote: '"' | '`'): void {
  let tokens;
  try {
    tokens = tokenizeSql(sql, quote);
  } catch (error) {
    throw invalid(error instanceof SqlTextError ? `The statement does not parse: ${error.message}` : String(error));
  }
  while (tokens.length && isPunct(tokens[tokens.length - 1], ';')) tokens.pop();
  if (tokens.length === 0) throw invalid('The statement is empty.');
  if (tokens.some((t) => isPunct(t, ';'))) throw invalid('Send one statement at a time.');
  if (!isWord(tokens[0], 'SELECT', 'WITH')) throw invalid(`Only SELECT statements run here; this one starts with ${tokens[0]!.text}.`);
}

/** The engine's refusal in the API's words: what the user got wrong (400/403), or the engine failing (502). */
function failure(error: unknown, engine: string): unknown {
  if (error instanceof ApiError || error instanceof QueryCancelledError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof WarehouseError) {
    if (error.code === WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES) return new ApiError(403, Codes.SQL_ACCESS_DENIED, message, { error: message, vendorCode: error.code });
    if ([WarehouseErrorCodes.CONNECTION_FAILED, WarehouseErrorCodes.AUTHENTICATION_FAILED, WarehouseErrorCodes.CONNECTION_CLOSED, WarehouseErrorCodes.ERROR].includes(error.code as never)) {
      return new ApiError(502, Codes.QUERY_FAILED, `${engine}: ${message}`, { error: message, vendorCode: error.code });
    }
    return new ApiError(400, Codes.SQL_INVALID, message, { error: message, vendorCode: error.code });
  }
  if (error instanceof LakehouseError) {
    if (error.code === 'LAKEHOUSE_PERMISSION_DENIED') return new ApiError(403, Codes.SQL_ACCESS_DENIED, message, { error: message, vendorCode: error.code });
    if (error.code === 'LAKEHOUSE_INVALID_DEFINITION' || error.code === 'LAKEHOUSE_NOT_FOUND') return new ApiError(400, Codes.SQL_INVALID, message, { error: message, vendorCode: error.code });
    return new ApiError(502, Codes.QUERY_FAILED, `${engine}: ${message}`, { error: message, vendorCode: error.code });
  }
  if (error instanceof SqlTextError) return invalid(`The statement does not parse: ${message}`);
  if (error instanceof DuckDbQueryError) return invalid(`The ${engine} could not run the statement: ${message.split('\n')[0]}`);
  return new ApiError(502, Codes.QUERY_FAILED, `${engine}: ${message}`, { error: message });
}

/** JSON-safe cell values (drivers may hand back bigints and dates). */
function jsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  return value;
}

export async function runDataSourceSql(
  ctx: ServiceContext,
  deploymentId: number,
  dataSourceName: string,
  body: { sql: string; params?: (string | number | boolean | null)[] },
  signal?: AbortSignal,
): Promise<VendorSqlAnswer> {
  const ds = getDataSource(ctx, deploymentId, dataSourceName);
  if (ds.kind === 'other') {
    const message = `Data source "${ds.name}" is of type ${ds.type ?? '(unset)'}; SQL runs on Snowflake, Databricks and the local emulators.`;
    throw new ApiError(422, Codes.DATA_SOURCE_UNSUPPORTED, message, { error: message });
  }
  const engine = engineOf(ds);
  requireOneSelect(body.sql, ds.kind === 'warehouse' ? '"' : '`');
  const started = ctx.clock.now().getTime();
  const params = body.params ?? [];
  let rows: Record<string, unknown>[];
  if (ds.kind === 'warehouse') {
    const connector = await openWarehouseConnector(ctx, deploymentId, ds);
    try {
      rows = await connector.query(body.sql, params, signal);
    } catch (error) {
      throw failure(error, engine);
    } finally {
      await connector.close();
    }
  } else {
    const connector = openLakehouseConnector(ctx, deploymentId, ds);
    try {
      if (!connector.query) throw new ApiError(422, Codes.DATA_SOURCE_UNSUPPORTED, `Data source "${ds.name}" cannot run queries.`);
      rows = (await connector.query(body.sql, params, signal)) as Record<string, unknown>[];
    } catch (error) {
      throw failure(error, engine);
    } finally {
      await connector.close();
    }
  }
  const kept = rows.slice(0, MAX_SQL_ROWS).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, jsonValue(v)])));
  return {
    dataSource: ds.name,
    engine,
    columns: rows.length ? Object.keys(rows[0]!) : [],
    rows: kept,
    rowCount: rows.length,
    truncated: rows.length > MAX_SQL_ROWS,
    durationMs: Math.max(0, ctx.clock.now().getTime() - started),
  };
}
