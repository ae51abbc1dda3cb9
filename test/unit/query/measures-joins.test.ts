// Model queries against SQL written by hand over the same DuckDB tables: every measure type and
// every join shape of the sample model, including the one-to-many fan-outs that a naive join
// would double count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byKey, num, openQueryFixture, type QueryFixture } from '../../support/query-fixture';

let fx: QueryFixture;
beforeAll(async () => {
  fx = await openQueryFixture();
});
afterAll(() => fx?.close());

describe('measure types', () => {
  it('count, sum, avg, min, max and count_distinct per dimension value equal the hand-written aggregates', async () => {
    const model = await fx.load({
      measures: ['orders.count', 'orders.total_amount', 'orders.average_order_value', 'orders.smallest_order', 'orders.largest_order', 'orders.buying_customers'],
      dimensions: ['orders.status'],
    });
    const hand = await fx.sql(
      'SELECT status, COUNT(*) AS n, SUM(amount) AS s, AVG(amount) AS a, MIN(amount) AS lo, MAX(amount) AS hi, COUNT(DISTINCT customer_id) AS c FROM ecommerce.orders GROUP BY status',
    );
    expect(model).toHaveLength(4);
    expect(byKey(model, ['orders.status'], ['orders.count', 'orders.total_amount', 'orders.average_order_value', 'orders.smallest_order', 'orders.largest_order', 'orders.buying_customers'])).toEqual(
      byKey(hand, ['status'], ['n', 's', 'a', 'lo', 'hi', 'c']),
    );
  });

  it('count_distinct_approx is an estimate of the distinct count (DuckDB\'s HyperLogLog: within 20%)', async () => {
    const [row] = await fx.load({ measures: ['orders.buying_customers_approx', 'orders.buying_customers'] });
    const approx = Number(row!['orders.buying_customers_approx']);
    const exact = Number(row!['orders.buying_customers']);
    expect(exact).toBeGreaterThan(100);
    expect(Math.abs(approx - exact) / exact).toBeLessThan(0.2);
  });

  it('a count with a measure filter counts only matching rows, and a number measure is computed from the measures it names', async () => {
    const [row] = await fx.load({ measures: ['orders.completed_count', 'orders.count', 'orders.completion_rate'] });
    const [hand] = await fx.sql("SELECT COUNT(*) FILTER (WHERE status = 'completed') AS done, COUNT(*) AS n FROM ecommerce.orders");
    expect(num(row!['orders.completed_count'])).toBe(num(hand!.done));
    expect(Number(row!['orders.completion_rate'])).toBeCloseTo((100 * Number(hand!.done)) / Number(hand!.n), 9);
  });

  it('string, time and boolean measures evaluate their aggregate SQL per group', async () => {
    const model = await fx.load({ measures: ['orders.statuses', 'orders.last_order_at', 'orders.all_shipped'], dimensions: ['orders.status'] });
    const hand = await fx.sql('SELECT status, MAX(created_at) AS last, BOOL_AND(shipped_at IS NOT NULL) AS all_shipped FROM ecommerce.orders GROUP BY status');
    for (const h of hand) {
      const m = model.find((r) => r['orders.status'] === h.status)!;
      expect(m['orders.statuses']).toBe(h.status);
      expect(m['orders.last_order_at']).toBe(h.last);
      expect(m['orders.all_shipped']).toBe(h.all_shipped);
    }
    expect(model.find((r) => r['orders.status'] === 'placed')!['orders.all_shipped']).toBe(false);
  });

  it('a rank measure ranks the groups by its order_by measure', async () => {
    const model = await fx.load({ measures: ['orders.revenue_rank', 'orders.total_amount'], dimensions: ['orders.status'], order: { 'orders.total_amount': 'desc' } });
    expect(model.map((r) => Number(r['orders.revenue_rank']))).toEqual([1, 2, 3, 4]);
  });

  it('a segment restricts rows like its SQL does', async () => {
    const [row] = await fx.load({ measures: ['orders.count'], segments: ['orders.completed'] });
    const [hand] = await fx.sql("SELECT COUNT(*) AS n FROM ecommerce.orders WHERE status = 'completed'");
    expect(num(row!['orders.count'])).toBe(num(hand!.n));
  });
});

