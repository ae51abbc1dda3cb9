import type { Migration } from './types';

/**
 * Metric views a dev-mode publication wrote (to its owner's per-user schema or prefix) are owned
 * like production ones, but apart: `dev_owner` is the dev branch's owner, null for production
 * targets. A production run never reports a dev target as obsolete, nor a dev run a production one.
 */
export const lakehouseDevTargets: Migration = {
  version: 18,
  name: 'lakehouse-dev-targets',
  up: `
    ALTER TABLE lakehouse_targets ADD COLUMN dev_owner INTEGER;
  `,
};
