// Metric view definitions a Databricks workspace refuses, each with the error it answers: error
// class, SQLSTATE and text, `[CLASS] text SQLSTATE: nnnnn` (issue 27). Over the emulator's seeded
// tables main.default.orders (id, customer_id, product_id, status, amount, quantity, created_at),
// customers (id, name, region, country, created_at) and products (id, name, category, price).
// `basis` says where the expected error comes from:
// - 'spark': the class and text are Apache Spark's (its metric view planner or its published error
//   conditions), which the workspace's SQL engine shares;
// - 'databricks': Databricks' error class reference;
// - 'inferred': the class follows from how the definition is planned, not found published for
//   metric views: to re-check against a live workspace;
// - 'emulator-detail': the class is INVALID_METRIC_VIEW_YAML as Spark raises it for a definition
//   its YAML reader refuses, but the detail after "Failed to parse metric view YAML:" is the
//   emulator's wording (Databricks' own detail text was not found published).
// Suggestions are ranked as Spark ranks them (edit distance to the unresolved name, ties in column
// order); which five a workspace lists for ties is not confirmed.

export interface MetricViewRefusal {
  rule: string;
  yaml: string;
  errorClass: string;
  sqlState: string;
  message: string;
  basis: 'spark' | 'databricks' | 'inferred' | 'emulator-detail';
}

const yamlError = (detail: string) => `[INVALID_METRIC_VIEW_YAML] Failed to parse metric view YAML: ${detail} SQLSTATE: 42K0L`;
const unresolved = (name: string, proposals: string) =>
  `[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with name ${name} cannot be resolved. Did you mean one of the following? [${proposals}]. SQLSTATE: 42703`;
const notFound = (name: string) =>
  `[TABLE_OR_VIEW_NOT_FOUND] The table or view ${name} cannot be found. Verify the spelling and correctness of the schema and catalog.\n` +
  'If you did not qualify the name with a schema, verify the current_schema() output, or qualify the name with the correct schema and catalog. SQLSTATE: 42P01';

