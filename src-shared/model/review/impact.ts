// Impact of a model change (issue 26): which members it reaches through the model's own lineage
// (SQL references, views, joins, the cube's definition), and through what uses the model from
// outside — views, pushed semantic views, published metric views, dashboard widgets, reports,
// notifications and scheduled tasks — with what breaks outright: a widget or report whose query
// the new model refuses, a push that would drop members, a published view that no longer compiles
// or publishes.

import { analyzeLakehousePublish, analyzeWarehousePush } from '../analyze';
import { duckdbDialect, planQuery, type QuerySecurity } from '../query';
import type { CompiledModel } from '../types';
import { dependenciesOf, joinId, readersOf, type NodeId } from './dependencies';
import { queryMembers, type ReviewFacts } from './facts';
import type { AffectedMember, AffectedReason, ModelChange } from './types';

/** What happens to one thing that uses the model. */
export type UseStatus =
  /** It reads something that changed: its numbers may move. */
  | 'affected'
  /** It worked before and does not after. */
  | 'breaks'
  /** It failed before and works after. */
  | 'fixed'
  /** It fails on both sides (not this change's doing). */
  | 'fails';

export interface QueryUseImpact {
  status: UseStatus;
  /** Affected members the query reads. */
  uses: string[];
  /** Why it fails on the head side (or on both). */
  message: string | null;
}

export interface WidgetImpact extends QueryUseImpact {
  workbookId: number;
  workbookName: string;
  dashboard: 'published' | 'draft';
  widgetId: string;
  title: string | null;
}

export interface ReportImpact extends QueryUseImpact {
  reportId: number;
  name: string;
}

export interface ViewImpact {
  name: string;
  /** Its members the change reaches. */
  affectedMembers: string[];
  /** Members it exposed before and does not after (removed, renamed or made private). */
  droppedMembers: string[];
  removed: boolean;
}

export interface PublishedImpact {
  viewName: string;
  status: 'affected' | 'breaks';
  affectedMembers: string[];
  droppedMembers: string[];
  /** Why it breaks. */
  reasons: string[];
}

export interface PushedViewImpact extends PublishedImpact {
  semanticView: string;
  branchName: string;
  syncJobId: string;
}

export interface MetricViewImpact extends PublishedImpact {
  target: string;
  dataSourceName: string;
  runId: string | null;
}

export interface NotificationImpact {
  notificationId: number;
  name: string;
  workbookId: number;
  status: 'affected' | 'breaks';
}

export interface ScheduledTaskImpact {
  taskId: string;
  name: string;
  /** Affected members, views or cubes its prompt names. */
  mentions: string[];
}

export interface BreakingChange {
  kind: 'widget' | 'report' | 'push' | 'publication' | 'notification';
  /** What breaks, in words: `Sales overview › Orders by status`, `ANALYTICS.PUBLIC.ORDERS`. */
  subject: string;
  message: string;
}

export interface ReviewImpact {
  members: AffectedMember[];
  views: ViewImpact[];
  widgets: WidgetImpact[];
  reports: ReportImpact[];
  pushedViews: PushedViewImpact[];
  publishedViews: MetricViewImpact[];
  notifications: NotificationImpact[];
  scheduledTasks: ScheduledTaskImpact[];
  breaking: BreakingChange[];
}

export interface ImpactOptions {
  /** Whose rights queries are checked with; null checks without access policies. */
  security: QuerySecurity | null;
  now?: Date;
  /** Cubes and views that did not compile on the head side (their views no longer publish). */
  uncompiledHead?: ReadonlySet<string>;
}

const isPublicMember = (model: CompiledModel, name: string): boolean => {
  const [entityName, memberName] = name.split('.') as [string, string];
  const cube = model.cubes[entityName];
  if (cube) {
    const m = cube.dimensions[memberName] ?? cube.measures[memberName] ?? cube.segments[memberName];
    return Boolean(m && m.public && cube.public);
  }
  const view = model.views[entityName];
  return Boolean(view && view.public && view.members[memberName]);
};

