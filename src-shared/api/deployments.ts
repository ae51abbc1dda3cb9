import { Type, type Static, type TSchema } from 'typebox';
import { DeploymentParams, defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';
import { ETAG_RULE, IF_MATCH_RULE } from './preconditions';

// The spec's deployment tag group (Deployments, Deployment Creation, Env Variables, Regions): the
// contract keeps one module per tag group (README, Adding to the service), so an operation and the
// shapes it shares with its neighbours are read together; that is why this module passes 500 lines.

// ---- enumerations ------------------------------------------------------------------------------

export const CLOUD_PROVIDERS = ['aws', 'gcp', 'azure'] as const;
export type CloudProvider = (typeof CLOUD_PROVIDERS)[number];

/**
 * How a deployment's model project was created: uploaded files, a repository reached over SSH,
 * the platform's own hosted git, or a repository on a git host connected through its app.
 */
export const CREATION_METHODS = ['upload', 'ssh', 'platform-git', 'git-host'] as const;
export type CreationMethod = (typeof CREATION_METHODS)[number];

export const DEPLOY_MODES = ['git', 'cli'] as const;
export type DeployMode = (typeof DEPLOY_MODES)[number];

export const RELEASE_CHANNELS = ['stable', 'regular'] as const;
export type ReleaseChannel = (typeof RELEASE_CHANNELS)[number];

export const STORAGE_PROVIDER_TYPES = ['local', 's3', 'gcs', 'azure-blob'] as const;
export type StorageProviderType = (typeof STORAGE_PROVIDER_TYPES)[number];

export const LOG_SOURCES = ['production', 'dev'] as const;
export type LogSource = (typeof LOG_SOURCES)[number];

export const LOG_CONTAINERS = ['INIT', 'MAIN', 'cubejs-server', 'vector', 'api-proxy'] as const;
export type LogContainer = (typeof LOG_CONTAINERS)[number];

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const BUILD_STATUSES = ['idle', 'queued', 'building', 'succeeded', 'failed'] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];

export const DEPLOY_STATUSES = ['not_deployed', 'deploying', 'deployed', 'failed'] as const;
export type DeployStatus = (typeof DEPLOY_STATUSES)[number];

/** The setup wizard's steps, in order; the deployment itself exists before the first one. */
export const CREATION_STEPS = [
  { id: 'repository', title: 'Connect or upload the model project' },
  { id: 'data-sources', title: 'Configure data sources' },
  { id: 'data-model', title: 'Generate the data model' },
] as const;
export type CreationStepId = (typeof CREATION_STEPS)[number]['id'];

export const ENV_VAR_NAME_PATTERN = '^[A-Z_][A-Z0-9_]*$';
export const MAX_ENV_VAR_VALUE_LENGTH = 65536;
export const MAX_ENV_VARS_PER_DEPLOYMENT = 500;

export const DEPLOYMENT_TOKEN_MIN_SECONDS = 60;
export const DEPLOYMENT_TOKEN_MAX_SECONDS = 86400;
export const DEPLOYMENT_TOKEN_DEFAULT_SECONDS = 86400;

const literals = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Enum(values as unknown as T[number][], description ? { description } : {});

export const CloudProviderSchema = literals(CLOUD_PROVIDERS, 'Cloud the deployment runs in');
export const CreationMethodSchema = literals(
  CREATION_METHODS,
  '`upload` (project files uploaded), `ssh` (repository over SSH), `platform-git` (the platform’s hosted git), `git-host` (a repository on a connected git host)',
);
export const DeployModeSchema = literals(DEPLOY_MODES, '`git`: deploys follow pushes to the deploy branch; `cli`: deploys are uploaded by the CLI');
export const ReleaseChannelSchema = literals(RELEASE_CHANNELS, 'Release channel the deployment follows');
export const LogSourceSchema = literals(LOG_SOURCES);
export const LogContainerSchema = literals(LOG_CONTAINERS);
export const LogLevelSchema = literals(LOG_LEVELS);
export const BuildStatusSchema = literals(BUILD_STATUSES);
export const DeployStatusSchema = literals(DEPLOY_STATUSES);

/**
 * A nullable scalar for request bodies, as `type: [t, 'null']`. The server coerces types (for
 * query strings), and inside an `anyOf` of string and null that would turn a JSON null into "".
 */
export function NullableScalar<T extends TSchema>(schema: T) {
  const { type } = schema as unknown as { type: string | string[] };
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [...(Array.isArray(type) ? type : [type]), 'null'] });
}

// ---- shapes ------------------------------------------------------------------------------------

// One JSON type list rather than an anyOf, so a number is not coerced into a string.
const TemplateValue = Type.Unsafe<string | number | boolean>({ type: ['string', 'number', 'boolean'], maxLength: 4096 });

