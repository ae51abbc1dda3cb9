import {
  checkNamePattern,
  LakehouseErrorCodes as Codes,
  MAX_VIEWS_PER_SCOPE,
  type LakehouseConfiguration,
  type LakehouseConfigurationInput,
  type LakehouseSettings,
} from '../../../src-shared/api/lakehouse';
import type { ServiceContext } from '../../context';
import { ApiError, invalidField } from '../../http/problem';
import { parseQualifiedName } from '../../connectors/lakehouse';
import { getLatestSuccessfulBuild } from '../builds';
import { getDataSource, type DataSource } from '../deployments';
import { assertPublicationActive } from './activation';
import { deployedViews } from './deployed';
import { resolveScope, targetNameOf, type ScopeModel } from './scope';

interface IntegrationRow {
  data_source: string;
  configuration: string;
  configuration_version: number;
  updated_by: number | null;
  updated_at: string;
}

/** The deployment's data source of that name, which must be a lakehouse (422 otherwise). */
export function requireLakehouseDataSource(ctx: ServiceContext, deploymentId: number, name: string): DataSource {
  let ds: DataSource;
  try {
    ds = getDataSource(ctx, deploymentId, name);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new ApiError(404, Codes.DATA_SOURCE_NOT_FOUND, `Deployment ${deploymentId} has no data source "${name}".`);
    }
    throw error;
  }
  if (ds.kind !== 'lakehouse') {
    throw new ApiError(
      422,
      Codes.NOT_A_LAKEHOUSE_DATA_SOURCE,
      `Data source "${ds.name}" is a ${ds.kind} data source (type ${ds.type ?? 'unset'}); metric view publication needs a lakehouse data source (type databricks-jdbc).`,
    );
  }
  return ds;
}

const toSettings = (row: IntegrationRow): LakehouseSettings => ({
  dataSourceName: row.data_source,
  configuration: JSON.parse(row.configuration) as LakehouseConfiguration,
  configurationVersion: row.configuration_version,
  updatedAt: row.updated_at,
  updatedBy: row.updated_by,
});

/** Saved settings of a data source, or null. */
export function findSettings(ctx: ServiceContext, deploymentId: number, dataSource: string): LakehouseSettings | null {
  const row = ctx.db
    .prepare(
      'SELECT data_source, configuration, configuration_version, updated_by, updated_at FROM lakehouse_integrations WHERE deployment_id = ? AND data_source = ?',
    )
    .get(deploymentId, dataSource) as IntegrationRow | undefined;
  return row ? toSettings(row) : null;
}

export function getSettings(ctx: ServiceContext, deploymentId: number, dataSourceName: string): LakehouseSettings {
  const ds = requireLakehouseDataSource(ctx, deploymentId, dataSourceName);
  const settings = findSettings(ctx, deploymentId, ds.name);
  if (!settings) {
    throw new ApiError(
      404,
      Codes.SETTINGS_NOT_FOUND,
      `No publication settings are saved for data source "${ds.name}". Save them with PUT and expectedConfigurationVersion 0.`,
    );
  }
  return settings;
}

const TARGET_NAME = /^[A-Za-z0-9_]+$/;
const PREFIX = /^[A-Za-z0-9_]*$/;

