import { parseDocument } from 'yaml';
import { METRIC_VIEW_YAML_OPTIONS } from '../types';

/**
 * Structural validation of metric view YAML, spec version 1.1, as Databricks applies it when
 * a view is created or altered. Table references are returned rather than resolved: the
 * emulator checks their existence and the caller's SELECT privilege against its catalog.
 */

export const SUPPORTED_METRIC_VIEW_VERSIONS = ['1.1'] as const;

const TOP_LEVEL_KEYS = ['version', 'comment', 'source', 'filter', 'joins', 'dimensions', 'measures', 'materialization'];
const JOIN_KEYS = ['name', 'source', 'on', 'using', 'joins'];
const DIMENSION_KEYS = ['name', 'expr', 'comment', 'display_name', 'format', 'synonyms'];
const MEASURE_KEYS = ['name', 'expr', 'comment', 'display_name', 'format', 'synonyms', 'window'];
const WINDOW_KEYS = ['order', 'range', 'semiadditive'];

/** Aggregate functions Databricks SQL accepts in a measure. */
const AGGREGATE_FUNCTIONS = new Set(
  [
    'any', 'any_value', 'approx_count_distinct', 'approx_percentile', 'approx_top_k', 'array_agg', 'avg',
    'bit_and', 'bit_or', 'bit_xor', 'bitmap_construct_agg', 'bitmap_or_agg', 'bool_and', 'bool_or',
    'collect_list', 'collect_set', 'corr', 'count', 'count_if', 'count_min_sketch', 'covar_pop', 'covar_samp',
    'every', 'first', 'first_value', 'histogram_numeric', 'hll_sketch_agg', 'hll_union_agg', 'kurtosis',
    'last', 'last_value', 'listagg', 'max', 'max_by', 'mean', 'measure', 'median', 'min', 'min_by', 'mode',
    'percentile', 'percentile_approx', 'percentile_cont', 'percentile_disc', 'regr_avgx', 'regr_avgy',
    'regr_count', 'regr_intercept', 'regr_r2', 'regr_slope', 'regr_sxx', 'regr_sxy', 'regr_syy', 'skewness',
    'some', 'std', 'stddev', 'stddev_pop', 'stddev_samp', 'string_agg', 'sum', 'try_avg', 'try_sum',
    'var_pop', 'var_samp', 'variance',
  ],
);

export interface MetricViewTableReference {
  /** Where in the YAML the reference is, e.g. `source` or `joins[0].source`. */
  path: string;
  /** Name parts as written (1 to 3), unquoted. */
  parts: string[];
}

export interface MetricViewValidation {
  problems: string[];
  /** Tables and views the definition reads (only filled when the structure is valid enough to know). */
  tables: MetricViewTableReference[];
}

export interface ValidateOptions {
  /** Column names of a relation, if known, to allow `struct_column.field` references. */
  columnsOf?: (parts: string[]) => string[] | undefined;
}

