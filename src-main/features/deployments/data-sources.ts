import type { DataSourceSummary } from '../../../src-shared/api/deployments';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { readEnvVars, readSecretEnvVar, type StoredEnvVar } from './env-vars';

export type DataSourceKind = 'warehouse' | 'lakehouse' | 'other';

/**
 * A data source of a deployment, read from its env vars the way Cube reads them: `default` from
 * `CUBEJS_DB_*`, every other name listed in `CUBEJS_DATASOURCES` from `CUBEJS_DS_<NAME>_DB_*`.
 * Settings are keyed by their default-data-source name (`CUBEJS_DB_NAME`, …) whatever the source.
 */
export interface DataSource {
  name: string;
  /** `CUBEJS_DB_TYPE`, e.g. `snowflake`, `databricks-jdbc`; null when unset. */
  type: string | null;
  kind: DataSourceKind;
  /** The local emulator until an account (warehouse) or a host (lakehouse) is configured. */
  connector: 'emulator' | 'remote';
  /** `CUBEJS_DB_NAME`. */
  database: string | null;
  /** `CUBEJS_DB_USER`. */
  user: string | null;
  /** Warehouse: `CUBEJS_DB_SNOWFLAKE_ACCOUNT`. */
  account: string | null;
  /** Warehouse: `CUBEJS_DB_SNOWFLAKE_WAREHOUSE`. */
  warehouse: string | null;
  /** Warehouse: `CUBEJS_DB_SNOWFLAKE_ROLE`. */
  role: string | null;
  /** Warehouse: `CUBEJS_DB_SNOWFLAKE_QUOTED_IDENTIFIERS_IGNORE_CASE` (default false). */
  quotedIdentifiersIgnoreCase: boolean;
  /** Lakehouse: host of `CUBEJS_DB_DATABRICKS_URL`, else `CUBEJS_DB_HOST`. */
  host: string | null;
  /** Lakehouse: `httpPath` of `CUBEJS_DB_DATABRICKS_URL`. */
  httpPath: string | null;
  /** Lakehouse: `CUBEJS_DB_DATABRICKS_CATALOG`. */
  catalog: string | null;
  /** Every non-secret setting, by generic name. */
  settings: Record<string, string>;
  /** Generic names of the settings held as secrets; read them with `getDataSourceSecret`. */
  secretSettings: string[];
}

const GENERIC_PREFIX = 'CUBEJS_DB_';

/** The env var that holds a generic setting (`CUBEJS_DB_PASS`) for a data source. */
export function envVarNameFor(dataSource: string, setting: string): string {
  if (!setting.startsWith(GENERIC_PREFIX)) {
    throw new Error(`Data source settings are named CUBEJS_DB_…; got ${setting}.`);
  }
  if (dataSource === 'default') return setting;
  return `CUBEJS_DS_${dataSource.toUpperCase()}_DB_${setting.slice(GENERIC_PREFIX.length)}`;
}

function dataSourceNames(env: Map<string, StoredEnvVar>): string[] {
  const listed = env.get('CUBEJS_DATASOURCES');
  if (listed && listed.value !== null) {
    return listed.value
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n.length > 0);
  }
  // Without a list, a single default data source exists once it has a type.
  return env.has('CUBEJS_DB_TYPE') ? ['default'] : [];
}

const kindOf = (type: string | null): DataSourceKind =>
  type === 'snowflake' ? 'warehouse' : type === 'databricks-jdbc' ? 'lakehouse' : 'other';

function parseJdbcUrl(url: string | null): { host: string | null; httpPath: string | null } {
  if (!url) return { host: null, httpPath: null };
  const host = /^jdbc:(?:databricks|spark):\/\/([^:/;?]+)/i.exec(url)?.[1] ?? null;
  const httpPath = /;httpPath=([^;]+)/i.exec(url)?.[1] ?? null;
  return { host, httpPath };
}

