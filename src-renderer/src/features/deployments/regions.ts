import { listRegions, type CloudProvider } from '../../../../src-shared/api/deployments';
import { api } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import { useQuery } from '../../lib/useQuery';

/** Regions of one cloud provider. */
export function useRegions(cloudProvider: CloudProvider) {
  return useQuery(
    (signal) => fetchAllPages((after) => api.call(listRegions, { query: { cloudProvider, first: 1000, ...(after ? { after } : {}) }, signal })),
    [cloudProvider],
    'Loading regions',
  );
}
