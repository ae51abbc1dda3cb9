import type { Migration } from './types';

/** Slot for the jobs area's tables (filled by that area). */
export const jobs: Migration = {
  version: 4,
  name: 'jobs',
  up: ``,
};
