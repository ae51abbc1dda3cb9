// A corpus of CREATE SEMANTIC VIEW statements written from the vendor's documented grammar (the
// CREATE SEMANTIC VIEW reference with its clause order, derived metrics, window function metrics,
// the Cortex Analyst instruction clauses, and the page on how semantic views are validated), in our
// own words and over the TPC-H-like tables of fixtures.ts (ANALYTICS.PUBLIC.ORDERS, CUSTOMERS,
// NATIONS, LINEITEMS). Each entry carries the verdict the real system gives; `assumption` marks a
// rule the documentation we could read does not settle, to be re-checked against a live account.

import { WarehouseErrorCodes, type WarehouseErrorCode } from '../../../../src-main/connectors/warehouse';

export type SemanticViewVerdict = { accepted: true } | { accepted: false; code: WarehouseErrorCode; message: string };

export interface SemanticViewCorpusEntry {
  rule: string;
  sql: string;
  verdict: SemanticViewVerdict;
  assumption?: string;
}

const ok: SemanticViewVerdict = { accepted: true };
const invalid = (message: string): SemanticViewVerdict => ({ accepted: false, code: WarehouseErrorCodes.INVALID_DEFINITION, message });
const syntax = (message: string): SemanticViewVerdict => ({ accepted: false, code: WarehouseErrorCodes.SYNTAX_ERROR, message });

const TABLES = `TABLES (
    orders AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (o_orderkey),
    customers AS ANALYTICS.PUBLIC.CUSTOMERS PRIMARY KEY (c_custkey) UNIQUE (c_email),
    line_items AS ANALYTICS.PUBLIC.LINEITEMS PRIMARY KEY (l_orderkey, l_linenumber)
  )
  RELATIONSHIPS (
    orders (o_custkey) REFERENCES customers,
    line_items (l_orderkey) REFERENCES orders
  )`;

const view = (name: string, rest: string): string => `CREATE OR REPLACE SEMANTIC VIEW ${name}\n  ${TABLES}\n  ${rest}`;

