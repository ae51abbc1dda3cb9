// What uses a deployment's model from outside of it (issue 26), read from the areas that own each:
// dashboard widgets and reports (their queries), the semantic views pushes wrote, the metric views
// publications wrote, notifications and scheduled tasks. Only what the reviewer may see.
import type { ReviewFacts } from '../../../src-shared/model/review';
import type { ServiceContext } from '../../context';
import { listDataSources } from '../deployments';
import { listOwnedTargets } from '../lakehouse';
import { notificationsByWorkbook } from '../notifications';
import { reportQueries } from '../reports';
import { scheduledTaskPrompts } from '../scheduled-tasks';
import { currentPushedViews } from '../warehouse-sync';
import { dashboardWidgetQueries } from '../workbooks';

export interface Reviewer {
  userId: number | null;
  admin: boolean;
}

export function readReviewFacts(ctx: ServiceContext, deploymentId: number, reviewer: Reviewer): ReviewFacts {
  const publications = listDataSources(ctx, deploymentId)
    .filter((ds) => ds.kind === 'lakehouse')
    .flatMap((ds) =>
      listOwnedTargets(ctx, deploymentId, ds.name).map((t) => ({ viewName: t.viewName, target: `${t.catalog}.${t.schema}.${t.name}`, dataSourceName: ds.name, runId: t.lastRunId })),
    );
  return {
    widgets: dashboardWidgetQueries(ctx, deploymentId, reviewer),
    reports: reportQueries(ctx, deploymentId),
    pushes: currentPushedViews(ctx, deploymentId),
    publications,
    notifications: notificationsByWorkbook(ctx, deploymentId),
    scheduledTasks: scheduledTaskPrompts(ctx, deploymentId, reviewer),
  };
}
