import type { Migration } from './types';

/** Slot for the deployments area's tables (filled by that area). */
export const deployments: Migration = {
  version: 2,
  name: 'deployments',
  up: ``,
};
