// The queries of a data diff (issue 26): every affected widget's and report's query as it is, and,
// for each affected view, its affected measures by each of its dimensions (all its measures by a
// dimension that changed itself), up to a bound — each as a pair, the base side in the base
// model's names and the head side in the head model's (a renamed member is queried under both of
// its names), then planned on both sides.

import { canonical } from './attributes';
import { DIALECTS, duckdbDialect, planQuery, QueryError, QueryErrorCodes, type DialectName, type FlatStatement, type LoadQuery, type QuerySecurity } from '../query';
import type { CompiledModel, CompiledView } from '../types';
import type { ReviewFacts } from './facts';
import type { ReviewImpact } from './impact';
import type { ModelChange } from './types';

export interface DataDiffLimits {
  /** Dimensions of one view queried at most (affected ones first). */
  maxViewDimensions: number;
  /** Measures in one view query at most. */
  maxViewMeasures: number;
  /** Queries at most, widgets first, then reports, then views. */
  maxQueries: number;
  /** Rows read per side and query at most. */
  rowLimit: number;
}

export const DEFAULT_DATA_DIFF_LIMITS: DataDiffLimits = { maxViewDimensions: 10, maxViewMeasures: 20, maxQueries: 200, rowLimit: 1000 };

export type DiffQuerySource =
  | { kind: 'widget'; widgets: { workbookId: number; widgetId: string; dashboard: 'published' | 'draft' }[] }
  | { kind: 'report'; reportIds: number[] }
  | { kind: 'view'; view: string; dimension: string | null };

export interface DiffQuery {
  /** Stable within a review: `widget:<workbook>:<widget>`, `report:<id>`, `view:<name>:<dimension or *>`. */
  id: string;
  label: string;
  source: DiffQuerySource;
  base: LoadQuery;
  head: LoadQuery;
  /** Head member names → base member names, where they differ (renames). */
  renamed: Record<string, string>;
}

const isQuery = (value: unknown): value is LoadQuery => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** A stored query with its row limit held to the bound (what it would show is still compared, up to it). */
function bounded(query: LoadQuery, rowLimit: number): LoadQuery {
  const limit = typeof query.limit === 'number' && query.limit > 0 ? Math.min(query.limit, rowLimit) : rowLimit;
  return { ...query, limit };
}

function viewPairs(base: CompiledView, head: CompiledView, renamedFrom: ReadonlyMap<string, string>, kind: 'measure' | 'dimension') {
  const pairs: { head: string; base: string; time: boolean; type: string | undefined }[] = [];
  for (const [name, member] of Object.entries(head.members)) {
    if (member.kind !== kind) continue;
    const baseName = renamedFrom.get(`${head.name}.${name}`)?.split('.')[1] ?? name;
    const before = base.members[baseName];
    if (!before || before.kind !== kind) continue;
    pairs.push({ head: name, base: baseName, time: member.type === 'time', type: member.type });
  }
  return pairs;
}

/** Members a view query leaves out: those the planner cannot answer without more context. */
function queryable(model: CompiledModel, view: CompiledView, name: string): boolean {
  const m = view.members[name]!;
  const def = m.cube === view.name ? (view.measures[m.member] ?? view.dimensions[m.member]) : (model.cubes[m.cube]?.measures[m.member] ?? model.cubes[m.cube]?.dimensions[m.member]);
  if (!def) return false;
  if (def.kind === 'measure' && (def.multiStage || def.type === 'rank' || def.rollingWindow)) return false;
  return def.public !== false;
}

