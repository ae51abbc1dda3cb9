// What a review needs to know beyond the two models (issue 26): what uses the model outside of
// it — dashboard widgets and reports (their queries), semantic views pushed to the warehouse,
// metric views published to the lakehouse, notifications delivering dashboards, scheduled tasks.
// The service reads these; the review only compares them with the change.

export interface WidgetFact {
  workbookId: number;
  workbookName: string;
  dashboard: 'published' | 'draft';
  widgetId: string;
  title: string | null;
  query: unknown;
}

export interface ReportFact {
  reportId: number;
  name: string;
  query: unknown;
}

export interface PushFact {
  viewName: string;
  /** Qualified name of the semantic view the newest push wrote. */
  semanticView: string;
  branchName: string;
  syncJobId: string;
}

export interface PublicationFact {
  viewName: string;
  /** Qualified name of the metric view. */
  target: string;
  dataSourceName: string;
  runId: string | null;
}

export interface NotificationFact {
  notificationId: number;
  name: string;
  workbookId: number;
  enabled: boolean;
}

export interface ScheduledTaskFact {
  taskId: string;
  name: string;
  prompt: string;
  enabled: boolean;
}

export interface ReviewFacts {
  widgets: WidgetFact[];
  reports: ReportFact[];
  pushes: PushFact[];
  publications: PublicationFact[];
  notifications: NotificationFact[];
  scheduledTasks: ScheduledTaskFact[];
}

export const NO_REVIEW_FACTS: ReviewFacts = { widgets: [], reports: [], pushes: [], publications: [], notifications: [], scheduledTasks: [] };

/** Member names a REST query reads (`cube.member`; a time dimension's granularity suffix dropped). */
export function queryMembers(query: unknown): string[] {
  const names = new Set<string>();
  if (!query || typeof query !== 'object' || Array.isArray(query)) return [];
  const q = query as Record<string, unknown>;
  const add = (member: unknown) => {
    if (typeof member !== 'string') return;
    const parts = member.split('.');
    if (parts.length >= 2) names.add(`${parts[0]}.${parts[1]}`);
  };
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  for (const key of ['measures', 'dimensions', 'segments']) for (const m of list(q[key])) add(m);
  for (const td of list(q.timeDimensions)) add((td as { dimension?: unknown } | null)?.dimension);
  const filters = (value: unknown) => {
    for (const f of list(value) as (Record<string, unknown> | null)[]) {
      if (!f || typeof f !== 'object') continue;
      add(f.member ?? f.dimension);
      filters(f.and);
      filters(f.or);
    }
  };
  filters(q.filters);
  const order = q.order;
  if (Array.isArray(order)) for (const entry of order) add(Array.isArray(entry) ? entry[0] : (entry as { id?: unknown } | null)?.id);
  else if (order && typeof order === 'object') for (const key of Object.keys(order)) add(key);
  return [...names];
}
