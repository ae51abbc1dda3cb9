// Time dimensions (granularities, custom granularities, time zones, relative date ranges), rolling
// windows and access policies, each against SQL written by hand over the same DuckDB tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../../src-shared/model';
import { duckdbDialect, planQuery, type QuerySecurity } from '../../../src-shared/model/query';
import { byKey, num, openQueryFixture, sampleModelFiles, type QueryFixture } from '../../support/query-fixture';

let fx: QueryFixture;
beforeAll(async () => {
  fx = await openQueryFixture();
});
afterAll(() => fx?.close());

const user = (groups: string[], userAttributes: Record<string, unknown> = {}): QuerySecurity => ({ groups, roles: [], securityContext: {}, userAttributes });

describe('granularities and time zones', () => {
  it('week buckets start on Monday, quarter and month buckets on their first day', async () => {
    for (const [g, trunc] of [
      ['week', "date_trunc('week', created_at)"],
      ['month', "date_trunc('month', created_at)"],
      ['quarter', "date_trunc('quarter', created_at)"],
    ] as const) {
      const model = await fx.load({ measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: g }] });
      const hand = await fx.sql(`SELECT ${trunc} AS b, COUNT(*) AS n FROM ecommerce.orders GROUP BY 1`);
      expect(byKey(model, [`orders.created_at.${g}`], ['orders.count'])).toEqual(byKey(hand, ['b'], ['n']));
      expect(model.every((r) => r['orders.created_at'] === r[`orders.created_at.${g}`])).toBe(true);
    }
  });

  it('custom granularities: a fiscal quarter offset by one month and a week offset to Sunday', async () => {
    const fiscal = await fx.load({ measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'fiscal_quarter' }] });
    const fiscalHand = await fx.sql("SELECT date_trunc('quarter', created_at - INTERVAL 1 MONTH) + INTERVAL 1 MONTH AS b, COUNT(*) AS n FROM ecommerce.orders GROUP BY 1");
    expect(byKey(fiscal, ['orders.created_at.fiscal_quarter'], ['orders.count'])).toEqual(byKey(fiscalHand, ['b'], ['n']));
    expect(new Set(fiscal.map((r) => String(r['orders.created_at.fiscal_quarter']).slice(5, 7)))).toEqual(new Set(['02', '05', '08', '11']));

    const sunday = await fx.load({ measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'sunday_week' }] });
    const sundayHand = await fx.sql("SELECT date_trunc('week', created_at + INTERVAL 1 DAY) - INTERVAL 1 DAY AS b, COUNT(*) AS n FROM ecommerce.orders GROUP BY 1");
    expect(byKey(sunday, ['orders.created_at.sunday_week'], ['orders.count'])).toEqual(byKey(sundayHand, ['b'], ['n']));
    expect(sunday.every((r) => new Date(`${String(r['orders.created_at.sunday_week']).slice(0, 10)}T00:00:00Z`).getUTCDay() === 0)).toBe(true);
  });

  it('the timezone shifts buckets to local days (timestamps are stored in UTC)', async () => {
    const model = await fx.load({ measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day' }], timezone: 'Asia/Tokyo' });
    const hand = await fx.sql("SELECT date_trunc('day', (created_at AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Tokyo') AS b, COUNT(*) AS n FROM ecommerce.orders GROUP BY 1");
    const utc = await fx.sql("SELECT date_trunc('day', created_at) AS b, COUNT(*) AS n FROM ecommerce.orders GROUP BY 1");
    expect(byKey(model, ['orders.created_at.day'], ['orders.count'])).toEqual(byKey(hand, ['b'], ['n']));
    expect(byKey(model, ['orders.created_at.day'], ['orders.count'])).not.toEqual(byKey(utc, ['b'], ['n']));
  });

  it('a relative date range ("last month") and an absolute one cover whole days', async () => {
    const [last] = await fx.load({ measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'last month' }] });
    const [june] = await fx.sql("SELECT COUNT(*) AS n FROM ecommerce.orders WHERE created_at >= '2025-06-01' AND created_at < '2025-07-01'");
    expect(num(last!['orders.count'])).toBe(num(june!.n));
    const [range] = await fx.load({ measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2025-06-01', '2025-06-30'] }] });
    expect(num(range!['orders.count'])).toBe(num(june!.n));
    const [filtered] = await fx.load({ measures: ['orders.count'], filters: [{ member: 'orders.created_at', operator: 'inDateRange', values: ['2025-06-01', '2025-06-30'] }] });
    expect(num(filtered!['orders.count'])).toBe(num(june!.n));
  });
});

