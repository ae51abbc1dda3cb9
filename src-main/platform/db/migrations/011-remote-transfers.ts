import type { Migration } from './types';

/**
 * Cross-instance transfers to remote profiles (workbook promotions and model publishes), and, on
 * the receiving side, where a promoted workbook came from. A transfer's work is a `jobs` row with
 * the same id; this row outlives the job's retention as the history.
 */
export const remoteTransfers: Migration = {
  version: 11,
  name: 'remote-transfers',
  up: `
    CREATE TABLE remote_transfers (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL CHECK (kind IN ('workbook-promotion', 'model-publish')),
      status TEXT NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'FAILED', 'CANCELLED')),
      -- The profile may be removed later; its name and URL stay as they were.
      profile_name TEXT NOT NULL,
      remote_base_url TEXT NOT NULL,
      remote_spec_version TEXT,
      operation TEXT CHECK (operation IN ('CREATE', 'UPDATE')),
      source_deployment_id INTEGER NOT NULL,
      source_workbook_id INTEGER,
      source_slug TEXT,
      source_name TEXT,
      source_branch TEXT,
      source_version TEXT,
      target_deployment_id INTEGER NOT NULL,
      target_workbook_id INTEGER,
      target_slug TEXT,
      target_name TEXT,
      target_branch TEXT,
      target_version_before TEXT,
      target_version_after TEXT,
      -- JSON: PromotionChanges (workbook) or [{path, status}] (publish).
      changes TEXT,
      remote_provenance TEXT CHECK (remote_provenance IN ('RECORDED', 'IN_COMMIT_MESSAGE', 'NOT_SUPPORTED', 'NOT_RECORDED')),
      rolled_back INTEGER CHECK (rolled_back IN (0, 1)),
      error_code TEXT,
      error_message TEXT,
      idempotency_key TEXT,
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      finished_at TEXT
    );
    CREATE INDEX remote_transfers_by_source ON remote_transfers(source_deployment_id, seq DESC);
    CREATE INDEX remote_transfers_by_workbook ON remote_transfers(source_workbook_id, seq DESC) WHERE source_workbook_id IS NOT NULL;

    -- Receiving side: a workbook written by a promotion from another service.
    CREATE TABLE workbook_remote_origins (
      id INTEGER PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      workbook_id INTEGER NOT NULL REFERENCES workbooks(id) ON DELETE CASCADE,
      transfer_id TEXT NOT NULL,
      source_service TEXT NOT NULL,
      source_deployment_id INTEGER NOT NULL,
      source_workbook_id INTEGER NOT NULL,
      source_slug TEXT NOT NULL,
      source_name TEXT NOT NULL,
      source_hash TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      recorded_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      recorded_at TEXT NOT NULL,
      UNIQUE (workbook_id, transfer_id)
    );
    CREATE INDEX workbook_remote_origins_by_workbook ON workbook_remote_origins(workbook_id, id DESC);
  `,
};
