import type { Migration } from './types';

/** Slot for the lakehouse area's tables (filled by that area). */
export const lakehouse: Migration = {
  version: 6,
  name: 'lakehouse',
  up: ``,
};
