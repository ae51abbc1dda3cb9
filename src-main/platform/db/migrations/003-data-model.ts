import type { Migration } from './types';

/**
 * Data-model metadata beside each deployment's git repository (`<dataDir>/repos/<id>`): branch
 * parentage and dev-mode ownership, uncommitted dev-mode edits, and resumable chunked uploads.
 * Branch heads and file contents live in git only.
 */
export const dataModel: Migration = {
  version: 3,
  name: 'data-model',
  up: `
    CREATE TABLE model_branches (
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      -- deploy: the deployment's deploy branch; shared: created through the branches API;
      -- personal: a user's dev branch, created by entering dev mode.
      kind TEXT NOT NULL CHECK (kind IN ('deploy', 'shared', 'personal')),
      parent_branch TEXT,
      -- A personal branch is in dev mode while its owner is in dev mode on it; only then is it writable.
      is_dev_mode INTEGER NOT NULL DEFAULT 0,
      owner_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      staging_environment_enabled INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (deployment_id, name)
    );
    -- One active dev-mode branch per user per deployment.
    CREATE UNIQUE INDEX model_branches_one_dev_mode_per_user
      ON model_branches(deployment_id, owner_user_id) WHERE is_dev_mode = 1;
    CREATE INDEX model_branches_by_parent ON model_branches(deployment_id, parent_branch);

    -- Uncommitted edits of a dev-mode branch over its head commit; content NULL marks a deletion.
    CREATE TABLE model_working_files (
      deployment_id INTEGER NOT NULL,
      branch TEXT NOT NULL,
      path TEXT NOT NULL,
      content TEXT,
      updated_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (deployment_id, branch, path),
      FOREIGN KEY (deployment_id, branch) REFERENCES model_branches(deployment_id, name) ON DELETE CASCADE
    );

    CREATE TABLE model_uploads (
      id TEXT PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      branch TEXT NOT NULL,
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      -- JSON [{ path, size, sha256 }]: what the client promised to send.
      manifest TEXT NOT NULL,
      -- JSON [path]: files the finished upload removes from the branch.
      delete_paths TEXT NOT NULL DEFAULT '[]',
      message TEXT,
      state TEXT NOT NULL CHECK (state IN ('open', 'finished', 'expired')),
      commit_oid TEXT,
      -- JSON { changed, changes } of the finished upload, answered again when finish is repeated.
      result TEXT,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      finished_at TEXT
    );
    CREATE INDEX model_uploads_by_deployment ON model_uploads(deployment_id, state, expires_at);

    -- Received byte ranges; re-sending a chunk replaces the row with the same offset.
    CREATE TABLE model_upload_chunks (
      upload_id TEXT NOT NULL REFERENCES model_uploads(id) ON DELETE CASCADE,
      file_index INTEGER NOT NULL,
      byte_offset INTEGER NOT NULL,
      data BLOB NOT NULL,
      PRIMARY KEY (upload_id, file_index, byte_offset)
    );
  `,
};
