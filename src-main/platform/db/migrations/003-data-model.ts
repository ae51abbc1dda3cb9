import type { Migration } from './types';

/** Slot for the data-model area's tables (filled by that area). */
export const dataModel: Migration = {
  version: 3,
  name: 'data-model',
  up: ``,
};
