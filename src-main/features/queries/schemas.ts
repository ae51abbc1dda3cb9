/**
 * The schemas that exist in a data source, asked of the data source itself as its configured
 * credential (Drydock addition, `listDataSourceSchemas`): so a push or publication target is picked
 * from what is there instead of typed from memory. Warehouse: `SHOW DATABASES`, `SHOW SCHEMAS IN
 * DATABASE`; lakehouse: `SHOW CATALOGS`, `SHOW SCHEMAS IN`.
 */
import type { DataSourceSchemas } from '../../../src-shared/api/queries';
import { QueryErrorCodes as Codes } from '../../../src-shared/api/queries';
import { LakehouseError } from '../../connectors/lakehouse';
import { WarehouseError, WarehouseErrorCodes } from '../../connectors/warehouse';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { JobFailure } from '../../platform/jobs';
import { getDataSource, type DataSource } from '../deployments';
import { openLakehouseConnector } from '../lakehouse';
import { openWarehouseConnector } from '../warehouse-sync';

const engineOf = (ds: DataSource) =>
  ds.connector === 'emulator' ? (ds.kind === 'warehouse' ? 'local warehouse' : 'local lakehouse') : ds.kind === 'warehouse' ? 'snowflake' : 'databricks';

/** Snowflake lists its own INFORMATION_SCHEMA in every database; nothing can be pushed there. */
const userSchemas = (names: string[]) => names.filter((name) => name.toUpperCase() !== 'INFORMATION_SCHEMA').sort((a, b) => a.localeCompare(b));

/** A connector's failure as a problem with the connector's own code: 404 for a missing database or catalog, else 502. */
function failure(error: unknown, ds: DataSource): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof JobFailure) return new ApiError(error.options.status ?? 422, error.code, error.message);
  const where = `Data source "${ds.name}" (${engineOf(ds)})`;
  if (error instanceof WarehouseError) {
    const status = error.code === WarehouseErrorCodes.OBJECT_NOT_FOUND ? 404 : 502;
    return new ApiError(status, error.code, `${where} could not list its schemas: ${error.message}`);
  }
  if (error instanceof LakehouseError) {
    const status = error.code === 'LAKEHOUSE_NOT_FOUND' ? 404 : 502;
    return new ApiError(status, error.code, `${where} could not list its schemas: ${error.message}`);
  }
  return new ApiError(502, Codes.QUERY_FAILED, `${where} could not list its schemas: ${error instanceof Error ? error.message : String(error)}`);
}

export async function listDataSourceSchemas(ctx: ServiceContext, deploymentId: number, dataSourceName: string, catalogAsked: string | undefined): Promise<DataSourceSchemas> {
  const ds = getDataSource(ctx, deploymentId, dataSourceName);
  if (ds.kind !== 'warehouse' && ds.kind !== 'lakehouse') {
    throw new ApiError(422, Codes.DATA_SOURCE_UNSUPPORTED, `Data source "${ds.name}" is of type ${ds.type ?? '(unset)'}; schemas are listed for Snowflake, Databricks and the local emulators.`);
  }
  const base = { dataSource: ds.name, kind: ds.kind, engine: engineOf(ds) } as const;
  try {
    if (ds.kind === 'warehouse') {
      const connector = await openWarehouseConnector(ctx, deploymentId, ds);
      try {
        const catalogs = (await connector.listDatabases()).sort((a, b) => a.localeCompare(b));
        const catalog = catalogAsked ?? ds.database ?? null;
        return { ...base, catalog, catalogs, schemas: catalog ? userSchemas(await connector.listSchemas(catalog)) : [] };
      } finally {
        await connector.close();
      }
    }
    const connector = openLakehouseConnector(ctx, deploymentId, ds);
    try {
      if (!connector.listCatalogs || !connector.listSchemas) throw new ApiError(422, Codes.DATA_SOURCE_UNSUPPORTED, `Data source "${ds.name}" cannot list its schemas.`);
      const catalogs = (await connector.listCatalogs()).sort((a, b) => a.localeCompare(b));
      const catalog = catalogAsked ?? ds.catalog ?? null;
      return { ...base, catalog, catalogs, schemas: catalog ? userSchemas(await connector.listSchemas(catalog)) : [] };
    } finally {
      await connector.close();
    }
  } catch (error) {
    throw failure(error, ds);
  }
}
