import * as api from '../../../src-shared/api/lakehouse';
import type { AccessRule } from '../../http/auth';
import type { Api } from '../../http/route';
import { runAccessTest } from './access-test';
import { cancelPreview, getPreview, getPreviewResult, registerPreviewJob, startPreview } from './previews';
import { cancelRun, getRun, listRuns, registerRunJob, startRun } from './runs';
import { getSettings, saveSettings } from './settings';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

/** Reading settings, runs and previews, and previewing: SchemaRead or SchemaUpdate. */
const read: AccessRule[] = [{ anyOf: ['schemaRead', 'schemaUpdate'] }];
/** Saving settings, the access test and runs: SchemaUpdate. */
const update: AccessRule[] = ['schemaUpdate'];
/** Route options: reads, previews (which need only read access but change state) and updates. */
const READ = { access: read, credentials: DEPLOYMENT_READ_CREDENTIALS };
const PREVIEW = { access: read, credentials: DEPLOYMENT_WRITE_CREDENTIALS };
const UPDATE = { access: update, credentials: DEPLOYMENT_WRITE_CREDENTIALS };

/** Lakehouse metric view publication: settings, access test, previews and runs. */
export function registerLakehouseRoutes({ route, ctx }: Api): void {
  registerRunJob(ctx);
  registerPreviewJob(ctx);

  route(api.getLakehouseMetricViewIntegration, READ, ({ params }) => getSettings(ctx, params.deploymentId, params.dataSourceName));

  route(api.putLakehouseMetricViewIntegration, UPDATE, ({ params, body, principal }) =>
    saveSettings(ctx, params.deploymentId, params.dataSourceName, body.expectedConfigurationVersion, body.configuration, principal.userId),
  );

  route(api.testLakehouseMetricViewAccess, UPDATE, ({ params, body }) =>
    runAccessTest(ctx, params.deploymentId, params.dataSourceName, body ?? {}),
  );

  route(api.startLakehouseMetricViewSync, UPDATE, ({ params, body, principal }) =>
    startRun(ctx, params.deploymentId, params.dataSourceName, body, principal.userId),
  );

  route(api.listLakehouseMetricViewSyncs, READ, ({ params, query }) => listRuns(ctx, params.deploymentId, params.dataSourceName, query));

  route(api.getLakehouseMetricViewSync, READ, ({ params }) => getRun(ctx, params.deploymentId, params.dataSourceName, params.runId));

  route(api.cancelLakehouseMetricViewSync, UPDATE, ({ params }) =>
    cancelRun(ctx, params.deploymentId, params.dataSourceName, params.runId),
  );

  route(api.startLakehouseMetricViewPreview, PREVIEW, ({ params, body, principal }) =>
    startPreview(ctx, params.deploymentId, body, principal.userId),
  );

  route(api.getLakehouseMetricViewPreview, READ, ({ params }) => getPreview(ctx, params.deploymentId, params.previewId));

  route(api.getLakehouseMetricViewPreviewResult, READ, ({ params }) => getPreviewResult(ctx, params.deploymentId, params.previewId));

  route(api.cancelLakehouseMetricViewPreview, PREVIEW, ({ params }) => cancelPreview(ctx, params.deploymentId, params.previewId));
}