export function dataDiffQueries(
  base: CompiledModel,
  head: CompiledModel,
  changes: ModelChange[],
  impact: ReviewImpact,
  facts: ReviewFacts,
  limits: DataDiffLimits = DEFAULT_DATA_DIFF_LIMITS,
): DiffQuery[] {
  const out: DiffQuery[] = [];
  const byQuery = new Map<string, DiffQuery>();

  const affectedWidgets = new Set(impact.widgets.filter((w) => w.status === 'affected').map((w) => `${w.workbookId}:${w.dashboard}:${w.widgetId}`));
  for (const w of facts.widgets) {
    if (!affectedWidgets.has(`${w.workbookId}:${w.dashboard}:${w.widgetId}`) || !isQuery(w.query)) continue;
    const query = bounded(w.query, limits.rowLimit);
    const key = `q:${canonical(query)}`;
    const known = byQuery.get(key);
    if (known && known.source.kind === 'widget') {
      known.source.widgets.push({ workbookId: w.workbookId, widgetId: w.widgetId, dashboard: w.dashboard });
      continue;
    }
    const entry: DiffQuery = {
      id: `widget:${w.workbookId}:${w.widgetId}${w.dashboard === 'draft' ? ':draft' : ''}`,
      label: `${w.workbookName} › ${w.title ?? w.widgetId}${w.dashboard === 'draft' ? ' (draft)' : ''}`,
      source: { kind: 'widget', widgets: [{ workbookId: w.workbookId, widgetId: w.widgetId, dashboard: w.dashboard }] },
      base: query,
      head: query,
      renamed: {},
    };
    byQuery.set(key, entry);
    out.push(entry);
  }
  const affectedReports = new Set(impact.reports.filter((r) => r.status === 'affected').map((r) => r.reportId));
  for (const r of facts.reports) {
    if (!affectedReports.has(r.reportId) || !isQuery(r.query)) continue;
    const query = bounded(r.query, limits.rowLimit);
    const key = `q:${canonical(query)}`;
    const known = byQuery.get(key);
    if (known && known.source.kind === 'report') {
      known.source.reportIds.push(r.reportId);
      continue;
    }
    if (known) continue;
    const entry: DiffQuery = { id: `report:${r.reportId}`, label: `Report ${r.name}`, source: { kind: 'report', reportIds: [r.reportId] }, base: query, head: query, renamed: {} };
    byQuery.set(key, entry);
    out.push(entry);
  }

  const renamedFrom = new Map(changes.filter((c) => c.kind === 'renamed' && c.previousName).map((c) => [c.name, c.previousName!]));
  const affected = new Set(impact.members.map((m) => m.name));
  for (const v of impact.views) {
    const before = base.views[v.name];
    const after = head.views[v.name];
    if (!before || !after || v.affectedMembers.length === 0) continue;
    const isAffected = (p: { head: string; base: string }) => affected.has(`${v.name}.${p.head}`) || affected.has(`${v.name}.${p.base}`);
    const measures = viewPairs(before, after, renamedFrom, 'measure').filter((p) => queryable(head, after, p.head) && queryable(base, before, p.base));
    // Measures broken down by a numeric dimension (an amount, an id) compare thousands of groups
    // that say little; strings, booleans and time buckets say where the numbers moved.
    const dimensions = viewPairs(before, after, renamedFrom, 'dimension').filter((p) => p.type !== 'number' && queryable(head, after, p.head) && queryable(base, before, p.base));
    const changedMeasures = measures.filter(isAffected).slice(0, limits.maxViewMeasures);
    const allMeasures = [...changedMeasures, ...measures.filter((p) => !isAffected(p))].slice(0, limits.maxViewMeasures);
    const changedDimensions = dimensions.filter(isAffected);
    const orderedDimensions = [...changedDimensions, ...dimensions.filter((p) => !isAffected(p))].slice(0, limits.maxViewDimensions);
    const renamed: Record<string, string> = {};
    for (const p of [...measures, ...dimensions]) if (p.head !== p.base) renamed[`${v.name}.${p.head}`] = `${v.name}.${p.base}`;
    const side = (which: 'base' | 'head', ms: typeof measures, dim: (typeof dimensions)[number] | null): LoadQuery => {
      const name = (p: { head: string; base: string }) => `${v.name}.${p[which]}`;
      const query: LoadQuery = { measures: ms.map(name), limit: limits.rowLimit };
      if (dim?.time) query.timeDimensions = [{ dimension: name(dim), granularity: 'month' }];
      else if (dim) query.dimensions = [name(dim)];
      if (dim) query.order = [[dim.time ? `${name(dim)}` : name(dim), 'asc']];
      return query;
    };
    if (changedMeasures.length > 0) {
      out.push({ id: `view:${v.name}:*`, label: `${v.name}: totals`, source: { kind: 'view', view: v.name, dimension: null }, base: side('base', changedMeasures, null), head: side('head', changedMeasures, null), renamed });
    }
    for (const d of orderedDimensions) {
      const ms = isAffected(d) ? allMeasures : changedMeasures;
      if (ms.length === 0) continue;
      out.push({ id: `view:${v.name}:${d.head}`, label: `${v.name}: by ${d.head}`, source: { kind: 'view', view: v.name, dimension: `${v.name}.${d.head}` }, base: side('base', ms, d), head: side('head', ms, d), renamed });
    }
  }
  return out.slice(0, limits.maxQueries);
}

