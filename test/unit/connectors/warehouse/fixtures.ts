import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WarehouseEmulator, WarehouseError, type WarehouseEmulatorOptions } from '../../../../src-main/connectors/warehouse';

/** A TPC-H-like slice of base tables in the seeded ANALYTICS.PUBLIC schema. */
export function seedSalesTables(emulator: WarehouseEmulator, database = 'ANALYTICS', schema = 'PUBLIC'): void {
  emulator.createTable(database, schema, 'ORDERS', [
    { name: 'O_ORDERKEY', type: 'NUMBER' },
    { name: 'O_CUSTKEY', type: 'NUMBER' },
    { name: 'O_TOTALPRICE', type: 'NUMBER(12,2)' },
    { name: 'O_ORDERDATE', type: 'DATE' },
    { name: 'O_STATUS', type: 'VARCHAR(1)' },
  ]);
  emulator.createTable(database, schema, 'CUSTOMERS', [
    { name: 'C_CUSTKEY', type: 'NUMBER' },
    { name: 'C_NAME', type: 'VARCHAR' },
    { name: 'C_NATIONKEY', type: 'NUMBER' },
    { name: 'C_EMAIL', type: 'VARCHAR' },
  ]);
  emulator.createTable(database, schema, 'NATIONS', [
    { name: 'N_NATIONKEY', type: 'NUMBER' },
    { name: 'N_NAME', type: 'VARCHAR(25)' },
  ]);
  emulator.createTable(database, schema, 'LINEITEMS', [
    { name: 'L_ORDERKEY', type: 'NUMBER' },
    { name: 'L_LINENUMBER', type: 'NUMBER' },
    { name: 'L_EXTENDEDPRICE', type: 'NUMBER(12,2)' },
    { name: 'L_DISCOUNT', type: 'NUMBER(12,2)' },
  ]);
}

/** A semantic view using every clause, valid against {@link seedSalesTables}. */
export const SALES_DDL = `CREATE OR REPLACE SEMANTIC VIEW ANALYTICS.PUBLIC.SALES_SV
  TABLES (
    orders AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (o_orderkey) WITH SYNONYMS ('sales orders') COMMENT = 'All orders',
    customers AS ANALYTICS.PUBLIC.CUSTOMERS PRIMARY KEY (c_custkey) UNIQUE (c_email),
    nations AS ANALYTICS.PUBLIC.NATIONS PRIMARY KEY (n_nationkey),
    line_items AS ANALYTICS.PUBLIC.LINEITEMS PRIMARY KEY (l_orderkey, l_linenumber)
  )
  RELATIONSHIPS (
    orders_to_customers AS orders (o_custkey) REFERENCES customers (c_custkey),
    customers_to_nations AS customers (c_nationkey) REFERENCES nations,
    line_items_to_orders AS line_items (l_orderkey) REFERENCES orders
  )
  FACTS (
    line_items.net_price AS l_extendedprice * (1 - l_discount) COMMENT = 'Price after discount',
    orders.count_line_items AS COUNT(line_items.l_linenumber)
  )
  DIMENSIONS (
    customers.customer_name AS customers.c_name WITH SYNONYMS = ('customer', 'client'),
    orders.order_date AS o_orderdate,
    orders.order_year AS YEAR(o_orderdate),
    orders.customer_nation AS nations.n_name
  )
  METRICS (
    orders.order_count AS COUNT(orders.o_orderkey),
    orders.average_value AS AVG(orders.o_totalprice) COMMENT = 'Average order value',
    line_items.revenue AS SUM(line_items.net_price),
    orders.customer_count AS COUNT(DISTINCT o_custkey)
  )
  COMMENT = 'Sales analysis'`;

/** A minimal valid view over ORDERS, with `body` spliced in after TABLES. */
export function ordersView(name: string, body = 'DIMENSIONS (orders.order_date AS o_orderdate)', tables = 'orders AS ANALYTICS.PUBLIC.ORDERS PRIMARY KEY (o_orderkey)'): string {
  return `CREATE SEMANTIC VIEW ${name} TABLES (${tables}) ${body}`;
}

export function memoryEmulator(options: Partial<WarehouseEmulatorOptions> = {}): WarehouseEmulator {
  const emulator = new WarehouseEmulator({ file: ':memory:', ...options });
  seedSalesTables(emulator);
  return emulator;
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-warehouse-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `fn` and returns the WarehouseError it throws (failing the test when it throws nothing else). */
export function warehouseError(fn: () => unknown): WarehouseError {
  try {
    fn();
  } catch (error) {
    if (error instanceof WarehouseError) return error;
    throw error;
  }
  throw new Error('expected a WarehouseError, but nothing was thrown');
}

export async function rejection(promise: Promise<unknown>): Promise<WarehouseError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WarehouseError) return error;
    throw error;
  }
  throw new Error('expected a WarehouseError rejection, but the promise resolved');
}
