/**
 * The local warehouse's catalog, kept in its own SQLite file: roles, warehouses, databases,
 * schemas, tables, helper views, semantic views and grants; the settings a real account has (DDL
 * enabled, QUOTED_IDENTIFIERS_IGNORE_CASE); the administration methods tests and the app use to
 * seed it (exact, case-sensitive names, not SQL); and the privilege checks statements run
 * through (an owner holds every privilege on its object). Statement execution builds on this in
 * `execute-ddl.ts`, `describe-show.ts` and `emulator.ts`.
 */
import { SAMPLE_SCHEMA, sampleTablesIn, WAREHOUSE_TYPES } from '../../sample-tables';
import { openDatabase, tx, type Db } from '../../../platform/db/connection';
import { formatIdentifier, formatQualifiedName, resolveIdentifier } from '../identifiers';
import { WarehouseError, type MissingPrivilege } from '../types';
import {
  assertName,
  DEFAULT_EMULATOR_SEED,
  key,
  SYSTEM_ROLE,
  targetFromRow,
  targetKey,
  VALID_GRANTS,
  type EmulatorPrivilege,
  type EmulatorSeed,
  type Grant,
  type GrantTarget,
  type ObjectName,
  type RelationRow,
  type SemanticViewRow,
  type SessionContext,
  type TableColumn,
  type WarehouseEmulatorOptions,
} from './catalog-types';
import { normalizeDataType } from './data-types';
import type { Identifier, QualifiedName } from './ddl-parser';
import type { SemanticViewDefinition } from './definition';
import { alreadyExists, ddlDisabled, insufficientPrivileges, invalidDefinition, noActiveWarehouse, noCurrent, objectNotFound, wrongObjectType } from './errors';
import { WAREHOUSE_EMULATOR_MIGRATIONS } from './migrations';
import type { ColumnInfo } from './semantic-validator';

export class WarehouseCatalog {
  protected readonly db: Db;
  private readonly now: () => Date;

