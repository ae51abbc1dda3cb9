import { useEffect, useState } from 'react';
import { listDeployments, type Deployment } from '../../../../src-shared/api/deployments';
import { listWorkbooks, type Workbook } from '../../../../src-shared/api/workbooks';
import { api } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import { useQuery, type Query } from '../../lib/useQuery';
import { liveWriteOf } from '../../lib/live';

/** Every deployment the caller can read (pickers and names of the other side of a promotion). */
export function useDeploymentList(): Query<Deployment[]> {
  return useQuery(
    (signal) => fetchAllPages((after) => api.call(listDeployments, { query: { first: 500, ...(after ? { after } : {}) }, signal })),
    [],
    'Loading deployments',
  );
}

/** `analytics-prod` for a known id, `deployment 7` otherwise. */
export const deploymentLabel = (deployments: Deployment[] | null, id: number): string =>
  deployments?.find((d) => d.id === id)?.name ?? `deployment ${id}`;

/** Workbooks of a deployment matching `search` (name or slug); none while no deployment is chosen. */
export function useWorkbookList(deploymentId: number | null, search: string, version = 0): Query<Workbook[]> {
  return useQuery(
    async (signal) => {
      if (deploymentId === null) return [];
      const query = search.trim() ? { search: search.trim() } : {};
      return fetchAllPages((after) => api.call(listWorkbooks, { params: { deploymentId }, query: { first: 200, ...query, ...(after ? { after } : {}) }, signal }), 1000);
    },
    [deploymentId, search.trim(), version],
    'Loading workbooks',
    liveWriteOf(deploymentId, (operationId) => /workbook|promotion/i.test(operationId)),
  );
}

/** `value`, once it has stopped changing for `delay` ms (search boxes). */
export function useDebounced<T>(value: T, delay = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
