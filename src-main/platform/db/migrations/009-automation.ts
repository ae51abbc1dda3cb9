import type { Migration } from './types';

/**
 * Automation around a deployment: scheduled agent tasks with their runs and the chat threads each
 * run writes, transform syncs (dbt manifest → model files; the work itself is a `jobs` row),
 * connections of deployments to a repository host, and dashboard exports (job rows plus the file
 * on disk).
 */
export const automation: Migration = {
  version: 9,
  name: 'automation',
  up: `
    -- A saved prompt. cron NULL: manual-only. Active = cron IS NOT NULL AND enabled = 1; only an
    -- active task has a next_run_at. seq orders the list (ids are opaque strings).
    CREATE TABLE scheduled_tasks (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      prompt TEXT NOT NULL,
      cron TEXT,
      timezone TEXT NOT NULL,
      enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
      next_run_at TEXT,
      last_run_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      CHECK (next_run_at IS NULL OR (cron IS NOT NULL AND enabled = 1))
    );
    CREATE INDEX scheduled_tasks_by_deployment ON scheduled_tasks(deployment_id, seq);
    CREATE INDEX scheduled_tasks_active_by_user ON scheduled_tasks(user_id) WHERE cron IS NOT NULL AND enabled = 1;
    CREATE INDEX scheduled_tasks_due ON scheduled_tasks(next_run_at) WHERE next_run_at IS NOT NULL;

    -- One run of a task. A scheduled run is unique per (task, scheduled time): the scheduler of
    -- any process may try to fire it, only one row (and one job) results.
    CREATE TABLE scheduled_task_runs (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      task_id TEXT NOT NULL REFERENCES scheduled_tasks(id) ON DELETE CASCADE,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      trigger TEXT NOT NULL CHECK (trigger IN ('scheduled', 'manual')),
      scheduled_for TEXT,
      status TEXT NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')),
      job_id TEXT,
      thread_id TEXT,
      output TEXT,
      error TEXT,
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      UNIQUE (task_id, scheduled_for)
    );
    CREATE INDEX scheduled_task_runs_by_task ON scheduled_task_runs(task_id, seq DESC);

    -- Chat threads: what a run of a scheduled task writes (a thread outlives its task).
    CREATE TABLE chat_threads (
      id TEXT PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      title TEXT NOT NULL,
      origin TEXT NOT NULL CHECK (origin IN ('scheduled-task')),
      scheduled_task_id TEXT,
      scheduled_task_run_id TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX chat_threads_by_user ON chat_threads(deployment_id, user_id, created_at);
    CREATE TABLE chat_messages (
      id INTEGER PRIMARY KEY,
      thread_id TEXT NOT NULL REFERENCES chat_threads(id) ON DELETE CASCADE,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
      content TEXT NOT NULL,
      -- JSON: the agent that answered, the model members it referred to, token usage.
      metadata TEXT,
      created_at TEXT NOT NULL
    );
    CREATE INDEX chat_messages_by_thread ON chat_messages(thread_id, id);

    -- Files of a transform sync run with output 'files': held (not committed) until expires_at,
    -- one hour after the run completed.
    CREATE TABLE transform_sync_files (
      job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      content TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      size INTEGER NOT NULL,
      expires_at TEXT NOT NULL,
      PRIMARY KEY (job_id, path)
    );
    CREATE INDEX transform_sync_files_expiry ON transform_sync_files(expires_at);

    -- The repository a deployment is connected to on the repository host (one per deployment).
    CREATE TABLE git_host_connections (
      deployment_id INTEGER PRIMARY KEY REFERENCES deployments(id) ON DELETE CASCADE,
      provider TEXT NOT NULL CHECK (provider IN ('github', 'local')),
      installation_id INTEGER NOT NULL,
      owner TEXT NOT NULL,
      repo TEXT NOT NULL,
      branch TEXT NOT NULL,
      path TEXT NOT NULL DEFAULT '',
      head_commit TEXT,
      connected_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      connected_at TEXT NOT NULL
    );

    -- A dashboard export: the job renders the file; this row outlives the job by a day so a
    -- request after the 5-minute lifetime answers 410 Gone rather than 404.
    CREATE TABLE dashboard_exports (
      job_id TEXT PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      workbook_id INTEGER NOT NULL,
      format TEXT NOT NULL CHECK (format IN ('png', 'pdf')),
      requested_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      render_as_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      file_name TEXT NOT NULL,
      file_path TEXT,
      size INTEGER,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    );
    CREATE INDEX dashboard_exports_expiry ON dashboard_exports(expires_at);
  `,
};
