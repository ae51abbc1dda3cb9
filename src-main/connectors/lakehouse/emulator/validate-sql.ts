/**
 * The SQL text checks of metric view validation: which tables a `source` reads (a table name, or
 * the names after FROM and JOIN of a query, CTE names aside), whether an expression aggregates,
 * which measures MEASURE() composes, and which `alias.column` qualifiers name neither `source`
 * nor a join. String literals are blanked out first so that nothing inside them counts.
 */

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

export function isQuery(source: string): boolean {
  return /^\s*(\(|select\b|with\b|from\b|values\b)/i.test(source);
}

/**
 * A table-like name yields itself; a SQL query yields the names after FROM and JOIN
 * (subqueries and CTE names aside), which is what it needs SELECT on.
 */
export function tableReferencesOfSource(source: string, path: string, problems: string[]): MetricViewTableReference[] {
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
export function stripLiterals(expr: string): string {
  return expr.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, (literal) => ' '.repeat(literal.length));
}

export function containsAggregate(expr: string): boolean {
  const code = stripLiterals(expr).replace(/`(?:[^`]|``)*`/g, (quoted) => ' '.repeat(quoted.length));
  for (const match of code.matchAll(/(?<![\w.])([A-Za-z_][\w]*)\s*\(/g)) {
    if (AGGREGATE_FUNCTIONS.has(match[1].toLowerCase())) return true;
  }
  return false;
}

export function measureFunctionArguments(expr: string): string[] {
  const code = stripLiterals(expr);
  return [...code.matchAll(/\bmeasure\s*\(\s*(`(?:[^`]|``)*`|[A-Za-z_][\w]*)\s*\)/gi)].map((match) =>
    match[1].startsWith('`') ? match[1].slice(1, -1).replaceAll('``', '`') : match[1],
  );
}

/**
 * Qualifiers of dotted references (`alias.column`) that name neither `source` nor a join.
 * Function calls (`schema.fn(`) and struct fields of known source columns are not references.
 */
export function unknownQualifiers(expr: string, aliases: Set<string>, sourceColumns: Set<string>): string[] {
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

/** Code with string literals and back-quoted names blanked: what only the SQL structure is read from. */
function structure(expr: string): string {
  return stripLiterals(expr).replace(/`(?:[^`]|``)*`/g, (quoted) => ' '.repeat(quoted.length));
}

/** The index just past the parenthesis that closes the one opened at `open` (the text's end when it never closes). */
function closingParen(code: string, open: number): number {
  let depth = 0;
  for (let index = open; index < code.length; index += 1) {
    if (code[index] === '(') depth += 1;
    else if (code[index] === ')') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return code.length;
}

/** Each aggregate call of an expression, as written (`SUM(amount)`), with the text of its arguments. */
export function aggregateCalls(expr: string): Array<{ text: string; args: string }> {
  const code = structure(expr);
  const calls: Array<{ text: string; args: string }> = [];
  for (const match of code.matchAll(/(?<![\w.])([A-Za-z_][\w]*)\s*\(/g)) {
    if (!AGGREGATE_FUNCTIONS.has(match[1].toLowerCase())) continue;
    const start = match.index ?? 0;
    const open = start + match[0].length - 1;
    const end = closingParen(code, open);
    calls.push({ text: expr.slice(start, end), args: expr.slice(open + 1, Math.max(open + 1, end - 1)) });
  }
  return calls;
}

/** True when an aggregate function is called inside the arguments of another. */
export function nestsAggregates(expr: string): boolean {
  return aggregateCalls(expr).some((call) => containsAggregate(call.args));
}

/** MEASURE() calls whose argument is not exactly one column name. */
export function malformedMeasureCalls(expr: string): string[] {
  return aggregateCalls(expr)
    .filter((call) => /^measure\s*\(/i.test(call.text))
    .filter((call) => !/^\s*(`(?:[^`]|``)*`|[A-Za-z_][\w]*)\s*$/.test(call.args))
    .map((call) => call.text);
}

/** Dotted references of an expression (`alias.column`, `alias.column.field`), parts unquoted; function calls excluded. */
export function dottedReferences(expr: string): string[][] {
  const code = stripLiterals(expr);
  const references: string[][] = [];
  const chain = /(`(?:[^`]|``)*`|[A-Za-z_][\w]*)((?:\s*\.\s*(?:`(?:[^`]|``)*`|[A-Za-z_][\w]*))+)(\s*\()?/g;
  for (const match of code.matchAll(chain)) {
    const before = code.slice(0, match.index ?? 0);
    if (/[\w.`]$/.test(before) || match[3] !== undefined) continue;
    const parts = [...`${match[1]}${match[2]}`.matchAll(/`(?:[^`]|``)*`|[A-Za-z_][\w]*/g)].map(([part]) =>
      part.startsWith('`') ? part.slice(1, -1).replaceAll('``', '`') : part,
    );
    references.push(parts);
  }
  return references;
}