export const METRIC_VIEW_REFUSALS: MetricViewRefusal[] = [
  {
    rule: 'a specification version other than 0.1 and 1.1',
    yaml: 'version: 2.0\nsource: main.default.orders\nmeasures:\n  - name: n\n    expr: COUNT(1)\n',
    errorClass: 'INVALID_METRIC_VIEW_YAML',
    sqlState: '42K0L',
    message: yamlError('Invalid YAML version: 2.0 (supported: 0.1, 1.1)'),
    basis: 'spark',
  },
  {
    rule: 'a measure without expr',
    yaml: 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: revenue\n',
    errorClass: 'INVALID_METRIC_VIEW_YAML',
    sqlState: '42K0L',
    message: yamlError('measures[0] (revenue): "expr" is required'),
    basis: 'emulator-detail',
  },
  {
    rule: 'a join without on or using',
    yaml: 'version: 1.1\nsource: main.default.orders\njoins:\n  - name: buyer\n    source: main.default.customers\nmeasures:\n  - name: n\n    expr: COUNT(1)\n',
    errorClass: 'INVALID_METRIC_VIEW_YAML',
    sqlState: '42K0L',
    message: yamlError('joins[0] (buyer): a join needs "on" or "using"'),
    basis: 'emulator-detail',
  },
  {
    rule: 'a field name used twice (names are unique across fields and measures, whatever the case)',
    yaml: 'version: 1.1\nsource: main.default.orders\nfields:\n  - name: status\n    expr: status\n  - name: Status\n    expr: UPPER(status)\nmeasures:\n  - name: n\n    expr: COUNT(1)\n',
    errorClass: 'COLUMN_ALREADY_EXISTS',
    sqlState: '42711',
    message: '[COLUMN_ALREADY_EXISTS] The column `Status` already exists. Choose another name or rename the existing column. SQLSTATE: 42711',
    basis: 'inferred',
  },
  {
    rule: 'MEASURE() of a measure the view does not define',
    yaml: 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: revenue\n    expr: SUM(amount)\n  - name: orders\n    expr: COUNT(1)\n  - name: aov\n    expr: MEASURE(revenu) / MEASURE(orders)\n',
    errorClass: 'UNRESOLVED_COLUMN.WITH_SUGGESTION',
    sqlState: '42703',
    message: unresolved('`revenu`', '`revenue`, `orders`, `aov`'),
    basis: 'spark',
  },
  {
    rule: 'MEASURE() of a measure defined after it (a measure composes previously defined measures)',
    yaml: 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: aov\n    expr: MEASURE(revenue) / MEASURE(orders)\n  - name: revenue\n    expr: SUM(amount)\n  - name: orders\n    expr: COUNT(1)\n',
    errorClass: 'UNRESOLVED_COLUMN.WITHOUT_SUGGESTION',
    sqlState: '42703',
    message: '[UNRESOLVED_COLUMN.WITHOUT_SUGGESTION] A column, variable, or function parameter with name `revenue` cannot be resolved. SQLSTATE: 42703',
    basis: 'inferred',
  },
  {
    rule: 'a window measure ordered by a field the view does not define',
    yaml: `version: 1.1
source: main.default.orders
fields:
  - name: order_day
    expr: DATE_TRUNC('DAY', created_at)
measures:
  - name: buyers_7d
    expr: COUNT(DISTINCT customer_id)
    window:
      - order: day
        range: trailing 7 day
        semiadditive: last
`,
    errorClass: 'UNRESOLVED_COLUMN.WITH_SUGGESTION',
    sqlState: '42703',
    message: unresolved('`day`', '`order_day`'),
    basis: 'inferred',
  },
  {
    rule: 'a measure that does not aggregate',
    yaml: 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: revenue\n    expr: amount * quantity\n',
    errorClass: 'MISSING_AGGREGATION',
    sqlState: '42803',
    message:
      '[MISSING_AGGREGATION] The non-aggregating expression "amount * quantity" is based on columns which are not participating in the GROUP BY clause. ' +
      'Add the columns or the expression to the GROUP BY, aggregate the expression, or use "any_value(amount * quantity)" if you do not care which of the values within a group is returned. SQLSTATE: 42803',
    basis: 'spark',
  },
  {
    rule: 'a field that aggregates',
    yaml: 'version: 1.1\nsource: main.default.orders\nfields:\n  - name: biggest\n    expr: MAX(amount)\nmeasures:\n  - name: n\n    expr: COUNT(1)\n',
    errorClass: 'GROUP_BY_AGGREGATE',
    sqlState: '42903',
    message: '[GROUP_BY_AGGREGATE] Aggregate functions are not allowed in GROUP BY, but found MAX(amount). SQLSTATE: 42903',
    basis: 'inferred',
  },
  {
    rule: 'a filter that aggregates',
    yaml: 'version: 1.1\nsource: main.default.orders\nfilter: SUM(amount) > 0\nmeasures:\n  - name: n\n    expr: COUNT(1)\n',
    errorClass: 'INVALID_WHERE_CONDITION',
    sqlState: '42903',
    message:
      '[INVALID_WHERE_CONDITION] The WHERE condition "SUM(amount) > 0" contains invalid expressions: "SUM(amount)". ' +
      'Rewrite the query to avoid window functions, aggregate functions, and generator functions in the WHERE clause. SQLSTATE: 42903',
    basis: 'spark',
  },
  {
    rule: 'an aggregate inside another aggregate',
    yaml: 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: odd\n    expr: SUM(COUNT(id))\n',
    errorClass: 'NESTED_AGGREGATE_FUNCTION',
    sqlState: '42607',
    message:
      '[NESTED_AGGREGATE_FUNCTION] It is not allowed to use an aggregate function in the argument of another aggregate function. Please use the inner aggregate function in a sub-query. SQLSTATE: 42607',
    basis: 'spark',
  },
  {
    rule: 'a column the source table does not have',
    yaml: 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: revenue\n    expr: SUM(source.amout)\n',
    errorClass: 'UNRESOLVED_COLUMN.WITH_SUGGESTION',
    sqlState: '42703',
    message: unresolved('`source`.`amout`', '`source`.`amount`, `source`.`id`, `source`.`status`, `source`.`quantity`, `source`.`product_id`'),
    basis: 'spark',
  },
  {
    rule: 'a column the joined table does not have, in the join condition',
    yaml: 'version: 1.1\nsource: main.default.orders\njoins:\n  - name: buyer\n    source: main.default.customers\n    \'on\': source.customer_id = buyer.customer_id\nmeasures:\n  - name: n\n    expr: COUNT(1)\n',
    errorClass: 'UNRESOLVED_COLUMN.WITH_SUGGESTION',
    sqlState: '42703',
    message: unresolved('`buyer`.`customer_id`', '`source`.`customer_id`, `buyer`.`country`, `buyer`.`created_at`, `buyer`.`id`, `buyer`.`name`'),
    basis: 'spark',
  },
  {
    rule: 'a qualifier that is neither source nor a join',
    yaml: 'version: 1.1\nsource: main.default.orders\njoins:\n  - name: buyer\n    source: main.default.customers\n    \'on\': source.customer_id = buyer.id\nfields:\n  - name: region\n    expr: customer.region\nmeasures:\n  - name: n\n    expr: COUNT(1)\n',
    errorClass: 'UNRESOLVED_COLUMN.WITH_SUGGESTION',
    sqlState: '42703',
    message: unresolved('`customer`.`region`', '`buyer`.`region`, `source`.`id`, `buyer`.`id`, `buyer`.`name`, `source`.`amount`'),
    basis: 'spark',
  },
  {
    rule: 'a source table that does not exist',
    yaml: 'version: 1.1\nsource: main.default.sales\nmeasures:\n  - name: n\n    expr: COUNT(1)\n',
    errorClass: 'TABLE_OR_VIEW_NOT_FOUND',
    sqlState: '42P01',
    message: notFound('`main`.`default`.`sales`'),
    basis: 'spark',
  },
  {
    rule: 'a joined table that does not exist',
    yaml: 'version: 1.1\nsource: main.default.orders\njoins:\n  - name: buyer\n    source: main.default.clients\n    using: [id]\nmeasures:\n  - name: n\n    expr: COUNT(1)\n',
    errorClass: 'TABLE_OR_VIEW_NOT_FOUND',
    sqlState: '42P01',
    message: notFound('`main`.`default`.`clients`'),
    basis: 'spark',
  },
  {
    rule: 'MEASURE() of an expression rather than one measure',
    yaml: 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: revenue\n    expr: SUM(amount)\n  - name: double\n    expr: MEASURE(revenue * 2)\n',
    errorClass: 'UNSUPPORTED_METRIC_VIEW_USAGE.MEASURE_REQUIRES_EXACTLY_ONE_COLUMN',
    sqlState: '0A000',
    message: '[UNSUPPORTED_METRIC_VIEW_USAGE.MEASURE_REQUIRES_EXACTLY_ONE_COLUMN] MEASURE() requires exactly one measure column as argument. SQLSTATE: 0A000',
    basis: 'databricks',
  },
  {
    rule: 'a top-level key the specification does not have',
    yaml: 'version: 1.1\nsource: main.default.orders\nmetrics:\n  - name: n\n    expr: COUNT(1)\n',
    errorClass: 'INVALID_METRIC_VIEW_YAML',
    sqlState: '42K0L',
    message: yamlError(
      'unknown top-level key "metrics" (allowed: version, comment, source, parameters, filter, joins, fields, dimensions, measures, materialization)',
    ),
    basis: 'emulator-detail',
  },
  {
    rule: 'a specification 1.1 key in a 0.1 definition',
    yaml: 'version: 0.1\nsource: main.default.orders\ndimensions:\n  - name: status\n    expr: status\n    display_name: Status\n',
    errorClass: 'INVALID_METRIC_VIEW_YAML',
    sqlState: '42K0L',
    message: yamlError('dimensions[0]: "display_name" requires metric view specification version 1.1 (the definition declares version 0.1)'),
    basis: 'emulator-detail',
  },
  {
    rule: 'neither fields nor measures',
    yaml: 'version: 1.1\nsource: main.default.orders\n',
    errorClass: 'INVALID_METRIC_VIEW_YAML',
    sqlState: '42K0L',
    message: yamlError('at least one field (dimension) or measure is required'),
    basis: 'emulator-detail',
  },
];
