import { getWarehouseSemanticViewPull, getWarehouseSemanticViewSync, type SyncJob } from '../../../../../src-shared/api/warehouse-sync';
import { api } from '../../../app/session';
import { track } from '../tracker';
import { endAnnouncement, isTerminal } from './format';

export * from './format';

export const trackerGroup = (deploymentId: number): string => `warehouse:${deploymentId}`;

/** Watches an unfinished job until it ends, then announces it. */
export function trackJob(deploymentId: number, job: Pick<SyncJob, 'syncJobId' | 'direction' | 'status'>): void {
  if (isTerminal(job.status)) return;
  const params = { deploymentId, syncJobId: job.syncJobId };
  track<SyncJob>({
    key: `warehouse:${deploymentId}:${job.syncJobId}`,
    group: trackerGroup(deploymentId),
    load: () => api.call(job.direction === 'push' ? getWarehouseSemanticViewSync : getWarehouseSemanticViewPull, { params }),
    isDone: (value) => isTerminal(value.status),
    announce: (value) => endAnnouncement(deploymentId, value),
  });
}
