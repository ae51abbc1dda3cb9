// What a publication would write, computed from the compiled model alone (no connector, no
// database): pure, so it runs on a compute thread (see plan-tasks.ts).
import type { CompiledModel } from '../../../src-shared/model';
import { generateMetricViewYaml, type MetricViewJoinSpec, type MetricViewYaml } from '../../../src-shared/model/generate/metric-view-yaml';
import { targetNameOf } from './scope';

export interface TargetSettings {
  targetCatalog: string;
  targetSchema: string;
  targetNamePrefix?: string | null;
  targetNameOverrides?: Record<string, string>;
  rootSourceOverrides?: Record<string, string>;
}

export interface TargetName {
  catalog: string;
  schema: string;
  name: string;
}

export interface ViewPlan {
  viewName: string;
  target: TargetName;
  generated: MetricViewYaml;
}

export function targetOf(settings: TargetSettings, viewName: string): TargetName {
  return { catalog: settings.targetCatalog, schema: settings.targetSchema, name: targetNameOf(settings, viewName) };
}

/** The metric view YAML of a view, or why it is blocked, and where it would be written. */
export function planView(model: CompiledModel, ds: { name: string; catalog: string | null }, settings: TargetSettings, viewName: string): ViewPlan {
  const generated = generateMetricViewYaml(model, viewName, {
    dataSource: ds.name,
    catalog: ds.catalog,
    rootSource: settings.rootSourceOverrides?.[viewName] ?? null,
  });
  return { viewName, target: targetOf(settings, viewName), generated };
}

/** A metric view source that is a query rather than a table name. */
export const isQuery = (source: string): boolean => /^\s*(\(|select\b|with\b|from\b|values\b)/i.test(source);

/** The tables a plan's joins read (recursively), added to `into`. */
export function joinSources(joins: MetricViewJoinSpec[] | undefined, into: Set<string>): void {
  for (const join of joins ?? []) {
    if (!isQuery(join.source)) into.add(join.source);
    joinSources(join.joins, into);
  }
}
