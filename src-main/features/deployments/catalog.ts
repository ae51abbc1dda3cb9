import {
  CREATION_STEPS,
  type CloudProvider,
  type CreationStepState,
  type ReleaseChannel,
} from '../../../src-shared/api/deployments';

/** Regions per cloud provider; the first of each list is the default for new deployments. */
export const REGIONS: Record<CloudProvider, { code: string; name: string }[]> = {
  aws: [
    { code: 'us-east-1', name: 'US East (N. Virginia)' },
    { code: 'us-east-2', name: 'US East (Ohio)' },
    { code: 'us-west-2', name: 'US West (Oregon)' },
    { code: 'ca-central-1', name: 'Canada (Central)' },
    { code: 'eu-west-1', name: 'Europe (Ireland)' },
    { code: 'eu-west-2', name: 'Europe (London)' },
    { code: 'eu-central-1', name: 'Europe (Frankfurt)' },
    { code: 'ap-south-1', name: 'Asia Pacific (Mumbai)' },
    { code: 'ap-southeast-1', name: 'Asia Pacific (Singapore)' },
    { code: 'ap-southeast-2', name: 'Asia Pacific (Sydney)' },
    { code: 'ap-northeast-1', name: 'Asia Pacific (Tokyo)' },
    { code: 'sa-east-1', name: 'South America (São Paulo)' },
  ],
  gcp: [
    { code: 'us-central1', name: 'Iowa' },
    { code: 'us-east4', name: 'Northern Virginia' },
    { code: 'us-west1', name: 'Oregon' },
    { code: 'northamerica-northeast1', name: 'Montréal' },
    { code: 'europe-west1', name: 'Belgium' },
    { code: 'europe-west2', name: 'London' },
    { code: 'europe-west3', name: 'Frankfurt' },
    { code: 'asia-south1', name: 'Mumbai' },
    { code: 'asia-southeast1', name: 'Singapore' },
    { code: 'asia-northeast1', name: 'Tokyo' },
    { code: 'australia-southeast1', name: 'Sydney' },
  ],
  azure: [
    { code: 'eastus', name: 'East US' },
    { code: 'eastus2', name: 'East US 2' },
    { code: 'centralus', name: 'Central US' },
    { code: 'westus2', name: 'West US 2' },
    { code: 'canadacentral', name: 'Canada Central' },
    { code: 'westeurope', name: 'West Europe' },
    { code: 'northeurope', name: 'North Europe' },
    { code: 'uksouth', name: 'UK South' },
    { code: 'southeastasia', name: 'Southeast Asia' },
    { code: 'japaneast', name: 'Japan East' },
    { code: 'australiaeast', name: 'Australia East' },
  ],
};

export const defaultRegion = (provider: CloudProvider): string => REGIONS[provider][0].code;

export const isRegionOf = (provider: CloudProvider, code: string): boolean => REGIONS[provider].some((r) => r.code === code);

/** Versions each release channel offers, newest first. A fixed catalogue: this service runs one engine. */
export const RELEASE_VERSIONS: Record<ReleaseChannel, { version: string; releasedAt: string }[]> = {
  stable: [
    { version: '1.3.18', releasedAt: '2025-05-12T00:00:00.000Z' },
    { version: '1.3.15', releasedAt: '2025-04-22T00:00:00.000Z' },
    { version: '1.2.33', releasedAt: '2025-03-31T00:00:00.000Z' },
    { version: '1.2.30', releasedAt: '2025-03-10T00:00:00.000Z' },
  ],
  regular: [
    { version: '1.3.25', releasedAt: '2025-06-30T00:00:00.000Z' },
    { version: '1.3.24', releasedAt: '2025-06-23T00:00:00.000Z' },
    { version: '1.3.23', releasedAt: '2025-06-16T00:00:00.000Z' },
    { version: '1.3.22', releasedAt: '2025-06-09T00:00:00.000Z' },
    { version: '1.3.21', releasedAt: '2025-06-02T00:00:00.000Z' },
  ],
};

export const latestVersion = (channel: ReleaseChannel): string => RELEASE_VERSIONS[channel][0].version;

export const isVersionOf = (channel: ReleaseChannel, version: string): boolean =>
  RELEASE_VERSIONS[channel].some((v) => v.version === version);

/** The wizard state for a number of completed steps. */
export function creationStepState(done: number): CreationStepState {
  const index = Math.max(0, Math.min(done, CREATION_STEPS.length));
  const completed = index >= CREATION_STEPS.length;
  return {
    currentStep: completed ? null : CREATION_STEPS[index].id,
    index,
    completed,
    steps: CREATION_STEPS.map((step, i) => ({
      id: step.id,
      title: step.title,
      status: i < index ? ('done' as const) : i === index ? ('current' as const) : ('pending' as const),
    })),
  };
}
