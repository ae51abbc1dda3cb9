export type DashboardVersion = 'published' | 'draft';

export const workbooksPath = (deploymentId?: number) => (deploymentId === undefined ? '/workbooks' : `/workbooks/${deploymentId}`);
export const workbookPath = (deploymentId: number, workbookId: number, version?: DashboardVersion) =>
  `/workbooks/${deploymentId}/${workbookId}${version ? `/${version}` : ''}`;
export const editPath = (deploymentId: number, workbookId: number) => `/workbooks/${deploymentId}/${workbookId}/edit`;
export const promotionPath = (deploymentId?: number, workbookId?: number) =>
  deploymentId === undefined ? '/promotions' : workbookId === undefined ? `/promotions/${deploymentId}` : `/promotions/${deploymentId}/${workbookId}`;

export { AppLink } from '../../lib/AppLink';

/** `/x/3/4` path segment → positive integer, or null. */
export const idOf = (segment: string | undefined): number | null => (segment !== undefined && /^[1-9]\d*$/.test(segment) ? Number(segment) : null);
