/**
 * The base tables the shipped sample project (`resources/sample-project`) reads, in schema
 * `ecommerce`. Both local emulators create them when their file is created, so the sample model
 * can be pushed and published offline out of the box.
 */
export type SampleColumnType = 'integer' | 'decimal' | 'string' | 'timestamp' | 'boolean';

/** A table to create when an emulator's file is created: its name, comment and columns in order. */
export interface SeedTable<T extends string = string> {
  name: string;
  comment: string;
  columns: { name: string; type: T }[];
}

export type SampleTable = SeedTable<SampleColumnType>;

/** A seed table written as one `column: type` record (keys keep their order: they are the columns in order). */
export function seedTable<T extends string>(name: string, comment: string, columns: Record<string, T>): SeedTable<T> {
  return { name, comment, columns: Object.entries(columns).map(([column, type]) => ({ name: column, type })) };
}

/** The sample tables with each column's type in one engine's dialect (`WAREHOUSE_TYPES`, `LAKEHOUSE_TYPES`). */
export function sampleTablesIn(types: Record<SampleColumnType, string>): SeedTable[] {
  return SAMPLE_TABLES.map((t) => ({ ...t, columns: t.columns.map((c) => ({ name: c.name, type: types[c.type] })) }));
}

export const SAMPLE_SCHEMA = 'ecommerce';

export const SAMPLE_TABLES: readonly SampleTable[] = [
  seedTable('customers', 'One row per customer', { id: 'integer', first_name: 'string', last_name: 'string', email: 'string', company_name: 'string', country: 'string', state: 'string', city: 'string', created_at: 'timestamp' }),
  seedTable('orders', 'One row per order', { id: 'integer', customer_id: 'integer', status: 'string', amount: 'decimal', created_at: 'timestamp', shipped_at: 'timestamp' }),
  seedTable('line_items', 'One row per product on an order', { id: 'integer', order_id: 'integer', product_id: 'integer', quantity: 'integer', unit_price: 'decimal' }),
  seedTable('products', 'One row per product', { id: 'integer', category_id: 'integer', name: 'string', list_price: 'decimal', launched_at: 'timestamp' }),
  seedTable('categories', 'Product categories', { id: 'integer', name: 'string', parent_name: 'string', archived: 'boolean' }),
];

export const WAREHOUSE_TYPES: Record<SampleColumnType, string> = {
  integer: 'NUMBER(38,0)',
  decimal: 'NUMBER(18,2)',
  string: 'VARCHAR',
  timestamp: 'TIMESTAMP_NTZ',
  boolean: 'BOOLEAN',
};

export const LAKEHOUSE_TYPES: Record<SampleColumnType, string> = {
  integer: 'BIGINT',
  decimal: 'DECIMAL(18,2)',
  string: 'STRING',
  timestamp: 'TIMESTAMP',
  boolean: 'BOOLEAN',
};
