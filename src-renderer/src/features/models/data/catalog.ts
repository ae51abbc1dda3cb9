// The members a query can pick, from the data API's `meta` of the branch shown (as the service
// compiled it, saved edits included, filtered by the caller's access policies).
import { deploymentDataApi, devModeDataApi } from '../../../../../src-shared/api/queries';
import type { MetaEntity, MetaMember } from '../../../../../src-shared/model/query';
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

export interface PickedQuery {
  measures: string[];
  dimensions: string[];
  time: { dimension: string; granularity: string; from: string; to: string } | null;
  segments: string[];
  filters: { member: string; operator: string; values: string }[];
  limit: number;
  timezone: string;
}

export const EMPTY_PICK: PickedQuery = { measures: [], dimensions: [], time: null, segments: [], filters: [], limit: 1000, timezone: 'UTC' };

/** The REST query of what was picked. */
export function toQuery(pick: PickedQuery): Record<string, unknown> {
  const q: Record<string, unknown> = {};
  if (pick.measures.length) q.measures = pick.measures;
  if (pick.dimensions.length) q.dimensions = pick.dimensions;
  if (pick.segments.length) q.segments = pick.segments;
  if (pick.time) {
    const td: Record<string, unknown> = { dimension: pick.time.dimension };
    if (pick.time.granularity) td.granularity = pick.time.granularity;
    if (pick.time.from && pick.time.to) td.dateRange = [pick.time.from, pick.time.to];
    q.timeDimensions = [td];
  }
  const filters = pick.filters
    .filter((f) => f.member && f.operator)
    .map((f) => ({ member: f.member, operator: f.operator, ...(f.operator === 'set' || f.operator === 'notSet' ? {} : { values: f.values.split(',').map((v) => v.trim()).filter(Boolean) }) }));
  if (filters.length) q.filters = filters;
  q.limit = pick.limit;
  if (pick.timezone && pick.timezone !== 'UTC') q.timezone = pick.timezone;
  return q;
}

export const memberLabel = (m: MetaMember) => m.shortTitle || m.name;