describe('rolling windows', () => {
  it('trailing 7 days (offset end): each day sums the seven days ending with it, reaching before the date range', async () => {
    const model = await fx.load({
      measures: ['orders.revenue_last_7_days'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day', dateRange: ['2025-03-01', '2025-03-10'] }],
    });
    const hand = await fx.sql(`
      SELECT d AS b, (SELECT SUM(amount) FROM ecommerce.orders WHERE created_at >= d + INTERVAL 1 DAY - INTERVAL 7 DAY AND created_at < d + INTERVAL 1 DAY) AS s
      FROM (SELECT unnest(generate_series(TIMESTAMP '2025-03-01', TIMESTAMP '2025-03-10', INTERVAL 1 DAY)) AS d)`);
    expect(model).toHaveLength(10);
    expect(byKey(model, ['orders.created_at.day'], ['orders.revenue_last_7_days'])).toEqual(byKey(hand, ['b'], ['s']));
  });

  it('to_date by year: each month carries the year-to-date total, next to a plain measure of the month', async () => {
    const model = await fx.load({
      measures: ['orders.revenue_year_to_date', 'orders.total_amount'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2025-01-01', '2025-06-30'] }],
    });
    const hand = await fx.sql(`
      SELECT m AS b, (SELECT SUM(amount) FROM ecommerce.orders WHERE created_at >= TIMESTAMP '2025-01-01' AND created_at < m + INTERVAL 1 MONTH) AS ytd,
             (SELECT SUM(amount) FROM ecommerce.orders WHERE created_at >= m AND created_at < m + INTERVAL 1 MONTH) AS month
      FROM (SELECT unnest(generate_series(TIMESTAMP '2025-01-01', TIMESTAMP '2025-06-01', INTERVAL 1 MONTH)) AS m)`);
    expect(byKey(model, ['orders.created_at.month'], ['orders.revenue_year_to_date', 'orders.total_amount'])).toEqual(byKey(hand, ['b'], ['ytd', 'month']));
  });
});

describe('access policies', () => {
  it('a row-level filter of the user\'s group limits the rows (marketing sees US and CA customers only)', async () => {
    const model = await fx.load({ measures: ['customers.count'], dimensions: ['customers.country'] }, user(['marketing']));
    const hand = await fx.sql("SELECT country, COUNT(*) AS n FROM ecommerce.customers WHERE country IN ('US', 'CA') GROUP BY 1");
    expect(byKey(model, ['customers.country'], ['customers.count'])).toEqual(byKey(hand, ['country'], ['n']));
    const support = await fx.load({ measures: ['customers.count'], dimensions: ['customers.country'] }, user(['support']));
    expect(support.length).toBe(7);
  });

  it('member_level excludes and users no policy applies to are refused with ACCESS_DENIED (403)', async () => {
    await expect(fx.load({ dimensions: ['customers.email'] }, user(['marketing']))).rejects.toMatchObject({ code: 'ACCESS_DENIED', status: 403 });
    await expect(fx.load({ measures: ['customers.count'] }, user(['finance']))).rejects.toMatchObject({ code: 'ACCESS_DENIED', status: 403 });
    // The view's own policy (support only) governs its members, whatever the cube allows.
    await expect(fx.load({ measures: ['customer_directory.count'] }, user(['marketing']))).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await fx.load({ measures: ['customer_directory.count'] }, user(['support']))).toHaveLength(1);
  });

  it('row filters read user attributes ({ userAttributes.x }), and the cube\'s row filter also applies to joined queries', async () => {
    const files = sampleModelFiles().map((f) =>
      f.path.endsWith('customers.yml')
        ? { ...f, content: f.content.replace('values: ["US", "CA"]', 'values: ["{ userAttributes.country }"]') }
        : f,
    );
    const model = compileModel(files).model;
    const plan = planQuery(model, { measures: ['orders.count'], dimensions: ['customers.country'] }, { dialect: duckdbDialect, security: user(['marketing'], { country: 'DE' }) });
    const rows = (await fx.engine.query(plan.main.sql, { params: plan.main.params })).rows;
    const [hand] = await fx.sql("SELECT COUNT(*) AS n FROM ecommerce.orders o JOIN ecommerce.customers c ON c.id = o.customer_id WHERE c.country = 'DE'");
    expect(rows).toEqual([['DE', String(hand!.n)]]);
  });
});