/** Validates metric view YAML; an empty `problems` list means Databricks would accept its shape. */
export function validateMetricViewYaml(yaml: string, options: ValidateOptions = {}): MetricViewValidation {
  const problems: string[] = [];
  const tables: MetricViewTableReference[] = [];
  const document = parseDocument(yaml, METRIC_VIEW_YAML_OPTIONS);
  if (document.errors.length > 0) {
    return { problems: document.errors.map((error) => `YAML does not parse: ${error.message.split('\n')[0]}`), tables };
  }
  const root = document.toJS() as unknown;
  if (!isRecord(root)) {
    problems.push('the definition must be a YAML mapping with version, source, dimensions and measures');
    return { problems, tables };
  }

  for (const key of Object.keys(root)) {
    if (!TOP_LEVEL_KEYS.includes(key)) problems.push(`unknown top-level key "${key}" (allowed: ${TOP_LEVEL_KEYS.join(', ')})`);
  }

  // version
  if (!('version' in root)) {
    problems.push(`"version" is required (supported: ${SUPPORTED_METRIC_VIEW_VERSIONS.join(', ')})`);
  } else {
    const version = root.version;
    const text = typeof version === 'number' ? (Number.isInteger(version) ? version.toFixed(1) : String(version)) : version;
    if (typeof text !== 'string' || !(SUPPORTED_METRIC_VIEW_VERSIONS as readonly string[]).includes(text)) {
      problems.push(`invalid YAML version ${JSON.stringify(version)} (supported: ${SUPPORTED_METRIC_VIEW_VERSIONS.join(', ')})`);
    }
  }

  optionalString(root, 'comment', '', problems);
  const filter = optionalString(root, 'filter', '', problems);

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
  if ('joins' in root) validateJoins(root.joins, 'joins', aliases, joinOnClauses, tables, problems);

  // dimensions and measures
  const names = new Map<string, string>();
  const measureNames = new Set<string>();
  const dimensions = listOf(root, 'dimensions', problems);
  const measures = listOf(root, 'measures', problems);
  if ((dimensions?.length ?? 0) === 0 && (measures?.length ?? 0) === 0) {
    problems.push('at least one dimension or measure is required');
  }
  const expressions: Array<{ path: string; expr: string }> = [...joinOnClauses];
  if (filter !== undefined) {
    expressions.push({ path: 'filter', expr: filter });
    if (containsAggregate(filter)) problems.push('filter: aggregate functions are not allowed in a filter');
  }

  dimensions?.forEach((item, index) => {
    const path = `dimensions[${index}]`;
    const field = validateField(item, path, DIMENSION_KEYS, names, problems);
    if (field === undefined) return;
    expressions.push({ path: `${path} (${field.name})`, expr: field.expr });
    if (containsAggregate(field.expr)) {
      problems.push(`${path} (${field.name}): a dimension expression cannot use an aggregate function`);
    }
  });
  measures?.forEach((item, index) => {
    const path = `measures[${index}]`;
    const field = validateField(item, path, MEASURE_KEYS, names, problems);
    if (field === undefined) return;
    measureNames.add(field.name.toLowerCase());
    expressions.push({ path: `${path} (${field.name})`, expr: field.expr });
    if (!containsAggregate(field.expr)) {
      problems.push(`${path} (${field.name}): a measure expression must use an aggregate function such as SUM or COUNT, got "${field.expr}"`);
    }
    if (isRecord(item) && 'window' in item) validateWindow(item.window, `${path}.window`, problems);
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

  return { problems, tables };
}

function validateJoins(
  value: unknown,
  path: string,
  aliases: Set<string>,
  onClauses: Array<{ path: string; expr: string }>,
  tables: MetricViewTableReference[],
  problems: string[],
): void {
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
    for (const key of Object.keys(join)) {
      if (JOIN_KEYS.includes(key)) continue;
      const hint = key === 'true' ? ' (an unquoted `on` key is read as boolean true by YAML 1.1; write \'on\')' : '';
      problems.push(`${here}: unknown key "${key}"${hint} (allowed: ${JOIN_KEYS.join(', ')})`);
    }
    const name = join.name;
    if (typeof name !== 'string' || name.trim() === '') {
      problems.push(`${here}: "name" is required`);
    } else {
      const key = name.toLowerCase();
      if (key === 'source') problems.push(`${here}: a join cannot be named "source"`);
      else if (aliases.has(key)) problems.push(`${here}: duplicate join name "${name}"`);
      aliases.add(key);
    }
    const label = typeof name === 'string' ? `${here} (${name})` : here;
    if (typeof join.source !== 'string' || join.source.trim() === '') {
      problems.push(`${label}: "source" is required`);
    } else {
      tables.push(...tableReferencesOfSource(join.source, `${here}.source`, problems));
    }
    const hasOn = 'on' in join;
    const hasUsing = 'using' in join;
    if (hasOn && hasUsing) problems.push(`${label}: use either "on" or "using", not both`);
    if (!hasOn && !hasUsing) problems.push(`${label}: a join needs "on" or "using"`);
    if (hasOn) {
      if (typeof join.on !== 'string' || join.on.trim() === '') problems.push(`${label}: "on" must be a boolean SQL expression`);
      else onClauses.push({ path: `${label}.on`, expr: join.on });
    }
    if (hasUsing) {
      const using = join.using;
      if (!Array.isArray(using) || using.length === 0 || using.some((column) => typeof column !== 'string' || column.trim() === '')) {
        problems.push(`${label}: "using" must be a non-empty list of column names`);
      }
    }
    if ('joins' in join) validateJoins(join.joins, `${here}.joins`, aliases, onClauses, tables, problems);
  });
}

