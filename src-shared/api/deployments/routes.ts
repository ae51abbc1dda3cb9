// The operations of the deployment tag group: Deployments, Deployment Creation, Env Variables, Regions.
import { Type } from 'typebox';
import { DeploymentParams, defineRoute, Page, PageQuery, Timestamp } from '../contract';
import { ETAG_RULE, IF_MATCH_RULE } from '../preconditions';
import { CloudProviderSchema, DEPLOYMENT_TOKEN_MAX_SECONDS, DEPLOYMENT_TOKEN_MIN_SECONDS, LogContainerSchema, LogSourceSchema, MAX_ENV_VARS_PER_DEPLOYMENT } from './enums';
import {
  BuildState,
  CreateDeploymentInput,
  CreationStepState,
  Deployment,
  DeploymentSettings,
  EnvVar,
  EnvVarInput,
  LogLine,
  Pod,
  Region,
  UpdateDeploymentInput,
  VersionCatalog,
} from './shapes';

// ---- routes ------------------------------------------------------------------------------------

const D = '/api/v1/deployments/{deploymentId}';

export const listDeployments = defineRoute({
  method: 'GET',
  path: '/api/v1/deployments',
  operationId: 'listDeployments',
  tag: 'Deployments',
  summary: 'Deployments the caller can read',
  query: Type.Object(PageQuery),
  response: Page(Deployment),
});

export const getDeployment = defineRoute({
  method: 'GET',
  path: D,
  operationId: 'getDeployment',
  tag: 'Deployments',
  summary: 'One deployment',
  description: ETAG_RULE,
  params: DeploymentParams,
  response: Deployment,
});

export const createDeployment = defineRoute({
  method: 'POST',
  path: '/build/api/v1/deployments/',
  operationId: 'createDeployment',
  tag: 'Deployment Creation',
  summary: 'Create a deployment',
  description:
    'Creates the deployment with its production environment and default env vars (a warehouse data source `default` and a lakehouse data source `lake`, both on the local emulators until configured).',
  body: CreateDeploymentInput,
  status: 201,
  response: Deployment,
});

export const updateDeployment = defineRoute({
  method: 'PUT',
  path: D,
  operationId: 'updateDeployment',
  tag: 'Deployments',
  summary: 'Partially update a deployment',
  description: ['Only the fields sent change. `templateVariables` is merged key by key (null removes a key). `releaseChannelVersion` must be one of GET D/versions for the (resulting) channel.', IF_MATCH_RULE].join(' '),
  params: DeploymentParams,
  body: UpdateDeploymentInput,
  response: Deployment,
});

export const deleteDeployment = defineRoute({
  method: 'DELETE',
  path: D,
  operationId: 'deleteDeployment',
  tag: 'Deployments',
  summary: 'Delete a deployment with its environments, env vars (secrets included), logs and tokens',
  params: DeploymentParams,
  status: 204,
  response: Type.Null(),
});

export const getDeploymentSettings = defineRoute({
  method: 'GET',
  path: `${D}/settings`,
  operationId: 'getDeploymentSettings',
  tag: 'Deployments',
  summary: 'All settings of a deployment, secrets excluded',
  params: DeploymentParams,
  response: DeploymentSettings,
});

export const listDeploymentVersions = defineRoute({
  method: 'GET',
  path: `${D}/versions`,
  operationId: 'listDeploymentVersions',
  tag: 'Deployments',
  summary: 'Versions the deployment can switch to, per release channel',
  params: DeploymentParams,
  response: VersionCatalog,
});

