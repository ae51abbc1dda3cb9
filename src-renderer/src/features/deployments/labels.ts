import type { CloudProvider, CreationMethod, DeployMode, ReleaseChannel, StorageProviderType } from '../../../../src-shared/api/deployments';

export const CLOUD_LABELS: Record<CloudProvider, string> = { aws: 'AWS', gcp: 'Google Cloud', azure: 'Azure' };

export const CREATION_METHOD_LABELS: Record<CreationMethod, string> = {
  upload: 'Upload project files',
  ssh: 'Git repository over SSH',
  'platform-git': 'Hosted git (platform)',
  'git-host': 'Connected git host',
};

export const DEPLOY_MODE_LABELS: Record<DeployMode, string> = { git: 'Git — deploy on push', cli: 'CLI — deploy by upload' };

export const RELEASE_CHANNEL_LABELS: Record<ReleaseChannel, string> = { stable: 'Stable', regular: 'Regular' };

export const STORAGE_LABELS: Record<StorageProviderType, string> = {
  local: 'Local data folder',
  s3: 'Amazon S3',
  gcs: 'Google Cloud Storage',
  'azure-blob': 'Azure Blob Storage',
};

/** A label for a contract value; unknown values (from a newer service) show as they are. */
export const labelOf = <K extends string>(labels: Record<K, string>, value: string): string => (labels as Record<string, string>)[value] ?? value;
