import type { WarehouseEmulator } from '../../src-main/connectors/warehouse';

/**
 * Creates the order tables the warehouse test models read in ANALYTICS.PUBLIC: ORDERS (with
 * CUSTOMER_ID), CUSTOMERS and LINE_ITEMS (with ORDER_ID). `prefix` names them for a test's own cubes
 * (`DV_` → DV_ORDERS, DV_CUSTOMERS, DV_LINE_ITEMS).
 */
export function createOrderTables(emulator: WarehouseEmulator, prefix = ''): void {
  emulator.createTable('ANALYTICS', 'PUBLIC', `${prefix}ORDERS`, [
    { name: 'ID', type: 'NUMBER' },
    { name: 'STATUS', type: 'VARCHAR' },
    { name: 'CREATED_AT', type: 'TIMESTAMP_NTZ' },
    { name: 'AMOUNT', type: 'NUMBER(12,2)' },
    { name: 'CUSTOMER_ID', type: 'NUMBER' },
  ]);
  emulator.createTable('ANALYTICS', 'PUBLIC', `${prefix}CUSTOMERS`, [
    { name: 'ID', type: 'NUMBER' },
    { name: 'NAME', type: 'VARCHAR' },
    { name: 'REGION', type: 'VARCHAR' },
  ]);
  emulator.createTable('ANALYTICS', 'PUBLIC', `${prefix}LINE_ITEMS`, [
    { name: 'ID', type: 'NUMBER' },
    { name: 'ORDER_ID', type: 'NUMBER' },
    { name: 'QUANTITY', type: 'NUMBER' },
  ]);
}
