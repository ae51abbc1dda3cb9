import {
  checkNamePattern,
  MAX_VIEWS_PER_SCOPE,
  type DeletionPolicy,
  type LakehouseConfiguration,
  type LakehouseConfigurationInput,
  type SelectionMode,
  type StartPreviewInput,
} from '../../../../../src-shared/api/lakehouse';

/** One per-view override row of the form (target name and/or root source). */
export interface OverrideRow {
  key: number;
  viewName: string;
  targetName: string;
  rootSource: string;
}

/** The settings form's state: strings as typed, turned into a configuration on save. */
export interface SettingsForm {
  enabled: boolean;
  selectionMode: SelectionMode;
  deletionPolicy: DeletionPolicy;
  targetCatalog: string;
  targetSchema: string;
  targetNamePrefix: string;
  namePattern: string;
  selectedViews: string[];
  overrides: OverrideRow[];
}

let rowKey = 1;
export const newOverrideRow = (viewName = ''): OverrideRow => ({ key: rowKey++, viewName, targetName: '', rootSource: '' });

/** The form for saved settings, or a new form with the data source's catalog filled in. */
export function formOf(configuration: LakehouseConfiguration | null, defaults: { catalog: string | null }): SettingsForm {
  if (!configuration) {
    return {
      enabled: true,
      selectionMode: 'selected',
      deletionPolicy: 'retain',
      targetCatalog: defaults.catalog ?? '',
      targetSchema: '',
      targetNamePrefix: '',
      namePattern: '',
      selectedViews: [],
      overrides: [],
    };
  }
  const views = [...new Set([...Object.keys(configuration.targetNameOverrides), ...Object.keys(configuration.rootSourceOverrides)])].sort();
  return {
    enabled: configuration.enabled,
    selectionMode: configuration.selectionMode,
    deletionPolicy: configuration.deletionPolicy,
    targetCatalog: configuration.targetCatalog,
    targetSchema: configuration.targetSchema,
    targetNamePrefix: configuration.targetNamePrefix ?? '',
    namePattern: configuration.namePattern ?? '',
    selectedViews: [...configuration.selectedViews],
    overrides: views.map((viewName) => ({
      key: rowKey++,
      viewName,
      targetName: configuration.targetNameOverrides[viewName] ?? '',
      rootSource: configuration.rootSourceOverrides[viewName] ?? '',
    })),
  };
}

/** The configuration a PUT sends for the form. Empty text fields become null/absent. */
export function configurationOf(form: SettingsForm): LakehouseConfigurationInput {
  const targetNameOverrides: Record<string, string> = {};
  const rootSourceOverrides: Record<string, string> = {};
  for (const row of form.overrides) {
    const view = row.viewName.trim();
    if (!view) continue;
    if (row.targetName.trim()) targetNameOverrides[view] = row.targetName.trim();
    if (row.rootSource.trim()) rootSourceOverrides[view] = row.rootSource.trim();
  }
  return {
    enabled: form.enabled,
    selectionMode: form.selectionMode,
    deletionPolicy: form.deletionPolicy,
    targetCatalog: form.targetCatalog.trim(),
    targetSchema: form.targetSchema.trim(),
    targetNamePrefix: form.targetNamePrefix.trim() || null,
    namePattern: form.selectionMode === 'pattern' ? form.namePattern : form.namePattern.trim() || null,
    selectedViews: form.selectedViews,
    targetNameOverrides,
    rootSourceOverrides,
  };
}

/** The saved configuration in the same normal form as `configurationOf` (for comparisons). */
export function normalised(configuration: LakehouseConfiguration): LakehouseConfigurationInput {
  return configurationOf(formOf(configuration, { catalog: null }));
}

export type FormErrors = Partial<Record<'targetCatalog' | 'targetSchema' | 'namePattern' | 'selectedViews' | 'overrides', string>>;

/** What is wrong with the form before it is sent (the service checks again and has the last word). */
export function formErrors(form: SettingsForm): FormErrors {
  const errors: FormErrors = {};
  if (!form.targetCatalog.trim()) errors.targetCatalog = 'Name the catalog to publish into.';
  if (!form.targetSchema.trim()) errors.targetSchema = 'Name the schema to publish into.';
  if (form.selectionMode === 'pattern') {
    const check = checkNamePattern(form.namePattern);
    if (!check.ok) errors.namePattern = check.message;
  }
  if (form.selectionMode === 'selected') {
    if (form.selectedViews.length === 0) errors.selectedViews = 'Choose at least one view to publish.';
    else if (form.selectedViews.length > MAX_VIEWS_PER_SCOPE) errors.selectedViews = `At most ${MAX_VIEWS_PER_SCOPE} views can be published per data source.`;
  }
  const seen = new Set<string>();
  for (const row of form.overrides) {
    const view = row.viewName.trim();
    if (!view) {
      if (row.targetName.trim() || row.rootSource.trim()) errors.overrides = 'Choose the view each override is for.';
      continue;
    }
    if (seen.has(view)) errors.overrides = `${view} has two override rows; keep one.`;
    seen.add(view);
    if (row.rootSource.trim() && row.rootSource.trim().split('.').length !== 3) {
      errors.overrides = `The root source of ${view} must be catalog.schema.table.`;
    }
  }
  return errors;
}

