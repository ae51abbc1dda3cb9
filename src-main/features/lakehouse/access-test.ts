import { randomUUID } from 'node:crypto';
import { LakehouseErrorCodes as Codes, type AccessCheckName } from '../../../src-shared/api/lakehouse';
import { renderMetricViewYaml } from '../../../src-shared/model/generate/metric-view-yaml';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import type { LakehouseConnector } from '../../connectors/lakehouse';
import { buildForPublication, waitForBuild } from '../builds';
import { assertPublicationActive } from './activation';
import { describeLakehouseError, openLakehouseConnector } from './connector';
import { sourcesFromBuild } from './deployed';
import { findSettings, requireLakehouseDataSource } from './settings';

export const ACCESS_TEST_VIEW_PREFIX = 'drydock_access_test_';

/** How long the test waits for a first build of the deploy branch before checking sources without it. */
const BUILD_WAIT_MS = 20_000;

interface Check {
  name: AccessCheckName;
  status: 'passed' | 'failed' | 'skipped';
  subject: string | null;
  message: string | null;
  errorCode: string | null;
}

const probeYaml = (comment: string) =>
  renderMetricViewYaml({
    version: 1.1,
    comment,
    source: 'SELECT 1 AS probe',
    dimensions: [{ name: 'probe', expr: 'probe' }],
    measures: [{ name: 'probe_count', expr: 'COUNT(1)' }],
  });

/**
 * Checks what publication needs, with the data source's credential: the warehouse, the target
 * schema, SELECT on every table the views in scope read, and creating, replacing and dropping a
 * uniquely named temporary metric view. Published targets are never touched.
 */
export async function runAccessTest(
  ctx: ServiceContext,
  deploymentId: number,
  dataSourceName: string,
  body: { targetCatalog?: string; targetSchema?: string },
) {
  assertPublicationActive(ctx, deploymentId);
  const ds = requireLakehouseDataSource(ctx, deploymentId, dataSourceName);
  const saved = findSettings(ctx, deploymentId, ds.name)?.configuration ?? null;
  const targetCatalog = body.targetCatalog ?? saved?.targetCatalog;
  const targetSchema = body.targetSchema ?? saved?.targetSchema;
  if (!targetCatalog || !targetSchema) {
    throw new ApiError(422, Codes.TARGET_REQUIRED, `Data source "${ds.name}" has no saved target; save settings or send targetCatalog and targetSchema.`);
  }
  const temporaryViewName = `${ACCESS_TEST_VIEW_PREFIX}${randomUUID().replace(/-/g, '')}`;
  const checks: Check[] = [];
  const pass = (name: AccessCheckName, subject: string | null, message: string | null = null) =>
    checks.push({ name, status: 'passed', subject, message, errorCode: null });
  const skip = (name: AccessCheckName, subject: string | null, message: string) => checks.push({ name, status: 'skipped', subject, message, errorCode: null });
  const failed = (name: AccessCheckName, subject: string | null, error: unknown) => {
    const { code, message } = describeLakehouseError(error);
    checks.push({ name, status: 'failed', subject, message, errorCode: code });
  };
  const attempt = async (name: AccessCheckName, subject: string | null, fn: () => Promise<void>): Promise<boolean> => {
    try {
      await fn();
      pass(name, subject);
      return true;
    } catch (error) {
      failed(name, subject, error);
      return false;
    }
  };

  // The tables the views in scope read, from the deployed build.
  const sources = new Set<string>();
  // The deployed build (built now if the deploy branch was never built; a short wait).
  let build = await buildForPublication(ctx, deploymentId, null);
  if (build && build.status !== 'succeeded' && build.status !== 'failed') {
    build = await waitForBuild(ctx, build.id, AbortSignal.timeout(BUILD_WAIT_MS)).catch(() => null);
  }
  let known = false;
  if (build?.status === 'succeeded') {
    const found = await sourcesFromBuild(ctx, build.id, {
      dataSource: ds.name,
      catalog: ds.catalog,
      scope: saved ?? { selectionMode: 'all' },
      settings: { targetCatalog, targetSchema, ...(saved ?? {}) },
    });
    known = found !== null;
    for (const source of found ?? []) sources.add(source);
  }

  const schema = `${targetCatalog}.${targetSchema}`;
  const temporary = `${schema}.${temporaryViewName}`;
  let connector: LakehouseConnector | null = null;
  try {
    connector = openLakehouseConnector(ctx, deploymentId, ds);
  } catch (error) {
    failed('warehouse', null, error);
  }
  if (connector) {
    const lakehouse = connector;
    try {
      const warehouse = await attempt('warehouse', null, () => lakehouse.checkWarehouseAccess());
      if (!warehouse) {
        skip('target_schema', schema, 'The warehouse is not usable.');
      } else {
        await attempt('target_schema', schema, () => lakehouse.checkSchemaAccess(targetCatalog, targetSchema));
      }
      if (!warehouse) skip('source_read', null, 'The warehouse is not usable.');
      else if (!known) skip('source_read', null, 'There is no successful deployed build, so the sources are not known yet.');
      else if (sources.size === 0) skip('source_read', null, 'No view in scope reads a table.');
      else for (const source of [...sources].sort()) await attempt('source_read', source, () => lakehouse.checkSourceReadable(source));

      if (!warehouse) {
        for (const name of ['create_view', 'replace_view', 'drop_view'] as const) skip(name, temporary, 'The warehouse is not usable.');
      } else {
        const created = await attempt('create_view', temporary, async () => {
          // A fresh random name: if something is already there, it is not ours to replace.
          if (await lakehouse.getObject(targetCatalog, targetSchema, temporaryViewName)) throw new Error(`${temporary} already exists.`);
          await lakehouse.createOrReplaceMetricView(targetCatalog, targetSchema, temporaryViewName, probeYaml('Drydock access test (temporary)'), {
            'drydock.access_test': 'true',
          }, { replaceWithAlter: false });
        });
        if (!created) {
          skip('replace_view', temporary, 'The temporary view could not be created.');
          skip('drop_view', temporary, 'The temporary view could not be created.');
        } else {
          await attempt('replace_view', temporary, () =>
            lakehouse.createOrReplaceMetricView(targetCatalog, targetSchema, temporaryViewName, probeYaml('Drydock access test (temporary, replaced)'), {
              'drydock.access_test': 'true',
            }, { replaceWithAlter: false }),
          );
          await attempt('drop_view', temporary, async () => {
            await lakehouse.dropView(targetCatalog, targetSchema, temporaryViewName);
            if (await lakehouse.getObject(targetCatalog, targetSchema, temporaryViewName)) throw new Error(`${temporary} is still there after DROP VIEW.`);
          });
        }
      }
    } finally {
      await lakehouse.close();
    }
  }
  return {
    dataSourceName: ds.name,
    ok: checks.every((c) => c.status !== 'failed'),
    targetCatalog,
    targetSchema,
    temporaryViewName,
    checks,
  };
}
