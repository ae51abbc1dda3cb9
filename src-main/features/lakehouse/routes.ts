import * as api from '../../../src-shared/api/lakehouse';
import type { AccessRule } from '../../http/auth';
import type { Api } from '../../http/route';
import { runAccessTest } from './access-test';
import { cancelPreview, getPreview, getPreviewResult, registerPreviewJob, startPreview } from './previews';
import { cancelRun, getRun, listRuns, registerRunJob, startRun } from './runs';
import { getSettings, saveSettings } from './settings';

/** Reading settings, runs and previews, and previewing: SchemaRead or SchemaUpdate. */
const read: AccessRule[] = [{ anyOf: ['schemaRead', 'schemaUpdate'] }];
/** Saving settings, the access test and runs: SchemaUpdate. */
const update: AccessRule[] = ['schemaUpdate'];

/** Lakehouse metric view publication: settings, access test, previews and runs. */
export function registerLakehouseRoutes({ route, ctx }: Api): void {
  registerRunJob(ctx);
  registerPreviewJob(ctx);

  route(api.getLakehouseMetricViewIntegration, { access: read }, ({ params }) => getSettings(ctx, params.deploymentId, params.dataSourceName));

  route(api.putLakehouseMetricViewIntegration, { access: update }, ({ params, body, principal }) =>
    saveSettings(ctx, params.deploymentId, params.dataSourceName, body.expectedConfigurationVersion, body.configuration, principal.userId),
  );

  route(api.testLakehouseMetricViewAccess, { access: update }, ({ params, body }) =>
    runAccessTest(ctx, params.deploymentId, params.dataSourceName, body ?? {}),
  );

  route(api.startLakehouseMetricViewSync, { access: update }, ({ params, body, principal }) =>
    startRun(ctx, params.deploymentId, params.dataSourceName, body, principal.userId),
  );

  route(api.listLakehouseMetricViewSyncs, { access: read }, ({ params, query }) => listRuns(ctx, params.deploymentId, params.dataSourceName, query));

  route(api.getLakehouseMetricViewSync, { access: read }, ({ params }) => getRun(ctx, params.deploymentId, params.dataSourceName, params.runId));

  route(api.cancelLakehouseMetricViewSync, { access: update }, ({ params }) =>
    cancelRun(ctx, params.deploymentId, params.dataSourceName, params.runId),
  );

  route(api.startLakehouseMetricViewPreview, { access: read }, ({ params, body, principal }) =>
    startPreview(ctx, params.deploymentId, body, principal.userId),
  );

  route(api.getLakehouseMetricViewPreview, { access: read }, ({ params }) => getPreview(ctx, params.deploymentId, params.previewId));

  route(api.getLakehouseMetricViewPreviewResult, { access: read }, ({ params }) => getPreviewResult(ctx, params.deploymentId, params.previewId));

  route(api.cancelLakehouseMetricViewPreview, { access: read }, ({ params }) => cancelPreview(ctx, params.deploymentId, params.previewId));
}
