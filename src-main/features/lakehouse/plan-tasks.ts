// Compute-thread side of lakehouse publication: parse the deployed build's model and generate the
// metric view YAML of every view in scope, so runs, previews and access tests never parse or
// generate on the HTTP thread. Runs on a compute thread (workers/compute-worker.ts).
import { snapshotModel } from '../builds/build-tasks';
import { isQuery, joinSources, planView, type TargetSettings, type ViewPlan } from './plan';
import { resolveScope, type ResolvedScope, type ScopeInput } from './scope';

export interface PlanPublicationInput {
  /** The deployed build's snapshot file. */
  snapshotFile: string;
  /** The data source's catalog setting. */
  catalog: string | null;
  scope: ScopeInput;
  settings: TargetSettings;
}

/** The views a scope resolves to and, unless there are too many, the plan of each. */
export function planPublication(input: PlanPublicationInput): { scope: ResolvedScope; plans: ViewPlan[] } {
  const model = snapshotModel(input.snapshotFile);
  const scope = resolveScope(model, input.scope);
  if (scope.tooLarge) return { scope, plans: [] };
  return { scope, plans: scope.views.map((view) => planView(model, { catalog: input.catalog }, input.settings, view)) };
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
