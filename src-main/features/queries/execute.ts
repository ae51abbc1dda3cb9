/**
 * Where a model query runs: the local emulators' DuckDB data plane, or the warehouse itself when
 * the data source is a real Snowflake account or Databricks workspace (the vendor does the work;
 * Drydock sends the SQL through snowflake-sdk or @databricks/sql and reads the rows back).
 */
import { QueryErrorCodes as Codes } from '../../../src-shared/api/queries';
import { databricksDialect, duckdbDialect, snowflakeDialect, type Dialect } from '../../../src-shared/model/query';
import { DuckDbQueryError, QueryCancelledError } from '../../connectors/duckdb/engine';
import { DatabricksLakehouseConnector, LakehouseError } from '../../connectors/lakehouse';
import { SnowflakeWarehouseConnector, WarehouseError } from '../../connectors/warehouse';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { getDataSource, listDataSources, type DataSource } from '../deployments';
import { openLakehouseConnector } from '../lakehouse';
import { openWarehouseConnector } from '../warehouse-sync';
import { emulatorData, lakehouseSqlForDuckDb } from './engines';

export interface RowSet {
  columns: string[];
  rows: unknown[][];
}

export interface RunControl {
  signal?: AbortSignal;
  onProgress?: (percent: number) => void;
}

export interface QueryTarget {
  dataSource: DataSource;
  dialect: Dialect;
  /** What the query runs on, for messages: "the local warehouse", "Snowflake", … */
  label: string;
  run(sql: string, params: unknown[], control: RunControl): Promise<RowSet>;
  close(): Promise<void>;
}

export { QueryCancelledError };

const unsupported = (message: string) => new ApiError(422, Codes.DATA_SOURCE_UNSUPPORTED, message, { error: message });

/** The data source a model's cubes name, looked up in the deployment (`default` when only one exists). */
function dataSourceFor(ctx: ServiceContext, deploymentId: number, name: string): DataSource {
  try {
    return getDataSource(ctx, deploymentId, name);
  } catch (error) {
    const all = listDataSources(ctx, deploymentId);
    if (name === 'default' && all.length === 1) return all[0]!;
    if (error instanceof ApiError) throw unsupported(`The model reads data source "${name}", which deployment ${deploymentId} does not define (set CUBEJS_DB_TYPE${name === 'default' ? '' : ` and CUBEJS_DATASOURCES`}).`);
    throw error;
  }
}

function objectRows(rows: Record<string, unknown>[]): RowSet {
  const columns = rows.length ? Object.keys(rows[0]!) : [];
  return { columns, rows: rows.map((r) => columns.map((c) => r[c])) };
}

/** A failure of the engine while running generated SQL, in words a user can act on. */
export function queryFailure(error: unknown, label: string): ApiError | QueryCancelledError {
  if (error instanceof QueryCancelledError || error instanceof ApiError) return error;
  const message =
    error instanceof DuckDbQueryError || error instanceof WarehouseError || error instanceof LakehouseError
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error);
  const text = `${label} could not run the query: ${message.split('\n')[0]}`;
  return new ApiError(502, Codes.QUERY_FAILED, text, { error: text });
}

export async function queryTarget(ctx: ServiceContext, deploymentId: number, dataSourceName: string): Promise<QueryTarget> {
  const ds = dataSourceFor(ctx, deploymentId, dataSourceName);
  if (ds.kind === 'other') {
    throw unsupported(`Data source "${ds.name}" is of type ${ds.type ?? '(unset)'}; Drydock runs queries on Snowflake, Databricks and its local emulators.`);
  }
  if (ds.connector === 'emulator') {
    const kind = ds.kind;
    const label = kind === 'warehouse' ? 'The local warehouse' : 'The local lakehouse';
    return {
      dataSource: ds,
      dialect: duckdbDialect,
      label,
      async run(sql, params, control) {
        const engine = await emulatorData(ctx, kind).engine();
        const result = await engine.query(kind === 'lakehouse' ? lakehouseSqlForDuckDb(sql) : sql, { params, ...control });
        return { columns: result.columns.map((c) => c.name), rows: result.rows };
      },
      close: async () => undefined,
    };
  }
  if (ds.kind === 'warehouse') {
    const connector = await openWarehouseConnector(ctx, deploymentId, ds);
    if (!(connector instanceof SnowflakeWarehouseConnector)) throw unsupported(`Data source "${ds.name}" has no Snowflake connection to query.`);
    return {
      dataSource: ds,
      dialect: snowflakeDialect,
      label: 'Snowflake',
      run: async (sql, params, control) => objectRows(await connector.query(sql, params, control.signal)),
      close: () => connector.close(),
    };
  }
  const connector = openLakehouseConnector(ctx, deploymentId, ds);
  if (!(connector instanceof DatabricksLakehouseConnector)) throw unsupported(`Data source "${ds.name}" has no Databricks connection to query.`);
  return {
    dataSource: ds,
    dialect: databricksDialect,
    label: 'Databricks',
    run: async (sql, params, control) => objectRows((await connector.query(sql, params, control.signal)) as Record<string, unknown>[]),
    close: () => connector.close(),
  };
}
