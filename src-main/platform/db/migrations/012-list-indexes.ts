import type { Migration } from './types';

/**
 * Lists page by keyset over an index in the order they are shown, so the first page (and every
 * later one) costs the same at 100 rows as at 100,000: no sort of the whole list, no COUNT.
 *
 * - reports: one index per sort order (updatedAt, createdAt, name, lastViewedAt), and the same
 *   orders inside a folder; the old (deployment_id, folder_id) index is a prefix of those.
 * - folders, workbooks, notifications, scheduled tasks, embed users and groups: (scope, id).
 * - jobs: status filters (the sync lists' `status=`) walk (deployment, kind, status, time).
 *
 * `list_counts` keeps the deprecated `count` of the reports and folders lists (the spec keeps it)
 * without counting rows per request: triggers keep, per deployment, the number of rows in all
 * (bucket -1) and per folder (bucket = folder id, 0 for the top level; for folders, the parent).
 */
const counted = (list: string, table: string, folderColumn: string) => `
    INSERT INTO list_counts (list, deployment_id, bucket, n)
      SELECT '${list}', deployment_id, -1, COUNT(*) FROM ${table} GROUP BY deployment_id;
    INSERT INTO list_counts (list, deployment_id, bucket, n)
      SELECT '${list}', deployment_id, COALESCE(${folderColumn}, 0), COUNT(*) FROM ${table} GROUP BY deployment_id, COALESCE(${folderColumn}, 0);
    CREATE TRIGGER ${table}_counted_insert AFTER INSERT ON ${table} BEGIN
      INSERT INTO list_counts (list, deployment_id, bucket, n)
        VALUES ('${list}', NEW.deployment_id, -1, 1), ('${list}', NEW.deployment_id, COALESCE(NEW.${folderColumn}, 0), 1)
        ON CONFLICT (list, deployment_id, bucket) DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER ${table}_counted_delete AFTER DELETE ON ${table} BEGIN
      UPDATE list_counts SET n = n - 1
        WHERE list = '${list}' AND deployment_id = OLD.deployment_id AND bucket IN (-1, COALESCE(OLD.${folderColumn}, 0));
    END;
    CREATE TRIGGER ${table}_counted_move AFTER UPDATE OF deployment_id, ${folderColumn} ON ${table}
      WHEN OLD.deployment_id IS NOT NEW.deployment_id OR OLD.${folderColumn} IS NOT NEW.${folderColumn}
    BEGIN
      UPDATE list_counts SET n = n - 1
        WHERE list = '${list}' AND deployment_id = OLD.deployment_id AND bucket IN (-1, COALESCE(OLD.${folderColumn}, 0));
      INSERT INTO list_counts (list, deployment_id, bucket, n)
        VALUES ('${list}', NEW.deployment_id, -1, 1), ('${list}', NEW.deployment_id, COALESCE(NEW.${folderColumn}, 0), 1)
        ON CONFLICT (list, deployment_id, bucket) DO UPDATE SET n = n + 1;
    END;`;

export const listIndexes: Migration = {
  version: 12,
  name: 'list-indexes',
  up: `
    DROP INDEX reports_by_folder;
    CREATE INDEX reports_by_updated ON reports(deployment_id, updated_at, id);
    CREATE INDEX reports_by_created ON reports(deployment_id, created_at, id);
    CREATE INDEX reports_by_name ON reports(deployment_id, name COLLATE NOCASE, id);
    CREATE INDEX reports_by_viewed ON reports(deployment_id, (last_viewed_at IS NULL), last_viewed_at DESC, id DESC);
    CREATE INDEX reports_in_folder_by_updated ON reports(deployment_id, folder_id, updated_at, id);
    CREATE INDEX reports_in_folder_by_created ON reports(deployment_id, folder_id, created_at, id);
    CREATE INDEX reports_in_folder_by_name ON reports(deployment_id, folder_id, name COLLATE NOCASE, id);
    CREATE INDEX reports_in_folder_by_viewed ON reports(deployment_id, folder_id, (last_viewed_at IS NULL), last_viewed_at DESC, id DESC);

    CREATE INDEX folders_by_deployment ON folders(deployment_id, id);
    CREATE INDEX folders_by_parent ON folders(deployment_id, parent_id, id);
    CREATE INDEX workbooks_by_deployment ON workbooks(deployment_id, id);
    CREATE INDEX notifications_by_workbook ON notifications(deployment_id, workbook_id, id);
    CREATE INDEX scheduled_tasks_by_user ON scheduled_tasks(deployment_id, user_id, seq);
    CREATE INDEX embed_users_by_tenant ON embed_users(tenant_name, id);
    CREATE INDEX embed_groups_by_tenant ON embed_groups(tenant_name, id);
    CREATE INDEX jobs_by_status ON jobs(deployment_id, kind, status, created_at DESC, id DESC);

    CREATE TABLE list_counts (
      list TEXT NOT NULL,
      deployment_id INTEGER NOT NULL,
      bucket INTEGER NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (list, deployment_id, bucket)
    ) WITHOUT ROWID;
    ${counted('reports', 'reports', 'folder_id')}
    ${counted('folders', 'folders', 'parent_id')}
    CREATE TRIGGER deployments_uncounted AFTER DELETE ON deployments BEGIN
      DELETE FROM list_counts WHERE deployment_id = OLD.id;
    END;
  `,
};