function validateField(
  item: unknown,
  path: string,
  allowedKeys: string[],
  names: Map<string, string>,
  problems: string[],
): { name: string; expr: string } | undefined {
  if (!isRecord(item)) {
    problems.push(`${path} must be a mapping with name and expr`);
    return undefined;
  }
  for (const key of Object.keys(item)) {
    if (!allowedKeys.includes(key)) problems.push(`${path}: unknown key "${key}" (allowed: ${allowedKeys.join(', ')})`);
  }
  const name = item.name;
  let ok = true;
  if (typeof name !== 'string' || name.trim() === '') {
    problems.push(`${path}: "name" is required`);
    ok = false;
  } else {
    const key = name.toLowerCase();
    const first = names.get(key);
    if (first !== undefined) problems.push(`${path}: duplicate name "${name}" (first used by ${first})`);
    else names.set(key, path);
  }
  const label = typeof name === 'string' ? `${path} (${name})` : path;
  if (typeof item.expr !== 'string' || item.expr.trim() === '') {
    problems.push(`${label}: "expr" is required`);
    ok = false;
  }
  optionalString(item, 'comment', `${label}.`, problems);
  optionalString(item, 'display_name', `${label}.`, problems);
  if ('synonyms' in item) {
    const synonyms = item.synonyms;
    if (!Array.isArray(synonyms) || synonyms.some((synonym) => typeof synonym !== 'string' || synonym.trim() === '')) {
      problems.push(`${label}: "synonyms" must be a list of strings`);
    }
  }
  if ('format' in item && !isRecord(item.format)) problems.push(`${label}: "format" must be a mapping`);
  return ok ? { name: name as string, expr: item.expr as string } : undefined;
}

function validateWindow(value: unknown, path: string, problems: string[]): void {
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
    for (const key of Object.keys(window)) {
      if (!WINDOW_KEYS.includes(key)) problems.push(`${here}: unknown key "${key}" (allowed: ${WINDOW_KEYS.join(', ')})`);
    }
    if (typeof window.order !== 'string' || window.order.trim() === '') problems.push(`${here}: "order" is required`);
    if (typeof window.range !== 'string' || window.range.trim() === '') problems.push(`${here}: "range" is required`);
    if ('semiadditive' in window && window.semiadditive !== 'first' && window.semiadditive !== 'last') {
      problems.push(`${here}: "semiadditive" must be first or last`);
    }
  });
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