/** Checks a configuration and fills its defaults; every problem is a 400/422 naming the field. */
export function normalizeConfiguration(input: LakehouseConfigurationInput): LakehouseConfiguration {
  const at = (field: string) => `/body/configuration/${field}`;
  const configuration: LakehouseConfiguration = {
    enabled: input.enabled,
    selectionMode: input.selectionMode,
    deletionPolicy: input.deletionPolicy ?? 'retain',
    targetCatalog: input.targetCatalog.trim(),
    targetSchema: input.targetSchema.trim(),
    targetNamePrefix: input.targetNamePrefix ? input.targetNamePrefix : null,
    namePattern: input.namePattern ?? null,
    selectedViews: [...new Set(input.selectedViews ?? [])],
    targetNameOverrides: { ...(input.targetNameOverrides ?? {}) },
    rootSourceOverrides: { ...(input.rootSourceOverrides ?? {}) },
  };
  for (const field of ['targetCatalog', 'targetSchema'] as const) {
    if (!TARGET_NAME.test(configuration[field])) {
      throw invalidField(at(field), `${field} "${configuration[field]}" must be a lakehouse name made of letters, digits and underscores.`);
    }
  }
  if (configuration.targetNamePrefix !== null && !PREFIX.test(configuration.targetNamePrefix)) {
    throw invalidField(at('targetNamePrefix'), 'targetNamePrefix may only contain letters, digits and underscores.');
  }
  if (configuration.selectionMode === 'pattern') {
    if (configuration.namePattern === null || configuration.namePattern === '') {
      throw new ApiError(422, Codes.NAME_PATTERN_INVALID, 'selectionMode `pattern` needs a namePattern.', {
        errors: [{ pointer: at('namePattern'), detail: 'required when selectionMode is pattern' }],
      });
    }
  }
  if (configuration.namePattern !== null) {
    const check = checkNamePattern(configuration.namePattern);
    if (!check.ok) {
      throw new ApiError(422, Codes.NAME_PATTERN_INVALID, `The name pattern is not valid: ${check.message}`, {
        errors: [{ pointer: at('namePattern'), detail: check.message }],
      });
    }
  }
  if (configuration.selectionMode === 'selected' && configuration.selectedViews.length === 0) {
    throw new ApiError(422, Codes.INVALID_CONFIGURATION, 'selectionMode `selected` needs at least one view in selectedViews.', {
      errors: [{ pointer: at('selectedViews'), detail: 'empty' }],
    });
  }
  if (configuration.selectedViews.length > MAX_VIEWS_PER_SCOPE) {
    throw new ApiError(
      422,
      Codes.SCOPE_TOO_LARGE,
      `selectedViews names ${configuration.selectedViews.length} views; a scope may hold at most ${MAX_VIEWS_PER_SCOPE}.`,
      { errors: [{ pointer: at('selectedViews'), detail: `at most ${MAX_VIEWS_PER_SCOPE}` }], limit: MAX_VIEWS_PER_SCOPE },
    );
  }
  for (const [view, name] of Object.entries(configuration.targetNameOverrides)) {
    if (!TARGET_NAME.test(name)) {
      throw invalidField(at(`targetNameOverrides/${view}`), `The target name "${name}" for view ${view} may only contain letters, digits and underscores.`);
    }
  }
  for (const [view, source] of Object.entries(configuration.rootSourceOverrides)) {
    let parts: string[] = [];
    try {
      parts = parseQualifiedName(source);
    } catch {
      parts = [];
    }
    if (parts.length !== 3) {
      throw invalidField(at(`rootSourceOverrides/${view}`), `The root source "${source}" for view ${view} must be a three-part name catalog.schema.table.`);
    }
  }
  // Two views may not publish to one target.
  const overridden = new Map<string, string>();
  for (const [view, name] of Object.entries(configuration.targetNameOverrides)) {
    const key = name.toLowerCase();
    const other = overridden.get(key);
    if (other !== undefined) {
      throw new ApiError(422, Codes.TARGET_NAME_CONFLICT, `Views ${other} and ${view} would both publish to target "${name}".`);
    }
    overridden.set(key, view);
  }
  return configuration;
}

/**
 * Refuses scopes the latest deployed build resolves to more than 128 views of the data source, or
 * to clashing target names; with `refuseOtherSource` (saving settings) also selected views of the
 * deployed model that are on another data source.
 */
