export * from './types';
export * from './identifiers';
export { showSemanticViewsSql, describeSemanticViewSql, getDdlSql, parseShowSemanticViews, parseDescribeSemanticView, parseGetDdl } from './statements';
export {
  SnowflakeWarehouseConnector,
  createSnowflakeSdkConnection,
  mapSnowflakeError,
  classifySnowflakeError,
  type SnowflakeConnectorConfig,
  type SnowflakeConnectorDependencies,
  type SnowflakeConnectionOptions,
  type SnowflakeDriverConnection,
  type SnowflakeDriverError,
  type CreateSnowflakeConnection,
} from './snowflake';
export * from './emulator';
