import type { Migration } from './types';

/**
 * Remote profiles: other Drydock services or hosted platform tenants this data dir talks to (the
 * desktop app's header switcher, cross-instance promotion and publish, and the `drydock` CLI's
 * `--profile NAME`). The credential never lives here: it is in the SecretStore under
 * `profile:<name>:credential`. The check columns cache what the last connection test read from
 * the remote's `GET /api/v1/spec`.
 */
export const profiles: Migration = {
  version: 10,
  name: 'profiles',
  up: `
    CREATE TABLE profiles (
      name TEXT PRIMARY KEY,
      base_url TEXT NOT NULL,
      credential_kind TEXT NOT NULL CHECK (credential_kind IN ('api-key', 'bearer')),
      description TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      -- Last connection test: when, whether it reached the remote, what the spec said.
      checked_at TEXT,
      check_ok INTEGER CHECK (check_ok IN (0, 1)),
      check_error TEXT,
      spec_title TEXT,
      spec_version TEXT,
      api_version TEXT,
      -- JSON array of the operationIds the remote's OpenAPI document lists.
      operation_ids TEXT
    );
  `,
};
