// A corpus of metric view definitions written from the vendor's documented grammar (the metric
// view YAML reference, the feature-availability page with its specification versions, and the
// pages on joins, window measures, parameters, semantic metadata and materialization), in our own
// words and over the emulator's seeded tables (main.default.orders/customers/products). Each entry
// carries the verdict the real system gives. Where the documentation we could read does not settle
// a rule, the entry says so in `assumption`: those are the verdicts to re-check against a live
// workspace.

/** A refusal names the problem, under the error class Databricks reports it with (INVALID_METRIC_VIEW_YAML unless said). */
export type CorpusVerdict = { accepted: true } | { accepted: false; names: string; errorClass: string };

export interface MetricViewCorpusEntry {
  rule: string;
  yaml: string;
  verdict: CorpusVerdict;
  assumption?: string;
}

const ok: CorpusVerdict = { accepted: true };
const rejected = (names: string, errorClass = 'INVALID_METRIC_VIEW_YAML'): CorpusVerdict => ({ accepted: false, names, errorClass });

export const METRIC_VIEW_CORPUS: MetricViewCorpusEntry[] = [
  {
    rule: 'the YAML is standard YAML 1.2, so an unquoted on: in a join is the key "on"',
    yaml: `version: 1.1
source: main.default.orders
joins:
  - name: buyer
    source: main.default.customers
    on: source.customer_id = buyer.id
fields:
  - name: Buyer region
    expr: buyer.region
measures:
  - name: Orders
    expr: COUNT(1)
`,
    verdict: ok,
  },
  {
    rule: 'specification 0.1 definitions with dimensions and measures are accepted',
    yaml: `version: 0.1
source: main.default.orders
dimensions:
  - name: status
    expr: status
measures:
  - name: revenue
    expr: SUM(amount)
`,
    verdict: ok,
  },
  {
    rule: 'window measures exist in specification 0.1 (order, range, semiadditive)',
    yaml: `version: 0.1
source: main.default.orders
dimensions:
  - name: day
    expr: DATE_TRUNC('DAY', created_at)
measures:
  - name: buyers_last_week
    expr: COUNT(DISTINCT customer_id)
    window:
      - order: day
        range: trailing 7 day
        semiadditive: last
`,
    verdict: ok,
  },
  {
    rule: 'fields is the current name of dimensions',
    yaml: `version: 1.1
source: main.default.orders
fields:
  - name: status
    expr: status
measures:
  - name: n
    expr: COUNT(*)
`,
    verdict: ok,
  },
  {
    rule: 'dimensions is still accepted as the earlier name of fields',
    yaml: `version: "1.1"
source: main.default.orders
dimensions:
  - name: status
    expr: status
`,
    verdict: ok,
  },
  {
    rule: 'a snowflake join nests joins and may join with using',
    yaml: `version: 1.1
source: main.default.orders
joins:
  - name: buyer
    source: main.default.customers
    on: source.customer_id = buyer.id
    joins:
      - name: item
        source: main.default.products
        using: [id]
fields:
  - name: category
    expr: buyer.item.category
measures:
  - name: n
    expr: COUNT(1)
`,
    verdict: ok,
  },
  {
    rule: 'specification 1.1 joins may declare cardinality one_to_many',
    yaml: `version: 1.1
source: main.default.customers
joins:
  - name: purchases
    source: main.default.orders
    on: source.id = purchases.customer_id
    cardinality: one_to_many
fields:
  - name: region
    expr: region
measures:
  - name: spend
    expr: SUM(purchases.amount)
`,
    verdict: ok,
  },
  {
    rule: 'specification 1.1 windows take offset and an inclusive or exclusive range modifier',
    yaml: `version: 1.1
source: main.default.orders
fields:
  - name: month
    expr: DATE_TRUNC('MONTH', created_at)
measures:
  - name: revenue_prior_quarter
    expr: SUM(amount)
    window:
      - order: month
        range: trailing 3 month inclusive
        offset: -1 year
`,
    verdict: ok,
  },
  {
    rule: 'semantic metadata (comment, display_name, format, synonyms) is accepted in 1.1',
    yaml: `version: 1.1
comment: Order KPIs for finance
source: main.default.orders
fields:
  - name: status
    expr: status
    display_name: Order status
    synonyms: [state, stage]
    comment: Lifecycle state
measures:
  - name: revenue
    expr: SUM(amount)
    format:
      type: currency
      currency_code: EUR
`,
    verdict: ok,
  },
  {
    rule: 'parameters are named values with a type and an optional default, usable in expressions',
    yaml: `version: 1.1
source: main.default.orders
parameters:
  - name: min_amount
    type: DOUBLE
  - name: discount
    type: DOUBLE
    default: 0.1
filter: amount >= min_amount
fields:
  - name: status
    expr: status
measures:
  - name: discounted
    expr: SUM(amount * (1 - discount))
`,
    verdict: ok,
    assumption: 'the parameter keys are name, type, default (and comment); the reference pages we could read name the values but not the key spellings',
  },
  {
    rule: 'materialization declares a schedule, a mode and materialized views',
    yaml: `version: 1.1
source: main.default.orders
fields:
  - name: status
    expr: status
measures:
  - name: revenue
    expr: SUM(amount)
materialization:
  schedule: every 6 hours
  mode: relaxed
  materialized_views:
    - name: by_status
      type: aggregated
      fields: [status]
      measures: [revenue]
    - name: raw
      type: unaggregated
`,
    verdict: ok,
    assumption: 'key spellings schedule, mode, materialized_views (name, type aggregated|unaggregated, fields/dimensions, measures) follow the materialization page; values are not checked beyond type',
  },
  {
    rule: 'a SQL query can be the source; MEASURE() composes measures',
    yaml: `version: 1.1
source: SELECT * FROM main.default.orders WHERE status <> 'void'
fields:
  - name: status
    expr: status
measures:
  - name: revenue
    expr: SUM(amount)
  - name: orders
    expr: COUNT(1)
  - name: average_order
    expr: MEASURE(revenue) / MEASURE(orders)
`,
    verdict: ok,
  },
  // ---- what the vendor refuses, naming the key
  {
    rule: 'display_name arrived with specification 1.1; a 0.1 definition cannot use it',
    yaml: `version: 0.1
source: main.default.orders
dimensions:
  - name: status
    expr: status
    display_name: Status
`,
    verdict: rejected('"display_name" requires metric view specification version 1.1'),
  },
  {
    rule: 'the top-level comment arrived with specification 1.1',
    yaml: `version: 0.1
comment: Orders
source: main.default.orders
dimensions:
  - name: status
    expr: status
`,
    verdict: rejected('"comment" requires metric view specification version 1.1'),
  },
  {
    rule: 'join cardinality arrived with specification 1.1',
    yaml: `version: 0.1
source: main.default.orders
joins:
  - name: buyer
    source: main.default.customers
    on: source.customer_id = buyer.id
    cardinality: many_to_one
dimensions:
  - name: region
    expr: buyer.region
`,
    verdict: rejected('"cardinality" requires metric view specification version 1.1'),
  },
  {
    rule: 'window offset arrived with specification 1.1',
    yaml: `version: 0.1
source: main.default.orders
dimensions:
  - name: day
    expr: DATE_TRUNC('DAY', created_at)
measures:
  - name: revenue_last_year
    expr: SUM(amount)
    window:
      - order: day
        range: current
        offset: -1 year
`,
    verdict: rejected('"offset" requires metric view specification version 1.1'),
  },
  {
    rule: 'a key the reference does not have is refused, named',
    yaml: `version: 1.1
source: main.default.orders
metrics:
  - name: n
    expr: COUNT(1)
fields:
  - name: status
    expr: status
`,
    verdict: rejected('unknown top-level key "metrics"'),
  },
  {
    rule: 'a field has no type key',
    yaml: `version: 1.1
source: main.default.orders
fields:
  - name: status
    expr: status
    type: string
`,
    verdict: rejected('unknown key "type"'),
  },
  {
    rule: 'only specification versions 0.1 and 1.1 exist',
    yaml: `version: 2.0
source: main.default.orders
fields:
  - name: status
    expr: status
`,
    verdict: rejected('Invalid YAML version'),
  },
  {
    rule: 'a measure must aggregate',
    yaml: `version: 1.1
source: main.default.orders
measures:
  - name: amount
    expr: amount * 2
`,
    verdict: rejected('The non-aggregating expression', 'MISSING_AGGREGATION'),
  },
  {
    rule: 'a field cannot aggregate',
    yaml: `version: 1.1
source: main.default.orders
fields:
  - name: total
    expr: SUM(amount)
`,
    verdict: rejected('Aggregate functions are not allowed in GROUP BY', 'GROUP_BY_AGGREGATE'),
  },
  {
    rule: 'a join takes on or using, not both',
    yaml: `version: 1.1
source: main.default.orders
joins:
  - name: buyer
    source: main.default.customers
    on: source.customer_id = buyer.id
    using: [id]
fields:
  - name: region
    expr: buyer.region
`,
    verdict: rejected('use either "on" or "using"'),
  },
  {
    rule: 'fields and its earlier name dimensions cannot both be written',
    yaml: `version: 1.1
source: main.default.orders
fields:
  - name: status
    expr: status
dimensions:
  - name: region
    expr: status
`,
    verdict: rejected('use either "fields" or "dimensions"'),
    assumption: 'the reference calls dimensions a synonym of fields; we take writing both as an error rather than a merge',
  },
  {
    rule: 'a metric view that defines parameters cannot be materialized',
    yaml: `version: 1.1
source: main.default.orders
parameters:
  - name: discount
    type: DOUBLE
    default: 0.1
fields:
  - name: status
    expr: status
materialization:
  schedule: every 1 day
  mode: relaxed
  materialized_views:
    - name: raw
      type: unaggregated
`,
    verdict: rejected('"materialization" is not supported for a metric view that defines "parameters"'),
  },
  {
    rule: 'after a parameter with a default, every later parameter needs a default',
    yaml: `version: 1.1
source: main.default.orders
parameters:
  - name: discount
    type: DOUBLE
    default: 0.1
  - name: floor
    type: DOUBLE
fields:
  - name: status
    expr: status
`,
    verdict: rejected('needs a "default"'),
  },
  {
    rule: 'semiadditive is first or last',
    yaml: `version: 1.1
source: main.default.orders
fields:
  - name: day
    expr: DATE_TRUNC('DAY', created_at)
measures:
  - name: n
    expr: COUNT(1)
    window:
      - order: day
        range: cumulative
        semiadditive: middle
`,
    verdict: rejected('"semiadditive" must be first or last'),
  },
  {
    rule: 'display names are limited to 255 characters',
    yaml: `version: 1.1
source: main.default.orders
fields:
  - name: status
    expr: status
    display_name: ${'x'.repeat(256)}
`,
    verdict: rejected('"display_name" is limited to 255 characters'),
  },
  {
    rule: 'a format names one of the documented format types',
    yaml: `version: 1.1
source: main.default.orders
measures:
  - name: revenue
    expr: SUM(amount)
    format:
      type: money
`,
    verdict: rejected('"format.type" must be one of'),
    assumption: 'the format types are number, currency, percentage, byte, date and date_time',
  },
  {
    rule: 'a join cannot be named source',
    yaml: `version: 1.1
source: main.default.orders
joins:
  - name: source
    source: main.default.customers
    on: source.customer_id = source.id
fields:
  - name: status
    expr: status
`,
    verdict: rejected('a join cannot be named "source"'),
  },
];
