// Snowflake's query over a pushed semantic view, answered by the local warehouse from its DuckDB
// table data, gives the numbers the model's own query gives (and hand-written SQL over the tables).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalWarehouseConnector, WarehouseEmulator, WarehouseError } from '../../../src-main/connectors/warehouse';
import { generateSemanticViewDdl } from '../../../src-shared/model/generate/semantic-view-ddl';
import { byKey, openQueryFixture, type QueryFixture } from '../../support/query-fixture';

let fx: QueryFixture;
let emulator: WarehouseEmulator;
let connector: LocalWarehouseConnector;

/** The same DDL a push sends, for each pushable view of the sample model. */
beforeAll(async () => {
  fx = await openQueryFixture({ orders: 1500 });
  emulator = new WarehouseEmulator({ file: ':memory:' });
  const session = emulator.openSession();
  for (const view of ['product_sales', 'customer_directory']) {
    const ddl = generateSemanticViewDdl(fx.model, view, { name: `${view.toUpperCase()}_SV`, database: 'ANALYTICS', schema: 'PUBLIC' });
    for (const helper of ddl.helperViews) session.execute(helper.ddl);
    session.execute(ddl.ddl);
  }
  // Metrics on two tables of different grain, to check they are not fanned out by the join.
  session.execute(`CREATE SEMANTIC VIEW ANALYTICS.PUBLIC.SHOP_SV
    TABLES (
      customers AS ANALYTICS.ecommerce.customers PRIMARY KEY (id),
      orders AS ANALYTICS.ecommerce.orders PRIMARY KEY (id),
      line_items AS ANALYTICS.ecommerce.line_items PRIMARY KEY (id)
    )
    RELATIONSHIPS (
      orders_to_customers AS orders (customer_id) REFERENCES customers,
      items_to_orders AS line_items (order_id) REFERENCES orders
    )
    FACTS (orders.amount_fact AS amount, PRIVATE line_items.line_total AS quantity * unit_price)
    DIMENSIONS (customers.country AS country, orders.status AS status, orders.order_month AS DATE_TRUNC('month', created_at))
    METRICS (
      customers.customer_count AS COUNT(*),
      orders.order_count AS COUNT(*),
      orders.order_total AS SUM(orders.amount_fact),
      orders.average_order AS orders.order_total / orders.order_count,
      line_items.revenue AS SUM(line_items.line_total),
      PRIVATE line_items.item_count AS COUNT(*),
      items_per_order AS line_items.item_count / orders.order_count
    )`);
  connector = new LocalWarehouseConnector(emulator, { data: async () => fx.engine });
}, 120_000);
afterAll(async () => {
  await connector?.close();
  emulator?.close();
  fx?.close();
});

const sv = (sql: string) => connector.query(sql, []);

