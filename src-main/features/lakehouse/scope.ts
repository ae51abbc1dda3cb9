import { checkNamePattern, MAX_VIEWS_PER_SCOPE, type SelectionMode } from '../../../src-shared/api/lakehouse';
import { own, usesDataSource, viewDataSources, type CompiledModel } from '../../../src-shared/model';

export interface ScopeView {
  name: string;
  public: boolean;
  /** The data sources the view's cubes use (one, unless the view mixes them). */
  dataSources: string[];
}

/** What a scope is resolved against: the deployed model's views, with their visibility and data sources. */
export interface ScopeModel {
  views: Record<string, ScopeView>;
}

/** The views of a compiled model as a scope sees them. */
export function scopeViewsOf(model: CompiledModel): ScopeView[] {
  return Object.values(model.views).map((view) => ({ name: view.name, public: view.public, dataSources: viewDataSources(model, view.name) }));
}

export function scopeModelOf(model: CompiledModel): ScopeModel {
  return { views: Object.fromEntries(scopeViewsOf(model).map((view) => [view.name, view])) };
}

export interface ScopeInput {
  selectionMode: SelectionMode;
  namePattern?: string | null;
  selectedViews?: string[];
}

export interface ResolvedScope {
  /** Views to publish, in a stable order (model views by name; `selected` in the order given). */
  views: string[];
  /** How many views the scope matched (can exceed the limit). */
  matched: number;
  tooLarge: boolean;
  /** Selected views of the model that belong to another data source (planned, and blocked as such). */
  otherSource: { view: string; dataSources: string[] }[];
}

/**
 * The views a scope names in a model for one lakehouse data source. Only views whose cubes use
 * that data source are in its scope: `all` and `pattern` hold the public ones among them (so the
 * 128-view limit counts those alone), and follow the model, so a newly deployed view enters them
 * on the next sync. `selected` names views explicitly and changes only when edited: a selected
 * view missing from the model, or on another data source, is still planned and reported blocked.
 */
export function resolveScope(model: ScopeModel, scope: ScopeInput, dataSource: string): ResolvedScope {
  let views: string[];
  if (scope.selectionMode === 'selected') {
    views = [...new Set(scope.selectedViews ?? [])];
  } else {
    const published = Object.values(model.views)
      .filter((view) => view.public && usesDataSource(view.dataSources, dataSource))
      .map((view) => view.name)
      .sort();
    if (scope.selectionMode === 'pattern') {
      const check = checkNamePattern(scope.namePattern ?? '');
      views = check.ok ? published.filter((name) => check.regex.test(name)) : [];
    } else {
      views = published;
    }
  }
  const otherSource = views
    .map((name) => own(model.views, name))
    .filter((view): view is ScopeView => view !== undefined && !usesDataSource(view.dataSources, dataSource))
    .map((view) => ({ view: view.name, dataSources: view.dataSources }));
  return { views: views.slice(0, MAX_VIEWS_PER_SCOPE), matched: views.length, tooLarge: views.length > MAX_VIEWS_PER_SCOPE, otherSource };
}

/** The target name of a view: its override, else the prefix and the view name. */
export function targetNameOf(configuration: { targetNamePrefix?: string | null; targetNameOverrides?: Record<string, string> }, view: string): string {
  const override = configuration.targetNameOverrides?.[view];
  return override ?? `${configuration.targetNamePrefix ?? ''}${view}`;
}
