import { parseDocument } from 'yaml';
import { MAX_METRIC_VIEW_YAML_CHARS, METRIC_VIEW_YAML_OPTIONS } from '../types';
import {
  allowedInVersion,
  FIELD_KEYS,
  isRecord,
  MEASURE_KEYS,
  optionalString,
  report,
  SUPPORTED_METRIC_VIEW_VERSIONS,
  validateField,
  validateJoins,
  validateMaterialization,
  validateParameters,
  validateWindow,
  type MetricViewSpecVersion,
  type ValidationContext,
} from './validate-sections';
import {
  aggregateCalls,
  containsAggregate,
  dottedReferences,
  isQuery,
  malformedMeasureCalls,
  measureFunctionArguments,
  nestsAggregates,
  tableReferencesOfSource,
  unknownQualifiers,
  type MetricViewTableReference,
} from './validate-sql';
import {
  groupByAggregate,
  INVALID_YAML,
  invalidWhere,
  measureOneColumn,
  missingAggregation,
  nestedAggregate,
  unresolvedColumn,
  type ClassifiedProblem,
} from './error-classes';

/**
 * Structural validation of a metric view definition as Databricks applies it when a view is
 * created or altered. The text is standard YAML 1.2 (so an unquoted `on:` is the key "on"); the
 * `version` it declares is the metric view *specification* version, 0.1 or 1.1, and decides which
 * keys exist (see validate-sections.ts). `fields` is the current name of `dimensions`; either may
 * be written, not both. Table references are returned rather than resolved: the emulator checks
 * their existence and the caller's SELECT privilege against its catalog.
 */

export { SUPPORTED_METRIC_VIEW_VERSIONS, type MetricViewSpecVersion } from './validate-sections';
export type { MetricViewTableReference } from './validate-sql';

const TOP_LEVEL_KEYS = ['version', 'comment', 'source', 'parameters', 'filter', 'joins', 'fields', 'dimensions', 'measures', 'materialization'];

export interface MetricViewValidation {
  /** Every problem found, each naming where it is. */
  problems: string[];
  /**
   * The same problems as Databricks reports them: error class, SQLSTATE and text. A workspace
   * stops at the first; the emulator keeps them all for the caller's details.
   */
  errors: ClassifiedProblem[];
  /** Tables and views the definition reads (only filled when the structure is valid enough to know). */
  tables: MetricViewTableReference[];
  /** The declared specification version, when it is a supported one. */
  version: MetricViewSpecVersion | null;
}

export interface ValidateOptions {
  /** Column names of a relation, if known, to allow `struct_column.field` references. */
  columnsOf?: (parts: string[]) => string[] | undefined;
}

/** `1.1`, `"1.1"` and `0.1` name versions; a number keeps one decimal so `1` reads as "1.0". */
function versionText(version: unknown): string | undefined {
  if (typeof version === 'number') return Number.isInteger(version) ? version.toFixed(1) : String(version);
  return typeof version === 'string' ? version.trim() : undefined;
}

function declaredVersion(root: Record<string, unknown>, problems: string[]): MetricViewSpecVersion | null {
  const supported = SUPPORTED_METRIC_VIEW_VERSIONS.join(', ');
  if (!('version' in root)) {
    problems.push(`"version" is required (supported: ${supported})`);
    return null;
  }
  const text = versionText(root.version);
  if (text === undefined || !(SUPPORTED_METRIC_VIEW_VERSIONS as readonly string[]).includes(text)) {
    problems.push(`Invalid YAML version: ${text ?? JSON.stringify(root.version)} (supported: ${supported})`);
    return null;
  }
  return text as MetricViewSpecVersion;
}

function listOf(root: Record<string, unknown>, key: string, problems: string[]): unknown[] | undefined {
  if (!(key in root) || root[key] === null) return undefined;
  const value = root[key];
  if (!Array.isArray(value)) {
    problems.push(`"${key}" must be a list`);
    return undefined;
  }
  return value;
}

