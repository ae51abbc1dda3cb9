import type { ServiceContext } from '../../context';
import {
  createLakehouseConnector,
  defaultEmulatorFile,
  LakehouseError,
  type DatabricksClientFactory,
  type LakehouseConnector,
} from '../../connectors/lakehouse';
import { getDataSourceSecret, type DataSource } from '../deployments';
import { emulatorData } from '../queries/engines';

/**
 * Test seams, set on `ctx.services`: `lakehouseConnectorFactory` replaces how a data source's
 * connector is made; `databricksClientFactory` replaces the Databricks driver (its boundary).
 */
export type LakehouseConnectorFactory = (ds: DataSource, deploymentId: number) => LakehouseConnector;

/**
 * The connector of a lakehouse data source: the local emulator (its own SQLite file in the data
 * directory) until a host is configured, then Databricks with the token from the SecretStore.
 * The caller closes it.
 */
export function openLakehouseConnector(ctx: ServiceContext, deploymentId: number, ds: DataSource): LakehouseConnector {
  const factory = ctx.services.lakehouseConnectorFactory as LakehouseConnectorFactory | undefined;
  if (factory) return factory(ds, deploymentId);
  if (ds.connector === 'emulator') {
    return createLakehouseConnector({ kind: 'local', file: defaultEmulatorFile(ctx.dataDir), clock: ctx.clock, data: () => emulatorData(ctx, 'lakehouse').engine() });
  }
  if (!ds.host || !ds.httpPath) {
    throw new LakehouseError(
      'LAKEHOUSE_AUTH_FAILED',
      `Data source "${ds.name}" has no complete CUBEJS_DB_DATABRICKS_URL (host and httpPath); configure it before publishing.`,
    );
  }
  return createLakehouseConnector({
    kind: 'databricks',
    host: ds.host,
    httpPath: ds.httpPath,
    getSecret: () => getDataSourceSecret(ctx, deploymentId, ds.name, 'CUBEJS_DB_DATABRICKS_TOKEN'),
    clientFactory: ctx.services.databricksClientFactory as DatabricksClientFactory | undefined,
  });
}

/** A short, secret-free message of a connector failure. */
export function describeLakehouseError(error: unknown): { code: string; message: string } {
  if (error instanceof LakehouseError) return { code: error.code, message: error.message };
  return { code: 'LAKEHOUSE_FAILED', message: error instanceof Error ? error.message : String(error) };
}