function buildDataSource(name: string, env: Map<string, StoredEnvVar>): DataSource {
  const settings: Record<string, string> = {};
  const secretSettings: string[] = [];
  const present = new Set<string>();
  const specificPrefix = name === 'default' ? GENERIC_PREFIX : `CUBEJS_DS_${name.toUpperCase()}_DB_`;
  for (const variable of env.values()) {
    if (!variable.name.startsWith(specificPrefix)) continue;
    const generic = GENERIC_PREFIX + variable.name.slice(specificPrefix.length);
    present.add(generic);
    if (variable.isSecret) secretSettings.push(generic);
    else settings[generic] = variable.value ?? '';
  }
  const plain = (setting: string): string | null => {
    const value = settings[setting];
    return value === undefined || value === '' ? null : value;
  };
  const type = plain('CUBEJS_DB_TYPE');
  const kind = kindOf(type);
  const jdbc = parseJdbcUrl(plain('CUBEJS_DB_DATABRICKS_URL'));
  const host = jdbc.host ?? (kind === 'lakehouse' ? plain('CUBEJS_DB_HOST') : null);
  const httpPath = jdbc.httpPath;
  // A secret value still counts as configured: its presence is known, only its value is hidden.
  const configured = (setting: string) => plain(setting) !== null || secretSettings.includes(setting);
  const remote =
    kind === 'warehouse'
      ? configured('CUBEJS_DB_SNOWFLAKE_ACCOUNT')
      : kind === 'lakehouse'
        ? configured('CUBEJS_DB_DATABRICKS_URL') || configured('CUBEJS_DB_HOST')
        : true;
  return {
    name,
    type,
    kind,
    connector: remote ? 'remote' : 'emulator',
    database: plain('CUBEJS_DB_NAME'),
    user: plain('CUBEJS_DB_USER'),
    account: plain('CUBEJS_DB_SNOWFLAKE_ACCOUNT'),
    warehouse: plain('CUBEJS_DB_SNOWFLAKE_WAREHOUSE'),
    role: plain('CUBEJS_DB_SNOWFLAKE_ROLE'),
    quotedIdentifiersIgnoreCase: (plain('CUBEJS_DB_SNOWFLAKE_QUOTED_IDENTIFIERS_IGNORE_CASE') ?? '').toLowerCase() === 'true',
    host,
    httpPath,
    catalog: plain('CUBEJS_DB_DATABRICKS_CATALOG'),
    settings,
    secretSettings: secretSettings.sort(),
  };
}

/** Every data source of a deployment, in `CUBEJS_DATASOURCES` order. */
export function listDataSources(ctx: ServiceContext, deploymentId: number): DataSource[] {
  const env = readEnvVars(ctx, deploymentId);
  return dataSourceNames(env).map((name) => buildDataSource(name, env));
}

/** One data source by name (case-insensitive); 404 `DATA_SOURCE_NOT_FOUND` when the deployment has none of that name. */
export function getDataSource(ctx: ServiceContext, deploymentId: number, name: string): DataSource {
  const found = listDataSources(ctx, deploymentId).find((ds) => ds.name.toLowerCase() === name.toLowerCase());
  if (!found) throw new ApiError(404, 'DATA_SOURCE_NOT_FOUND', `Deployment ${deploymentId} has no data source "${name}".`);
  return found;
}

/**
 * A setting's value for a connector that needs it (e.g. `CUBEJS_DB_PASS`,
 * `CUBEJS_DB_DATABRICKS_TOKEN`): from the SecretStore when the variable is secret, else its
 * plain value; null when unset. Never send the result to a client or a log.
 */
export async function getDataSourceSecret(ctx: ServiceContext, deploymentId: number, dataSource: string, setting: string): Promise<string | null> {
  const ds = getDataSource(ctx, deploymentId, dataSource);
  const variable = readEnvVars(ctx, deploymentId).get(envVarNameFor(ds.name, setting));
  if (!variable) return null;
  if (!variable.isSecret) return variable.value;
  return readSecretEnvVar(ctx, deploymentId, variable.name);
}

export const toDataSourceSummary = (ds: DataSource): DataSourceSummary => ({
  name: ds.name,
  type: ds.type,
  kind: ds.kind,
  connector: ds.connector,
  database: ds.database,
  catalog: ds.catalog,
  account: ds.account,
  host: ds.host,
  user: ds.user,
  settings: ds.settings,
  secretSettings: ds.secretSettings,
});
