import { join } from 'node:path';
import { WarehouseSyncErrorCodes as Codes } from '../../../src-shared/api/warehouse-sync';
import {
  LocalWarehouseConnector,
  SnowflakeWarehouseConnector,
  WarehouseEmulator,
  WarehouseError,
  WarehouseErrorCodes,
  type CreateSnowflakeConnection,
  type WarehouseConnector,
} from '../../connectors/warehouse';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { getJobRunner, JobFailure } from '../../platform/jobs';
import { getDataSource, getDataSourceSecret, isDdlEnabled, type DataSource } from '../deployments';
import { emulatorData } from '../queries/engines';

/**
 * The local warehouse of this data dir (`<dataDir>/emulators/warehouse.sqlite`), opened on first
 * use and shared by every deployment whose warehouse data source has no account configured.
 */
export function getLocalWarehouse(ctx: ServiceContext): WarehouseEmulator {
  const existing = ctx.services.warehouseEmulator;
  if (existing instanceof WarehouseEmulator) return existing;
  const emulator = new WarehouseEmulator({ file: join(ctx.dataDir, 'emulators', 'warehouse.sqlite'), now: () => ctx.clock.now() });
  ctx.services.warehouseEmulator = emulator;
  ctx.onClose(async () => {
    // Registered late, so it runs before the runner's own closer: let running syncs end first.
    await getJobRunner(ctx).stop();
    emulator.close();
  });
  return emulator;
}

/** The warehouse data source a push or pull talks to; 422 when it is not a warehouse or has no database. */
export function warehouseDataSource(ctx: ServiceContext, deploymentId: number, name: string): DataSource & { database: string } {
  const dataSource = getDataSource(ctx, deploymentId, name);
  if (dataSource.kind !== 'warehouse') {
    throw new ApiError(
      422,
      Codes.DATA_SOURCE_NOT_WAREHOUSE,
      `Data source "${dataSource.name}" is ${dataSource.type ? `of type ${dataSource.type}` : 'not configured'}, not a warehouse (snowflake): semantic views live in a warehouse.`,
    );
  }
  if (!dataSource.database) {
    throw new ApiError(
      422,
      Codes.DATA_SOURCE_DATABASE_MISSING,
      `Data source "${dataSource.name}" names no database (CUBEJS_DB_NAME) to hold semantic views.`,
    );
  }
  return dataSource as DataSource & { database: string };
}

const setting = (ds: DataSource, name: string): string | null => ds.settings[name] || null;

/**
 * A connector for the data source: the local warehouse, or Snowflake with the credential from the
 * SecretStore (password `CUBEJS_DB_PASS`, or key pair `CUBEJS_DB_SNOWFLAKE_PRIVATE_KEY` with
 * `CUBEJS_DB_SNOWFLAKE_AUTHENTICATOR=SNOWFLAKE_JWT`). The session follows the data source's
 * QUOTED_IDENTIFIERS_IGNORE_CASE setting. The caller closes it.
 */
