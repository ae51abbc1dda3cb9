// The deployment tag group's enumerations and limits, with their schemas.
import { Type, type Static, type TSchema } from 'typebox';
import { literals } from '../contract';

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
