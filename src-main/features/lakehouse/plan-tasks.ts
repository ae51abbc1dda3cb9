// Compute-thread side of lakehouse publication: parse the deployed build's model and generate the
// metric view YAML of every view in scope, so runs, previews and access tests never parse or
// generate on the HTTP thread. Runs on a compute thread (workers/compute-worker.ts).
import { snapshotModel } from '../builds/build-tasks';
import { isQuery, joinSources, planView, type TargetSettings, type ViewPlan } from './plan';
import { resolveScope, scopeModelOf, scopeViewsOf, type ResolvedScope, type ScopeInput, type ScopeView } from './scope';

export interface PlanPublicationInput {
  /** The deployed build's snapshot file. */
  snapshotFile: string;
  /** The lakehouse data source published to: its scope holds only the views on it. */
  dataSource: string;
  /** The data source's catalog setting. */
  catalog: string | null;
  scope: ScopeInput;
  settings: TargetSettings;
}

/** Names, visibility and data sources of a snapshot's views (what a publication scope is resolved against). */
export function snapshotViews(input: { file: string }): ScopeView[] {
  return scopeViewsOf(snapshotModel(input.file));
}

/** The views a scope resolves to and, unless there are too many, the plan of each. */
export function planPublication(input: PlanPublicationInput): { scope: ResolvedScope; plans: ViewPlan[] } {
  const model = snapshotModel(input.snapshotFile);
  const scope = resolveScope(scopeModelOf(model), input.scope, input.dataSource);
  if (scope.tooLarge) return { scope, plans: [] };
  const ds = { name: input.dataSource, catalog: input.catalog };
  return { scope, plans: scope.views.map((view) => planView(model, ds, input.settings, view)) };
}

/** The tables the views in scope read (what an access test checks SELECT on). */
export function publicationSources(input: PlanPublicationInput): string[] {
  const { plans } = planPublication(input);
  const sources = new Set<string>();
  for (const plan of plans) {
    if (!plan.generated.spec) continue;
    if (!isQuery(plan.generated.spec.source)) sources.add(plan.generated.spec.source);
    joinSources(plan.generated.spec.joins, sources);
  }
  return [...sources];
}