/** Model views a pattern selects (same grammar as the service), or why the pattern is invalid. */
export function patternMatches(pattern: string, views: string[]): { ok: true; matches: string[] } | { ok: false; message: string } {
  const check = checkNamePattern(pattern);
  if (!check.ok) return { ok: false, message: check.message };
  return { ok: true, matches: views.filter((v) => check.regex.test(v)) };
}

const FIELD_LABELS: Record<keyof LakehouseConfigurationInput, string> = {
  enabled: 'Publishing',
  selectionMode: 'Views',
  deletionPolicy: 'Deletion policy',
  targetCatalog: 'Target catalog',
  targetSchema: 'Target schema',
  targetNamePrefix: 'Name prefix',
  namePattern: 'Name pattern',
  selectedViews: 'Selected views',
  targetNameOverrides: 'Target name overrides',
  rootSourceOverrides: 'Root source overrides',
};

/** A configuration value as one readable line. */
export function describeValue(field: keyof LakehouseConfigurationInput, value: unknown): string {
  if (field === 'enabled') return value ? 'enabled' : 'disabled';
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.join(', ') : '—';
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, string>);
    return entries.length ? entries.map(([k, v]) => `${k} → ${v}`).join(', ') : '—';
  }
  return String(value);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sortKeys(v)]));
  return value ?? null;
}

export interface FieldChange {
  field: keyof LakehouseConfigurationInput;
  label: string;
  /** What the version you started from had. */
  base: string;
  mine: string;
  theirs: string;
  /** You and the other save both changed it, to different values. */
  clash: boolean;
}

/** Fields where your edits and the newer saved version differ, for the version-conflict explanation. */
export function conflictChanges(base: LakehouseConfiguration | null, mine: LakehouseConfigurationInput, theirs: LakehouseConfiguration): FieldChange[] {
  const baseN = base ? normalised(base) : null;
  const theirsN = normalised(theirs);
  const changes: FieldChange[] = [];
  for (const field of Object.keys(FIELD_LABELS) as (keyof LakehouseConfigurationInput)[]) {
    const b = baseN?.[field];
    const m = mine[field];
    const t = theirsN[field];
    if (same(m, t)) continue;
    const iChanged = !baseN || !same(b, m);
    const theyChanged = !baseN || !same(b, t);
    changes.push({
      field,
      label: FIELD_LABELS[field],
      base: baseN ? describeValue(field, b) : '—',
      mine: describeValue(field, m),
      theirs: describeValue(field, t),
      clash: iChanged && theyChanged,
    });
  }
  return changes;
}

/** Fields the form changed relative to the saved configuration (for "unsaved changes"). */
export function changedFields(saved: LakehouseConfiguration | null, form: SettingsForm): string[] {
  const mine = configurationOf(form);
  if (!saved) return ['everything (not saved yet)'];
  const savedN = normalised(saved);
  return (Object.keys(FIELD_LABELS) as (keyof LakehouseConfigurationInput)[]).filter((f) => !same(savedN[f], mine[f])).map((f) => FIELD_LABELS[f]);
}

/** The preview request for the form: its scope and target when they are usable, else the saved ones. */
export function previewInputOf(dataSourceName: string, form: SettingsForm): StartPreviewInput {
  const input: StartPreviewInput = { dataSourceName, selectionMode: form.selectionMode };
  if (form.selectionMode === 'selected' && form.selectedViews.length > 0) input.selectedViews = form.selectedViews;
  if (form.selectionMode === 'pattern' && checkNamePattern(form.namePattern).ok) input.namePattern = form.namePattern;
  if (form.targetCatalog.trim()) input.targetCatalog = form.targetCatalog.trim();
  if (form.targetSchema.trim()) input.targetSchema = form.targetSchema.trim();
  input.targetNamePrefix = form.targetNamePrefix.trim() || null;
  return input;
}