/** Validates metric view YAML; an empty `problems` list means Databricks would accept its shape. */
export function validateMetricViewYaml(yaml: string, options: ValidateOptions = {}): MetricViewValidation {
  const problems: string[] = [];
  const classified = new Map<number, ClassifiedProblem>();
  const tables: MetricViewTableReference[] = [];
  const done = (version: MetricViewSpecVersion | null): MetricViewValidation => ({
    problems,
    errors: problems.map((detail, index) => classified.get(index) ?? { ...INVALID_YAML, text: `Failed to parse metric view YAML: ${detail}` }),
    tables,
    version,
  });
  if (yaml.length > MAX_METRIC_VIEW_YAML_CHARS) {
    problems.push(`the definition has more than ${MAX_METRIC_VIEW_YAML_CHARS} characters`);
    return done(null);
  }
  const document = parseDocument(yaml, METRIC_VIEW_YAML_OPTIONS);
  if (document.errors.length > 0) {
    problems.push(...document.errors.map((error) => `YAML does not parse: ${error.message.split('\n')[0]}`));
    return done(null);
  }
  let root: unknown;
  try {
    // Bounded by maxAliasCount: an alias bomb is refused here, not expanded (issue 23).
    root = document.toJS({ maxAliasCount: METRIC_VIEW_YAML_OPTIONS.maxAliasCount });
  } catch (error) {
    if (!(error instanceof ReferenceError || error instanceof RangeError)) throw error;
    problems.push(`YAML is too complex to read: ${error.message}`);
    return done(null);
  }
  if (!isRecord(root)) {
    problems.push('the definition must be a YAML mapping with version, source, fields and measures');
    return done(null);
  }
  const context: ValidationContext = { version: declaredVersion(root, problems), problems, classified };
  for (const key of Object.keys(root)) {
    if (!TOP_LEVEL_KEYS.includes(key)) problems.push(`unknown top-level key "${key}" (allowed: ${TOP_LEVEL_KEYS.join(', ')})`);
    else allowedInVersion(context, 'top level', key);
  }

  optionalString(root, 'comment', '', problems);
  const filter = optionalString(root, 'filter', '', problems);
  if ('parameters' in root) {
    validateParameters(root.parameters, context);
    if ('materialization' in root) problems.push('"materialization" is not supported for a metric view that defines "parameters"');
  }
  if ('materialization' in root) validateMaterialization(root.materialization, context);

  // source
  let sourceParts: string[] | undefined;
  if (!('source' in root) || root.source === null || root.source === undefined) {
    problems.push('"source" is required: a table, view or metric view name, or a SQL query');
  } else if (typeof root.source !== 'string' || root.source.trim() === '') {
    problems.push('"source" must be a non-empty string');
  } else {
    const references = tableReferencesOfSource(root.source, 'source', problems);
    tables.push(...references);
    if (references.length === 1 && !isQuery(root.source)) sourceParts = references[0].parts;
  }

  // joins (names collected first so expressions can be checked against them)
  const aliases = new Set<string>(['source']);
  const joinOnClauses: Array<{ path: string; expr: string }> = [];
  const relations = new Map<string, string[]>();
  if (sourceParts !== undefined) relations.set('source', sourceParts);
  if ('joins' in root) validateJoins(root.joins, 'joins', aliases, joinOnClauses, tables, context, relations);

  // fields (formerly dimensions) and measures
  if ('fields' in root && 'dimensions' in root) problems.push('use either "fields" or "dimensions" (its earlier name), not both');
  const fieldsKey = 'fields' in root ? 'fields' : 'dimensions';
  const names = new Map<string, string>();
  const fieldNames: string[] = [];
  const measureNames: string[] = [];
  const fields = listOf(root, fieldsKey, problems);
  const measures = listOf(root, 'measures', problems);
  if ((fields?.length ?? 0) === 0 && (measures?.length ?? 0) === 0) {
    problems.push('at least one field (dimension) or measure is required');
  }
  const expressions: Array<{ path: string; expr: string }> = [...joinOnClauses];
  if (filter !== undefined) {
    expressions.push({ path: 'filter', expr: filter });
    const calls = aggregateCalls(filter);
    if (calls.length > 0) {
      report(context, invalidWhere(filter, calls.map((call) => `"${call.text}"`)), 'filter: aggregate functions are not allowed in a filter');
    }
  }

  fields?.forEach((item, index) => {
    const path = `${fieldsKey}[${index}]`;
    const field = validateField(item, path, FIELD_KEYS, names, context);
    if (field === undefined) return;
    fieldNames.push(field.name);
    expressions.push({ path: `${path} (${field.name})`, expr: field.expr });
    const calls = aggregateCalls(field.expr);
    if (calls.length > 0) {
      const what = fieldsKey === 'fields' ? 'field' : 'dimension';
      report(context, groupByAggregate(calls[0].text), `${path} (${field.name}): a ${what} expression cannot use an aggregate function`);
    }
  });
  measures?.forEach((item, index) => {
    const path = `measures[${index}]`;
    const field = validateField(item, path, MEASURE_KEYS, names, context);
    if (field === undefined) return;
    measureNames.push(field.name);
    const label = `${path} (${field.name})`;
    expressions.push({ path: label, expr: field.expr });
    if (!containsAggregate(field.expr)) {
      report(context, missingAggregation(field.expr.trim()), `${label}: a measure expression must use an aggregate function such as SUM or COUNT, got "${field.expr}"`);
    } else if (nestsAggregates(field.expr)) {
      report(context, nestedAggregate(), `${label}: an aggregate function is used inside another aggregate function`);
    }
    for (const call of malformedMeasureCalls(field.expr)) {
      report(context, measureOneColumn(), `${label}: ${call} must name exactly one measure`);
    }
    if (isRecord(item) && 'window' in item) validateWindow(item.window, `${path}.window`, context);
  });
  // MEASURE(x) composes other measures; x must be one of them. A window's `order` names a field.
  const known = (list: string[], name: string) => list.some((entry) => entry.toLowerCase() === name.toLowerCase());
  // A measure composes measures defined before it (the composability rule), so MEASURE() of a later
  // measure, of itself, or in a cycle does not resolve.
  const earlier: string[] = [];
  measures?.forEach((item, index) => {
    if (!isRecord(item) || typeof item.expr !== 'string') return;
    for (const referenced of measureFunctionArguments(item.expr)) {
      if (!known(measureNames, referenced)) {
        report(context, unresolvedColumn([referenced], measureNames.map((name) => [name])), `measures[${index}]: MEASURE(${referenced}) refers to no measure of this view`);
      } else if (!known(earlier, referenced)) {
        report(
          context,
          unresolvedColumn([referenced], earlier.map((name) => [name])),
          `measures[${index}]: MEASURE(${referenced}) refers to a measure that is not defined before this one (a measure composes earlier measures)`,
        );
      }
    }
    if (typeof item.name === 'string') earlier.push(item.name);
    if (!Array.isArray(item.window)) return;
    item.window.forEach((window, w) => {
      if (!isRecord(window) || typeof window.order !== 'string' || window.order.trim() === '') return;
      const order = window.order.trim().replace(/^`(.*)`$/, '$1');
      if (!known(fieldNames, order)) {
        report(context, unresolvedColumn([order], fieldNames.map((name) => [name])), `measures[${index}].window[${w}]: "order" names no ${fieldsKey === 'fields' ? 'field' : 'dimension'} of this view ("${order}")`);
      }
    });
  });

  // Qualified references: the qualifier is `source` or a join name, and when the table behind it
  // is known, the column is one of its columns.
  const columnsByAlias = new Map<string, string[]>();
  for (const [alias, parts] of relations) {
    const columns = options.columnsOf?.(parts);
    if (columns !== undefined && columns.length > 0) columnsByAlias.set(alias, columns);
  }
  const sourceColumnNames = new Set((columnsByAlias.get('source') ?? []).map((column) => column.toLowerCase()));
  const candidates = [...columnsByAlias].flatMap(([alias, columns]) => columns.map((column) => [alias, column]));
  for (const { path, expr } of expressions) {
    for (const qualifier of unknownQualifiers(expr, aliases, sourceColumnNames)) {
      const reference = dottedReferences(expr).find((parts) => parts[0] === qualifier) ?? [qualifier];
      report(
        context,
        unresolvedColumn(reference.slice(0, 2), candidates),
        `${path}: "${qualifier}" is not "source" or a join name (joins: ${[...aliases].filter((a) => a !== 'source').join(', ') || 'none'})`,
      );
    }
    for (const parts of dottedReferences(expr)) {
      // A snowflake join is reached by its path (`buyer.item.category`): skip to the last join named.
      let at = 0;
      while (at + 2 < parts.length && aliases.has(parts[at + 1].toLowerCase())) at += 1;
      const columns = columnsByAlias.get(parts[at].toLowerCase());
      if (columns === undefined || known(columns, parts[at + 1])) continue;
      report(context, unresolvedColumn(parts.slice(0, at + 2), candidates), `${path}: ${parts[at]} has no column "${parts[at + 1]}"`);
    }
  }

  return done(context.version);
}