describe('join shapes', () => {
  it('many_to_one: order measures by a customer dimension count each order once', async () => {
    const model = await fx.load({ measures: ['orders.count', 'orders.total_amount'], dimensions: ['customers.country'] });
    const hand = await fx.sql('SELECT c.country, COUNT(*) AS n, SUM(o.amount) AS s FROM ecommerce.orders o LEFT JOIN ecommerce.customers c ON o.customer_id = c.id GROUP BY c.country');
    expect(byKey(model, ['customers.country'], ['orders.count', 'orders.total_amount'])).toEqual(byKey(hand, ['country'], ['n', 's']));
  });

  it('the one side of many_to_one: customers counted once per status however many orders they placed', async () => {
    const model = await fx.load({ measures: ['customers.count', 'orders.count'], dimensions: ['orders.status'] });
    const hand = await fx.sql('SELECT status, COUNT(DISTINCT customer_id) AS customers, COUNT(*) AS n FROM ecommerce.orders GROUP BY status');
    expect(byKey(model, ['orders.status'], ['customers.count', 'orders.count'])).toEqual(byKey(hand, ['status'], ['customers', 'n']));
  });

  it('one_to_many fan-out: count, sum and avg of orders by product are taken over distinct orders, not over line items', async () => {
    const model = await fx.load({ measures: ['orders.count', 'orders.total_amount', 'orders.average_order_value', 'orders.buying_customers'], dimensions: ['products.name'], limit: 5000 });
    const hand = await fx.sql(`
      SELECT k.name, COUNT(*) AS n, SUM(o.amount) AS s, AVG(o.amount) AS a, COUNT(DISTINCT o.customer_id) AS c
      FROM (SELECT DISTINCT p.name, o.id FROM ecommerce.orders o JOIN ecommerce.line_items li ON li.order_id = o.id JOIN ecommerce.products p ON p.id = li.product_id) k
      JOIN ecommerce.orders o ON o.id = k.id GROUP BY k.name`);
    const naive = await fx.sql(`
      SELECT p.name, SUM(o.amount) AS s FROM ecommerce.orders o JOIN ecommerce.line_items li ON li.order_id = o.id JOIN ecommerce.products p ON p.id = li.product_id GROUP BY p.name`);
    expect(model.length).toBe(hand.length);
    expect(byKey(model, ['products.name'], ['orders.count', 'orders.total_amount', 'orders.average_order_value', 'orders.buying_customers'])).toEqual(byKey(hand, ['name'], ['n', 's', 'a', 'c']));
    // The trap the planner avoids: a plain join repeats an order once per line item of the product.
    expect(byKey(model, ['products.name'], ['orders.total_amount'])).not.toEqual(byKey(naive, ['name'], ['s']));
  });

  it('measures of both sides of a one_to_many join in one query: each side keeps its own grain', async () => {
    const model = await fx.load({ measures: ['orders.count', 'orders.total_amount', 'line_items.count', 'line_items.revenue'], dimensions: ['orders.status'] });
    const hand = await fx.sql(`
      SELECT o.status, COUNT(DISTINCT o.id) AS orders, (SELECT SUM(amount) FROM ecommerce.orders x WHERE x.status = o.status) AS amount,
             COUNT(li.id) AS items, SUM(li.quantity * li.unit_price) AS revenue
      FROM ecommerce.orders o LEFT JOIN ecommerce.line_items li ON li.order_id = o.id GROUP BY o.status`);
    expect(byKey(model, ['orders.status'], ['orders.count', 'orders.total_amount', 'line_items.count', 'line_items.revenue'])).toEqual(
      byKey(hand, ['status'], ['orders', 'amount', 'items', 'revenue']),
    );
  });

  it('a view over a three-hop join path (line items → products → categories) with a filtered cube SQL', async () => {
    const model = await fx.load({ measures: ['product_sales.revenue', 'product_sales.units_sold'], dimensions: ['product_sales.category_department', 'product_sales.order_status'] });
    const hand = await fx.sql(`
      SELECT c.parent_name AS department, o.status, SUM(li.quantity * li.unit_price) AS revenue, SUM(li.quantity) AS units
      FROM ecommerce.line_items li LEFT JOIN ecommerce.orders o ON li.order_id = o.id LEFT JOIN ecommerce.products p ON li.product_id = p.id
      LEFT JOIN (SELECT * FROM ecommerce.categories WHERE NOT archived) c ON p.category_id = c.id GROUP BY 1, 2`);
    expect(model.some((r) => r['product_sales.category_department'] === null)).toBe(true);
    expect(byKey(model, ['product_sales.category_department', 'product_sales.order_status'], ['product_sales.revenue', 'product_sales.units_sold'])).toEqual(
      byKey(hand, ['department', 'status'], ['revenue', 'units']),
    );
  });

  it('a customer measure by a product dimension crosses many_to_one and one_to_many joins without double counting', async () => {
    const model = await fx.load({ measures: ['customers.count', 'orders.count'], dimensions: ['product_categories.department'] });
    const hand = await fx.sql(`
      SELECT c.parent_name AS department, COUNT(DISTINCT o.customer_id) AS n, COUNT(DISTINCT o.id) AS orders FROM ecommerce.orders o
      JOIN ecommerce.line_items li ON li.order_id = o.id JOIN ecommerce.products p ON p.id = li.product_id
      LEFT JOIN (SELECT * FROM ecommerce.categories WHERE NOT archived) c ON c.id = p.category_id GROUP BY 1`);
    expect(byKey(model, ['product_categories.department'], ['customers.count', 'orders.count'])).toEqual(byKey(hand, ['department'], ['n', 'orders']));
  });

  it('cubes that no cube of the query reaches all of are refused with NO_JOIN_PATH', async () => {
    await expect(fx.load({ measures: ['customers.count'], dimensions: ['products.name'] })).rejects.toMatchObject({ code: 'NO_JOIN_PATH' });
  });
});

