/**
 * Addresses of the Syncs screen: `/syncs/:deploymentId/warehouse[/push|pull/:jobId]`,
 * `/syncs/:deploymentId/lakehouse[/:dataSource[/:section[/:runId]]]`, `/syncs/:deploymentId/transform[/:jobId]`.
 */
export type SyncsTab = 'warehouse' | 'lakehouse' | 'transform';
export type LakehouseSection = 'settings' | 'preview' | 'runs';

const enc = encodeURIComponent;

export const syncsPath = (deploymentId?: number, tab: SyncsTab = 'warehouse') => (deploymentId === undefined ? '/syncs' : `/syncs/${deploymentId}/${tab}`);
export const warehouseJobPath = (deploymentId: number, direction: 'push' | 'pull', syncJobId: string) => `/syncs/${deploymentId}/warehouse/${direction}/${enc(syncJobId)}`;
export const lakehousePath = (deploymentId: number, dataSource?: string, section?: LakehouseSection, runId?: string) =>
  `/syncs/${deploymentId}/lakehouse${dataSource ? `/${enc(dataSource)}${section ? `/${section}${runId ? `/${enc(runId)}` : ''}` : ''}` : ''}`;

/** The transform syncs of a deployment, one marked. */
export const transformPath = (deploymentId: number, syncJobId?: string) => `/syncs/${deploymentId}/transform${syncJobId ? `/${enc(syncJobId)}` : ''}`;

/** `/x/3` path segment → positive integer, or null. */
export const idOf = (segment: string | undefined): number | null => (segment !== undefined && /^[1-9]\d*$/.test(segment) ? Number(segment) : null);