const StorageProviderTypeSchema = literals(STORAGE_PROVIDER_TYPES, 'Where build artifacts are stored: `local` (the data directory) or a cloud bucket');

export const StorageProviderInput = Type.Object(
  {
    type: StorageProviderTypeSchema,
    bucket: Type.Optional(
      Type.String({ minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9._-]*[a-z0-9]$', description: 'Bucket (S3, GCS) or container (Azure Blob); required unless `local`' }),
    ),
    region: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Bucket region, when the provider needs one' })),
    prefix: Type.Optional(Type.String({ maxLength: 512, pattern: '^[A-Za-z0-9._/-]*$', description: 'Key prefix inside the bucket' })),
    credentials: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*$' }), Type.String({ minLength: 1, maxLength: 8192 }), {
        description: 'Access credentials (e.g. accessKeyId, secretAccessKey); kept in the keychain, never returned',
        maxProperties: 10,
      }),
    ),
  },
  { additionalProperties: false },
);
export type StorageProviderInput = Static<typeof StorageProviderInput>;

export const StorageProvider = Type.Object({
  type: StorageProviderTypeSchema,
  bucket: Nullable(Type.String()),
  region: Nullable(Type.String()),
  prefix: Nullable(Type.String()),
  credentialsConfigured: Type.Boolean({ description: 'True when credentials are stored (their values are never returned)' }),
});
export type StorageProvider = Static<typeof StorageProvider>;

export const CreationStepState = Type.Object({
  currentStep: Nullable(Type.String({ description: 'Id of the step to do next; null once the wizard is complete' })),
  index: Type.Integer({ minimum: 0, description: 'Number of steps done' }),
  completed: Type.Boolean(),
  steps: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      status: literals(['done', 'current', 'pending'] as const),
    }),
  ),
});
export type CreationStepState = Static<typeof CreationStepState>;

export const Deployment = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  cloudProvider: CloudProviderSchema,
  region: Type.String(),
  creationMethod: CreationMethodSchema,
  deployMode: DeployModeSchema,
  releaseChannel: ReleaseChannelSchema,
  releaseChannelVersion: Nullable(Type.String({ description: 'Pinned version; null follows the channel’s latest' })),
  releaseChannelVersionHold: Type.Boolean({ description: 'Stay on the pinned version instead of following the channel' }),
  currentVersion: Type.String({ description: 'The version the deployment runs: the pinned one, else the channel’s latest' }),
  template: Nullable(Type.String()),
  templateVariables: Type.Record(Type.String(), TemplateValue),
  defaultLaunchpadViewGroup: Nullable(Type.String()),
  launchpadTabs: Nullable(Type.Array(Type.String())),
  storageProvider: StorageProvider,
  deployBranch: Type.String(),
  sqlRunnerDdlEnabled: Type.Boolean({ description: 'DDL operations enabled in the deployment configuration' }),
  creationStep: CreationStepState,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Deployment = Static<typeof Deployment>;

const DeploymentName = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });

export const CreateDeploymentInput = Type.Object(
  {
    name: DeploymentName,
    cloudProvider: CloudProviderSchema,
    creationMethod: CreationMethodSchema,
    deployMode: DeployModeSchema,
    storageProvider: StorageProviderInput,
    region: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A region of the cloud provider (GET /api/v1/regions/); default: the provider’s first' })),
    releaseChannel: Type.Optional(ReleaseChannelSchema),
    template: Type.Optional(NullableScalar(Type.String({ minLength: 1, maxLength: 255 }))),
    templateVariables: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 128 }), TemplateValue, { maxProperties: 200 })),
  },
  { additionalProperties: false },
);
export type CreateDeploymentInput = Static<typeof CreateDeploymentInput>;

export const UpdateDeploymentInput = Type.Object(
  {
    name: Type.Optional(DeploymentName),
    cloudProvider: Type.Optional(CloudProviderSchema),
    region: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    releaseChannel: Type.Optional(ReleaseChannelSchema),
    releaseChannelVersion: Type.Optional(NullableScalar(Type.String({ minLength: 1, maxLength: 64, description: 'One of GET D/versions for the channel; null unpins' }))),
    releaseChannelVersionHold: Type.Optional(Type.Boolean()),
    template: Type.Optional(NullableScalar(Type.String({ minLength: 1, maxLength: 255 }))),
    templateVariables: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 128 }), NullableScalar(TemplateValue), {
        description: 'Merged key by key; a null value removes the key',
        maxProperties: 200,
      }),
    ),
    defaultLaunchpadViewGroup: Type.Optional(NullableScalar(Type.String({ minLength: 1, maxLength: 255 }))),
    launchpadTabs: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 50 }))),
    sqlRunnerDdlEnabled: Type.Optional(Type.Boolean({ description: 'Enable or disable DDL operations through the SQL Runner' })),
  },
  { additionalProperties: false },
);
export type UpdateDeploymentInput = Static<typeof UpdateDeploymentInput>;

