import { parseDocument } from 'yaml';
import { MAX_METRIC_VIEW_YAML_CHARS, METRIC_VIEW_YAML_OPTIONS } from '../types';
import {
  allowedInVersion,
  FIELD_KEYS,
  isRecord,
  MEASURE_KEYS,
  optionalString,
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
  containsAggregate,
  isQuery,
  measureFunctionArguments,
  tableReferencesOfSource,
  unknownQualifiers,
  type MetricViewTableReference,
} from './validate-sql';

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
  problems: string[];
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
    problems.push(`invalid YAML version ${JSON.stringify(root.version)} (supported: ${supported})`);
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
  const tables: MetricViewTableReference[] = [];
  if (yaml.length > MAX_METRIC_VIEW_YAML_CHARS) return { problems: [`the definition has more than ${MAX_METRIC_VIEW_YAML_CHARS} characters`], tables, version: null };
  const document = parseDocument(yaml, METRIC_VIEW_YAML_OPTIONS);
  if (document.errors.length > 0) {
    return { problems: document.errors.map((error) => `YAML does not parse: ${error.message.split('\n')[0]}`), tables, version: null };
  }
  let root: unknown;
  try {
    // Bounded by maxAliasCount: an alias bomb is refused here, not expanded (issue 23).
    root = document.toJS({ maxAliasCount: METRIC_VIEW_YAML_OPTIONS.maxAliasCount });
  } catch (error) {
    if (!(error instanceof ReferenceError || error instanceof RangeError)) throw error;
    return { problems: [`YAML is too complex to read: ${error.message}`], tables, version: null };
  }
  if (!isRecord(root)) {
    problems.push('the definition must be a YAML mapping with version, source, fields and measures');
    return { problems, tables, version: null };
  }
  const context: ValidationContext = { version: declaredVersion(root, problems), problems };
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
  if ('joins' in root) validateJoins(root.joins, 'joins', aliases, joinOnClauses, tables, context);

  // fields (formerly dimensions) and measures
  if ('fields' in root && 'dimensions' in root) problems.push('use either "fields" or "dimensions" (its earlier name), not both');
  const fieldsKey = 'fields' in root ? 'fields' : 'dimensions';
  const names = new Map<string, string>();
  const measureNames = new Set<string>();
  const fields = listOf(root, fieldsKey, problems);
  const measures = listOf(root, 'measures', problems);
  if ((fields?.length ?? 0) === 0 && (measures?.length ?? 0) === 0) {
    problems.push('at least one field (dimension) or measure is required');
  }
  const expressions: Array<{ path: string; expr: string }> = [...joinOnClauses];
  if (filter !== undefined) {
    expressions.push({ path: 'filter', expr: filter });
    if (containsAggregate(filter)) problems.push('filter: aggregate functions are not allowed in a filter');
  }

  fields?.forEach((item, index) => {
    const path = `${fieldsKey}[${index}]`;
    const field = validateField(item, path, FIELD_KEYS, names, context);
    if (field === undefined) return;
    expressions.push({ path: `${path} (${field.name})`, expr: field.expr });
    if (containsAggregate(field.expr)) {
      problems.push(`${path} (${field.name}): a ${fieldsKey === 'fields' ? 'field' : 'dimension'} expression cannot use an aggregate function`);
    }
  });
  measures?.forEach((item, index) => {
    const path = `measures[${index}]`;
    const field = validateField(item, path, MEASURE_KEYS, names, context);
    if (field === undefined) return;
    measureNames.add(field.name.toLowerCase());
    expressions.push({ path: `${path} (${field.name})`, expr: field.expr });
    if (!containsAggregate(field.expr)) {
      problems.push(`${path} (${field.name}): a measure expression must use an aggregate function such as SUM or COUNT, got "${field.expr}"`);
    }
    if (isRecord(item) && 'window' in item) validateWindow(item.window, `${path}.window`, context);
  });
  // MEASURE(x) composes other measures; x must be one of them.
  measures?.forEach((item, index) => {
    if (!isRecord(item) || typeof item.expr !== 'string') return;
    for (const referenced of measureFunctionArguments(item.expr)) {
      if (!measureNames.has(referenced.toLowerCase())) {
        problems.push(`measures[${index}]: MEASURE(${referenced}) refers to no measure of this view`);
      }
    }
  });

  const sourceColumns = sourceParts !== undefined ? options.columnsOf?.(sourceParts) : undefined;
  const columnNames = new Set((sourceColumns ?? []).map((column) => column.toLowerCase()));
  for (const { path, expr } of expressions) {
    for (const qualifier of unknownQualifiers(expr, aliases, columnNames)) {
      problems.push(
        `${path}: "${qualifier}" is not "source" or a join name (joins: ${[...aliases].filter((a) => a !== 'source').join(', ') || 'none'})`,
      );
    }
  }

  return { problems, tables, version: context.version };
}
