// The SQL dialect each data source of a deployment is queried in: DuckDB for the local emulators,
// Snowflake or Databricks for a real account (what queryTarget picks, without opening anything).
import type { DialectName } from '../../../src-shared/model/query';
import type { ServiceContext } from '../../context';
import { listDataSources } from '../deployments';

/** By name and lower-cased name; `default` too when the deployment has a single data source. */
export function dataSourceDialects(ctx: ServiceContext, deploymentId: number): Record<string, DialectName> {
  const dialects: Record<string, DialectName> = {};
  const sources = listDataSources(ctx, deploymentId);
  for (const ds of sources) {
    const dialect: DialectName = ds.connector === 'emulator' || ds.kind === 'other' ? 'duckdb' : ds.kind === 'warehouse' ? 'snowflake' : 'databricks';
    dialects[ds.name] = dialect;
    dialects[ds.name.toLowerCase()] = dialect;
  }
  if (sources.length === 1 && !dialects.default) dialects.default = dialects[sources[0]!.name]!;
  return dialects;
}
