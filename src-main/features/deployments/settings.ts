import { RELEASE_CHANNELS, type Deployment } from '../../../src-shared/api/deployments';
import type { ServiceContext } from '../../context';
import { RELEASE_VERSIONS } from './catalog';
import { listDataSources, toDataSourceSummary } from './data-sources';
import { getDeployment } from './deployments';
import { allEnvVars } from './env-vars';

/** Every setting of a deployment; secret env vars by name only, storage credentials never. */
export function getDeploymentSettings(ctx: ServiceContext, deploymentId: number) {
  const d: Deployment = getDeployment(ctx, deploymentId);
  return {
    deploymentId: d.id,
    name: d.name,
    cloudProvider: d.cloudProvider,
    region: d.region,
    creationMethod: d.creationMethod,
    deployMode: d.deployMode,
    deployBranch: d.deployBranch,
    releaseChannel: d.releaseChannel,
    releaseChannelVersion: d.releaseChannelVersion,
    releaseChannelVersionHold: d.releaseChannelVersionHold,
    currentVersion: d.currentVersion,
    template: d.template,
    templateVariables: d.templateVariables,
    defaultLaunchpadViewGroup: d.defaultLaunchpadViewGroup,
    launchpadTabs: d.launchpadTabs,
    storageProvider: d.storageProvider,
    sqlRunnerDdlEnabled: d.sqlRunnerDdlEnabled,
    creationStep: d.creationStep,
    envVars: allEnvVars(ctx, deploymentId),
    dataSources: listDataSources(ctx, deploymentId).map(toDataSourceSummary),
  };
}

/** The versions a deployment can switch to, per release channel. */
export function getVersionCatalog(ctx: ServiceContext, deploymentId: number) {
  const d = getDeployment(ctx, deploymentId);
  return {
    releaseChannel: d.releaseChannel,
    releaseChannelVersion: d.releaseChannelVersion,
    releaseChannelVersionHold: d.releaseChannelVersionHold,
    currentVersion: d.currentVersion,
    channels: RELEASE_CHANNELS.map((channel) => ({
      releaseChannel: channel,
      latestVersion: RELEASE_VERSIONS[channel][0].version,
      versions: RELEASE_VERSIONS[channel].map((v) => ({ ...v })),
    })),
  };
}
