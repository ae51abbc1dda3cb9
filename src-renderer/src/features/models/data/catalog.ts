// The members a query can pick, from the data API's `meta` of the branch shown (as the service
// compiled it, saved edits included, filtered by the caller's access policies).
import { deploymentDataApi, devModeDataApi, META_HIDDEN_KEY } from '../../../../../src-shared/api/queries';
import type { HiddenEntity, MetaEntity } from '../../../../../src-shared/model/query';
import { api } from '../../../app/session';

export interface Catalog {
  entities: MetaEntity[];
  /** Cubes and views access policies hide from this user (the service's extension of `meta`; absent from other services). */
  hidden: HiddenEntity[];
}

export async function loadCatalog(deploymentId: number, branch: string | null, isDeployBranch: boolean, signal: AbortSignal): Promise<Catalog> {
  const meta = isDeployBranch || !branch
    ? await api.call(deploymentDataApi.meta, { params: { deploymentId }, query: {}, signal })
    : await api.call(devModeDataApi.meta, { params: { deploymentId, branchName: branch }, query: {}, signal });
  const hidden = (meta as Record<string, unknown>)[META_HIDDEN_KEY];
  return { entities: (meta as { cubes?: MetaEntity[] }).cubes ?? [], hidden: Array.isArray(hidden) ? (hidden as HiddenEntity[]) : [] };
}

export { EMPTY_PICK, fromQuery, memberLabel, toQuery, type PickedQuery } from './pick';