export const SEMANTIC_VIEW_CORPUS: SemanticViewCorpusEntry[] = [
  {
    rule: 'every clause in the documented order: tables, relationships, facts, dimensions, metrics, comment',
    sql: view(
      'c_full',
      `FACTS (line_items.net AS l_extendedprice * (1 - l_discount))
  DIMENSIONS (customers.name AS c_name WITH SYNONYMS = ('client'), orders.day AS o_orderdate COMMENT = 'Order date')
  METRICS (line_items.revenue AS SUM(line_items.net), orders.order_count AS COUNT(o_orderkey))
  COMMENT = 'Revenue'`,
    ),
    verdict: ok,
  },
  {
    rule: 'a derived metric is defined at view level, without a table, from metrics of several tables',
    sql: view(
      'c_derived',
      `DIMENSIONS (orders.day AS o_orderdate)
  METRICS (
    line_items.revenue AS SUM(l_extendedprice),
    orders.order_count AS COUNT(o_orderkey),
    revenue_per_order AS line_items.revenue / orders.order_count
  )`,
    ),
    verdict: ok,
  },
  {
    rule: 'a derived metric may build on another derived metric',
    sql: view(
      'c_derived_chain',
      `METRICS (
    line_items.revenue AS SUM(l_extendedprice),
    orders.order_count AS COUNT(o_orderkey),
    revenue_per_order AS line_items.revenue / orders.order_count,
    revenue_per_order_pct AS revenue_per_order * 100
  )`,
    ),
    verdict: ok,
  },
  {
    rule: 'a window function metric averages a metric over a moving date range, partitioned by every dimension but the date',
    sql: view(
      'c_window',
      `DIMENSIONS (orders.day AS o_orderdate, customers.name AS c_name)
  METRICS (
    orders.order_count AS COUNT(o_orderkey),
    orders.avg_7_days AS AVG(orders.order_count) OVER (PARTITION BY EXCLUDING orders.day ORDER BY orders.day RANGE BETWEEN INTERVAL '6 days' PRECEDING AND CURRENT ROW)
  )`,
    ),
    verdict: ok,
  },
  {
    rule: 'a window function metric may look back with LAG over a metric',
    sql: view(
      'c_window_lag',
      `DIMENSIONS (orders.day AS o_orderdate)
  METRICS (
    orders.order_count AS COUNT(o_orderkey),
    orders.count_30_days_ago AS LAG(orders.order_count, 30) OVER (PARTITION BY EXCLUDING orders.day ORDER BY orders.day)
  )`,
    ),
    verdict: ok,
  },
  {
    rule: 'Cortex Analyst instructions follow the comment: AI_SQL_GENERATION, then AI_QUESTION_CATEGORIZATION',
    sql: view(
      'c_ai',
      `DIMENSIONS (orders.day AS o_orderdate)
  METRICS (orders.order_count AS COUNT(o_orderkey))
  COMMENT = 'Orders'
  AI_SQL_GENERATION 'Round revenue to two decimals and always filter out test customers.'
  AI_QUESTION_CATEGORIZATION 'Questions about inventory are out of scope: say so.'`,
    ),
    verdict: ok,
  },
  {
    rule: 'facts and metrics may be PRIVATE; a private fact can feed a public metric',
    sql: view(
      'c_private',
      `FACTS (PRIVATE line_items.net AS l_extendedprice * (1 - l_discount))
  METRICS (line_items.revenue AS SUM(line_items.net), PRIVATE orders.raw_count AS COUNT(o_orderkey))`,
    ),
    verdict: ok,
  },
  {
    rule: 'IF NOT EXISTS creates a view that does not exist yet',
    sql: `CREATE SEMANTIC VIEW IF NOT EXISTS c_if_not_exists ${TABLES} DIMENSIONS (orders.day AS o_orderdate)`,
    verdict: ok,
  },
  {
    rule: 'a relationship may reference a unique key rather than the primary key',
    sql: `CREATE OR REPLACE SEMANTIC VIEW c_unique
  TABLES (orders AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (o_orderkey), customers AS ANALYTICS.PUBLIC.CUSTOMERS PRIMARY KEY (c_custkey) UNIQUE (c_name))
  RELATIONSHIPS (by_name AS orders (o_status) REFERENCES customers (c_name))
  DIMENSIONS (customers.name AS c_name)
  COPY GRANTS`,
    verdict: ok,
  },
  // ---- what the vendor refuses
  {
    rule: 'a derived metric combines metrics only, not dimensions',
    sql: view(
      'c_derived_dimension',
      `DIMENSIONS (orders.day AS o_orderdate)
  METRICS (orders.order_count AS COUNT(o_orderkey), odd AS orders.order_count + orders.day)`,
    ),
    verdict: invalid('a derived metric can only combine metrics'),
    assumption: 'the derived-metric pages say it combines metrics; we refuse references to dimensions, facts and columns',
  },
  {
    rule: 'derived metric names are unique',
    sql: view('c_derived_twice', `METRICS (orders.n AS COUNT(o_orderkey), twice AS orders.n * 2, twice AS orders.n * 3)`),
    verdict: invalid("Duplicate derived metric name 'TWICE'"),
  },
  {
    rule: 'a window function metric applies its function to a metric, not to a column',
    sql: view('c_window_column', `METRICS (orders.running AS SUM(o_totalprice) OVER (ORDER BY o_orderdate))`),
    verdict: invalid('must be applied to a metric'),
  },
  {
    rule: 'PARTITION BY EXCLUDING lists dimensions',
    sql: view(
      'c_window_exclude_metric',
      `DIMENSIONS (orders.day AS o_orderdate)
  METRICS (orders.n AS COUNT(o_orderkey), orders.m AS SUM(orders.n) OVER (PARTITION BY EXCLUDING orders.n ORDER BY orders.day))`,
    ),
    verdict: invalid('PARTITION BY EXCLUDING, which takes dimensions only'),
  },
  {
    rule: 'a window function metric is the window function call on its own',
    sql: view(
      'c_window_nested',
      `DIMENSIONS (orders.day AS o_orderdate)
  METRICS (orders.n AS COUNT(o_orderkey), orders.m AS 2 * SUM(orders.n) OVER (ORDER BY orders.day))`,
    ),
    verdict: invalid('a window function metric is a window function over a metric, on its own'),
    assumption: 'the grammar writes windowFunctionMetricExpression as <window_function>(<metric>) OVER (...) alone',
  },
  {
    rule: 'AI_QUESTION_CATEGORIZATION comes after AI_SQL_GENERATION',
    sql: view(
      'c_ai_order',
      `DIMENSIONS (orders.day AS o_orderdate)
  AI_QUESTION_CATEGORIZATION 'x'
  AI_SQL_GENERATION 'y'`,
    ),
    verdict: syntax("unexpected 'AI_SQL_GENERATION'"),
  },
  {
    rule: 'the instruction clauses come after COMMENT',
    sql: view(
      'c_ai_before_comment',
      `DIMENSIONS (orders.day AS o_orderdate)
  AI_SQL_GENERATION 'y'
  COMMENT = 'late'`,
    ),
    verdict: syntax("unexpected 'COMMENT'"),
  },
  {
    rule: 'the instruction takes a string directly, without =',
    sql: view('c_ai_equals', `DIMENSIONS (orders.day AS o_orderdate)\n  AI_SQL_GENERATION = 'y'`),
    verdict: syntax("unexpected '='"),
  },
  {
    rule: 'clause order is fixed: FACTS before DIMENSIONS',
    sql: view('c_order', `DIMENSIONS (orders.day AS o_orderdate)\n  FACTS (orders.total AS o_totalprice)`),
    verdict: syntax("unexpected 'FACTS'"),
  },
  {
    rule: 'a metric aggregates',
    sql: view('c_not_aggregate', `METRICS (orders.total AS o_totalprice)`),
    verdict: invalid('must be an aggregate expression'),
  },
  {
    rule: 'a relationship references a primary or unique key',
    sql: `CREATE SEMANTIC VIEW c_bad_key
  TABLES (orders AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (o_orderkey), customers AS ANALYTICS.PUBLIC.CUSTOMERS PRIMARY KEY (c_custkey))
  RELATIONSHIPS (orders (o_status) REFERENCES customers (c_name))
  DIMENSIONS (orders.day AS o_orderdate)`,
    verdict: invalid('which is not its primary key or a unique key'),
  },
  {
    rule: 'a dimension reads "up" many-to-one relationships only',
    sql: view('c_granularity', `DIMENSIONS (customers.order_day AS orders.o_orderdate)`),
    verdict: invalid('is not reachable from'),
  },
  {
    rule: 'OR REPLACE and IF NOT EXISTS do not go together',
    sql: `CREATE OR REPLACE SEMANTIC VIEW IF NOT EXISTS c_both ${TABLES} DIMENSIONS (orders.day AS o_orderdate)`,
    verdict: syntax('OR REPLACE and IF NOT EXISTS are incompatible'),
  },
];
