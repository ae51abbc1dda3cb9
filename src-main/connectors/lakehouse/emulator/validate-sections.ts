/**
 * Validation of the parts of a metric view definition below the top level: joins (nested, `on`
 * or `using`, `cardinality`), fields and measures (name, expr, semantic metadata, `format`),
 * window specifications of measures, `parameters` and `materialization`. Each problem names the
 * path and the key, the way Databricks names them. Keys that the declared specification version
 * does not have yet (the semantic metadata, `cardinality`, window `offset` and range modifiers
 * arrived with 1.1) are refused with the version they need.
 */
import { columnExists, type ClassifiedProblem } from './error-classes';
import { isQuery, tableReferencesOfSource, type MetricViewTableReference } from './validate-sql';

export const SUPPORTED_METRIC_VIEW_VERSIONS = ['0.1', '1.1'] as const;
export type MetricViewSpecVersion = (typeof SUPPORTED_METRIC_VIEW_VERSIONS)[number];

/**
 * Where problems go, and the specification version the definition declares (null when it is
 * invalid). A problem pushed on `problems` alone is an INVALID_METRIC_VIEW_YAML; one that Databricks
 * reports under another error class is pushed with `report`, which files its class and text by index.
 */
export interface ValidationContext {
  version: MetricViewSpecVersion | null;
  problems: string[];
  classified: Map<number, ClassifiedProblem>;
}

/** Records a problem Databricks reports under its own error class; `detail` names the path for the problem list. */
export function report(context: ValidationContext, problem: ClassifiedProblem, detail: string): void {
  context.classified.set(context.problems.length, problem);
  context.problems.push(detail);
}

export const JOIN_KEYS = ['name', 'source', 'on', 'using', 'joins', 'cardinality'];
export const FIELD_KEYS = ['name', 'expr', 'comment', 'display_name', 'format', 'synonyms'];
export const MEASURE_KEYS = [...FIELD_KEYS, 'window'];
const WINDOW_KEYS = ['order', 'range', 'semiadditive', 'offset'];
const PARAMETER_KEYS = ['name', 'type', 'default', 'comment'];
const MATERIALIZATION_KEYS = ['schedule', 'mode', 'materialized_views'];
const MATERIALIZED_VIEW_KEYS = ['name', 'type', 'fields', 'dimensions', 'measures'];
const FORMAT_TYPES = ['number', 'currency', 'percentage', 'byte', 'date', 'date_time'];
const CARDINALITIES = ['many_to_one', 'one_to_many'];
const DISPLAY_NAME_MAX = 255;

/** Keys that specification version 0.1 does not have, wherever they appear. */
const SINCE_1_1 = new Set(['comment', 'display_name', 'format', 'synonyms', 'cardinality', 'offset']);

/** Reports `key` when the declared version predates it; true when the key may be used. */
export function allowedInVersion(context: ValidationContext, path: string, key: string): boolean {
  if (context.version !== '0.1' || !SINCE_1_1.has(key)) return true;
  context.problems.push(`${path}: "${key}" requires metric view specification version 1.1 (the definition declares version 0.1)`);
  return false;
}

/** Unknown keys of a mapping, each named with the keys allowed there; version-gated keys checked too. */
export function checkKeys(record: Record<string, unknown>, allowed: string[], path: string, context: ValidationContext): void {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) context.problems.push(`${path}: unknown key "${key}" (allowed: ${allowed.join(', ')})`);
    else allowedInVersion(context, path, key);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