export async function openWarehouseConnector(ctx: ServiceContext, deploymentId: number, ds: DataSource): Promise<WarehouseConnector> {
  if (ds.connector === 'emulator') {
    const emulator = getLocalWarehouse(ctx);
    // The emulator keeps the setting account-wide; the data source's value is what the warehouse means to run with.
    if (emulator.quotedIdentifiersIgnoreCase() !== ds.quotedIdentifiersIgnoreCase) emulator.setQuotedIdentifiersIgnoreCase(ds.quotedIdentifiersIgnoreCase);
    return new LocalWarehouseConnector(emulator, {
      ...(ds.role ? { role: ds.role } : {}),
      ...(ds.warehouse ? { warehouse: ds.warehouse } : {}),
      ...(ds.database ? { database: ds.database } : {}),
      data: () => emulatorData(ctx, 'warehouse').engine(),
    });
  }
  const missing = [
    ['CUBEJS_DB_SNOWFLAKE_ACCOUNT', ds.account],
    ['CUBEJS_DB_USER', ds.user],
    ['CUBEJS_DB_SNOWFLAKE_WAREHOUSE', ds.warehouse],
  ].filter(([, value]) => !value);
  if (missing.length > 0) {
    throw new JobFailure('DATA_SOURCE_INCOMPLETE', `Data source "${ds.name}" lacks ${missing.map(([name]) => name).join(', ')} to connect to the warehouse.`, {
      status: 422,
    });
  }
  const keyPair =
    (setting(ds, 'CUBEJS_DB_SNOWFLAKE_AUTHENTICATOR') ?? '').toUpperCase() === 'SNOWFLAKE_JWT' ||
    (ds.secretSettings.includes('CUBEJS_DB_SNOWFLAKE_PRIVATE_KEY') && !ds.secretSettings.includes('CUBEJS_DB_PASS'));
  const secretName = keyPair ? 'CUBEJS_DB_SNOWFLAKE_PRIVATE_KEY' : 'CUBEJS_DB_PASS';
  const ddlEnabled = isDdlEnabled(ctx, deploymentId);
  const connector = new SnowflakeWarehouseConnector(
    {
      account: ds.account!,
      username: ds.user!,
      warehouse: ds.warehouse!,
      ...(ds.role ? { role: ds.role } : {}),
      database: ds.database ?? undefined,
      authenticator: keyPair ? 'SNOWFLAKE_JWT' : 'SNOWFLAKE',
      ddlEnabled,
    },
    {
      getSecret: async () => {
        const secret = await getDataSourceSecret(ctx, deploymentId, ds.name, secretName);
        if (!secret) throw new WarehouseError(WarehouseErrorCodes.AUTHENTICATION_FAILED, `Data source "${ds.name}" has no ${secretName} set.`);
        return secret;
      },
      getPrivateKeyPassphrase: () => getDataSourceSecret(ctx, deploymentId, ds.name, 'CUBEJS_DB_SNOWFLAKE_PRIVATE_KEY_PASS'),
      // Test seam: the snowflake-sdk boundary (a fake driver connection), as `databricksClientFactory` is for Databricks.
      ...(ctx.services.snowflakeCreateConnection ? { createConnection: ctx.services.snowflakeCreateConnection as CreateSnowflakeConnection } : {}),
    },
  );
  // Cube sets the same session parameter from this data source setting. The connector counts
  // ALTER as DDL, so with DDL disabled the account's own setting applies.
  if (ddlEnabled) {
    await connector.execute(`ALTER SESSION SET QUOTED_IDENTIFIERS_IGNORE_CASE = ${ds.quotedIdentifiersIgnoreCase ? 'TRUE' : 'FALSE'}`);
  }
  return connector;
}

const STATUS_OF: Partial<Record<string, number>> = {
  [WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES]: 403,
  [WarehouseErrorCodes.DDL_DISABLED]: 403,
  [WarehouseErrorCodes.AUTHENTICATION_FAILED]: 401,
  [WarehouseErrorCodes.OBJECT_NOT_FOUND]: 404,
  [WarehouseErrorCodes.OBJECT_EXISTS]: 409,
  [WarehouseErrorCodes.SYNTAX_ERROR]: 422,
  [WarehouseErrorCodes.INVALID_IDENTIFIER]: 422,
  [WarehouseErrorCodes.INVALID_DEFINITION]: 422,
  [WarehouseErrorCodes.NO_ACTIVE_WAREHOUSE]: 422,
  [WarehouseErrorCodes.NO_CURRENT_SCHEMA]: 422,
  [WarehouseErrorCodes.UNSUPPORTED]: 422,
  [WarehouseErrorCodes.CONNECTION_FAILED]: 502,
  [WarehouseErrorCodes.CONNECTION_CLOSED]: 502,
};

/**
 * A warehouse failure as the job's error: privileges errors keep the warehouse's message and the
 * missing privilege; a DDL refusal becomes the permissions error `SQL_RUNNER_DDL_DISABLED`.
 */
export function warehouseFailure(error: unknown, details: Record<string, unknown>): unknown {
  if (!(error instanceof WarehouseError)) return error;
  const extra = {
    ...details,
    ...(error.missingPrivilege ? { missingPrivilege: error.missingPrivilege } : {}),
    ...(error.sqlState ? { sqlState: error.sqlState } : {}),
    ...(error.vendorCode ? { vendorCode: error.vendorCode } : {}),
    ...(error.position ? { position: error.position } : {}),
  };
  if (error.code === WarehouseErrorCodes.DDL_DISABLED) {
    return new JobFailure(Codes.SQL_RUNNER_DDL_DISABLED, error.message, { status: 403, details: extra, cause: error });
  }
  return new JobFailure(error.code, error.message, { status: STATUS_OF[error.code] ?? 500, details: extra, cause: error });
}