/** One side of a planned diff query: the SQL to run, or why the model refuses the query. */
export type PlannedSide =
  | {
      ok: true;
      sql: string;
      params: unknown[];
      dataSource: string;
      dialect: DialectName;
      /**
       * The statement with its column aliases replaced by their positions: two sides (of any
       * queries) with the same key return the same rows, so one run answers both — views that
       * expose the same members under other names plan to such statements.
       */
      runKey: string;
      /** Every column of the result in order; keys in the base model's names. */
      columns: { key: string; kind: 'measure' | 'dimension' | 'timeDimension'; hidden: boolean }[];
      /** The statement's parts when it is one flat GROUP BY (see batch.ts). */
      flat: FlatStatement | null;
    }
  /** `denied`: the access policies that apply to the reviewer hide a member the query reads (not a fault of the model). */
  | { ok: false; message: string; denied: boolean };

export interface PlanSideOptions {
  security: QuerySecurity | null;
  now?: Date;
  /** The dialect of each data source the deployment defines (duckdb when unknown). */
  dialects: Record<string, DialectName>;
}

/** `view.member[.granularity]` with the member part mapped through `renamed`. */
function baseKey(key: string, renamed: Record<string, string>): string {
  const parts = key.split('.');
  const member = `${parts[0]}.${parts[1]}`;
  const mapped = renamed[member];
  return mapped ? [mapped, ...parts.slice(2)].join('.') : key;
}

export function planSide(model: CompiledModel, query: LoadQuery, renamed: Record<string, string>, options: PlanSideOptions): PlannedSide {
  try {
    let plan = planQuery(model, query, { dialect: duckdbDialect, security: options.security, now: options.now });
    const dialect = options.dialects[plan.dataSource] ?? options.dialects[plan.dataSource.toLowerCase()] ?? 'duckdb';
    if (dialect !== 'duckdb') plan = planQuery(model, query, { dialect: DIALECTS[dialect], security: options.security, now: options.now });
    let positional = plan.main.sql;
    plan.columns.forEach((c, i) => (positional = positional.split(`"${c.alias}"`).join(`"c${i}"`)));
    return {
      ok: true,
      sql: plan.main.sql,
      params: plan.main.params,
      dataSource: plan.dataSource,
      dialect,
      runKey: JSON.stringify([plan.dataSource, positional, plan.main.params]),
      columns: plan.columns.map((c) => ({ key: baseKey(c.key, renamed), kind: c.kind, hidden: c.hidden === true })),
      flat: plan.flat,
    };
  } catch (error) {
    const denied = error instanceof QueryError && error.code === QueryErrorCodes.ACCESS_DENIED;
    return { ok: false, message: error instanceof Error ? error.message : String(error), denied };
  }
}