  constructor(options: WarehouseEmulatorOptions) {
    this.now = options.now ?? (() => new Date());
    this.db = openDatabase(options.file, { migrations: WAREHOUSE_EMULATOR_MIGRATIONS });
    try {
      if (this.setting('seed') === null) this.seedCatalog({ ...DEFAULT_EMULATOR_SEED, ...options.seed });
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** The objects seeded when the file was created (their names stay valid after reopening). */
  get seed(): EmulatorSeed {
    return JSON.parse(this.setting('seed') ?? JSON.stringify(DEFAULT_EMULATOR_SEED)) as EmulatorSeed;
  }

  /** A session context with the seeded role, warehouse, database and schema. */
  defaultContext(): SessionContext {
    const seed = this.seed;
    return { role: seed.role, warehouse: seed.warehouse, database: seed.database, schema: seed.schema };
  }

  // ----- settings

  setDdlEnabled(enabled: boolean): void {
    this.setSetting('ddl_enabled', enabled ? 'true' : 'false');
  }

  isDdlEnabled(): boolean {
    return this.setting('ddl_enabled') !== 'false';
  }

  /** Snowflake's QUOTED_IDENTIFIERS_IGNORE_CASE: when true, quoted identifiers are upper-cased too. */
  setQuotedIdentifiersIgnoreCase(ignoreCase: boolean): void {
    this.setSetting('quoted_identifiers_ignore_case', ignoreCase ? 'true' : 'false');
  }

  quotedIdentifiersIgnoreCase(): boolean {
    return this.setting('quoted_identifiers_ignore_case') === 'true';
  }

  private setting(name: string): string | null {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(name) as { value: string } | undefined;
    return row ? row.value : null;
  }

  private setSetting(name: string, value: string): void {
    this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(name, value);
  }

  // ----- administration (exact, case-sensitive names)

  createRole(name: string): void {
    assertName('role', name);
    this.db.prepare('INSERT OR IGNORE INTO roles (name, created_on) VALUES (?, ?)').run(name, this.timestamp());
  }

  createWarehouse(name: string, options: { owner?: string } = {}): void {
    assertName('warehouse', name);
    const owner = options.owner ?? SYSTEM_ROLE;
    tx(this.db, () => {
      this.createRole(owner);
      this.db.prepare('INSERT OR IGNORE INTO warehouses (name, owner, created_on) VALUES (?, ?, ?)').run(name, owner, this.timestamp());
    });
  }

  createDatabase(name: string, options: { owner?: string } = {}): void {
    assertName('database', name);
    const owner = options.owner ?? SYSTEM_ROLE;
    tx(this.db, () => {
      this.createRole(owner);
      this.db.prepare('INSERT OR IGNORE INTO databases (name, owner, created_on) VALUES (?, ?, ?)').run(name, owner, this.timestamp());
    });
  }

  createSchema(database: string, schema: string, options: { owner?: string } = {}): void {
    assertName('schema', schema);
    if (!this.databaseRow(database)) throw objectNotFound('Database', formatIdentifier(database));
    const owner = options.owner ?? SYSTEM_ROLE;
    tx(this.db, () => {
      this.createRole(owner);
      this.db.prepare('INSERT OR IGNORE INTO schemas (database_name, name, owner, created_on) VALUES (?, ?, ?, ?)').run(database, schema, owner, this.timestamp());
    });
  }

  /** Seeds a base table a semantic view can be built on. */
  createTable(database: string, schema: string, name: string, columns: TableColumn[], options: { owner?: string; orReplace?: boolean; comment?: string } = {}): void {
    assertName('table', name);
    if (!this.schemaRow(database, schema)) throw objectNotFound('Schema', formatQualifiedName(database, schema));
    if (columns.length === 0) throw invalidDefinition(`Table '${name}' must have at least one column.`);
    const seen = new Set<string>();
    const normalized = columns.map((column) => {
      assertName('column', column.name);
      if (seen.has(column.name)) throw invalidDefinition(`Duplicate column name '${column.name}' in table '${name}'.`);
      seen.add(column.name);
      const type = normalizeDataType(column.type);
      if (!type) throw invalidDefinition(`Unsupported data type '${column.type}' for column '${column.name}'.`);
      return { name: column.name, type };
    });
    const owner = options.owner ?? SYSTEM_ROLE;
    tx(this.db, () => {
      const existing = this.relationRow(database, schema, name);
      if (existing && !options.orReplace) throw alreadyExists(formatQualifiedName(database, schema, name));
      if (existing && existing.kind !== 'TABLE') throw wrongObjectType(formatQualifiedName(database, schema, name), existing.kind, 'TABLE');
      this.createRole(owner);
      this.db
        .prepare(
          `INSERT INTO relations (database_name, schema_name, name, kind, owner, comment, columns_json, view_query, created_on)
           VALUES (?, ?, ?, 'TABLE', ?, ?, ?, NULL, ?)
           ON CONFLICT (database_name, schema_name, name) DO UPDATE SET
             owner = excluded.owner, comment = excluded.comment, columns_json = excluded.columns_json, created_on = excluded.created_on`,
        )
        .run(database, schema, name, owner, options.comment ?? null, JSON.stringify(normalized), this.timestamp());
    });
  }

  /** The columns of a table or view, or null when the view's columns are not derivable. */
  describeTable(database: string, schema: string, name: string): ColumnInfo[] | null {
    const row = this.relationRow(database, schema, name);
    if (!row) throw objectNotFound('Object', formatQualifiedName(database, schema, name));
    return row.columns_json ? (JSON.parse(row.columns_json) as ColumnInfo[]) : null;
  }

  grant(role: string, privilege: EmulatorPrivilege, target: GrantTarget): void {
    if (!VALID_GRANTS[privilege]?.includes(target.type)) {
      throw invalidDefinition(`Privilege ${privilege} cannot be granted on ${target.type}.`);
    }
    if (!this.roleExists(role)) throw objectNotFound('Role', formatIdentifier(role));
    this.assertTargetExists(target);
    this.db.prepare('INSERT OR IGNORE INTO grants (role, privilege, object_type, object_key) VALUES (?, ?, ?, ?)').run(role, privilege, target.type, targetKey(target));
  }

  /** Returns whether a grant was removed. */
  revoke(role: string, privilege: EmulatorPrivilege, target: GrantTarget): boolean {
    const result = this.db
      .prepare('DELETE FROM grants WHERE role = ? AND privilege = ? AND object_type = ? AND object_key = ?')
      .run(role, privilege, target.type, targetKey(target));
    return result.changes > 0;
  }

  listGrants(role: string): Grant[] {
    const rows = this.db
      .prepare('SELECT privilege, object_type, object_key FROM grants WHERE role = ? ORDER BY object_type, object_key, privilege')
      .all(role) as { privilege: EmulatorPrivilege; object_type: GrantTarget['type']; object_key: string }[];
    return rows.map((row) => ({ role, privilege: row.privilege, target: targetFromRow(row.object_type, row.object_key) }));
  }

  /** Everything a role needs to push semantic views into one schema (what the seed grants). */
  grantFullAccess(role: string, scope: { database: string; schema: string; warehouse?: string }): void {
    tx(this.db, () => {
      this.createRole(role);
      this.grant(role, 'USAGE', { type: 'DATABASE', database: scope.database });
      this.grant(role, 'USAGE', { type: 'SCHEMA', database: scope.database, schema: scope.schema });
      this.grant(role, 'SELECT', { type: 'ALL TABLES IN SCHEMA', database: scope.database, schema: scope.schema });
      this.grant(role, 'CREATE SEMANTIC VIEW', { type: 'SCHEMA', database: scope.database, schema: scope.schema });
      this.grant(role, 'CREATE VIEW', { type: 'SCHEMA', database: scope.database, schema: scope.schema });
      if (scope.warehouse) this.grant(role, 'USAGE', { type: 'WAREHOUSE', warehouse: scope.warehouse });
    });
  }

  private seedCatalog(seed: EmulatorSeed): void {
    tx(this.db, () => {
      this.createRole(SYSTEM_ROLE);
      this.createRole(seed.role);
      this.createWarehouse(seed.warehouse);
      this.createDatabase(seed.database);
      this.createSchema(seed.database, seed.schema);
      this.grantFullAccess(seed.role, seed);
      // Dev-mode pushes create per-user schemas (`<schema>_DEV_<USER>`) in the database.
      this.grant(seed.role, 'CREATE SCHEMA', { type: 'DATABASE', database: seed.database });
      // The sample project's tables (unquoted names, so upper case), readable by the working role.
      const sampleSchema = SAMPLE_SCHEMA.toUpperCase();
      this.createSchema(seed.database, sampleSchema);
      for (const table of sampleTablesIn(WAREHOUSE_TYPES)) {
        const columns = table.columns.map((c) => ({ ...c, name: c.name.toUpperCase() }));
        this.createTable(seed.database, sampleSchema, table.name.toUpperCase(), columns, { comment: table.comment });
      }
      this.grant(seed.role, 'USAGE', { type: 'SCHEMA', database: seed.database, schema: sampleSchema });
      this.grant(seed.role, 'SELECT', { type: 'ALL TABLES IN SCHEMA', database: seed.database, schema: sampleSchema });
      this.setSetting('ddl_enabled', 'true');
      this.setSetting('quoted_identifiers_ignore_case', 'false');
      this.setSetting('seed', JSON.stringify(seed));
    });
  }

  private assertTargetExists(target: GrantTarget): void {
    switch (target.type) {
      case 'DATABASE':
        if (!this.databaseRow(target.database)) throw objectNotFound('Database', formatIdentifier(target.database));
        return;
      case 'SCHEMA':
      case 'ALL TABLES IN SCHEMA':
        if (!this.schemaRow(target.database, target.schema)) throw objectNotFound('Schema', formatQualifiedName(target.database, target.schema));
        return;
      case 'WAREHOUSE':
        if (!this.warehouseRow(target.warehouse)) throw objectNotFound('Warehouse', formatIdentifier(target.warehouse));
        return;
      case 'TABLE':
      case 'VIEW': {
        const row = this.relationRow(target.database, target.schema, target.name);
        if (!row) throw objectNotFound('Object', formatQualifiedName(target.database, target.schema, target.name));
        if (row.kind !== target.type) throw wrongObjectType(formatQualifiedName(target.database, target.schema, target.name), row.kind, target.type);
        return;
      }
    }
  }

  // ----- catalog reads

  roleExists(role: string): boolean {
    return this.db.prepare('SELECT 1 FROM roles WHERE name = ?').get(role) !== undefined;
  }

  warehouseRow(name: string): { owner: string } | undefined {
    return this.db.prepare('SELECT owner FROM warehouses WHERE name = ?').get(name) as { owner: string } | undefined;
  }

  databaseRow(name: string): { owner: string } | undefined {
    return this.db.prepare('SELECT owner FROM databases WHERE name = ?').get(name) as { owner: string } | undefined;
  }

  schemaRow(database: string, schema: string): { owner: string } | undefined {
    return this.db.prepare('SELECT owner FROM schemas WHERE database_name = ? AND name = ?').get(database, schema) as { owner: string } | undefined;
  }

  /** Every database with its owner and creation time, by name. */
  databaseRows(): { name: string; owner: string; created_on: string }[] {
    return this.db.prepare('SELECT name, owner, created_on FROM databases ORDER BY name').all() as { name: string; owner: string; created_on: string }[];
  }

  /** The schemas of one database (or of every database), by database and name. */
  schemaRows(database: string | null): { database_name: string; name: string; owner: string; created_on: string }[] {
    return this.db
      .prepare('SELECT database_name, name, owner, created_on FROM schemas WHERE @database IS NULL OR database_name = @database ORDER BY database_name, name')
      .all({ database }) as { database_name: string; name: string; owner: string; created_on: string }[];
  }

  relationRow(database: string, schema: string, name: string): RelationRow | undefined {
    return this.db.prepare('SELECT * FROM relations WHERE database_name = ? AND schema_name = ? AND name = ?').get(database, schema, name) as RelationRow | undefined;
  }

  semanticViewRow(object: ObjectName): SemanticViewRow | undefined {
    return this.db
      .prepare('SELECT * FROM semantic_views WHERE database_name = ? AND schema_name = ? AND name = ?')
      .get(object.database, object.schema, object.name) as SemanticViewRow | undefined;
  }

  hasGrant(role: string, privilege: EmulatorPrivilege, type: GrantTarget['type'], objectKey: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM grants WHERE role = ? AND privilege = ? AND object_type = ? AND object_key = ?').get(role, privilege, type, objectKey) !==
      undefined
    );
  }

  // ----- privilege checks (an owner holds every privilege on its object)

  requireDatabase(context: SessionContext, database: string): void {
    const row = this.databaseRow(database);
    if (!row) throw objectNotFound('Database', formatIdentifier(database));
    if (row.owner !== context.role && !this.hasGrant(context.role, 'USAGE', 'DATABASE', key(database))) {
      throw this.denied(context, 'USAGE', 'DATABASE', formatIdentifier(database), database);
    }
  }

  requireSchema(context: SessionContext, database: string, schema: string): void {
    this.requireDatabase(context, database);
    const row = this.schemaRow(database, schema);
    if (!row) throw objectNotFound('Schema', formatQualifiedName(database, schema));
    if (row.owner !== context.role && !this.hasGrant(context.role, 'USAGE', 'SCHEMA', key(database, schema))) {
      throw this.denied(context, 'USAGE', 'SCHEMA', formatQualifiedName(database, schema), schema);
    }
  }

  requireSchemaPrivilege(context: SessionContext, database: string, schema: string, privilege: 'CREATE SEMANTIC VIEW' | 'CREATE VIEW'): void {
    const row = this.schemaRow(database, schema);
    if (row?.owner !== context.role && !this.hasGrant(context.role, privilege, 'SCHEMA', key(database, schema))) {
      throw this.denied(context, privilege, 'SCHEMA', formatQualifiedName(database, schema), schema);
    }
  }

  requireWarehouse(context: SessionContext): void {
    if (!context.warehouse) throw noActiveWarehouse();
    const row = this.warehouseRow(context.warehouse);
    if (!row) throw noActiveWarehouse();
    if (row.owner !== context.role && !this.hasGrant(context.role, 'USAGE', 'WAREHOUSE', key(context.warehouse))) {
      throw this.denied(context, 'USAGE', 'WAREHOUSE', formatIdentifier(context.warehouse), context.warehouse);
    }
  }

  /**
   * Resolves a table or view a statement reads, checking usage on its schema and SELECT on it.
   * `missingKind` is how the answer names a missing one (CREATE SEMANTIC VIEW says `Table`).
   */
  requireReadableRelation(context: SessionContext, object: ObjectName, missingKind: 'Object' | 'Table' = 'Object'): RelationRow {
    this.requireSchema(context, object.database, object.schema);
    const row = this.relationRow(object.database, object.schema, object.name);
    const display = formatQualifiedName(object.database, object.schema, object.name);
    if (!row) throw objectNotFound(missingKind, display);
    const readable =
      row.owner === context.role ||
      this.hasGrant(context.role, 'SELECT', row.kind, key(object.database, object.schema, object.name)) ||
      this.hasGrant(context.role, 'SELECT', 'ALL TABLES IN SCHEMA', key(object.database, object.schema));
    if (!readable) throw this.denied(context, 'SELECT', row.kind, display, object.name);
    return row;
  }

  requireOwnership(context: SessionContext, owner: string, objectType: string, object: ObjectName): void {
    if (owner !== context.role) {
      throw this.denied(context, 'OWNERSHIP', objectType, formatQualifiedName(object.database, object.schema, object.name), object.name);
    }
  }

  denied(context: SessionContext, privilege: string, objectType: string, objectName: string, shortName: string): WarehouseError {
    const missing: MissingPrivilege = { role: context.role, privilege, objectType, objectName };
    return insufficientPrivileges(missing, shortName);
  }

  requireDdl(): void {
    if (!this.isDdlEnabled()) throw ddlDisabled();
  }

  // ----- names

  /** The stored name of an identifier, under the account's QUOTED_IDENTIFIERS_IGNORE_CASE. */
  ident(identifier: Identifier): string {
    return resolveIdentifier(identifier.text, identifier.quoted, this.quotedIdentifiersIgnoreCase());
  }

  /** Completes a 1-, 2- or 3-part name with the session's current database and schema. */
  objectName(name: QualifiedName, context: SessionContext, action: string): ObjectName {
    const parts = name.parts.map((part) => this.ident(part));
    if (parts.length === 3) return { database: parts[0], schema: parts[1], name: parts[2] };
    if (!context.database) throw noCurrent('database', action);
    if (parts.length === 2) return { database: context.database, schema: parts[0], name: parts[1] };
    if (!context.schema) throw noCurrent('schema', action);
    return { database: context.database, schema: context.schema, name: parts[0] };
  }

  // ----- writes of statements (each one transaction)

  /** Creates or replaces a semantic view, owned by `owner`. */
  storeSemanticView(target: ObjectName, owner: string, definition: SemanticViewDefinition): void {
    tx(this.db, () => {
      this.db.prepare('DELETE FROM semantic_views WHERE database_name = ? AND schema_name = ? AND name = ?').run(target.database, target.schema, target.name);
      this.db
        .prepare(
          'INSERT INTO semantic_views (database_name, schema_name, name, owner, comment, definition_json, created_on) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(target.database, target.schema, target.name, owner, definition.comment, JSON.stringify(definition), this.timestamp());
    });
  }

  /** Creates or replaces a view, owned by `owner`; `columns` null when they are not derivable. */
  storeView(target: ObjectName, owner: string, view: { comment: string | null; columns: ColumnInfo[] | null; queryText: string }): void {
    tx(this.db, () => {
      this.db
        .prepare(
          `INSERT INTO relations (database_name, schema_name, name, kind, owner, comment, columns_json, view_query, created_on)
           VALUES (?, ?, ?, 'VIEW', ?, ?, ?, ?, ?)
           ON CONFLICT (database_name, schema_name, name) DO UPDATE SET
             owner = excluded.owner, comment = excluded.comment, columns_json = excluded.columns_json,
             view_query = excluded.view_query, created_on = excluded.created_on`,
        )
        .run(target.database, target.schema, target.name, owner, view.comment, view.columns ? JSON.stringify(view.columns) : null, view.queryText, this.timestamp());
    });
  }

  deleteSemanticView(target: ObjectName): void {
    this.db.prepare('DELETE FROM semantic_views WHERE database_name = ? AND schema_name = ? AND name = ?').run(target.database, target.schema, target.name);
  }

  deleteRelation(target: ObjectName): void {
    this.db.prepare('DELETE FROM relations WHERE database_name = ? AND schema_name = ? AND name = ?').run(target.database, target.schema, target.name);
  }

  /** The semantic view rows of one database, one schema or the account, ordered by name. */
  semanticViewRows(scope: { database?: string; schema?: string }): SemanticViewRow[] {
    let where = '';
    const params: string[] = [];
    if (scope.database !== undefined && scope.schema !== undefined) {
      where = 'WHERE v.database_name = ? AND v.schema_name = ?';
      params.push(scope.database, scope.schema);
    } else if (scope.database !== undefined) {
      where = 'WHERE v.database_name = ?';
      params.push(scope.database);
    }
    return this.db
      .prepare(`SELECT v.* FROM semantic_views v ${where} ORDER BY v.database_name, v.schema_name, v.name`)
      .all(...params) as SemanticViewRow[];
  }

  protected timestamp(): string {
    return this.now().toISOString();
  }
}
