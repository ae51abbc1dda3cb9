/**
 * The Databricks error classes a metric view definition is refused with, and their texts, so the
 * emulator fails the way a workspace does: `[CLASS] text SQLSTATE: nnnnn` (issue 27).
 *
 * Sources, and how sure each text is:
 * - INVALID_METRIC_VIEW_YAML (42K0L), "Failed to parse metric view YAML: <detail>", with the detail
 *   "Invalid YAML version: <v>": Apache Spark's metric view implementation (QueryCompilationErrors
 *   .invalidMetricViewYamlError, MetricViewFactory), which Databricks' error class shares. The
 *   details of the other structural problems (a missing `expr`, a join without `on`/`using`, …)
 *   are the emulator's own words: Databricks words them from its YAML reader, not found published.
 * - UNRESOLVED_COLUMN.WITH_SUGGESTION / WITHOUT_SUGGESTION (42703), MISSING_AGGREGATION (42803),
 *   NESTED_AGGREGATE_FUNCTION (42607), INVALID_WHERE_CONDITION (42903), GROUP_BY_AGGREGATE (42903),
 *   COLUMN_ALREADY_EXISTS (42711), TABLE_OR_VIEW_NOT_FOUND (42P01), RECURSIVE_VIEW (42K0H): the
 *   Spark SQL error conditions (error-conditions.json), texts as published there.
 * - UNSUPPORTED_METRIC_VIEW_USAGE.MEASURE_REQUIRES_EXACTLY_ONE_COLUMN (0A000): Databricks' error
 *   class reference.
 * Which class Databricks raises for a duplicate field name, an aggregate in a field, and a window
 * `order` that names no field is inferred from how the definition is planned (fields become
 * GROUP BY columns and output columns; `order` resolves against the fields), not confirmed.
 */

export interface MetricViewErrorClass {
  errorClass: string;
  sqlState: string;
}

export const INVALID_YAML: MetricViewErrorClass = { errorClass: 'INVALID_METRIC_VIEW_YAML', sqlState: '42K0L' };
export const UNRESOLVED_WITH_SUGGESTION: MetricViewErrorClass = { errorClass: 'UNRESOLVED_COLUMN.WITH_SUGGESTION', sqlState: '42703' };
export const UNRESOLVED_WITHOUT_SUGGESTION: MetricViewErrorClass = { errorClass: 'UNRESOLVED_COLUMN.WITHOUT_SUGGESTION', sqlState: '42703' };
export const MISSING_AGGREGATION: MetricViewErrorClass = { errorClass: 'MISSING_AGGREGATION', sqlState: '42803' };
export const NESTED_AGGREGATE: MetricViewErrorClass = { errorClass: 'NESTED_AGGREGATE_FUNCTION', sqlState: '42607' };
export const INVALID_WHERE: MetricViewErrorClass = { errorClass: 'INVALID_WHERE_CONDITION', sqlState: '42903' };
export const GROUP_BY_AGGREGATE: MetricViewErrorClass = { errorClass: 'GROUP_BY_AGGREGATE', sqlState: '42903' };
export const COLUMN_EXISTS: MetricViewErrorClass = { errorClass: 'COLUMN_ALREADY_EXISTS', sqlState: '42711' };
export const MEASURE_ONE_COLUMN: MetricViewErrorClass = {
  errorClass: 'UNSUPPORTED_METRIC_VIEW_USAGE.MEASURE_REQUIRES_EXACTLY_ONE_COLUMN',
  sqlState: '0A000',
};
export const TABLE_NOT_FOUND: MetricViewErrorClass = { errorClass: 'TABLE_OR_VIEW_NOT_FOUND', sqlState: '42P01' };
export const RECURSIVE_VIEW: MetricViewErrorClass = { errorClass: 'RECURSIVE_VIEW', sqlState: '42K0H' };

/** A problem with the class Databricks reports it under and the vendor's text (without the class prefix). */
export interface ClassifiedProblem extends MetricViewErrorClass {
  text: string;
}

