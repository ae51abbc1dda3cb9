// Generated models at the sizes the responsiveness targets name: 1,000 cubes + 250 views for
// validation, 128 publishable views for a lakehouse run. Used by benchmarks and by the tests that
// check the service stays responsive while such work runs.
import type { ModelFile } from '../../src-shared/model';
import type { WarehouseEmulator } from '../../src-main/connectors/warehouse/emulator/emulator';
import { cubeFile, generateProject } from '../bench/model.bench';

/**
 * `cubes` cubes of 20 dimensions, 10 measures, a segment and a join to the previous cube, and
 * `views` views over three-cube join chains: one file each. It compiles without errors.
 */
export const bigProject = (cubes = 1000, views = 250): ModelFile[] => generateProject(cubes, views);

/** The cube file `bigProject` has at index `i`, with a changed title (`variant` > 0): a one-file edit. */
export const editedCube = (i: number, variant: number): ModelFile => cubeFile(i, variant);

/**
 * `count` publishable lakehouse views over the emulator's seeded `default.orders` and
 * `default.customers` tables, each over its own pair of cubes on the `lake` data source (a
 * lakehouse integration publishes only its own data source's views), in one file per view.
 */
export function lakehouseViews(count = 128): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    files[`model/views/orders_${i}.yml`] = `cubes:
  - name: orders_${i}
    data_source: lake
    sql_table: default.orders
    joins:
      - name: customers_${i}
        sql: "{CUBE}.customer_id = {customers_${i}.id}"
        relationship: many_to_one
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string, title: Order status }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }
      - { name: revenue, sql: amount, type: sum, description: Sum of order amounts }
  - name: customers_${i}
    data_source: lake
    sql_table: default.customers
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: region, sql: region, type: string }
      - { name: country, sql: country, type: string }
views:
  - name: orders_view_${i}
    description: Orders with the customer region (${i})
    cubes:
      - join_path: orders_${i}
        includes: [status, created_at, count, revenue]
      - join_path: orders_${i}.customers_${i}
        prefix: true
        includes: [region, country]
`;
  }
  return files;
}

/** `views` pushable warehouse views over one `public.orders` cube (named `cube`), in one file. */
export const warehouseViewsModel = (views: number, cube = 'orders'): string =>
  [
    'cubes:',
    `  - name: ${cube}`,
    '    sql_table: public.orders',
    '    dimensions:',
    '      - { name: id, sql: id, type: number, primary_key: true }',
    '      - { name: status, sql: status, type: string }',
    '    measures:',
    '      - { name: count, type: count }',
    '      - { name: total, sql: amount, type: sum }',
    'views:',
    ...Array.from({ length: views }, (_, i) => [`  - name: view_${i}`, '    cubes:', `      - join_path: ${cube}`, '        includes: [status, count, total]'].join('\n')),
    '',
  ].join('\n');

/** The local warehouse's `ANALYTICS.PUBLIC.ORDERS` table the model above reads, and `schema` to write semantic views into. */
export function prepareWarehouse(warehouse: WarehouseEmulator, schema: string): void {
  warehouse.createTable('ANALYTICS', 'PUBLIC', 'ORDERS', [
    { name: 'ID', type: 'NUMBER' },
    { name: 'STATUS', type: 'VARCHAR' },
    { name: 'AMOUNT', type: 'NUMBER(12,2)' },
  ]);
  warehouse.createSchema('ANALYTICS', schema);
  warehouse.grantFullAccess('DRYDOCK', { database: 'ANALYTICS', schema });
}
