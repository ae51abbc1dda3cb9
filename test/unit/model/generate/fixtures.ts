import { compileModel } from '../../../../src-shared/model/compiler';
import type { CompiledModel } from '../../../../src-shared/model/types';
import { WarehouseEmulator } from '../../../../src-main/connectors/warehouse';
import { createOrderTables } from '../../../support/warehouse-tables';

/** A star schema: orders → customers (many to one), customers defined by plain SQL. */
export const ORDERS_MODEL = `
cubes:
  - name: orders
    sql_table: public.orders
    description: All orders
    joins:
      - name: customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {customers.id}"
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: "{CUBE}.status"
        type: string
        description: "Order's status"
      - name: created_at
        sql: created_at
        type: time
    measures:
      - name: count
        type: count
      - name: total
        sql: amount
        type: sum
      - name: buyers
        sql: "{CUBE}.customer_id"
        type: count_distinct
      - name: average
        sql: amount
        type: avg
      - name: smallest
        sql: amount
        type: min
      - name: largest
        sql: amount
        type: max
  - name: customers
    sql: SELECT * FROM ANALYTICS.PUBLIC.CUSTOMERS
    dimensions:
      - name: id
        sql: "{CUBE}.id"
        type: number
        primary_key: true
      - name: name
        sql: name
        type: string
views:
  - name: orders_view
    description: Orders with customers
    cubes:
      - join_path: orders
        includes: [status, created_at, count, total, buyers, average, smallest, largest]
      - join_path: orders.customers
        prefix: true
        includes: [name]
`;

export function compile(content: string, path = 'model/model.yml'): CompiledModel {
  const result = compileModel([{ path, content }]);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`fixture does not compile: ${errors.map((e) => `${e.code} ${e.message}`).join('; ')}`);
  return result.model;
}

/** An in-memory local warehouse with the fixture tables in ANALYTICS.PUBLIC. */
export function emulatorWithTables(): WarehouseEmulator {
  const emulator = new WarehouseEmulator({ file: ':memory:' });
  createOrderTables(emulator);
  return emulator;
}
