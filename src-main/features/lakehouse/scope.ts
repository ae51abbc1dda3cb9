import { checkNamePattern, MAX_VIEWS_PER_SCOPE, type SelectionMode } from '../../../src-shared/api/lakehouse';

/** What a scope is resolved against: the deployed model's views (the compiled model, or just their names and visibility). */
export interface ScopeModel {
  views: Record<string, { name: string; public: boolean }>;
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
}

/**
 * The views a scope names in a model. `all` and `pattern` follow the model, so a newly deployed
 * view enters them on the next sync; `selected` names views explicitly and changes only when
 * edited (a selected view missing from the model is still planned, and reported).
 */
export function resolveScope(model: ScopeModel, scope: ScopeInput): ResolvedScope {
  let views: string[];
  if (scope.selectionMode === 'selected') {
    views = [...new Set(scope.selectedViews ?? [])];
  } else {
    const published = Object.values(model.views)
      .filter((view) => view.public)
      .map((view) => view.name)
      .sort();
    if (scope.selectionMode === 'pattern') {
      const check = checkNamePattern(scope.namePattern ?? '');
      views = check.ok ? published.filter((name) => check.regex.test(name)) : [];
    } else {
      views = published;
    }
  }
  return { views: views.slice(0, MAX_VIEWS_PER_SCOPE), matched: views.length, tooLarge: views.length > MAX_VIEWS_PER_SCOPE };
}

/** The target name of a view: its override, else the prefix and the view name. */
export function targetNameOf(configuration: { targetNamePrefix?: string | null; targetNameOverrides?: Record<string, string> }, view: string): string {
  const override = configuration.targetNameOverrides?.[view];
  return override ?? `${configuration.targetNamePrefix ?? ''}${view}`;
}