export function optionalString(record: Record<string, unknown>, key: string, prefix: string, problems: string[]): string | undefined {
  if (!(key in record) || record[key] === null) return undefined;
  const value = record[key];
  if (typeof value !== 'string') {
    problems.push(`${prefix}"${key}" must be a string`);
    return undefined;
  }
  return value;
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

export function validateJoins(
  value: unknown,
  path: string,
  aliases: Set<string>,
  onClauses: Array<{ path: string; expr: string }>,
  tables: MetricViewTableReference[],
  context: ValidationContext,
  /** Join name (lower case) -> the table it reads, when its source is a table name. */
  relations: Map<string, string[]> = new Map(),
): void {
  const { problems } = context;
  if (!Array.isArray(value)) {
    problems.push(`${path} must be a list of joins`);
    return;
  }
  value.forEach((join, index) => {
    const here = `${path}[${index}]`;
    if (!isRecord(join)) {
      problems.push(`${here} must be a mapping with name, source and on or using`);
      return;
    }
    checkKeys(join, JOIN_KEYS, here, context);
    const name = join.name;
    if (!nonEmpty(name)) {
      problems.push(`${here}: "name" is required`);
    } else {
      const key = name.toLowerCase();
      if (key === 'source') problems.push(`${here}: a join cannot be named "source"`);
      else if (aliases.has(key)) problems.push(`${here}: duplicate join name "${name}"`);
      aliases.add(key);
    }
    const label = typeof name === 'string' ? `${here} (${name})` : here;
    if (!nonEmpty(join.source)) problems.push(`${label}: "source" is required`);
    else {
      const references = tableReferencesOfSource(join.source, `${here}.source`, problems);
      tables.push(...references);
      if (nonEmpty(name) && references.length === 1 && !isQuery(join.source)) relations.set(name.toLowerCase(), references[0].parts);
    }
    const hasOn = 'on' in join;
    const hasUsing = 'using' in join;
    if (hasOn && hasUsing) problems.push(`${label}: use either "on" or "using", not both`);
    if (!hasOn && !hasUsing) problems.push(`${label}: a join needs "on" or "using"`);
    if (hasOn) {
      if (!nonEmpty(join.on)) problems.push(`${label}: "on" must be a boolean SQL expression`);
      else onClauses.push({ path: `${label}.on`, expr: join.on });
    }
    if (hasUsing) {
      const using = join.using;
      if (!Array.isArray(using) || using.length === 0 || !using.every(nonEmpty)) {
        problems.push(`${label}: "using" must be a non-empty list of column names`);
      }
    }
    if ('cardinality' in join && !CARDINALITIES.includes(join.cardinality as string)) {
      problems.push(`${label}: "cardinality" must be one of ${CARDINALITIES.join(', ')}`);
    }
    if ('joins' in join) validateJoins(join.joins, `${here}.joins`, aliases, onClauses, tables, context, relations);
  });
}

/** A field or a measure: name and expr required, names unique across both (case-insensitive). */
export function validateField(
  item: unknown,
  path: string,
  allowedKeys: string[],
  names: Map<string, string>,
  context: ValidationContext,
): { name: string; expr: string } | undefined {
  const { problems } = context;
  if (!isRecord(item)) {
    problems.push(`${path} must be a mapping with name and expr`);
    return undefined;
  }
  checkKeys(item, allowedKeys, path, context);
  const name = item.name;
  let ok = true;
  if (!nonEmpty(name)) {
    problems.push(`${path}: "name" is required`);
    ok = false;
  } else {
    const key = name.toLowerCase();
    const first = names.get(key);
    if (first !== undefined) report(context, columnExists(name), `${path}: duplicate name "${name}" (first used by ${first})`);
    else names.set(key, path);
  }
  const label = typeof name === 'string' ? `${path} (${name})` : path;
  if (!nonEmpty(item.expr)) {
    problems.push(`${label}: "expr" is required`);
    ok = false;
  }
  optionalString(item, 'comment', `${label}.`, problems);
  const displayName = optionalString(item, 'display_name', `${label}.`, problems);
  if (displayName !== undefined && displayName.length > DISPLAY_NAME_MAX) {
    problems.push(`${label}: "display_name" is limited to ${DISPLAY_NAME_MAX} characters`);
  }
  if ('synonyms' in item && (!Array.isArray(item.synonyms) || !item.synonyms.every(nonEmpty))) {
    problems.push(`${label}: "synonyms" must be a list of strings`);
  }
  if ('format' in item) validateFormat(item.format, label, problems);
  return ok ? { name: name as string, expr: item.expr as string } : undefined;
}

function validateFormat(format: unknown, label: string, problems: string[]): void {
  if (!isRecord(format)) {
    problems.push(`${label}: "format" must be a mapping`);
    return;
  }
  if (!FORMAT_TYPES.includes(format.type as string)) {
    problems.push(`${label}: "format.type" must be one of ${FORMAT_TYPES.join(', ')}`);
  }
}

/** `current`, `cumulative`, `all`, or `trailing|leading <n> <unit>` (1.1 adds `inclusive`/`exclusive`). */
function validateRange(range: string, here: string, context: ValidationContext): void {
  const words = range.trim().split(/\s+/);
  const kind = words[0].toLowerCase();
  if (['current', 'cumulative', 'all'].includes(kind)) {
    if (words.length > 1) context.problems.push(`${here}: "range: ${kind}" takes no further words`);
    return;
  }
  if (kind !== 'trailing' && kind !== 'leading') {
    context.problems.push(`${here}: "range" must be current, cumulative, all, trailing <n> <unit> or leading <n> <unit>`);
    return;
  }
  if (words.length < 3) {
    context.problems.push(`${here}: "range: ${kind}" needs a count and a unit, e.g. ${kind} 7 day`);
    return;
  }
  const modifier = words[3]?.toLowerCase();
  if (words.length > 4 || (modifier !== undefined && modifier !== 'inclusive' && modifier !== 'exclusive')) {
    context.problems.push(`${here}: "range" modifier must be inclusive or exclusive`);
  } else if (modifier !== undefined && context.version === '0.1') {
    context.problems.push(`${here}: the "${modifier}" range modifier requires metric view specification version 1.1 (the definition declares version 0.1)`);
  }
}

export function validateWindow(value: unknown, path: string, context: ValidationContext): void {
  const { problems } = context;
  if (!Array.isArray(value) || value.length === 0) {
    problems.push(`${path} must be a non-empty list`);
    return;
  }
  value.forEach((window, index) => {
    const here = `${path}[${index}]`;
    if (!isRecord(window)) {
      problems.push(`${here} must be a mapping with order and range`);
      return;
    }
    checkKeys(window, WINDOW_KEYS, here, context);
    if (!nonEmpty(window.order)) problems.push(`${here}: "order" is required`);
    if (!nonEmpty(window.range)) problems.push(`${here}: "range" is required`);
    else validateRange(window.range, here, context);
    if ('semiadditive' in window && window.semiadditive !== 'first' && window.semiadditive !== 'last') {
      problems.push(`${here}: "semiadditive" must be first or last`);
    }
    if ('offset' in window && !nonEmpty(window.offset) && typeof window.offset !== 'number') {
      problems.push(`${here}: "offset" must be an interval such as -1 month`);
    }
  });
}

/** Parameters: unique names, a type each, and once one has a default every later one needs one. */
export function validateParameters(value: unknown, context: ValidationContext): string[] {
  const { problems } = context;
  if (!Array.isArray(value)) {
    problems.push('"parameters" must be a list');
    return [];
  }
  const names: string[] = [];
  let defaultSeen: string | null = null;
  value.forEach((parameter, index) => {
    const here = `parameters[${index}]`;
    if (!isRecord(parameter)) {
      problems.push(`${here} must be a mapping with name and type`);
      return;
    }
    checkKeys(parameter, PARAMETER_KEYS, here, context);
    const name = parameter.name;
    if (!nonEmpty(name) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      problems.push(`${here}: "name" is required and must be a simple identifier`);
    } else if (names.includes(name.toLowerCase())) {
      problems.push(`${here}: duplicate parameter name "${name}"`);
    } else {
      names.push(name.toLowerCase());
    }
    const label = typeof name === 'string' ? `${here} (${name})` : here;
    if (!nonEmpty(parameter.type)) problems.push(`${label}: "type" is required (a SQL data type such as DOUBLE or DATE)`);
    if ('default' in parameter && parameter.default !== null) {
      defaultSeen ??= typeof name === 'string' ? name : here;
      if (typeof parameter.default === 'string' && /\bselect\b/i.test(parameter.default)) {
        problems.push(`${label}: "default" cannot contain a subquery`);
      }
    } else if (defaultSeen !== null) {
      problems.push(`${label}: needs a "default" because an earlier parameter (${defaultSeen}) has one`);
    }
  });
  return names;
}

export function validateMaterialization(value: unknown, context: ValidationContext): void {
  const { problems } = context;
  if (!isRecord(value)) {
    problems.push('"materialization" must be a mapping with schedule, mode and materialized_views');
    return;
  }
  checkKeys(value, MATERIALIZATION_KEYS, 'materialization', context);
  const views = value.materialized_views;
  if (!Array.isArray(views) || views.length === 0) {
    problems.push('materialization: "materialized_views" must be a non-empty list');
    return;
  }
  views.forEach((view, index) => {
    const here = `materialization.materialized_views[${index}]`;
    if (!isRecord(view)) {
      problems.push(`${here} must be a mapping with name and type`);
      return;
    }
    checkKeys(view, MATERIALIZED_VIEW_KEYS, here, context);
    if (!nonEmpty(view.name)) problems.push(`${here}: "name" is required`);
    if (view.type !== 'aggregated' && view.type !== 'unaggregated') problems.push(`${here}: "type" must be aggregated or unaggregated`);
  });
}
