import type { Migration } from './types';

/**
 * Where dev-mode pushes and publications write: one rule per deployment (per-user schema suffix
 * or name prefix, with a `{user}` template). No row: the default rule applies.
 */
export const devTargets: Migration = {
  version: 17,
  name: 'dev-targets',
  up: `
    CREATE TABLE dev_target_rules (
      deployment_id INTEGER PRIMARY KEY REFERENCES deployments(id) ON DELETE CASCADE,
      mode TEXT NOT NULL CHECK (mode IN ('schema-suffix', 'name-prefix')),
      template TEXT NOT NULL,
      updated_by INTEGER,
      updated_at TEXT NOT NULL
    );
  `,
};
