import type { Migration } from './types';

/**
 * Two-way git with the team's repository. A branch may track a branch of the connected remote
 * (`upstream_branch`); the connection learns about any smart-HTTP(S) URL besides the repository
 * host, and keeps its background-fetch schedule and last outcome. Credentials live in the
 * SecretStore (`git-remote:<deploymentId>`), never here.
 */
export const gitUpstream: Migration = {
  version: 14,
  name: 'git-upstream',
  up: `
    -- The branch of the connected remote this branch pulls from and pushes to (NULL: local only).
    ALTER TABLE model_branches ADD COLUMN upstream_branch TEXT;

    -- Remote branches the deployment does not mirror: their local branch was deleted (without
    -- removing it upstream), so a fetch must not bring it back.
    CREATE TABLE model_ignored_upstream_branches (
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      PRIMARY KEY (deployment_id, name)
    );

    -- Rebuilt to accept plain git URLs (provider 'url', no installation) and the fetch schedule.
    CREATE TABLE git_host_connections_v2 (
      deployment_id INTEGER PRIMARY KEY REFERENCES deployments(id) ON DELETE CASCADE,
      provider TEXT NOT NULL CHECK (provider IN ('github', 'local', 'url')),
      installation_id INTEGER,
      owner TEXT NOT NULL,
      repo TEXT NOT NULL,
      -- The repository URL without credentials ('' for the local host).
      url TEXT NOT NULL DEFAULT '',
      -- How requests authenticate: none, token, basic (user + password), app (GitHub App token), local.
      auth TEXT NOT NULL DEFAULT 'app' CHECK (auth IN ('none', 'token', 'basic', 'app', 'local')),
      -- The remote branch the deploy branch tracks.
      branch TEXT NOT NULL,
      path TEXT NOT NULL DEFAULT '',
      head_commit TEXT,
      connected_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      connected_at TEXT NOT NULL,
      -- Background fetch: every fetch_interval_seconds (0: off); next_fetch_at is claimed by compare-and-set.
      fetch_interval_seconds INTEGER NOT NULL DEFAULT 300 CHECK (fetch_interval_seconds >= 0),
      next_fetch_at TEXT,
      last_fetch_at TEXT,
      last_fetch_error_code TEXT,
      last_fetch_error TEXT
    );
    INSERT INTO git_host_connections_v2 (deployment_id, provider, installation_id, owner, repo, url, auth, branch, path, head_commit, connected_by, connected_at)
      SELECT deployment_id, provider, installation_id, owner, repo, '', CASE provider WHEN 'local' THEN 'local' ELSE 'app' END, branch, path, head_commit, connected_by, connected_at
      FROM git_host_connections;
    DROP TABLE git_host_connections;
    ALTER TABLE git_host_connections_v2 RENAME TO git_host_connections;
    CREATE INDEX git_host_connections_next_fetch ON git_host_connections(next_fetch_at) WHERE next_fetch_at IS NOT NULL;
  `,
};
