// The members a query can pick, from the data API's `meta` of the branch shown (as the service
// compiled it, saved edits included, filtered by the caller's access policies).
import { deploymentDataApi, devModeDataApi } from '../../../../../src-shared/api/queries';
import type { MetaEntity } from '../../../../../src-shared/model/query';
import { api } from '../../../app/session';

export interface Catalog {
  entities: MetaEntity[];
}

export async function loadCatalog(deploymentId: number, branch: string | null, isDeployBranch: boolean, signal: AbortSignal): Promise<Catalog> {
  const meta = isDeployBranch || !branch
    ? await api.call(deploymentDataApi.meta, { params: { deploymentId }, query: {}, signal })
    : await api.call(devModeDataApi.meta, { params: { deploymentId, branchName: branch }, query: {}, signal });
  return { entities: ((meta as { cubes?: MetaEntity[] }).cubes ?? []) };
}

export { EMPTY_PICK, fromQuery, memberLabel, toQuery, type PickedQuery } from './pick';
