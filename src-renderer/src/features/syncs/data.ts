import type { Static } from 'typebox';
import { listBranches, type Branch } from '../../../../src-shared/api/data-model';
import { getDeploymentSettings, listDeployments, type Deployment, type DeploymentSettings } from '../../../../src-shared/api/deployments';
import { api } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import { useQuery, type Query } from '../../lib/useQuery';
import { loadModelViews, type ModelViews } from './modelViews';

export type Settings = Static<typeof DeploymentSettings>;

export function useDeploymentList(): Query<Deployment[]> {
  return useQuery(
    (signal) => fetchAllPages((after) => api.call(listDeployments, { query: { first: 500, ...(after ? { after } : {}) }, signal })),
    [],
    'Loading deployments',
  );
}

/** Settings of a deployment: deploy branch, DDL switch and data sources (kinds, catalogs). */
export function useDeploymentSettings(deploymentId: number): Query<Settings> {
  return useQuery((signal) => api.call(getDeploymentSettings, { params: { deploymentId }, signal }), [deploymentId], 'Loading the deployment settings');
}

export function useBranches(deploymentId: number, enabled = true): Query<Branch[]> {
  return useQuery(
    async (signal) => (enabled ? fetchAllPages((after) => api.call(listBranches, { params: { deploymentId }, query: { first: 500, ...(after ? { after } : {}) }, signal })) : []),
    [deploymentId, enabled],
    'Loading branches',
  );
}

/** Views of a branch's model, compiled in the page. `branch` null waits (nothing loads). */
export function useModelViews(deploymentId: number, branch: string | null): Query<ModelViews> {
  return useQuery(
    async (signal) => {
      if (branch === null) return { branchName: '', commit: '', views: [], errorCount: 0 };
      return loadModelViews(deploymentId, branch || undefined, signal);
    },
    [deploymentId, branch],
    'Reading the model’s views',
  );
}

export { durationText, elapsedMs, shortCommit, shortId } from './format';

/** A random UUID for idempotency keys (same key on a retried click returns the same job). */
export const newIdempotencyKey = (): string => crypto.randomUUID();