/** Spark shows identifiers back-quoted, part by part: `buyer`.`regoin`. */
export function quotedName(parts: string[]): string {
  return parts.map((part) => `\`${part.replaceAll('`', '``')}\``).join('.');
}

/** UNRESOLVED_COLUMN with Spark's suggestion list (at most five candidates), or without one. */
export function unresolvedColumn(parts: string[], candidates: string[][]): ClassifiedProblem {
  const name = quotedName(parts);
  if (candidates.length === 0) {
    return { ...UNRESOLVED_WITHOUT_SUGGESTION, text: `A column, variable, or function parameter with name ${name} cannot be resolved.` };
  }
  const target = parts.join('.').toLowerCase();
  const ranked = [...candidates].sort((a, b) => editDistance(a.join('.').toLowerCase(), target) - editDistance(b.join('.').toLowerCase(), target));
  const proposal = ranked.slice(0, 5).map(quotedName).join(', ');
  return { ...UNRESOLVED_WITH_SUGGESTION, text: `A column, variable, or function parameter with name ${name} cannot be resolved. Did you mean one of the following? [${proposal}].` };
}

export function missingAggregation(expr: string): ClassifiedProblem {
  return {
    ...MISSING_AGGREGATION,
    text:
      `The non-aggregating expression "${expr}" is based on columns which are not participating in the GROUP BY clause. ` +
      `Add the columns or the expression to the GROUP BY, aggregate the expression, or use "any_value(${expr})" if you do not care which of the values within a group is returned.`,
  };
}

export function nestedAggregate(): ClassifiedProblem {
  return {
    ...NESTED_AGGREGATE,
    text: 'It is not allowed to use an aggregate function in the argument of another aggregate function. Please use the inner aggregate function in a sub-query.',
  };
}

export function invalidWhere(condition: string, aggregates: string[]): ClassifiedProblem {
  return {
    ...INVALID_WHERE,
    text:
      `The WHERE condition "${condition}" contains invalid expressions: ${aggregates.join(', ')}. ` +
      'Rewrite the query to avoid window functions, aggregate functions, and generator functions in the WHERE clause.',
  };
}

export function groupByAggregate(expr: string): ClassifiedProblem {
  return { ...GROUP_BY_AGGREGATE, text: `Aggregate functions are not allowed in GROUP BY, but found ${expr}.` };
}

export function columnExists(name: string): ClassifiedProblem {
  return { ...COLUMN_EXISTS, text: `The column ${quotedName([name])} already exists. Choose another name or rename the existing column.` };
}

export function measureOneColumn(): ClassifiedProblem {
  return { ...MEASURE_ONE_COLUMN, text: 'MEASURE() requires exactly one measure column as argument.' };
}

/** Databricks' error class reference (UNSUPPORTED_METRIC_VIEW_USAGE). */
export function selectStarNotSupported(): ClassifiedProblem {
  return { errorClass: 'UNSUPPORTED_METRIC_VIEW_USAGE.SELECT_STAR_NOT_SUPPORTED', sqlState: '0A000', text: 'SELECT * is not supported in metric views.' };
}

/** Databricks' text; its SQLSTATE (42803, as for other aggregation errors) was not found published. */
export function missingMeasureFunction(column: string): ClassifiedProblem {
  return {
    errorClass: 'METRIC_VIEW_MISSING_MEASURE_FUNCTION',
    sqlState: '42803',
    text: `The usage of measure column ${quotedName([column])} of a metric view requires a MEASURE() function to produce a result.`,
  };
}

export function tableNotFound(parts: string[]): ClassifiedProblem {
  return {
    ...TABLE_NOT_FOUND,
    text:
      `The table or view ${quotedName(parts)} cannot be found. Verify the spelling and correctness of the schema and catalog.\n` +
      'If you did not qualify the name with a schema, verify the current_schema() output, or qualify the name with the correct schema and catalog.',
  };
}

export function recursiveView(parts: string[]): ClassifiedProblem {
  const name = quotedName(parts);
  return { ...RECURSIVE_VIEW, text: `Recursive view ${name} detected (cycle: ${name} -> ${name}).` };
}

/** How a workspace prints an error: `[CLASS] text SQLSTATE: nnnnn`. */
export function vendorMessage(problem: ClassifiedProblem): string {
  return `[${problem.errorClass}] ${problem.text} SQLSTATE: ${problem.sqlState}`;
}

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j];
      previous[j] = Math.min(previous[j] + 1, previous[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length];
}
