import type { Migration } from '../../../platform/db/migrations/types';

/**
 * Schema of the emulator's own SQLite file (separate from Drydock's main database). Object keys
 * in `grants` are JSON arrays of name parts, so names containing dots stay unambiguous.
 * Numbered steps; append new ones, never edit a released one.
 */
export const WAREHOUSE_EMULATOR_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'warehouse-emulator-catalog',
    up: `
      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE roles (
        name       TEXT PRIMARY KEY,
        created_on TEXT NOT NULL
      ) STRICT;

      CREATE TABLE warehouses (
        name       TEXT PRIMARY KEY,
        owner      TEXT NOT NULL,
        created_on TEXT NOT NULL
      ) STRICT;

      CREATE TABLE databases (
        name       TEXT PRIMARY KEY,
        owner      TEXT NOT NULL,
        created_on TEXT NOT NULL
      ) STRICT;

      CREATE TABLE schemas (
        database_name TEXT NOT NULL REFERENCES databases(name) ON DELETE CASCADE,
        name          TEXT NOT NULL,
        owner         TEXT NOT NULL,
        created_on    TEXT NOT NULL,
        PRIMARY KEY (database_name, name)
      ) STRICT;

      -- Tables (seeded through the admin API) and views (created with CREATE VIEW).
      CREATE TABLE relations (
        database_name TEXT NOT NULL,
        schema_name   TEXT NOT NULL,
        name          TEXT NOT NULL,
        kind          TEXT NOT NULL CHECK (kind IN ('TABLE', 'VIEW')),
        owner         TEXT NOT NULL,
        comment       TEXT,
        columns_json  TEXT,
        view_query    TEXT,
        created_on    TEXT NOT NULL,
        PRIMARY KEY (database_name, schema_name, name),
        FOREIGN KEY (database_name, schema_name) REFERENCES schemas(database_name, name) ON DELETE CASCADE
      ) STRICT;

      CREATE TABLE semantic_views (
        database_name   TEXT NOT NULL,
        schema_name     TEXT NOT NULL,
        name            TEXT NOT NULL,
        owner           TEXT NOT NULL,
        comment         TEXT,
        definition_json TEXT NOT NULL,
        created_on      TEXT NOT NULL,
        PRIMARY KEY (database_name, schema_name, name),
        FOREIGN KEY (database_name, schema_name) REFERENCES schemas(database_name, name) ON DELETE CASCADE
      ) STRICT;

      CREATE TABLE grants (
        role        TEXT NOT NULL REFERENCES roles(name) ON DELETE CASCADE,
        privilege   TEXT NOT NULL,
        object_type TEXT NOT NULL,
        object_key  TEXT NOT NULL,
        PRIMARY KEY (role, privilege, object_type, object_key)
      ) STRICT;
    `,
  },
  {
    // Warehouses seeded before dev-mode pushes: the working role may create the per-user schemas
    // in its database (new files get the grant from the seed, which runs after the migrations).
    version: 2,
    name: 'working-role-creates-schemas',
    up: `
      INSERT OR IGNORE INTO grants (role, privilege, object_type, object_key)
        SELECT json_extract(value, '$.role'), 'CREATE SCHEMA', 'DATABASE', json_array(json_extract(value, '$.database'))
        FROM settings WHERE key = 'seed';
    `,
  },
];
