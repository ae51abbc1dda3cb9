import type { Migration } from './types';

/** Slot for the warehouse-sync area's tables (filled by that area). */
export const warehouseSync: Migration = {
  version: 5,
  name: 'warehouse-sync',
  up: ``,
};
