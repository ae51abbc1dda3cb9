// The queries of every dashboard widget of a deployment (published and draft), for what reads the
// model from outside (change review, issue 26). Private workbooks only for their owner and admins.
import type { WidgetFact } from '../../../src-shared/model/review';
import type { ServiceContext } from '../../context';
import { parseDashboard } from './dashboard';

/** A widget's query as the change review takes it. */
export type WidgetQuery = WidgetFact;

/** Who is looking: private workbooks are theirs only when they own them or are an admin. */
export interface WorkbookViewer {
  userId: number | null;
  admin: boolean;
}

interface Row {
  id: number;
  name: string;
  owner_user_id: number | null;
  shared: number;
  dashboard_draft: string | null;
  dashboard_published: string | null;
}

const titleOf = (config: unknown): string | null => {
  const title = (config as { title?: unknown } | null | undefined)?.title;
  return typeof title === 'string' && title.trim() ? title : null;
};

export function dashboardWidgetQueries(ctx: ServiceContext, deploymentId: number, viewer: WorkbookViewer): WidgetQuery[] {
  const rows = ctx.db
    .prepare('SELECT id, name, owner_user_id, shared, dashboard_draft, dashboard_published FROM workbooks WHERE deployment_id = ? ORDER BY id')
    .all(deploymentId) as Row[];
  const out: WidgetQuery[] = [];
  for (const row of rows) {
    if (row.shared !== 1 && !viewer.admin && (row.owner_user_id === null || row.owner_user_id !== viewer.userId)) continue;
    for (const [dashboard, text] of [['published', row.dashboard_published], ['draft', row.dashboard_draft]] as const) {
      for (const widget of parseDashboard(text)?.widgets ?? []) {
        const config = widget.config as Record<string, unknown> | null | undefined;
        const query = config?.query;
        if (!query || typeof query !== 'object' || Array.isArray(query)) continue;
        out.push({ workbookId: row.id, workbookName: row.name, dashboard, widgetId: widget.id, title: titleOf(config), query });
      }
    }
  }
  return out;
}
