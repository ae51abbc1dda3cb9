import type { Migration } from './types';

/**
 * Model builds (what publication reads) and the lakehouse metric view publication: saved
 * settings per data source, runs and their per-view outcomes, preview results, and the
 * targets Drydock owns. Runs and previews are jobs; their rows go when the job is swept.
 */
export const lakehouse: Migration = {
  version: 6,
  name: 'lakehouse',
  up: `
    -- One build per commit of a deployment's deploy branch; the id is the build job's id.
    CREATE TABLE model_builds (
      id TEXT PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      branch TEXT NOT NULL,
      commit_sha TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('queued', 'building', 'succeeded', 'failed')),
      -- JSON [{ path, content }]: the model files at the commit (what the compiler read).
      files TEXT,
      -- JSON CompiledModel of a successful build.
      model TEXT,
      -- JSON Diagnostic[] (errors and warnings).
      diagnostics TEXT NOT NULL DEFAULT '[]',
      error TEXT,
      created_at TEXT NOT NULL,
      finished_at TEXT
    );
    CREATE INDEX model_builds_latest ON model_builds(deployment_id, branch, status, finished_at DESC);
    CREATE INDEX model_builds_by_commit ON model_builds(deployment_id, commit_sha);

    -- Publication settings: one saved target per data source.
    CREATE TABLE lakehouse_integrations (
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      data_source TEXT NOT NULL,
      configuration TEXT NOT NULL,
      configuration_version INTEGER NOT NULL CHECK (configuration_version >= 1),
      updated_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (deployment_id, data_source)
    );

    -- Whether support activated the publication preview for a deployment (absent row: active).
    CREATE TABLE lakehouse_preview_activation (
      deployment_id INTEGER PRIMARY KEY REFERENCES deployments(id) ON DELETE CASCADE,
      active INTEGER NOT NULL,
      updated_at TEXT NOT NULL
    );

    -- A publication run; the id is its job's id.
    CREATE TABLE lakehouse_runs (
      id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      data_source TEXT NOT NULL,
      configuration_version INTEGER NOT NULL,
      -- JSON configuration as it was when the run started.
      configuration TEXT NOT NULL,
      build_id TEXT,
      commit_sha TEXT,
      -- JSON [viewName]: planned views, known once the run planned its work.
      view_names TEXT,
      idempotency_key TEXT,
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX lakehouse_runs_idempotency ON lakehouse_runs(deployment_id, data_source, idempotency_key)
      WHERE idempotency_key IS NOT NULL;
    CREATE INDEX lakehouse_runs_by_source ON lakehouse_runs(deployment_id, data_source, created_at DESC, id DESC);

    CREATE TABLE lakehouse_run_views (
      run_id TEXT NOT NULL REFERENCES lakehouse_runs(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      view_name TEXT NOT NULL,
      target TEXT,
      outcome TEXT NOT NULL CHECK (outcome IN ('unchanged', 'created', 'updated', 'blocked', 'validation_failed',
        'publish_failed', 'retained_obsolete', 'deleted_obsolete')),
      -- JSON [member]: fan-out-unsafe measures left out of the published definition.
      withheld_members TEXT NOT NULL DEFAULT '[]',
      -- JSON [{ code, message }]: why the view did not publish, and warnings.
      reasons TEXT NOT NULL DEFAULT '[]',
      warnings TEXT NOT NULL DEFAULT '[]',
      definition_written INTEGER NOT NULL DEFAULT 0,
      finished_at TEXT NOT NULL,
      PRIMARY KEY (run_id, position)
    );

    -- A preview; the id is its job's id. Request and result are the job's inputs and result.
    CREATE TABLE lakehouse_previews (
      id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      data_source TEXT NOT NULL,
      build_id TEXT,
      commit_sha TEXT,
      created_at TEXT NOT NULL
    );

    -- Targets Drydock wrote and confirmed by reading them back: the only ones it may change.
    CREATE TABLE lakehouse_targets (
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      data_source TEXT NOT NULL,
      catalog TEXT NOT NULL,
      schema_name TEXT NOT NULL,
      name TEXT NOT NULL,
      view_name TEXT NOT NULL,
      definition_hash TEXT NOT NULL,
      last_written_yaml TEXT NOT NULL,
      last_run_id TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (deployment_id, catalog, schema_name, name)
    );
    CREATE INDEX lakehouse_targets_by_source ON lakehouse_targets(deployment_id, data_source);
  `,
};
