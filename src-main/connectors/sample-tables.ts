/**
 * The base tables the shipped sample project (`resources/sample-project`) reads, in schema
 * `ecommerce`. Both local emulators create them when their file is created, so the sample model
 * can be pushed and published offline out of the box.
 */
export type SampleColumnType = 'integer' | 'decimal' | 'string' | 'timestamp' | 'boolean';

export interface SampleTable {
  name: string;
  comment: string;
  columns: { name: string; type: SampleColumnType }[];
}

export const SAMPLE_SCHEMA = 'ecommerce';

export const SAMPLE_TABLES: readonly SampleTable[] = [
  {
    name: 'customers',
    comment: 'One row per customer',
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'first_name', type: 'string' },
      { name: 'last_name', type: 'string' },
      { name: 'email', type: 'string' },
      { name: 'company_name', type: 'string' },
      { name: 'country', type: 'string' },
      { name: 'state', type: 'string' },
      { name: 'city', type: 'string' },
      { name: 'created_at', type: 'timestamp' },
    ],
  },
  {
    name: 'orders',
    comment: 'One row per order',
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'customer_id', type: 'integer' },
      { name: 'status', type: 'string' },
      { name: 'amount', type: 'decimal' },
      { name: 'created_at', type: 'timestamp' },
      { name: 'shipped_at', type: 'timestamp' },
    ],
  },
  {
    name: 'line_items',
    comment: 'One row per product on an order',
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'order_id', type: 'integer' },
      { name: 'product_id', type: 'integer' },
      { name: 'quantity', type: 'integer' },
      { name: 'unit_price', type: 'decimal' },
    ],
  },
  {
    name: 'products',
    comment: 'One row per product',
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'category_id', type: 'integer' },
      { name: 'name', type: 'string' },
      { name: 'list_price', type: 'decimal' },
      { name: 'launched_at', type: 'timestamp' },
    ],
  },
  {
    name: 'categories',
    comment: 'Product categories',
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'name', type: 'string' },
      { name: 'parent_name', type: 'string' },
      { name: 'archived', type: 'boolean' },
    ],
  },
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
