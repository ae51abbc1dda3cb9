// Past one machine: for a data source on a real Snowflake account or Databricks workspace, the data
// API and vendor SQL send the statement through the driver, so the warehouse does the work. Checked
// at the driver boundary (snowflake-sdk's connection, @databricks/sql's client): statements and binds
// sent, result rows read back into the API's shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabricksClientFactory } from '../../src-main/connectors/lakehouse';
import type { SnowflakeDriverConnection } from '../../src-main/connectors/warehouse/snowflake';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';

let svc: TestService;
let deploymentId: number;
const sent: { sql: string; binds: unknown[] }[] = [];
let answer: (sql: string) => Record<string, unknown>[] = () => [];

/** snowflake-sdk's Connection as the connector drives it: connect, execute with binds, destroy. */
function fakeSnowflake(): SnowflakeDriverConnection {
  return {
    connect: (callback) => setImmediate(() => callback(undefined, {})),
    execute: ({ sqlText, binds, complete }) => {
      sent.push({ sql: sqlText, binds: binds ?? [] });
      setImmediate(() => complete(undefined, {}, answer(sqlText)));
      return { cancel: (cb: () => void) => cb() };
    },
    destroy: (callback) => setImmediate(() => callback(undefined, {})),
  };
}

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.snowflakeCreateConnection = () => fakeSnowflake();
  deploymentId = await createDeployment(svc);
  const env = await svc.call('PUT', `/api/v1/deployments/${deploymentId}/env-vars`, {
    body: [
      { name: 'CUBEJS_DB_TYPE', value: 'snowflake' },
      { name: 'CUBEJS_DB_SNOWFLAKE_ACCOUNT', value: 'myorg-myaccount' },
      { name: 'CUBEJS_DB_USER', value: 'DRYDOCK_SVC' },
      { name: 'CUBEJS_DB_SNOWFLAKE_WAREHOUSE', value: 'COMPUTE_WH' },
      { name: 'CUBEJS_DB_NAME', value: 'ANALYTICS' },
      { name: 'CUBEJS_DB_PASS', value: 'hunter2', isSecret: true },
    ],
  });
  expect(env.status, env.text).toBe(200);
}, 180_000);
// Generous: closing the service (DuckDB, worker threads) is slow on a loaded machine.
afterAll(async () => svc?.stop(), 180_000);

describe('a deployment on a real Snowflake account', () => {
  it('load sends the model query in Snowflake SQL with its binds and reads the rows back', async () => {
    const query = { measures: ['orders.count'], dimensions: ['orders.status'], filters: [{ member: 'orders.status', operator: 'equals', values: ['shipped'] }] };
    const generated = await svc.call('POST', `/deployments/${deploymentId}/cubejs-api/v1/sql`, { body: { query } });
    expect(generated.status, generated.text).toBe(200);
    expect(generated.body.sql.dialect).toBe('snowflake');
    const [sql, params] = generated.body.sql.sql as [string, unknown[]];
    const aliases = Object.entries(generated.body.sql.aliasNameToMember as Record<string, string>);
    const alias = (member: string) => aliases.find(([, m]) => m === member)![0];
    // Snowflake answers with the column names as the statement aliased them.
    answer = (text) => (text === sql ? [{ [alias('orders.status')]: 'shipped', [alias('orders.count')]: 42 }] : []);
    sent.length = 0;
    const load = await svc.call('POST', `/deployments/${deploymentId}/cubejs-api/v1/load`, { body: { query } });
    expect(load.status, load.text).toBe(200);
    expect(sent.filter((s) => s.sql === sql)).toEqual([{ sql, binds: params }]);
    expect(params).toEqual(['shipped']);
    expect(load.body.data).toEqual([{ 'orders.status': 'shipped', 'orders.count': '42' }]); // measures come back as text, as the platform sends them
  });

  it("vendor SQL sends Snowflake's SEMANTIC_VIEW query as written, with its binds", async () => {
    const statement = 'SELECT * FROM SEMANTIC_VIEW(ANALYTICS.PUBLIC.SV_PRODUCT_SALES METRICS line_items.revenue DIMENSIONS orders.order_status WHERE orders.order_status <> ?)';
    answer = (text) => (text === statement ? [{ REVENUE: 1234.5, ORDER_STATUS: 'placed' }] : []);
    sent.length = 0;
    const res = await svc.call('POST', `/api/v1/deployments/${deploymentId}/data-sources/default/sql`, { body: { sql: statement, params: ['returned'] } });
    expect(res.status, res.text).toBe(200);
    expect(sent.find((s) => s.sql === statement)).toEqual({ sql: statement, binds: ['returned'] });
    expect(res.body).toMatchObject({ engine: 'snowflake', columns: ['REVENUE', 'ORDER_STATUS'], rows: [{ REVENUE: 1234.5, ORDER_STATUS: 'placed' }], rowCount: 1 });
  });
});

describe('a data source on a real Databricks workspace', () => {
  it("vendor SQL sends Databricks' MEASURE() query with ordinal parameters and reads the rows back", async () => {
    const statements: { statement: string; options: unknown }[] = [];
    const factory: DatabricksClientFactory = () => ({
      connect: async function (this: unknown) {
        return this as never;
      },
      openSession: async () => ({
        executeStatement: async (statement: string, options?: unknown) => {
          statements.push({ statement, options });
          return { fetchAll: async () => [{ order_status: 'placed', 'measure(revenue)': 99.5 }], close: async () => undefined };
        },
        close: async () => undefined,
      }),
      close: async () => undefined,
    });
    svc.ctx.services.databricksClientFactory = factory;
    const env = await svc.call('PUT', `/api/v1/deployments/${deploymentId}/env-vars`, {
      body: [
        { name: 'CUBEJS_DS_LAKE_DB_DATABRICKS_URL', value: 'jdbc:databricks://dbc-test.cloud.databricks.com:443/default;transportMode=http;ssl=1;httpPath=/sql/1.0/warehouses/abc123;AuthMech=3' },
        { name: 'CUBEJS_DS_LAKE_DB_DATABRICKS_TOKEN', value: 'dapi-secret-token', isSecret: true },
      ],
    });
    expect(env.status, env.text).toBe(200);
    const statement = 'SELECT order_status, MEASURE(revenue) FROM main.default.product_sales WHERE order_status <> ? GROUP BY ALL';
    const res = await svc.call('POST', `/api/v1/deployments/${deploymentId}/data-sources/lake/sql`, { body: { sql: statement, params: ['returned'] } });
    expect(res.status, res.text).toBe(200);
    expect(statements).toEqual([{ statement, options: { ordinalParameters: ['returned'] } }]);
    expect(res.body).toMatchObject({ engine: 'databricks', columns: ['order_status', 'measure(revenue)'], rows: [{ order_status: 'placed', 'measure(revenue)': 99.5 }] });
  });
});