function optionalString(record: Record<string, unknown>, key: string, prefix: string, problems: string[]): string | undefined {
  if (!(key in record) || record[key] === null) return undefined;
  const value = record[key];
  if (typeof value !== 'string') {
    problems.push(`${prefix}"${key}" must be a string`);
    return undefined;
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

function isQuery(source: string): boolean {
  return /^\s*(\(|select\b|with\b|from\b|values\b)/i.test(source);
}

/**
 * A table-like name yields itself; a SQL query yields the names after FROM and JOIN
 * (subqueries and CTE names aside), which is what it needs SELECT on.
 */
function tableReferencesOfSource(source: string, path: string, problems: string[]): MetricViewTableReference[] {
  if (!isQuery(source)) {
    const parts = splitName(source.trim());
    if (parts === undefined || parts.length > 3) {
      problems.push(`${path}: "${source}" is neither a table name (catalog.schema.table) nor a SQL query`);
      return [];
    }
    return [{ path, parts }];
  }
  const code = stripLiterals(source);
  const cteNames = new Set([...code.matchAll(/(?:\bwith|,)\s+([A-Za-z_][\w]*)\s+as\s*\(/gi)].map((m) => m[1].toLowerCase()));
  const references: MetricViewTableReference[] = [];
  for (const match of code.matchAll(/\b(?:from|join)\s+((?:`[^`]*`|[A-Za-z_][\w]*)(?:\s*\.\s*(?:`[^`]*`|[A-Za-z_][\w]*)){0,2})/gi)) {
    const parts = splitName(match[1].replace(/\s*\.\s*/g, '.'));
    if (parts === undefined) continue;
    if (parts.length === 1 && cteNames.has(parts[0].toLowerCase())) continue;
    references.push({ path, parts });
  }
  return references;
}

function splitName(text: string): string[] | undefined {
  const parts: string[] = [];
  const pattern = /(`(?:[^`]|``)*`|[A-Za-z_][\w$]*)(\.|$)/y;
  let index = 0;
  while (index < text.length) {
    pattern.lastIndex = index;
    const match = pattern.exec(text);
    if (match === null) return undefined;
    const raw = match[1];
    parts.push(raw.startsWith('`') ? raw.slice(1, -1).replaceAll('``', '`') : raw);
    index = pattern.lastIndex;
    if (match[2] === '.' && index >= text.length) return undefined;
  }
  return parts.length > 0 ? parts : undefined;
}

/** Replaces string literals with spaces (backticked identifiers stay) so keywords inside them are not seen. */
function stripLiterals(expr: string): string {
  return expr.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, (literal) => ' '.repeat(literal.length));
}

function containsAggregate(expr: string): boolean {
  const code = stripLiterals(expr).replace(/`(?:[^`]|``)*`/g, (quoted) => ' '.repeat(quoted.length));
  for (const match of code.matchAll(/(?<![\w.])([A-Za-z_][\w]*)\s*\(/g)) {
    if (AGGREGATE_FUNCTIONS.has(match[1].toLowerCase())) return true;
  }
  return false;
}

function measureFunctionArguments(expr: string): string[] {
  const code = stripLiterals(expr);
  return [...code.matchAll(/\bmeasure\s*\(\s*(`(?:[^`]|``)*`|[A-Za-z_][\w]*)\s*\)/gi)].map((match) =>
    match[1].startsWith('`') ? match[1].slice(1, -1).replaceAll('``', '`') : match[1],
  );
}

/**
 * Qualifiers of dotted references (`alias.column`) that name neither `source` nor a join.
 * Function calls (`schema.fn(`) and struct fields of known source columns are not references.
 */
function unknownQualifiers(expr: string, aliases: Set<string>, sourceColumns: Set<string>): string[] {
  const code = stripLiterals(expr);
  const unknown: string[] = [];
  const chain = /(`(?:[^`]|``)*`|[A-Za-z_][\w]*)((?:\s*\.\s*(?:`(?:[^`]|``)*`|[A-Za-z_][\w]*))+)(\s*\()?/g;
  for (const match of code.matchAll(chain)) {
    const start = match.index ?? 0;
    const before = code.slice(0, start);
    // Part of a longer token (a number like 1.5, or the tail of another chain)?
    if (/[\w.`]$/.test(before)) continue;
    if (match[3] !== undefined) continue;
    const head = match[1].startsWith('`') ? match[1].slice(1, -1).replaceAll('``', '`') : match[1];
    const key = head.toLowerCase();
    if (aliases.has(key) || sourceColumns.has(key)) continue;
    if (!unknown.includes(head)) unknown.push(head);
  }
  return unknown;
}