export function checkScopeAgainstModel(
  model: ScopeModel,
  configuration: LakehouseConfiguration,
  dataSource: string,
  options: { refuseOtherSource?: boolean } = {},
): void {
  const scope = resolveScope(model, configuration, dataSource);
  if (scope.tooLarge) {
    throw new ApiError(
      422,
      Codes.SCOPE_TOO_LARGE,
      `The ${configuration.selectionMode} scope resolves to ${scope.matched} views of data source "${dataSource}" in the deployed model; at most ${MAX_VIEWS_PER_SCOPE} are published per data source.`,
      { matched: scope.matched, limit: MAX_VIEWS_PER_SCOPE },
    );
  }
  if (options.refuseOtherSource && scope.otherSource.length > 0) {
    const list = scope.otherSource.map((o) => `${o.view} (${o.dataSources.join(', ')})`).join(', ');
    throw new ApiError(
      422,
      Codes.VIEW_OF_OTHER_DATA_SOURCE,
      `Only views whose cubes use data source "${dataSource}" can be published through its integration; these selected views are on another data source: ${list}.`,
      {
        views: scope.otherSource,
        errors: scope.otherSource.map((o) => ({
          pointer: `/body/configuration/selectedViews/${(configuration.selectedViews ?? []).indexOf(o.view)}`,
          detail: `View ${o.view} uses data source ${o.dataSources.join(', ')}, not "${dataSource}".`,
        })),
      },
    );
  }
  const seen = new Map<string, string>();
  for (const view of scope.views) {
    const key = targetNameOf(configuration, view).toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) {
      throw new ApiError(422, Codes.TARGET_NAME_CONFLICT, `Views ${other} and ${view} would both publish to target "${key}".`);
    }
    seen.set(key, view);
  }
}

/**
 * Creates (expected version 0) or updates the settings of a lakehouse data source. A version that
 * is not the current one is refused with 409 and nothing changes.
 */
export async function saveSettings(
  ctx: ServiceContext,
  deploymentId: number,
  dataSourceName: string,
  expectedVersion: number,
  input: LakehouseConfigurationInput,
  userId: number | null,
): Promise<LakehouseSettings> {
  assertPublicationActive(ctx, deploymentId);
  const ds = requireLakehouseDataSource(ctx, deploymentId, dataSourceName);
  const configuration = normalizeConfiguration(input);
  const build = getLatestSuccessfulBuild(ctx, deploymentId);
  const deployed = build ? await deployedViews(ctx, build.id) : null;
  if (deployed) checkScopeAgainstModel(deployed, configuration, ds.name, { refuseOtherSource: true });
  const now = ctx.clock.now().toISOString();
  return ctx.db.transaction((): LakehouseSettings => {
    const current = findSettings(ctx, deploymentId, ds.name);
    const currentVersion = current?.configurationVersion ?? 0;
    if (expectedVersion !== currentVersion) {
      throw new ApiError(
        409,
        Codes.CONFIGURATION_VERSION_CONFLICT,
        current
          ? `The settings of "${ds.name}" are at version ${currentVersion}, not ${expectedVersion}: someone saved them meanwhile. Reload them and apply your change again.`
          : `No settings are saved for "${ds.name}" yet; create them with expectedConfigurationVersion 0.`,
        { currentConfigurationVersion: currentVersion },
      );
    }
    if (current) {
      ctx.db
        .prepare(
          'UPDATE lakehouse_integrations SET configuration = ?, configuration_version = ?, updated_by = ?, updated_at = ? WHERE deployment_id = ? AND data_source = ?',
        )
        .run(JSON.stringify(configuration), currentVersion + 1, userId, now, deploymentId, ds.name);
    } else {
      ctx.db
        .prepare(
          `INSERT INTO lakehouse_integrations (deployment_id, data_source, configuration, configuration_version, updated_by, created_at, updated_at)
           VALUES (?, ?, ?, 1, ?, ?, ?)`,
        )
        .run(deploymentId, ds.name, JSON.stringify(configuration), userId, now, now);
    }
    return findSettings(ctx, deploymentId, ds.name)!;
  })();
}
