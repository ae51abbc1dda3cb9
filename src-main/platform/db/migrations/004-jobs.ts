import type { Migration } from './types';

/**
 * The durable job runner's tables. Every long operation (warehouse syncs, lakehouse runs and
 * previews, builds, transform syncs, exports) is one row of `jobs`; a worker owns a row only while
 * its lease (`lease_owner`, `lease_expires_at`) is live, so a killed process's jobs are taken up
 * again once the lease lapses.
 */
export const jobs: Migration = {
  version: 4,
  name: 'jobs',
  up: `
    CREATE TABLE jobs (
      id TEXT PRIMARY KEY,
      deployment_id INTEGER REFERENCES deployments(id) ON DELETE CASCADE,
      kind TEXT NOT NULL,
      inputs TEXT NOT NULL,
      inputs_hash TEXT NOT NULL,
      idempotency_key TEXT,
      status TEXT NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED')),
      progress TEXT NOT NULL DEFAULT '{"stage":"queued","percentComplete":0}',
      result TEXT,
      error TEXT,
      -- Handler-owned resume state: what a resumed attempt may skip.
      checkpoint TEXT,
      workflow_id TEXT NOT NULL UNIQUE,
      lease_owner TEXT,
      lease_expires_at TEXT,
      heartbeat_at TEXT,
      cancel_requested INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL,
      resumable INTEGER NOT NULL DEFAULT 1,
      -- How long a finished job is kept; copied from the kind's options so any process can sweep.
      retention_ms INTEGER,
      -- Earliest time a QUEUED job may be claimed (retry back-off).
      available_at TEXT NOT NULL,
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      expires_at TEXT
    );
    CREATE UNIQUE INDEX jobs_idempotency ON jobs(kind, COALESCE(deployment_id, 0), idempotency_key)
      WHERE idempotency_key IS NOT NULL;
    CREATE INDEX jobs_queue ON jobs(status, kind, available_at, created_at);
    CREATE INDEX jobs_leases ON jobs(status, lease_expires_at);
    CREATE INDEX jobs_by_deployment ON jobs(deployment_id, kind, created_at DESC, id DESC);
    CREATE INDEX jobs_expiry ON jobs(expires_at) WHERE expires_at IS NOT NULL;

    CREATE TABLE job_logs (
      id INTEGER PRIMARY KEY,
      job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
      attempt INTEGER NOT NULL,
      level TEXT NOT NULL CHECK (level IN ('info', 'warn', 'error')),
      message TEXT NOT NULL,
      fields TEXT,
      created_at TEXT NOT NULL
    );
    CREATE INDEX job_logs_by_job ON job_logs(job_id, id);
  `,
};
