// Databricks' query over a published metric view (`SELECT dim, MEASURE(m) FROM view GROUP BY ALL`),
// answered by the local lakehouse from its DuckDB table data, gives the model query's numbers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAKEHOUSE_DUCKDB_CATALOG, LakehouseEmulator, LakehouseError, LocalLakehouseConnector } from '../../../src-main/connectors/lakehouse';
import { generateMetricViewYaml } from '../../../src-shared/model/generate/metric-view-yaml';
import { byKey, openQueryFixture, type QueryFixture } from '../../support/query-fixture';

let fx: QueryFixture;
let dir: string;
let connector: LocalLakehouseConnector;

const SHOP_YAML = `version: 1.1
source: main.ecommerce.orders
filter: status <> 'returned'
joins:
  - name: customer
    source: main.ecommerce.customers
    'on': source.customer_id = customer.id
dimensions:
  - name: country
    expr: customer.country
  - name: status
    expr: status
  - name: order_month
    expr: DATE_TRUNC('MONTH', source.created_at)
measures:
  - name: orders
    expr: COUNT(1)
  - name: total
    expr: SUM(amount)
  - name: average_order
    expr: MEASURE(total) / MEASURE(orders)
  - name: customers
    expr: COUNT(DISTINCT customer.id)
`;

beforeAll(async () => {
  fx = await openQueryFixture({ orders: 1500, catalog: LAKEHOUSE_DUCKDB_CATALOG });
  dir = mkdtempSync(join(tmpdir(), 'dd-lake-'));
  const emulator = LakehouseEmulator.open(join(dir, 'lake.sqlite'));
  const yaml = generateMetricViewYaml(fx.model, 'product_sales', { catalog: 'main', schema: 'default' } as never).yaml!;
  emulator.createOrReplaceMetricView(emulator.defaultPrincipal, 'main', 'default', 'product_sales', yaml, {});
  emulator.createOrReplaceMetricView(emulator.defaultPrincipal, 'main', 'default', 'shop', SHOP_YAML, {});
  connector = new LocalLakehouseConnector(emulator, { ownsEmulator: true, data: async () => fx.engine });
}, 120_000);
afterAll(async () => {
  await connector?.close();
  fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const mv = (sql: string) => connector.query(sql, []) as Promise<Record<string, unknown>[]>;

describe('MEASURE() queries on the local lakehouse', () => {
  it('a published view gives the model query’s numbers, through joins nested two deep', async () => {
    const rows = await mv('SELECT order_status, MEASURE(revenue), MEASURE(units_sold) FROM main.default.product_sales GROUP BY ALL ORDER BY order_status');
    expect(Object.keys(rows[0]!)).toEqual(['order_status', 'measure(revenue)', 'measure(units_sold)']);
    const model = await fx.load({ measures: ['product_sales.revenue', 'product_sales.units_sold'], dimensions: ['product_sales.order_status'] });
    expect(byKey(rows, ['order_status'], ['measure(revenue)', 'measure(units_sold)'])).toEqual(byKey(model, ['product_sales.order_status'], ['product_sales.revenue', 'product_sales.units_sold']));

    const departments = await mv('SELECT category_department AS dept, MEASURE(count) AS n FROM product_sales GROUP BY ALL');
    const modelDepartments = await fx.load({ measures: ['product_sales.count'], dimensions: ['product_sales.category_department'] });
    expect(byKey(departments, ['dept'], ['n'])).toEqual(byKey(modelDepartments, ['product_sales.category_department'], ['product_sales.count']));
  });

  it("applies the view's filter and the query's WHERE to rows; MEASURE() composes measures", async () => {
    const rows = await mv("SELECT country, MEASURE(orders), MEASURE(total), MEASURE(average_order), MEASURE(customers) FROM main.default.shop WHERE country IN ('Germany', 'France') OR status = 'placed' GROUP BY ALL");
    const hand = await fx.sql(`SELECT c.country, count(*) AS n, sum(o.amount) AS total, sum(o.amount) / count(*) AS avg, count(DISTINCT c.id) AS people
      FROM ecommerce.orders o LEFT JOIN ecommerce.customers c ON o.customer_id = c.id
      WHERE o.status <> 'returned' AND (c.country IN ('Germany', 'France') OR o.status = 'placed') GROUP BY 1`);
    expect(byKey(rows, ['country'], ['measure(orders)', 'measure(total)', 'measure(average_order)', 'measure(customers)'])).toEqual(byKey(hand, ['country'], ['n', 'total', 'avg', 'people']));
    const model = await fx.load({ measures: ['orders.count'], dimensions: ['customers.country'], filters: [{ member: 'orders.status', operator: 'notEquals', values: ['returned'] }] });
    const all = await mv('SELECT country, MEASURE(orders) FROM shop GROUP BY ALL');
    expect(byKey(all, ['country'], ['measure(orders)'])).toEqual(byKey(model, ['customers.country'], ['orders.count']));
  });

  it('orders and limits by dimensions and measures as written', async () => {
    const rows = await mv('SELECT order_month, MEASURE(orders) AS n FROM shop GROUP BY ALL ORDER BY order_month DESC LIMIT 2');
    expect(rows).toHaveLength(2);
    expect(String(rows[0]!.order_month) > String(rows[1]!.order_month)).toBe(true);
  });

  it('refuses what Databricks refuses, with its error classes', async () => {
    const fails = async (sql: string, pattern: RegExp, errorClass?: string, sqlState?: string) => {
      const error = await mv(sql).then(() => null, (e: unknown) => e);
      expect(error, sql).toBeInstanceOf(LakehouseError);
      expect((error as Error).message).toMatch(pattern);
      if (errorClass) expect(error).toMatchObject({ errorClass, sqlState });
    };
    await fails(
      'SELECT country, total FROM shop GROUP BY ALL',
      /^\[METRIC_VIEW_MISSING_MEASURE_FUNCTION\] The usage of measure column `total` of a metric view requires a MEASURE\(\) function to produce a result\./,
      'METRIC_VIEW_MISSING_MEASURE_FUNCTION',
      '42803',
    );
    await fails('SELECT * FROM shop', /^\[UNSUPPORTED_METRIC_VIEW_USAGE\.SELECT_STAR_NOT_SUPPORTED\] SELECT \* is not supported in metric views\. SQLSTATE: 0A000$/, 'UNSUPPORTED_METRIC_VIEW_USAGE.SELECT_STAR_NOT_SUPPORTED', '0A000');
    await fails(
      'SELECT MEASURE(ordrs) FROM shop',
      /^\[UNRESOLVED_COLUMN\.WITH_SUGGESTION\] A column, variable, or function parameter with name `ordrs` cannot be resolved\. Did you mean one of the following\? \[`orders`/,
      'UNRESOLVED_COLUMN.WITH_SUGGESTION',
      '42703',
    );
    await fails('SELECT MEASURE(orders) FROM main.default.missing', /TABLE_OR_VIEW_NOT_FOUND/);
    await fails('DROP TABLE main.ecommerce.orders', /Only SELECT statements/);
    await fails('SELECT MEASURE(orders + 1) FROM shop', /^\[UNSUPPORTED_METRIC_VIEW_USAGE\.MEASURE_REQUIRES_EXACTLY_ONE_COLUMN\]/, 'UNSUPPORTED_METRIC_VIEW_USAGE.MEASURE_REQUIRES_EXACTLY_ONE_COLUMN', '0A000');
    await fails("SELECT country FROM shop WHERE country = 'x GROUP BY ALL", /PARSE_SYNTAX_ERROR.*Unterminated string/);
  });
});
