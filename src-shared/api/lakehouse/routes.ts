// The spec's eleven lakehouse operations.
import { Type } from 'typebox';
import { CANCEL_RULE, DeploymentParams, defineRoute, Page, PageQuery } from '../contract';
import {
  AccessTestInput,
  AccessTestResult,
  IntegrationParams,
  LakehouseSettings,
  LakehouseConfigurationInput,
  PreviewResult,
  PreviewStarted,
  PreviewStatus,
  Run,
  RunStarted,
  RunSummary,
  StartPreviewInput,
  StartRunInput,
} from './shapes';

const TAG = 'lakehouse metric view publication and integration';
const D = '/api/v1/deployments/{deploymentId}';
const I = `${D}/lakehouse-metric-view-integrations/{dataSourceName}`;

/** The scope rule, stated on every operation that resolves a scope. */
const SCOPE_RULE =
  'The scope holds only views whose cubes use this data source: `all` and `pattern` never include a view of another data source ' +
  '(nor count it toward the 128-view limit); a `selected` view of another data source is planned and blocked with ' +
  '`MODEL_PUBLISH_OTHER_DATA_SOURCE`, and saving settings that select one is refused with 422 `LAKEHOUSE_VIEW_OF_OTHER_DATA_SOURCE`.';

const PreviewParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), previewId: Type.String({ minLength: 1, maxLength: 64 }) });

// ---- routes ------------------------------------------------------------------------------------------------------

export const getLakehouseMetricViewIntegration = defineRoute({
  method: 'GET',
  path: I,
  operationId: 'getLakehouseMetricViewIntegration',
  tag: TAG,
  summary: 'Publication settings of a lakehouse data source',
  description: 'Needs SchemaRead or SchemaUpdate. 404 `LAKEHOUSE_SETTINGS_NOT_FOUND` until settings are saved.',
  params: IntegrationParams,
  response: LakehouseSettings,
});

export const putLakehouseMetricViewIntegration = defineRoute({
  method: 'PUT',
  path: I,
  operationId: 'putLakehouseMetricViewIntegration',
  tag: TAG,
  summary: 'Create or update the publication settings of a lakehouse data source',
  description:
    'Needs SchemaUpdate. `expectedConfigurationVersion` is 0 to create, else the current version; a stale version is refused with 409 ' +
    '`LAKEHOUSE_CONFIGURATION_VERSION_CONFLICT` and nothing changes. ' +
    SCOPE_RULE,
  params: IntegrationParams,
  body: Type.Object(
    {
      expectedConfigurationVersion: Type.Integer({ minimum: 0 }),
      configuration: LakehouseConfigurationInput,
    },
    { additionalProperties: false },
  ),
  response: LakehouseSettings,
});

export const testLakehouseMetricViewAccess = defineRoute({
  method: 'POST',
  path: `${I}/access-test`,
  operationId: 'testLakehouseMetricViewAccess',
  tag: TAG,
  summary: 'Check warehouse, source and target-schema access with a temporary metric view',
  description:
    'Creates, replaces and drops a uniquely named temporary view in the target schema; never touches a published target. Needs SchemaUpdate.',
  params: IntegrationParams,
  body: AccessTestInput,
  bodyOptional: true,
  response: AccessTestResult,
});

export const startLakehouseMetricViewSync = defineRoute({
  method: 'POST',
  path: `${I}/syncs`,
  operationId: 'startLakehouseMetricViewSync',
  tag: TAG,
  summary: 'Start a publication run',
  description:
    `Reads the latest successful deployed build, or with \`branchName\` a personal dev branch's head, published to the owner's per-user schema or name prefix. ` +
    `409 \`LAKEHOUSE_RUN_ACTIVE\` while another run is active. Needs SchemaUpdate. ${SCOPE_RULE}`,
  params: IntegrationParams,
  body: StartRunInput,
  status: 202,
  response: RunStarted,
});

export const listLakehouseMetricViewSyncs = defineRoute({
  method: 'GET',
  path: `${I}/syncs`,
  operationId: 'listLakehouseMetricViewSyncs',
  tag: TAG,
  summary: 'Publication runs of a data source, newest first',
  params: IntegrationParams,
  query: Type.Object(PageQuery),
  response: Page(RunSummary),
});

const RunParams = Type.Object({
  deploymentId: Type.Integer({ minimum: 1 }),
  dataSourceName: Type.String({ minLength: 1, maxLength: 255 }),
  runId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const getLakehouseMetricViewSync = defineRoute({
  method: 'GET',
  path: `${I}/syncs/{runId}`,
  operationId: 'getLakehouseMetricViewSync',
  tag: TAG,
  summary: 'Status and per-view outcomes of a publication run',
  params: RunParams,
  response: Run,
});

export const cancelLakehouseMetricViewSync = defineRoute({
  method: 'DELETE',
  path: `${I}/syncs/{runId}`,
  operationId: 'cancelLakehouseMetricViewSync',
  tag: TAG,
  summary: 'Request cancellation of a run: further writes stop, writes already done stay',
  description: `Needs SchemaUpdate. ${CANCEL_RULE}`,
  params: RunParams,
  status: 202,
  response: Run,
});

export const startLakehouseMetricViewPreview = defineRoute({
  method: 'POST',
  path: `${D}/lakehouse-metric-view-previews`,
  operationId: 'startLakehouseMetricViewPreview',
  tag: TAG,
  summary: 'Start a preview of what a run would publish',
  description: `Needs SchemaRead or SchemaUpdate. Request and result are kept at most 7 days. ${SCOPE_RULE}`,
  params: DeploymentParams,
  body: StartPreviewInput,
  status: 202,
  response: PreviewStarted,
});

export const getLakehouseMetricViewPreview = defineRoute({
  method: 'GET',
  path: `${D}/lakehouse-metric-view-previews/{previewId}`,
  operationId: 'getLakehouseMetricViewPreview',
  tag: TAG,
  summary: 'Progress of a preview',
  params: PreviewParams,
  response: PreviewStatus,
});

export const getLakehouseMetricViewPreviewResult = defineRoute({
  method: 'GET',
  path: `${D}/lakehouse-metric-view-previews/{previewId}/result`,
  operationId: 'getLakehouseMetricViewPreviewResult',
  tag: TAG,
  summary: 'Result of a completed preview',
  description: '409 `LAKEHOUSE_PREVIEW_NOT_FINISHED` while it runs, `LAKEHOUSE_PREVIEW_NO_RESULT` when it ended without one.',
  params: PreviewParams,
  response: PreviewResult,
});

export const cancelLakehouseMetricViewPreview = defineRoute({
  method: 'DELETE',
  path: `${D}/lakehouse-metric-view-previews/{previewId}`,
  operationId: 'cancelLakehouseMetricViewPreview',
  tag: TAG,
  summary: 'Request cancellation of a preview',
  description: `Needs SchemaRead or SchemaUpdate. ${CANCEL_RULE}`,
  params: PreviewParams,
  status: 202,
  response: PreviewStatus,
});

export const lakehouseRoutes = {
  getLakehouseMetricViewIntegration,
  putLakehouseMetricViewIntegration,
  testLakehouseMetricViewAccess,
  startLakehouseMetricViewSync,
  listLakehouseMetricViewSyncs,
  getLakehouseMetricViewSync,
  cancelLakehouseMetricViewSync,
  startLakehouseMetricViewPreview,
  getLakehouseMetricViewPreview,
  getLakehouseMetricViewPreviewResult,
  cancelLakehouseMetricViewPreview,
};
