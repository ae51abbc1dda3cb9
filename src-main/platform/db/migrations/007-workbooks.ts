import type { Migration } from './types';

/**
 * Workspace content of a deployment: folders, workbooks (with their dashboards), promotions between
 * deployments, embed tenants and who of them may read which workbook, reports and where they are
 * placed in external documents, and scheduled dashboard notifications.
 */
export const workbooks: Migration = {
  version: 7,
  name: 'workbooks',
  up: `
    CREATE TABLE folders (
      id INTEGER PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      -- NO ACTION (checked at statement end) so a deployment's cascade can remove a whole tree;
      -- the API itself refuses to delete a folder that still holds anything.
      parent_id INTEGER REFERENCES folders(id),
      name TEXT NOT NULL,
      owner_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    -- Sibling names are unique; the root level has parent_id NULL, hence the COALESCE.
    CREATE UNIQUE INDEX folders_sibling_name ON folders(deployment_id, COALESCE(parent_id, 0), name COLLATE NOCASE);

    CREATE TABLE workbooks (
      id INTEGER PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      slug TEXT NOT NULL,
      public_id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      description TEXT,
      folder_id INTEGER REFERENCES folders(id),
      owner_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      shared INTEGER NOT NULL DEFAULT 1,
      dashboard_draft TEXT,
      dashboard_published TEXT,
      published_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (deployment_id, slug)
    );
    CREATE INDEX workbooks_by_folder ON workbooks(deployment_id, folder_id);

    -- One applied promotion. Deployment ids are kept without a foreign key so history survives
    -- the deletion of either side; workbook ids go NULL when a workbook is deleted.
    CREATE TABLE workbook_promotions (
      id INTEGER PRIMARY KEY,
      source_deployment_id INTEGER NOT NULL,
      source_workbook_id INTEGER REFERENCES workbooks(id) ON DELETE SET NULL,
      source_slug TEXT NOT NULL,
      source_name TEXT NOT NULL,
      target_deployment_id INTEGER NOT NULL,
      target_workbook_id INTEGER REFERENCES workbooks(id) ON DELETE SET NULL,
      target_slug TEXT NOT NULL,
      target_name TEXT NOT NULL,
      operation TEXT NOT NULL CHECK (operation IN ('CREATE', 'UPDATE')),
      source_hash TEXT NOT NULL,
      target_hash_before TEXT,
      target_hash_after TEXT NOT NULL,
      changes TEXT NOT NULL,
      idempotency_key TEXT,
      request_fingerprint TEXT NOT NULL,
      promoted_by_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX workbook_promotions_idempotency
      ON workbook_promotions(source_deployment_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
    CREATE INDEX workbook_promotions_by_source ON workbook_promotions(source_workbook_id, id);
    CREATE INDEX workbook_promotions_by_target ON workbook_promotions(target_workbook_id, id);

    CREATE TABLE embed_tenants (
      name TEXT PRIMARY KEY,
      display_name TEXT,
      created_at TEXT NOT NULL
    );

    -- scope 'tenant' names one embed tenant; scope 'allEmbedUsers' has no tenant (stored as '').
    CREATE TABLE workbook_embed_access (
      workbook_id INTEGER NOT NULL REFERENCES workbooks(id) ON DELETE CASCADE,
      scope TEXT NOT NULL CHECK (scope IN ('tenant', 'allEmbedUsers')),
      embed_tenant_name TEXT NOT NULL DEFAULT '',
      action TEXT NOT NULL CHECK (action IN ('read', 'none')),
      updated_by_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (workbook_id, scope, embed_tenant_name)
    );
    CREATE TABLE folder_embed_access (
      folder_id INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
      scope TEXT NOT NULL CHECK (scope IN ('tenant', 'allEmbedUsers')),
      embed_tenant_name TEXT NOT NULL DEFAULT '',
      action TEXT NOT NULL CHECK (action IN ('read', 'none')),
      updated_by_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (folder_id, scope, embed_tenant_name)
    );

    CREATE TABLE reports (
      id INTEGER PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      public_id TEXT NOT NULL,
      name TEXT NOT NULL,
      title TEXT,
      description TEXT,
      folder_id INTEGER REFERENCES folders(id),
      owner_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      query TEXT,
      current_query_checksum TEXT,
      last_viewed_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (deployment_id, public_id)
    );
    CREATE INDEX reports_by_folder ON reports(deployment_id, folder_id);

    CREATE TABLE report_placements (
      id INTEGER PRIMARY KEY,
      report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
      external_workbook_id TEXT NOT NULL,
      host TEXT,
      sheet_id TEXT,
      sheet_name TEXT NOT NULL,
      anchor_cell TEXT NOT NULL,
      workbook_name TEXT,
      placed_at TEXT NOT NULL,
      placed_by_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      refreshed_at TEXT,
      refreshed_by_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      result_checksum TEXT,
      query_checksum TEXT,
      UNIQUE (report_id, external_workbook_id, sheet_name, anchor_cell)
    );
    CREATE INDEX report_placements_by_document ON report_placements(external_workbook_id, id);

    CREATE TABLE notifications (
      id INTEGER PRIMARY KEY,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      workbook_id INTEGER NOT NULL REFERENCES workbooks(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      cron TEXT NOT NULL,
      timezone TEXT NOT NULL,
      enabled INTEGER NOT NULL DEFAULT 1,
      format TEXT NOT NULL,
      filters TEXT NOT NULL DEFAULT '[]',
      time_grains TEXT NOT NULL DEFAULT '[]',
      member_switchers TEXT NOT NULL DEFAULT '[]',
      ai_summary TEXT,
      recipients TEXT NOT NULL DEFAULT '[]',
      owner_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX notifications_by_deployment ON notifications(deployment_id, id);
  `,
};
