import type { Migration } from '../../../platform/db/migrations';

/**
 * Schema of the local lakehouse's own SQLite file (separate from Drydock's database, as a
 * real workspace would be). Names are stored lowercased: Unity Catalog names are case-insensitive.
 * Securables in `grants` and keys in `faults` are JSON arrays of name parts, so a part may contain a dot.
 */
export const EMULATOR_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'lakehouse-emulator-catalog',
    up: `
      CREATE TABLE catalogs (
        name TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE schemas (
        catalog TEXT NOT NULL REFERENCES catalogs(name) ON DELETE CASCADE,
        name TEXT NOT NULL,
        owner TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (catalog, name)
      );
      CREATE TABLE objects (
        catalog TEXT NOT NULL,
        schema TEXT NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('TABLE', 'VIEW', 'METRIC_VIEW')),
        owner TEXT NOT NULL,
        comment TEXT,
        definition TEXT,
        properties TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        updated_by TEXT NOT NULL,
        PRIMARY KEY (catalog, schema, name),
        FOREIGN KEY (catalog, schema) REFERENCES schemas(catalog, name) ON DELETE CASCADE
      );
      CREATE TABLE columns (
        catalog TEXT NOT NULL,
        schema TEXT NOT NULL,
        object TEXT NOT NULL,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        comment TEXT,
        PRIMARY KEY (catalog, schema, object, position),
        FOREIGN KEY (catalog, schema, object) REFERENCES objects(catalog, schema, name) ON DELETE CASCADE
      );
      CREATE TABLE grants (
        principal TEXT NOT NULL,
        privilege TEXT NOT NULL,
        securable TEXT NOT NULL,
        PRIMARY KEY (principal, privilege, securable)
      );
      CREATE TABLE warehouse_access (
        principal TEXT PRIMARY KEY
      );
      CREATE TABLE faults (
        target TEXT PRIMARY KEY,
        code TEXT NOT NULL,
        message TEXT
      );
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    // Lakehouses seeded before dev publications: the principal that may use the seeded catalog
    // `main` may also create the per-user schemas in it (new files get the grant from the seed,
    // which runs after the migrations).
    version: 2,
    name: 'principal-creates-dev-schemas',
    up: `
      INSERT OR IGNORE INTO grants (principal, privilege, securable)
        SELECT principal, 'CREATE SCHEMA', securable FROM grants
        WHERE privilege = 'USE CATALOG' AND securable = '["main"]'
          AND EXISTS (SELECT 1 FROM settings WHERE key = 'seeded' AND value = 'sample');
    `,
  },
];