describe('filters and totals', () => {
  it('a measure filter applies after aggregation (HAVING)', async () => {
    const model = await fx.load({ measures: ['orders.count'], dimensions: ['customers.country'], filters: [{ member: 'orders.count', operator: 'gt', values: ['300'] }] });
    const hand = await fx.sql('SELECT c.country, COUNT(*) AS n FROM ecommerce.orders o LEFT JOIN ecommerce.customers c ON o.customer_id = c.id GROUP BY 1 HAVING COUNT(*) > 300');
    expect(hand.length).toBeGreaterThan(0);
    expect(byKey(model, ['customers.country'], ['orders.count'])).toEqual(byKey(hand, ['country'], ['n']));
  });

  it('and/or groups, contains, notEquals (keeping NULLs) and gte on numbers', async () => {
    const [row] = await fx.load({
      measures: ['orders.count'],
      filters: [
        { or: [{ member: 'customers.country', operator: 'equals', values: ['US', 'CA'] }, { member: 'customers.city', operator: 'contains', values: ['lon'] }] },
        { member: 'orders.status', operator: 'notEquals', values: ['returned'] },
        { member: 'orders.amount', operator: 'gte', values: ['100'] },
      ],
    });
    const [hand] = await fx.sql(`
      SELECT COUNT(*) AS n FROM ecommerce.orders o LEFT JOIN ecommerce.customers c ON o.customer_id = c.id
      WHERE (c.country IN ('US', 'CA') OR c.city ILIKE '%lon%') AND (o.status <> 'returned' OR o.status IS NULL) AND o.amount >= 100`);
    expect(num(row!['orders.count'])).toBe(num(hand!.n));
  });

  it('a dimensions-only query lists distinct values', async () => {
    const rows = await fx.load({ dimensions: ['orders.status'] });
    expect(rows.map((r) => r['orders.status']).sort()).toEqual(['completed', 'placed', 'returned', 'shipped']);
  });
});
