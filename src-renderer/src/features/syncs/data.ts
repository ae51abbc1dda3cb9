import { useEffect, useState } from 'react';
import type { Static } from 'typebox';
import { listBranches, type Branch } from '../../../../src-shared/api/data-model';
import { getDeploymentSettings, listDeployments, type Deployment, type DeploymentSettings } from '../../../../src-shared/api/deployments';
import { getDevTarget, type DevTarget } from '../../../../src-shared/api/dev-targets';
import { listDataSourceSchemas, type DataSourceSchemas } from '../../../../src-shared/api/queries';
import { api, useSession } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import { isListed } from '../../lib/SchemaPicker';
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

/** The signed-in user's active dev-mode branch among `branches` (undefined when not in dev mode). */
export function myDevBranch(branches: Branch[] | null): Branch | undefined {
  const me = useSession.getState().user;
  return branches?.find((b) => b.kind === 'personal' && b.isDevMode && me !== null && b.ownerUserId === me.id);
}

/**
 * The branch a push or pull dialog works on: the user's own dev branch when in dev mode (what
 * they are working on), else the deploy branch — until the user picks another one.
 */
export function useDialogBranch(deployBranch: string, branches: Branch[] | null): [string, (branch: string) => void] {
  const [picked, setPicked] = useState<string | null>(null);
  const [branch, setBranch] = useState(deployBranch);
  useEffect(() => {
    if (picked !== null) return;
    const dev = myDevBranch(branches);
    if (dev) setBranch(dev.branchName);
  }, [branches, picked]);
  return [picked ?? branch, setPicked];
}

/** Where pushes from `branch` write: the owner's per-user target for a dev branch (null while loading). */
export function useDevTarget(deploymentId: number, branch: string): Query<DevTarget> {
  return useQuery((signal) => api.call(getDevTarget, { params: { deploymentId }, query: { branchName: branch }, signal }), [deploymentId, branch], 'Reading the dev target');
}

/**
 * The warehouse schema of the push and pull dialogs: empty until the data source's schemas are
 * read, then PUBLIC where it exists (else the first schema), unless the user typed one first.
 */
export function useDefaultSchema(existing: readonly string[] | null) {
  const [schema, setSchema] = useState('');
  useEffect(() => {
    if (existing) setSchema((typed) => typed || (isListed(existing, 'PUBLIC') ? 'PUBLIC' : (existing[0] ?? '')));
  }, [existing]);
  return [schema, setSchema] as const;
}

/**
 * The catalogs and schemas that exist in a data source, asked of the data source itself (for the
 * schema pickers). `catalog` picks the database or catalog to list (default: the data source's own);
 * `dataSource` null waits.
 */
export function useDataSourceSchemas(deploymentId: number, dataSource: string | null, catalog?: string | null): Query<DataSourceSchemas> {
  return useQuery(
    (signal) =>
      dataSource
        ? api.call(listDataSourceSchemas, { params: { deploymentId, dataSource }, query: catalog ? { catalog } : {}, signal })
        : new Promise<DataSourceSchemas>(() => undefined),
    [deploymentId, dataSource, catalog ?? null],
    `Listing the ${catalog ? `schemas of ${catalog}` : 'schemas'}`,
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

export { newIdempotencyKey } from '../../lib/retry';