describe('SEMANTIC_VIEW queries on the local warehouse', () => {
  it('a pushed view gives the model query’s numbers, by a dimension of a referenced table and of a helper view', async () => {
    const rows = await sv(`SELECT * FROM SEMANTIC_VIEW(ANALYTICS.PUBLIC.PRODUCT_SALES_SV METRICS line_items.revenue, line_items.units_sold DIMENSIONS orders.order_status) ORDER BY order_status`);
    expect(Object.keys(rows[0]!)).toEqual(['REVENUE', 'UNITS_SOLD', 'ORDER_STATUS']);
    const model = await fx.load({ measures: ['product_sales.revenue', 'product_sales.units_sold'], dimensions: ['product_sales.order_status'] });
    expect(byKey(rows, ['ORDER_STATUS'], ['REVENUE', 'UNITS_SOLD'])).toEqual(byKey(model, ['product_sales.order_status'], ['product_sales.revenue', 'product_sales.units_sold']));
    expect(rows.length).toBeGreaterThan(2);

    const byDepartment = await sv(`SELECT * FROM SEMANTIC_VIEW(PUBLIC.PRODUCT_SALES_SV DIMENSIONS product_categories.category_department METRICS line_items.count)`);
    const modelDepartments = await fx.load({ measures: ['product_sales.count'], dimensions: ['product_sales.category_department'] });
    expect(byKey(byDepartment, ['CATEGORY_DEPARTMENT'], ['COUNT'])).toEqual(byKey(modelDepartments, ['product_sales.category_department'], ['product_sales.count']));
  });

  it('WHERE filters rows before aggregation, as the model’s filter does; aliases name the columns', async () => {
    const rows = await sv(`SELECT * FROM SEMANTIC_VIEW(ANALYTICS.PUBLIC.CUSTOMER_DIRECTORY_SV
      METRICS customers.count AS people, customers.countries
      DIMENSIONS customers.country
      WHERE customers.is_business AND customers.country <> 'Germany')`);
    expect(Object.keys(rows[0]!)).toEqual(['PEOPLE', 'COUNTRIES', 'COUNTRY']);
    const model = await fx.load({
      measures: ['customer_directory.count'],
      dimensions: ['customer_directory.country'],
      filters: [
        { member: 'customer_directory.is_business', operator: 'equals', values: ['true'] },
        { member: 'customer_directory.country', operator: 'notEquals', values: ['Germany'] },
      ],
    });
    expect(byKey(rows, ['COUNTRY'], ['PEOPLE'])).toEqual(byKey(model, ['customer_directory.country'], ['customer_directory.count']));
    expect(rows.every((r) => Number(r.COUNTRIES) === 1)).toBe(true);
  });

  it('metrics of tables of different grain are not fanned out; derived metrics combine them', async () => {
    const rows = await sv(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV DIMENSIONS customers.country METRICS orders.order_count, orders.order_total, line_items.revenue, items_per_order)`);
    const hand = await fx.sql(`
      WITH o AS (SELECT c.country, count(*) AS n, sum(o.amount) AS total FROM ecommerce.orders o LEFT JOIN ecommerce.customers c ON o.customer_id = c.id GROUP BY 1),
           l AS (SELECT c.country, sum(li.quantity * li.unit_price) AS revenue, count(*) AS items FROM ecommerce.line_items li LEFT JOIN ecommerce.orders o ON li.order_id = o.id LEFT JOIN ecommerce.customers c ON o.customer_id = c.id GROUP BY 1)
      SELECT o.country, o.n, o.total, l.revenue, l.items / o.n AS per_order FROM o FULL JOIN l ON o.country IS NOT DISTINCT FROM l.country`);
    expect(byKey(rows, ['COUNTRY'], ['ORDER_COUNT', 'ORDER_TOTAL', 'REVENUE', 'ITEMS_PER_ORDER'])).toEqual(byKey(hand, ['country'], ['n', 'total', 'revenue', 'per_order']));
    const model = await fx.load({ measures: ['orders.count', 'orders.total_amount', 'line_items.revenue'], dimensions: ['customers.country'] });
    expect(byKey(rows, ['COUNTRY'], ['ORDER_COUNT', 'ORDER_TOTAL', 'REVENUE'])).toEqual(byKey(model, ['customers.country'], ['orders.count', 'orders.total_amount', 'line_items.revenue']));

    const [total] = await sv(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV METRICS orders.average_order, SUM(orders.amount_fact) AS summed)`);
    const [check] = await fx.sql(`SELECT avg(amount) AS a, sum(amount) AS s FROM ecommerce.orders`);
    expect(Number(total!.AVERAGE_ORDER)).toBeCloseTo(Number(check!.a), 6);
    expect(Number(total!.SUMMED)).toBeCloseTo(Number(check!.s), 2);
  });

  it('dimensions alone give distinct combinations; FACTS give rows; an expression dimension groups by its value', async () => {
    const combos = await sv(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV DIMENSIONS orders.status, customers.country)`);
    const [{ n }] = (await fx.sql(`SELECT count(*) AS n FROM (SELECT DISTINCT o.status, c.country FROM ecommerce.orders o LEFT JOIN ecommerce.customers c ON o.customer_id = c.id)`)) as { n: string }[];
    expect(combos).toHaveLength(Number(n));
    const facts = await sv(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV FACTS orders.amount_fact DIMENSIONS orders.status WHERE orders.status = 'returned')`);
    const [{ r }] = (await fx.sql(`SELECT count(*) AS r FROM ecommerce.orders WHERE status = 'returned'`)) as { r: string }[];
    expect(facts).toHaveLength(Number(r));
    const months = await sv(`SELECT order_month, order_count FROM SEMANTIC_VIEW(SHOP_SV METRICS orders.order_count DIMENSIONS orders.order_month) ORDER BY order_month LIMIT 3`);
    const model = await fx.load({ measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }], order: { 'orders.created_at': 'asc' }, limit: 3 });
    expect(months.map((m) => Number(m.ORDER_COUNT))).toEqual(model.map((m) => Number(m['orders.count'])));
  });

  it('refuses what Snowflake refuses, with its reasons', async () => {
    const fails = async (sql: string, pattern: RegExp) => {
      const error = await sv(sql).then(() => null, (e: unknown) => e);
      expect(error, sql).toBeInstanceOf(WarehouseError);
      expect((error as Error).message).toMatch(pattern);
    };
    await fails(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV METRICS customers.nope)`, /invalid identifier 'CUSTOMERS.NOPE'/);
    await fails(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV METRICS orders.order_count FACTS orders.amount_fact)`, /METRICS and FACTS together/);
    await fails(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV METRICS line_items.item_count)`, /Private metric/);
    await fails(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV METRICS orders.order_count DIMENSIONS)`, /lists nothing/);
    await fails(`SELECT * FROM SEMANTIC_VIEW(MISSING_SV METRICS a.b)`, /does not exist or not authorized/);
    // customers are coarser than orders: a customer metric cannot be split by an order's status.
    await fails(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV METRICS customers.customer_count DIMENSIONS orders.status)`, /dimension entity 'ORDERS' must be related to and have an equal or lower level of granularity compared to the base metric entity 'CUSTOMERS'/);
    await fails(`DELETE FROM ecommerce.orders`, /Only SELECT statements/);
    await fails(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV METRICS orders.order_count`, /Unbalanced parentheses/);
    await fails(`SELECT * FROM SEMANTIC_VIEW(SHOP_SV METRICS orders.order_count WHERE orders.status = 'x)`, /Unterminated string/);
    await fails(`SELECT 1; SELECT 2`, /statement count 2/);
  });
});