/** The members a change reaches, on either side, each with why. */
export function affectedMembers(base: CompiledModel, head: CompiledModel, changes: ModelChange[]): AffectedMember[] {
  const baseDeps = dependenciesOf(base);
  const headDeps = dependenciesOf(head);
  const direct = new Map<NodeId, AffectedMember>();
  const starts = new Set<NodeId>();
  const kindOf = (name: string) => headDeps.members.get(name) ?? baseDeps.members.get(name);
  const mark = (name: string, reason: AffectedReason, extra: Partial<AffectedMember> = {}) => {
    const kind = kindOf(name);
    if (!kind || direct.has(name)) return;
    direct.set(name, { name, kind, reason, via: [], gone: reason === 'removed' || reason === 'renamed' || !isPublicMember(head, name), ...extra });
  };
  for (const c of changes) {
    if (c.effect === 'metadata') continue;
    switch (c.target) {
      case 'dimension':
      case 'measure':
      case 'segment':
      case 'view_member':
        if (c.kind === 'renamed') {
          mark(c.previousName!, 'renamed', { renamedTo: c.name });
          starts.add(c.previousName!);
        } else if (c.kind !== 'added') {
          mark(c.name, c.kind === 'removed' ? 'removed' : 'changed');
          starts.add(c.name);
        }
        break;
      case 'cube':
      case 'view': {
        starts.add(c.name);
        if (c.kind === 'removed') {
          for (const [id] of baseDeps.members) if (id.startsWith(`${c.name}.`)) mark(id, 'removed');
        }
        break;
      }
      case 'join':
        starts.add(c.name);
        break;
    }
  }
  const out = new Map(direct);
  for (const deps of [baseDeps, headDeps]) {
    for (const [node, origin] of readersOf(deps, starts)) {
      if (out.has(node) || !deps.members.has(node)) continue;
      const reason: AffectedReason = origin.includes('->') ? 'join' : origin.includes('.') ? 'depends' : 'entity';
      out.set(node, { name: node, kind: deps.members.get(node)!, reason, via: [origin], gone: !isPublicMember(head, node) });
    }
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Why the model refuses a query, or null when it plans. */
function refusal(model: CompiledModel, query: unknown, options: ImpactOptions): string | null {
  try {
    planQuery(model, query, { dialect: duckdbDialect, security: options.security, now: options.now });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function queryImpact(base: CompiledModel, head: CompiledModel, query: unknown, affected: ReadonlySet<string>, changedJoins: [string, string][], options: ImpactOptions): QueryUseImpact | null {
  const members = queryMembers(query);
  const uses = members.filter((m) => affected.has(m));
  const cubes = new Set(members.map((m) => m.split('.')[0]!));
  for (const [a, b] of changedJoins) if (cubes.has(a) && cubes.has(b)) uses.push(joinId(a, b));
  const before = refusal(base, query, options);
  const after = refusal(head, query, options);
  if (before === null && after !== null) return { status: 'breaks', uses, message: after };
  if (before !== null && after === null) return { status: 'fixed', uses, message: null };
  if (before !== null && after !== null) return uses.length > 0 ? { status: 'fails', uses, message: after } : null;
  return uses.length > 0 ? { status: 'affected', uses, message: null } : null;
}

const viewMemberNames = (model: CompiledModel, view: string): string[] => {
  const v = model.views[view];
  if (!v || !v.public) return [];
  return Object.entries(v.members)
    .filter(([, m]) => m.kind !== 'hierarchy')
    .map(([name]) => name)
    .filter((name) => isPublicMember(model, `${view}.${name}`));
};

function viewImpacts(base: CompiledModel, head: CompiledModel, affected: readonly { name: string }[]): ViewImpact[] {
  const out: ViewImpact[] = [];
  const names = [...new Set([...Object.keys(base.views), ...Object.keys(head.views)])].sort();
  for (const name of names) {
    const affectedMembers = affected.filter((m) => m.name.startsWith(`${name}.`)).map((m) => m.name);
    const headMembers = new Set(viewMemberNames(head, name));
    const droppedMembers = viewMemberNames(base, name)
      .filter((m) => !headMembers.has(m))
      .map((m) => `${name}.${m}`);
    const removed = Boolean(base.views[name]) && !head.views[name];
    if (affectedMembers.length > 0 || droppedMembers.length > 0 || removed) out.push({ name, affectedMembers, droppedMembers, removed });
  }
  return out;
}

const list = (names: string[], limit = 5) => (names.length <= limit ? names.join(', ') : `${names.slice(0, limit).join(', ')} and ${names.length - limit} more`);

function publishedImpact(view: ViewImpact | undefined, name: string, head: CompiledModel, wasOk: boolean, isOk: () => string[], uncompiled: ReadonlySet<string>): PublishedImpact | null {
  const reasons: string[] = [];
  if (uncompiled.has(name)) reasons.push(`view ${name} no longer compiles`);
  else if (!head.views[name]) reasons.push(`view ${name} was removed`);
  else {
    if (view && view.droppedMembers.length > 0) reasons.push(`it would drop ${list(view.droppedMembers)}`);
    if (wasOk) reasons.push(...isOk());
  }
  if (reasons.length > 0) return { viewName: name, status: 'breaks', affectedMembers: view?.affectedMembers ?? [], droppedMembers: view?.droppedMembers ?? [], reasons };
  if (view && view.affectedMembers.length > 0) return { viewName: name, status: 'affected', affectedMembers: view.affectedMembers, droppedMembers: [], reasons: [] };
  return null;
}

/** Names in a prompt, as whole words (`orders.count`, `orders_overview`). */
function mentions(prompt: string, names: Iterable<string>): string[] {
  const found: string[] = [];
  for (const name of names) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(^|[^\\w.])${escaped}($|[^\\w])`).test(prompt)) found.push(name);
  }
  return found.sort();
}

export function reviewImpact(base: CompiledModel, head: CompiledModel, changes: ModelChange[], facts: ReviewFacts, options: ImpactOptions): ReviewImpact {
  const members = affectedMembers(base, head, changes);
  const affected = new Set(members.map((m) => m.name));
  const changedJoins = changes.filter((c) => c.target === 'join').map((c) => c.name.split('->') as [string, string]);
  const views = viewImpacts(base, head, members);
  const viewByName = new Map(views.map((v) => [v.name, v]));
  const uncompiled = options.uncompiledHead ?? new Set<string>();
  const breaking: ReviewImpact['breaking'] = [];

  const widgets: WidgetImpact[] = [];
  for (const w of facts.widgets) {
    const impact = queryImpact(base, head, w.query, affected, changedJoins, options);
    if (!impact) continue;
    widgets.push({ workbookId: w.workbookId, workbookName: w.workbookName, dashboard: w.dashboard, widgetId: w.widgetId, title: w.title, ...impact });
    if (impact.status === 'breaks') {
      breaking.push({ kind: 'widget', subject: `${w.workbookName} › ${w.title ?? w.widgetId}${w.dashboard === 'draft' ? ' (draft)' : ''}`, message: impact.message! });
    }
  }
  const reports: ReportImpact[] = [];
  for (const r of facts.reports) {
    const impact = queryImpact(base, head, r.query, affected, changedJoins, options);
    if (!impact) continue;
    reports.push({ reportId: r.reportId, name: r.name, ...impact });
    if (impact.status === 'breaks') breaking.push({ kind: 'report', subject: r.name, message: impact.message! });
  }

  const pushedViews: PushedViewImpact[] = [];
  for (const p of facts.pushes) {
    if (!base.views[p.viewName] && !head.views[p.viewName]) continue;
    const wasPushable = Boolean(base.views[p.viewName]) && analyzeWarehousePush(base, p.viewName).pushable;
    const impact = publishedImpact(viewByName.get(p.viewName), p.viewName, head, wasPushable, () => {
      const analysis = analyzeWarehousePush(head, p.viewName);
      return analysis.pushable ? [] : [`it can no longer be pushed: ${analysis.issues.filter((d) => d.severity === 'error').map((d) => d.message).slice(0, 3).join('; ')}`];
    }, uncompiled);
    if (!impact) continue;
    pushedViews.push({ ...impact, semanticView: p.semanticView, branchName: p.branchName, syncJobId: p.syncJobId });
    if (impact.status === 'breaks') breaking.push({ kind: 'push', subject: p.semanticView, message: `The push of ${p.viewName} breaks: ${impact.reasons.join('; ')}.` });
  }

  const publishedViews: MetricViewImpact[] = [];
  for (const p of facts.publications) {
    if (!base.views[p.viewName] && !head.views[p.viewName]) continue;
    const opts = { dataSource: p.dataSourceName, catalogConfigured: true };
    const wasPublishable = Boolean(base.views[p.viewName]) && analyzeLakehousePublish(base, p.viewName, opts).status !== 'blocked';
    const impact = publishedImpact(viewByName.get(p.viewName), p.viewName, head, wasPublishable, () => {
      const analysis = analyzeLakehousePublish(head, p.viewName, opts);
      return analysis.status === 'blocked' ? [`it can no longer be published: ${analysis.blockedReasons.map((d) => d.message).slice(0, 3).join('; ')}`] : [];
    }, uncompiled);
    if (!impact) continue;
    publishedViews.push({ ...impact, target: p.target, dataSourceName: p.dataSourceName, runId: p.runId });
    if (impact.status === 'breaks') breaking.push({ kind: 'publication', subject: p.target, message: `The metric view of ${p.viewName} breaks: ${impact.reasons.join('; ')}.` });
  }

  // A notification delivers a workbook's published dashboard.
  const notifications: NotificationImpact[] = [];
  for (const n of facts.notifications) {
    const used = widgets.filter((w) => w.workbookId === n.workbookId && w.dashboard === 'published' && w.status !== 'fixed' && w.status !== 'fails');
    if (used.length === 0) continue;
    const breaks = used.some((w) => w.status === 'breaks');
    notifications.push({ notificationId: n.notificationId, name: n.name, workbookId: n.workbookId, status: breaks ? 'breaks' : 'affected' });
    if (breaks && n.enabled) breaking.push({ kind: 'notification', subject: n.name, message: `Notification ${n.name} delivers a dashboard with a widget that breaks.` });
  }

  const named = new Set([...affected, ...views.map((v) => v.name)]);
  const scheduledTasks: ScheduledTaskImpact[] = [];
  for (const t of facts.scheduledTasks) {
    const found = mentions(t.prompt, named);
    if (found.length > 0) scheduledTasks.push({ taskId: t.taskId, name: t.name, mentions: found });
  }

  return { members, views, widgets, reports, pushedViews, publishedViews, notifications, scheduledTasks, breaking };
}