export const EnvVar = Type.Object({
  name: Type.String(),
  value: Type.Optional(Type.String({ description: 'Absent for secret variables: their value is never returned' })),
  isSecret: Type.Boolean(),
  updatedAt: Timestamp,
});
export type EnvVar = Static<typeof EnvVar>;

export const EnvVarInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    value: NullableScalar(Type.String({ maxLength: MAX_ENV_VAR_VALUE_LENGTH, description: 'null deletes the variable' })),
    isSecret: Type.Optional(Type.Boolean({ description: 'Default: the variable’s current flag, else false' })),
  },
  { additionalProperties: false },
);
export type EnvVarInput = Static<typeof EnvVarInput>;

export const DataSourceSummary = Type.Object({
  name: Type.String(),
  type: Nullable(Type.String()),
  kind: literals(['warehouse', 'lakehouse', 'other'] as const),
  connector: literals(['emulator', 'remote'] as const, '`emulator` until an account (warehouse) or host (lakehouse) is configured'),
  database: Nullable(Type.String()),
  catalog: Nullable(Type.String()),
  account: Nullable(Type.String()),
  host: Nullable(Type.String()),
  user: Nullable(Type.String()),
  settings: Type.Record(Type.String(), Type.String(), { description: 'Non-secret settings by their default-data-source name (CUBEJS_DB_…)' }),
  secretSettings: Type.Array(Type.String(), { description: 'Settings held as secrets (names only)' }),
});
export type DataSourceSummary = Static<typeof DataSourceSummary>;

export const DeploymentSettings = Type.Object({
  deploymentId: Type.Integer(),
  name: Type.String(),
  cloudProvider: CloudProviderSchema,
  region: Type.String(),
  creationMethod: CreationMethodSchema,
  deployMode: DeployModeSchema,
  deployBranch: Type.String(),
  releaseChannel: ReleaseChannelSchema,
  releaseChannelVersion: Nullable(Type.String()),
  releaseChannelVersionHold: Type.Boolean(),
  currentVersion: Type.String(),
  template: Nullable(Type.String()),
  templateVariables: Type.Record(Type.String(), TemplateValue),
  defaultLaunchpadViewGroup: Nullable(Type.String()),
  launchpadTabs: Nullable(Type.Array(Type.String())),
  storageProvider: StorageProvider,
  sqlRunnerDdlEnabled: Type.Boolean(),
  creationStep: CreationStepState,
  envVars: Type.Array(EnvVar),
  dataSources: Type.Array(DataSourceSummary),
});

export const VersionCatalog = Type.Object({
  releaseChannel: ReleaseChannelSchema,
  releaseChannelVersion: Nullable(Type.String()),
  releaseChannelVersionHold: Type.Boolean(),
  currentVersion: Type.String(),
  channels: Type.Array(
    Type.Object({
      releaseChannel: ReleaseChannelSchema,
      latestVersion: Type.String(),
      versions: Type.Array(Type.Object({ version: Type.String(), releasedAt: Timestamp }), { description: 'Newest first' }),
    }),
  ),
});

export const BuildState = Type.Object({
  branch: Type.String(),
  isDeployBranch: Type.Boolean(),
  buildStatus: BuildStatusSchema,
  deployStatus: DeployStatusSchema,
  commit: Nullable(Type.String()),
  buildJobId: Nullable(Type.String()),
  detail: Nullable(Type.String()),
  updatedAt: Nullable(Timestamp),
});
export type BuildState = Static<typeof BuildState>;

export const LogLine = Type.Object({
  id: Type.Integer(),
  timestamp: Timestamp,
  source: LogSourceSchema,
  container: LogContainerSchema,
  level: LogLevelSchema,
  message: Type.String(),
});

export const Pod = Type.Object({
  name: Type.String(),
  environmentId: Type.Integer(),
  environmentName: Type.String(),
  branch: Type.String(),
  phase: literals(['Pending', 'Running', 'Failed'] as const),
  ready: Type.Boolean(),
  version: Type.String(),
  startedAt: Timestamp,
  containers: Type.Array(
    Type.Object({
      name: LogContainerSchema,
      state: literals(['waiting', 'running', 'terminated'] as const),
      reason: Nullable(Type.String()),
      ready: Type.Boolean(),
      restartCount: Type.Integer(),
    }),
  ),
});

export const Region = Type.Object({
  id: Type.String({ description: '`<cloudProvider>/<code>`' }),
  cloudProvider: CloudProviderSchema,
  code: Type.String({ description: 'The value a deployment’s `region` takes' }),
  name: Type.String(),
  isDefault: Type.Boolean({ description: 'The provider’s default for new deployments' }),
});

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
