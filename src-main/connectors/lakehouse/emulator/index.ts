export { LocalLakehouseConnector, type LocalLakehouseConnectorOptions } from './connector';
export {
  EMULATOR_ADMIN,
  EMULATOR_DEFAULT_PRINCIPAL,
  EMULATOR_PRIVILEGES,
  LakehouseEmulator,
  type EmulatorColumn,
  type EmulatorGrant,
  type EmulatorObject,
  type EmulatorPrivilege,
  type LakehouseEmulatorOptions,
  type Securable,
} from './emulator';
export { EMULATOR_MIGRATIONS } from './migrations';
export {
  SUPPORTED_METRIC_VIEW_VERSIONS,
  validateMetricViewYaml,
  type MetricViewTableReference,
  type MetricViewValidation,
  type ValidateOptions,
} from './validate';
export { LAKEHOUSE_DUCKDB_CATALOG, lakehouseSelectSql, lakehouseSqlForDuckDb, runLakehouseSelect, type LakehouseSelectOptions } from './select';
export { compileMetricViewQuery, type MetricQueryHost, type MetricViewSpec } from './metric-query';
