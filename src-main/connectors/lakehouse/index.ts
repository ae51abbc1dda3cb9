import { join } from 'node:path';
import type { Clock } from '../../platform/clock';
import type { DuckDbEngine } from '../duckdb/engine';
import { DatabricksLakehouseConnector, type DatabricksClientFactory } from './databricks';
import { LocalLakehouseConnector } from './emulator/connector';
import type { LakehouseConnector } from './types';

export * from './types';
export * from './ownership';
export { parseQualifiedName, parseThreePartName, quoteIdentifier, quoteQualifiedName, sqlStringLiteral } from './identifiers';
export {
  DatabricksLakehouseConnector,
  defaultDatabricksClientFactory,
  mapDatabricksError,
  parseDescribeResult,
  dollarQuotableYaml,
  type DatabricksClient,
  type DatabricksClientFactory,
  type DatabricksConnectOptions,
  type DatabricksConnectorOptions,
  type DatabricksOperation,
  type DatabricksSession,
} from './databricks';
export * from './emulator';

/** Where a data directory keeps its local lakehouse. */
export function defaultEmulatorFile(dataDir: string): string {
  return join(dataDir, 'lakehouse-emulator.sqlite');
}

export type LakehouseConnectorConfig =
  | { kind: 'local'; file: string; principal?: string; clock?: Clock; data?: () => Promise<DuckDbEngine> }
  | {
      kind: 'databricks';
      host: string;
      httpPath: string;
      /** Reads the access token from the SecretStore, e.g. `() => secrets.get(key)`. */
      getSecret: () => Promise<string | null | undefined>;
      clientFactory?: DatabricksClientFactory;
    };

/** One connector per use; the caller closes it. */
export function createLakehouseConnector(config: LakehouseConnectorConfig): LakehouseConnector {
  if (config.kind === 'local') {
    return LocalLakehouseConnector.open(config.file, { principal: config.principal, clock: config.clock, data: config.data });
  }
  return new DatabricksLakehouseConnector({
    host: config.host,
    httpPath: config.httpPath,
    getSecret: config.getSecret,
    clientFactory: config.clientFactory,
  });
}
