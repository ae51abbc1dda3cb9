import type { Migration } from './types';

/** Warehouse syncs keep all their state in the `jobs` table (migration 4); this step adds nothing. */
export const warehouseSync: Migration = {
  version: 5,
  name: 'warehouse-sync',
  up: ``,
};