export const getDeploymentBuildStatus = defineRoute({
  method: 'GET',
  path: `${D}/build-status`,
  operationId: 'getDeploymentBuildStatus',
  tag: 'Deployments',
  summary: 'Build and deploy state of a branch',
  description:
    'Served branches are built on every commit: the deploy branch, a branch with an always-on staging environment ' +
    '(`PUT …/branches/staging-environment`; disabling it resets the branch to `idle`, `not_deployed`) and a branch in dev mode. ' +
    'A branch that exists and was never built reports `idle` and `not_deployed`. 404 `BRANCH_NOT_FOUND` for a branch that does not exist.',
  params: DeploymentParams,
  query: Type.Object({ branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Default: the deploy branch' })) }),
  response: BuildState,
});

export const listDeploymentLogs = defineRoute({
  method: 'GET',
  path: `${D}/logs`,
  operationId: 'listDeploymentLogs',
  tag: 'Deployments',
  summary: 'Log lines of the deployment, newest first',
  params: DeploymentParams,
  query: Type.Object({ ...PageQuery, source: Type.Optional(LogSourceSchema), container: Type.Optional(LogContainerSchema) }),
  response: Page(LogLine),
});

export const listDeploymentPods = defineRoute({
  method: 'GET',
  path: `${D}/pods`,
  operationId: 'listDeploymentPods',
  tag: 'Deployments',
  summary: 'Pods of the deployment: one per environment whose branch is deployed or deploying',
  params: DeploymentParams,
  query: Type.Object(PageQuery),
  response: Page(Pod),
});

const CreationStepBody = Type.Object(
  { from: Type.Optional(Type.String({ description: 'Advance only if this is the current step (guards against double clicks)' })) },
  { additionalProperties: false },
);

export const advanceCreationStep = defineRoute({
  method: 'POST',
  path: `${D}/creation-step/advance`,
  operationId: 'advanceDeploymentCreationStep',
  tag: 'Deployment Creation',
  summary: 'Mark the current setup wizard step done',
  params: DeploymentParams,
  body: CreationStepBody,
  bodyOptional: true,
  response: CreationStepState,
});

export const resetCreationStep = defineRoute({
  method: 'POST',
  path: `${D}/creation-step/reset`,
  operationId: 'resetDeploymentCreationStep',
  tag: 'Deployment Creation',
  summary: 'Restart the setup wizard at its first step',
  params: DeploymentParams,
  response: CreationStepState,
});

export const createDeploymentToken = defineRoute({
  method: 'POST',
  path: `${D}/token`,
  operationId: 'createDeploymentToken',
  tag: 'Deployments',
  summary: 'A bearer token restricted to this deployment',
  description: 'Lives 24 hours unless `expiresIn` (60 to 86400 seconds) says otherwise. It carries the caller’s access, on this deployment only.',
  params: DeploymentParams,
  body: Type.Object(
    {
      expiresIn: Type.Optional(
        Type.Integer({ minimum: DEPLOYMENT_TOKEN_MIN_SECONDS, maximum: DEPLOYMENT_TOKEN_MAX_SECONDS, description: 'Lifetime in seconds (default 86400)' }),
      ),
    },
    { additionalProperties: false },
  ),
  bodyOptional: true,
  response: Type.Object({ token: Type.String(), expiresAt: Timestamp }),
});

export const listEnvVars = defineRoute({
  method: 'GET',
  path: `${D}/env-vars`,
  operationId: 'listEnvVars',
  tag: 'Env Variables',
  summary: 'Env variables of the deployment, by name; secret values are never returned',
  description: ETAG_RULE,
  params: DeploymentParams,
  query: Type.Object(PageQuery),
  response: Page(EnvVar),
});

export const setEnvVars = defineRoute({
  method: 'PUT',
  path: `${D}/env-vars`,
  operationId: 'setEnvVars',
  tag: 'Env Variables',
  summary: 'Set env variables',
  description: ['Each entry is created or replaced; `value: null` deletes it; variables not named keep their value. Secret values go to the keychain; only non-secret values are stored in the database. Returns every variable afterwards.', IF_MATCH_RULE].join(' '),
  params: DeploymentParams,
  body: Type.Array(EnvVarInput, { minItems: 1, maxItems: MAX_ENV_VARS_PER_DEPLOYMENT }),
  response: Type.Object({ items: Type.Array(EnvVar) }),
});

export const listRegions = defineRoute({
  method: 'GET',
  path: '/api/v1/regions/',
  operationId: 'listRegions',
  tag: 'Regions',
  summary: 'Regions deployments can run in',
  query: Type.Object({ ...PageQuery, cloudProvider: Type.Optional(CloudProviderSchema) }),
  response: Page(Region),
});

export const deploymentsRoutes = {
  listDeployments,
  getDeployment,
  createDeployment,
  updateDeployment,
  deleteDeployment,
  getDeploymentSettings,
  listDeploymentVersions,
  getDeploymentBuildStatus,
  listDeploymentLogs,
  listDeploymentPods,
  advanceCreationStep,
  resetCreationStep,
  createDeploymentToken,
  listEnvVars,
  setEnvVars,
  listRegions,
};
