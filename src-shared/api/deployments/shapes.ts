// The shapes of deployments, their settings, builds, logs, pods, env variables and regions.
import { Type, type Static } from 'typebox';
import { literals, Nullable, Timestamp } from '../contract';
import {
  BuildStatusSchema,
  CloudProviderSchema,
  CreationMethodSchema,
  DeployModeSchema,
  DeployStatusSchema,
  LogContainerSchema,
  LogLevelSchema,
  LogSourceSchema,
  MAX_ENV_VAR_VALUE_LENGTH,
  NullableScalar,
  ReleaseChannelSchema,
  STORAGE_PROVIDER_TYPES,
} from './enums';

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
