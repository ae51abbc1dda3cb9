import type { Migration } from './types';

/** Deployments and what hangs directly off them: env vars, logs, environments and their tokens. */
export const deployments: Migration = {
  version: 2,
  name: 'deployments',
  up: `
    CREATE TABLE deployments (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      cloud_provider TEXT NOT NULL,
      creation_method TEXT NOT NULL,
      deploy_mode TEXT NOT NULL,
      region TEXT,
      release_channel TEXT NOT NULL DEFAULT 'stable',
      release_channel_version TEXT,
      release_channel_version_hold INTEGER NOT NULL DEFAULT 0,
      template TEXT,
      template_variables TEXT NOT NULL DEFAULT '{}',
      default_launchpad_view_group TEXT,
      launchpad_tabs TEXT,
      storage_provider TEXT NOT NULL DEFAULT '{}',
      deploy_branch TEXT NOT NULL DEFAULT 'main',
      creation_step INTEGER NOT NULL DEFAULT 0,
      settings TEXT NOT NULL DEFAULT '{}',
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE TABLE env_vars (
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      -- NULL for secret variables: their value lives in the SecretStore.
      value TEXT,
      is_secret INTEGER NOT NULL DEFAULT 0,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (deployment_id, name)
    );
    CREATE TABLE deployment_logs (
      id INTEGER PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      source TEXT NOT NULL CHECK (source IN ('production', 'dev')),
      container TEXT NOT NULL CHECK (container IN ('INIT', 'MAIN', 'cubejs-server', 'vector', 'api-proxy')),
      level TEXT NOT NULL DEFAULT 'info' CHECK (level IN ('debug', 'info', 'warn', 'error')),
      message TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX deployment_logs_by_deployment ON deployment_logs(deployment_id, id);
    CREATE INDEX deployment_logs_by_filter ON deployment_logs(deployment_id, source, container, id);
    CREATE TABLE environments (
      id INTEGER PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('production', 'staging', 'development')),
      branch_name TEXT NOT NULL,
      owner_user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      UNIQUE (deployment_id, name)
    );
    CREATE TABLE environment_tokens (
      id INTEGER PRIMARY KEY,
      environment_id INTEGER NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      purpose TEXT NOT NULL CHECK (purpose IN ('data', 'meta-sync')),
      scopes TEXT NOT NULL,
      security_context TEXT NOT NULL,
      sid TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    );
    CREATE INDEX environment_tokens_by_user ON environment_tokens(environment_id, user_id, created_at);
    CREATE INDEX environment_tokens_by_user_id ON environment_tokens(environment_id, user_id, id);
    -- One production environment per deployment, one development environment per developer.
    CREATE UNIQUE INDEX environments_one_production ON environments(deployment_id) WHERE kind = 'production';
    CREATE UNIQUE INDEX environments_one_dev_per_owner ON environments(deployment_id, owner_user_id) WHERE kind = 'development';
    -- Deployment tokens minted, so deleting the deployment can revoke them (the JWT is never stored).
    CREATE TABLE deployment_tokens (
      sid TEXT PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    );
    CREATE INDEX deployment_tokens_by_deployment ON deployment_tokens(deployment_id);
    -- Last known build and deploy state per branch, fed by the areas that build and deploy.
    CREATE TABLE deployment_build_states (
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      branch TEXT NOT NULL,
      build_status TEXT NOT NULL CHECK (build_status IN ('idle', 'queued', 'building', 'succeeded', 'failed')),
      deploy_status TEXT NOT NULL CHECK (deploy_status IN ('not_deployed', 'deploying', 'deployed', 'failed')),
      commit_sha TEXT,
      build_job_id TEXT,
      detail TEXT,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (deployment_id, branch)
    );
  `,
};
