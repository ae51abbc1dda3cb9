import type { Migration } from './types';

/** Slot for the workbooks area's tables (filled by that area). */
export const workbooks: Migration = {
  version: 7,
  name: 'workbooks',
  up: ``,
};
