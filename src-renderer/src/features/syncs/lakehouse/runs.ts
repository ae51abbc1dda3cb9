import { getLakehouseMetricViewPreview, getLakehouseMetricViewSync, type Run, type RunStatus } from '../../../../../src-shared/api/lakehouse';
import { api } from '../../../app/session';
import { isActiveStatus } from '../parts';
import { track } from '../tracker';
import { runAnnouncement } from './outcomes';

export const runsGroup = (deploymentId: number, dataSource: string): string => `lakehouse-runs:${deploymentId}:${dataSource}`;
export const previewGroup = (previewId: string): string => `lakehouse-preview:${previewId}`;

/** Watches an unfinished run until it ends, then announces it. */
export function trackRun(deploymentId: number, dataSource: string, runId: string, status: RunStatus): void {
  if (!isActiveStatus(status)) return;
  track<Run>({
    key: `lakehouse-run:${deploymentId}:${dataSource}:${runId}`,
    group: runsGroup(deploymentId, dataSource),
    load: () => api.call(getLakehouseMetricViewSync, { params: { deploymentId, dataSourceName: dataSource, runId } }),
    isDone: (run) => !isActiveStatus(run.status),
    announce: (run) => runAnnouncement(deploymentId, run),
  });
}

/** Watches a preview until it ends (quietly: the user is looking at it). */
export function trackPreview(deploymentId: number, previewId: string): void {
  track({
    key: `lakehouse-preview:${deploymentId}:${previewId}`,
    group: previewGroup(previewId),
    load: () => api.call(getLakehouseMetricViewPreview, { params: { deploymentId, previewId } }),
    isDone: (preview) => !isActiveStatus(preview.status),
    announce: () => null,
  });
}
