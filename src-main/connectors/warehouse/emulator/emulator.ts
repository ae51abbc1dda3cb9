/**
 * The local warehouse: a catalog of databases, schemas, tables, helper views and semantic views
 * kept in its own SQLite file, executing the SQL Drydock sends to a warehouse and enforcing the
 * privileges and settings a real account would (DDL enabled, usage, select, create privileges,
 * ownership, the quoted-identifiers-ignore-case setting), so every failure path can be rehearsed
 * offline. Privileges and settings are administered through methods, not SQL.
 */
import { SAMPLE_SCHEMA, SAMPLE_TABLES, WAREHOUSE_TYPES } from '../../sample-tables';
import { openDatabase, tx, type Db } from '../../../platform/db/connection';
import { formatIdentifier, formatQualifiedName, MAX_IDENTIFIER_LENGTH, resolveIdentifier } from '../identifiers';
import { WarehouseError, WarehouseErrorCodes, type DescribeRow, type MissingPrivilege } from '../types';
import { normalizeDataType } from './data-types';
import {
  parseQualifiedNameText,
  parseStatements,
  type CreateSemanticViewStatement,
  type CreateViewStatement,
  type DescribeSemanticViewStatement,
  type DropStatement,
  type GetDdlStatement,
  type Identifier,
  type QualifiedName,
  type ShowSemanticViewsStatement,
  type Statement,
  type UseStatement,
} from './ddl-parser';
import { describeRows, renderSemanticViewDdl, type SemanticViewDefinition } from './definition';
import {
  alreadyExists,
  ddlDisabled,
  insufficientPrivileges,
  invalidDefinition,
  noActiveWarehouse,
  noCurrent,
  objectNotFound,
  statementCount,
  syntaxErrorAt,
  unsupported,
  wrongObjectType,
} from './errors';
import { WAREHOUSE_EMULATOR_MIGRATIONS } from './migrations';
import { buildSemanticView, type BaseRelation, type ColumnInfo } from './semantic-validator';
import { analyzeViewQuery } from './view-query';

export interface EmulatorSeed {
  /** The role Drydock connects with; it receives every privilege on the seeded schema. */
  role: string;
  warehouse: string;
  database: string;
  schema: string;
}

export const DEFAULT_EMULATOR_SEED: EmulatorSeed = { role: 'DRYDOCK', warehouse: 'COMPUTE_WH', database: 'ANALYTICS', schema: 'PUBLIC' };

/**
 * Owner of seeded objects. The working role gets grants rather than ownership, so that revoking a
 * grant really takes the privilege away (an owner always keeps every privilege).
 */
export const SYSTEM_ROLE = 'SYSADMIN';

export interface WarehouseEmulatorOptions {
  /** The SQLite file, e.g. `<dataDir>/emulators/warehouse.sqlite`; `:memory:` for a throwaway one. */
  file: string;
  /** Objects created the first time the file is created. */
  seed?: Partial<EmulatorSeed>;
  now?: () => Date;
}

export type EmulatorPrivilege = 'USAGE' | 'SELECT' | 'CREATE SEMANTIC VIEW' | 'CREATE VIEW';

export type GrantTarget =
  | { type: 'DATABASE'; database: string }
  | { type: 'SCHEMA'; database: string; schema: string }
  | { type: 'WAREHOUSE'; warehouse: string }
  | { type: 'TABLE' | 'VIEW'; database: string; schema: string; name: string }
  /** SELECT on every table and view of the schema, present and future. */
  | { type: 'ALL TABLES IN SCHEMA'; database: string; schema: string };

export interface Grant {
  role: string;
  privilege: EmulatorPrivilege;
  target: GrantTarget;
}

export interface TableColumn {
  name: string;
  /** A Snowflake type: NUMBER(38,0), VARCHAR, INT, DATE, TIMESTAMP_NTZ, BOOLEAN, FLOAT, ... */
  type: string;
}

/** Who is running a statement and against what defaults (Snowflake's session context). */
export interface SessionContext {
  role: string;
  warehouse: string | null;
  database: string | null;
  schema: string | null;
}

export interface StatementResult {
  rows: Record<string, unknown>[];
}

const VALID_GRANTS: Record<EmulatorPrivilege, GrantTarget['type'][]> = {
  USAGE: ['DATABASE', 'SCHEMA', 'WAREHOUSE'],
  SELECT: ['TABLE', 'VIEW', 'ALL TABLES IN SCHEMA'],
  'CREATE SEMANTIC VIEW': ['SCHEMA'],
  'CREATE VIEW': ['SCHEMA'],
};

interface RelationRow {
  database_name: string;
  schema_name: string;
  name: string;
  kind: 'TABLE' | 'VIEW';
  owner: string;
  comment: string | null;
  columns_json: string | null;
  view_query: string | null;
  created_on: string;
}

interface SemanticViewRow {
  database_name: string;
  schema_name: string;
  name: string;
  owner: string;
  comment: string | null;
  definition_json: string;
  created_on: string;
}

interface ObjectName {
  database: string;
  schema: string;
  name: string;
}

const key = (...parts: string[]): string => JSON.stringify(parts);

function targetKey(target: GrantTarget): string {
  switch (target.type) {
    case 'DATABASE':
      return key(target.database);
    case 'SCHEMA':
    case 'ALL TABLES IN SCHEMA':
      return key(target.database, target.schema);
    case 'WAREHOUSE':
      return key(target.warehouse);
    case 'TABLE':
    case 'VIEW':
      return key(target.database, target.schema, target.name);
  }
}

function targetFromRow(type: GrantTarget['type'], objectKey: string): GrantTarget {
  const parts = JSON.parse(objectKey) as string[];
  switch (type) {
    case 'DATABASE':
      return { type, database: parts[0] };
    case 'SCHEMA':
    case 'ALL TABLES IN SCHEMA':
      return { type, database: parts[0], schema: parts[1] };
    case 'WAREHOUSE':
      return { type, warehouse: parts[0] };
    case 'TABLE':
    case 'VIEW':
      return { type, database: parts[0], schema: parts[1], name: parts[2] };
  }
}

function assertName(what: string, name: string): void {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_IDENTIFIER_LENGTH) {
    throw new WarehouseError(WarehouseErrorCodes.INVALID_IDENTIFIER, `Invalid ${what} name ${JSON.stringify(name)}: it must have 1 to ${MAX_IDENTIFIER_LENGTH} characters.`);
  }
}

/** Snowflake LIKE: case-insensitive, `%` any run, `_` one character, backslash escapes. */
function likeToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i];
    if (ch === '\\' && i + 1 < pattern.length) source += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (ch === '%') source += '[\\s\\S]*';
    else if (ch === '_') source += '[\\s\\S]';
    else source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'i');
}

export class WarehouseEmulator {
  private readonly db: Db;
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
      // The sample project's tables (unquoted names, so upper case), readable by the working role.
      const sampleSchema = SAMPLE_SCHEMA.toUpperCase();
      this.createSchema(seed.database, sampleSchema);
      for (const table of SAMPLE_TABLES) {
        const columns = table.columns.map((c) => ({ name: c.name.toUpperCase(), type: WAREHOUSE_TYPES[c.type] }));
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

  private roleExists(role: string): boolean {
    return this.db.prepare('SELECT 1 FROM roles WHERE name = ?').get(role) !== undefined;
  }

  private warehouseRow(name: string): { owner: string } | undefined {
    return this.db.prepare('SELECT owner FROM warehouses WHERE name = ?').get(name) as { owner: string } | undefined;
  }

  private databaseRow(name: string): { owner: string } | undefined {
    return this.db.prepare('SELECT owner FROM databases WHERE name = ?').get(name) as { owner: string } | undefined;
  }

  private schemaRow(database: string, schema: string): { owner: string } | undefined {
    return this.db.prepare('SELECT owner FROM schemas WHERE database_name = ? AND name = ?').get(database, schema) as { owner: string } | undefined;
  }

  private relationRow(database: string, schema: string, name: string): RelationRow | undefined {
    return this.db.prepare('SELECT * FROM relations WHERE database_name = ? AND schema_name = ? AND name = ?').get(database, schema, name) as RelationRow | undefined;
  }

  private semanticViewRow(object: ObjectName): SemanticViewRow | undefined {
    return this.db
      .prepare('SELECT * FROM semantic_views WHERE database_name = ? AND schema_name = ? AND name = ?')
      .get(object.database, object.schema, object.name) as SemanticViewRow | undefined;
  }

  private hasGrant(role: string, privilege: EmulatorPrivilege, type: GrantTarget['type'], objectKey: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM grants WHERE role = ? AND privilege = ? AND object_type = ? AND object_key = ?').get(role, privilege, type, objectKey) !==
      undefined
    );
  }

  // ----- privilege checks (an owner holds every privilege on its object)

  private requireDatabase(context: SessionContext, database: string): void {
    const row = this.databaseRow(database);
    if (!row) throw objectNotFound('Database', formatIdentifier(database));
    if (row.owner !== context.role && !this.hasGrant(context.role, 'USAGE', 'DATABASE', key(database))) {
      throw this.denied(context, 'USAGE', 'DATABASE', formatIdentifier(database), database);
    }
  }

  private requireSchema(context: SessionContext, database: string, schema: string): void {
    this.requireDatabase(context, database);
    const row = this.schemaRow(database, schema);
    if (!row) throw objectNotFound('Schema', formatQualifiedName(database, schema));
    if (row.owner !== context.role && !this.hasGrant(context.role, 'USAGE', 'SCHEMA', key(database, schema))) {
      throw this.denied(context, 'USAGE', 'SCHEMA', formatQualifiedName(database, schema), schema);
    }
  }

  private requireSchemaPrivilege(context: SessionContext, database: string, schema: string, privilege: 'CREATE SEMANTIC VIEW' | 'CREATE VIEW'): void {
    const row = this.schemaRow(database, schema);
    if (row?.owner !== context.role && !this.hasGrant(context.role, privilege, 'SCHEMA', key(database, schema))) {
      throw this.denied(context, privilege, 'SCHEMA', formatQualifiedName(database, schema), schema);
    }
  }

  private requireWarehouse(context: SessionContext): void {
    if (!context.warehouse) throw noActiveWarehouse();
    const row = this.warehouseRow(context.warehouse);
    if (!row) throw noActiveWarehouse();
    if (row.owner !== context.role && !this.hasGrant(context.role, 'USAGE', 'WAREHOUSE', key(context.warehouse))) {
      throw this.denied(context, 'USAGE', 'WAREHOUSE', formatIdentifier(context.warehouse), context.warehouse);
    }
  }

  /** Resolves a table or view a statement reads, checking usage on its schema and SELECT on it. */
  private requireReadableRelation(context: SessionContext, object: ObjectName): RelationRow {
    this.requireSchema(context, object.database, object.schema);
    const row = this.relationRow(object.database, object.schema, object.name);
    const display = formatQualifiedName(object.database, object.schema, object.name);
    if (!row) throw objectNotFound('Object', display);
    const readable =
      row.owner === context.role ||
      this.hasGrant(context.role, 'SELECT', row.kind, key(object.database, object.schema, object.name)) ||
      this.hasGrant(context.role, 'SELECT', 'ALL TABLES IN SCHEMA', key(object.database, object.schema));
    if (!readable) throw this.denied(context, 'SELECT', row.kind, display, object.name);
    return row;
  }

  private requireOwnership(context: SessionContext, owner: string, objectType: string, object: ObjectName): void {
    if (owner !== context.role) {
      throw this.denied(context, 'OWNERSHIP', objectType, formatQualifiedName(object.database, object.schema, object.name), object.name);
    }
  }

  private denied(context: SessionContext, privilege: string, objectType: string, objectName: string, shortName: string): WarehouseError {
    const missing: MissingPrivilege = { role: context.role, privilege, objectType, objectName };
    return insufficientPrivileges(missing, shortName);
  }

  private requireDdl(): void {
    if (!this.isDdlEnabled()) throw ddlDisabled();
  }

  // ----- SQL

  /**
   * Validates a session context (the role must exist), as a Snowflake login does. The context's
   * database, schema and warehouse are checked when statements use them.
   */
  openSession(context: Partial<SessionContext> = {}): EmulatorSession {
    const defaults = this.defaultContext();
    const full: SessionContext = {
      role: context.role ?? defaults.role,
      warehouse: context.warehouse === undefined ? defaults.warehouse : context.warehouse,
      database: context.database === undefined ? defaults.database : context.database,
      schema: context.schema === undefined ? defaults.schema : context.schema,
    };
    if (!this.roleExists(full.role)) {
      throw new WarehouseError(
        WarehouseErrorCodes.AUTHENTICATION_FAILED,
        `Role '${full.role}' specified in the connect string does not exist or not authorized. Contact your local system administrator, or attempt to login with another role, e.g. PUBLIC.`,
        { sqlState: '08004', vendorCode: '390189' },
      );
    }
    return new EmulatorSession(this, full);
  }

  /** Runs exactly one statement in `context` (a USE statement updates `context`). */
  execute(sql: string, context: SessionContext): StatementResult {
    const statements = parseStatements(sql);
    if (statements.length === 0) {
      throw new WarehouseError(WarehouseErrorCodes.SYNTAX_ERROR, 'Empty SQL statement.', { sqlState: '42000', vendorCode: '000900' });
    }
    if (statements.length > 1) throw statementCount(statements.length);
    return this.run(statements[0].statement, context);
  }

  private run(statement: Statement, context: SessionContext): StatementResult {
    switch (statement.type) {
      case 'create_semantic_view':
        return this.createSemanticView(statement, context);
      case 'create_view':
        return this.createView(statement, context);
      case 'drop_semantic_view':
        return this.dropSemanticView(statement, context);
      case 'drop_view':
        return this.dropView(statement, context);
      case 'describe_semantic_view':
        return { rows: this.describe(statement, context) as unknown as Record<string, unknown>[] };
      case 'show_semantic_views':
        return { rows: this.show(statement, context) };
      case 'get_ddl':
        return { rows: this.getDdl(statement, context) };
      case 'use':
        return this.use(statement, context);
    }
  }

  private ident(identifier: Identifier): string {
    return resolveIdentifier(identifier.text, identifier.quoted, this.quotedIdentifiersIgnoreCase());
  }

  /** Completes a 1-, 2- or 3-part name with the session's current database and schema. */
  private objectName(name: QualifiedName, context: SessionContext, action: string): ObjectName {
    const parts = name.parts.map((part) => this.ident(part));
    if (parts.length === 3) return { database: parts[0], schema: parts[1], name: parts[2] };
    if (!context.database) throw noCurrent('database', action);
    if (parts.length === 2) return { database: context.database, schema: parts[0], name: parts[1] };
    if (!context.schema) throw noCurrent('schema', action);
    return { database: context.database, schema: context.schema, name: parts[0] };
  }

  private createSemanticView(statement: CreateSemanticViewStatement, context: SessionContext): StatementResult {
    this.requireDdl();
    const target = this.objectName(statement.name, context, 'CREATE SEMANTIC VIEW');
    this.requireSchema(context, target.database, target.schema);
    this.requireSchemaPrivilege(context, target.database, target.schema, 'CREATE SEMANTIC VIEW');
    this.requireWarehouse(context);
    const existing = this.semanticViewRow(target);
    if (existing) {
      if (statement.ifNotExists) return status(`${formatIdentifier(target.name)} already exists, statement succeeded.`);
      if (!statement.orReplace) throw alreadyExists(formatIdentifier(target.name));
      this.requireOwnership(context, existing.owner, 'SEMANTIC VIEW', target);
    }
    const definition = buildSemanticView(statement, target, {
      resolveIdentifier: (identifier) => this.ident(identifier),
      baseRelation: (name): BaseRelation => {
        const object = this.objectName(name, context, 'CREATE SEMANTIC VIEW');
        const row = this.requireReadableRelation(context, object);
        return { ...object, columns: row.columns_json ? (JSON.parse(row.columns_json) as ColumnInfo[]) : null };
      },
    });
    tx(this.db, () => {
      this.db.prepare('DELETE FROM semantic_views WHERE database_name = ? AND schema_name = ? AND name = ?').run(target.database, target.schema, target.name);
      this.db
        .prepare(
          'INSERT INTO semantic_views (database_name, schema_name, name, owner, comment, definition_json, created_on) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(target.database, target.schema, target.name, context.role, definition.comment, JSON.stringify(definition), this.timestamp());
    });
    return status(`Semantic view ${formatIdentifier(target.name)} successfully created.`);
  }

  private createView(statement: CreateViewStatement, context: SessionContext): StatementResult {
    this.requireDdl();
    const target = this.objectName(statement.name, context, 'CREATE VIEW');
    this.requireSchema(context, target.database, target.schema);
    this.requireSchemaPrivilege(context, target.database, target.schema, 'CREATE VIEW');
    this.requireWarehouse(context);
    const existing = this.relationRow(target.database, target.schema, target.name);
    if (existing) {
      const display = formatQualifiedName(target.database, target.schema, target.name);
      if (existing.kind !== 'VIEW') {
        if (statement.ifNotExists) return status(`${formatIdentifier(target.name)} already exists, statement succeeded.`);
        throw statement.orReplace ? wrongObjectType(display, existing.kind, 'VIEW') : alreadyExists(formatIdentifier(target.name));
      }
      if (statement.ifNotExists) return status(`${formatIdentifier(target.name)} already exists, statement succeeded.`);
      if (!statement.orReplace) throw alreadyExists(formatIdentifier(target.name));
      this.requireOwnership(context, existing.owner, 'VIEW', target);
    }

    const analysis = analyzeViewQuery(statement.queryTokens);
    const read = new Map<string, { object: ObjectName; columns: ColumnInfo[] | null }>();
    for (const parts of analysis.tableRefs) {
      const object = this.objectName({ parts, pos: parts[0].pos }, context, 'CREATE VIEW');
      const row = this.requireReadableRelation(context, object);
      read.set(key(object.database, object.schema, object.name), { object, columns: row.columns_json ? (JSON.parse(row.columns_json) as ColumnInfo[]) : null });
    }
    let columns = this.viewColumns(analysis, context, read);
    if (statement.columns) {
      const declared = statement.columns.map((column) => this.ident(column));
      if (columns && columns.length !== declared.length) {
        throw invalidDefinition(`View definition for '${formatQualifiedName(target.database, target.schema, target.name)}' declared ${declared.length} column(s), but view query produces ${columns.length} column(s).`);
      }
      columns = declared.map((name, index) => ({ name, type: columns?.[index]?.type ?? null }));
    }
    tx(this.db, () => {
      this.db
        .prepare(
          `INSERT INTO relations (database_name, schema_name, name, kind, owner, comment, columns_json, view_query, created_on)
           VALUES (?, ?, ?, 'VIEW', ?, ?, ?, ?, ?)
           ON CONFLICT (database_name, schema_name, name) DO UPDATE SET
             owner = excluded.owner, comment = excluded.comment, columns_json = excluded.columns_json,
             view_query = excluded.view_query, created_on = excluded.created_on`,
        )
        .run(target.database, target.schema, target.name, context.role, statement.comment, columns ? JSON.stringify(columns) : null, statement.queryText, this.timestamp());
    });
    return status(`View ${formatIdentifier(target.name)} successfully created.`);
  }

  /** The output columns of a view query when they can be derived, else null. */
  private viewColumns(
    analysis: ReturnType<typeof analyzeViewQuery>,
    context: SessionContext,
    read: Map<string, { object: ObjectName; columns: ColumnInfo[] | null }>,
  ): ColumnInfo[] | null {
    if (!analysis.outputs) return null;
    const from = analysis.topLevelFrom.map((item) => {
      const object = this.objectName({ parts: item.table, pos: item.table[0].pos }, context, 'CREATE VIEW');
      const columns = read.get(key(object.database, object.schema, object.name))?.columns ?? null;
      return { qualifier: this.ident(item.alias ?? item.table[item.table.length - 1]), columns };
    });
    const sourceColumns = (qualifier: string | null): ColumnInfo[] | null => {
      const candidates = qualifier === null ? from : from.filter((item) => item.qualifier === qualifier);
      if (candidates.length !== 1) return null;
      return candidates[0].columns;
    };
    const result: ColumnInfo[] = [];
    for (const output of analysis.outputs) {
      if (output.kind === 'star') {
        const columns = sourceColumns(output.qualifier ? this.ident(output.qualifier) : null);
        if (!columns) return null;
        result.push(...columns);
        continue;
      }
      let type: string | null = null;
      if (output.source && output.source.length <= 2) {
        const qualifier = output.source.length === 2 ? this.ident(output.source[0]) : null;
        const column = this.ident(output.source[output.source.length - 1]);
        type = sourceColumns(qualifier)?.find((candidate) => candidate.name === column)?.type ?? null;
      }
      result.push({ name: this.ident(output.name), type });
    }
    const names = new Set(result.map((column) => column.name));
    return names.size === result.length ? result : null;
  }

  private dropSemanticView(statement: DropStatement, context: SessionContext): StatementResult {
    this.requireDdl();
    const target = this.objectName(statement.name, context, 'DROP SEMANTIC VIEW');
    this.requireSchema(context, target.database, target.schema);
    const existing = this.semanticViewRow(target);
    if (!existing) {
      if (statement.ifExists) return status(`Drop statement executed successfully (${formatIdentifier(target.name)} already dropped).`);
      throw objectNotFound('Semantic view', formatQualifiedName(target.database, target.schema, target.name));
    }
    this.requireOwnership(context, existing.owner, 'SEMANTIC VIEW', target);
    this.db.prepare('DELETE FROM semantic_views WHERE database_name = ? AND schema_name = ? AND name = ?').run(target.database, target.schema, target.name);
    return status(`${formatIdentifier(target.name)} successfully dropped.`);
  }

  private dropView(statement: DropStatement, context: SessionContext): StatementResult {
    this.requireDdl();
    const target = this.objectName(statement.name, context, 'DROP VIEW');
    this.requireSchema(context, target.database, target.schema);
    const existing = this.relationRow(target.database, target.schema, target.name);
    const display = formatQualifiedName(target.database, target.schema, target.name);
    if (!existing) {
      if (statement.ifExists) return status(`Drop statement executed successfully (${formatIdentifier(target.name)} already dropped).`);
      throw objectNotFound('View', display);
    }
    if (existing.kind !== 'VIEW') throw wrongObjectType(display, existing.kind, 'VIEW');
    this.requireOwnership(context, existing.owner, 'VIEW', target);
    this.db.prepare('DELETE FROM relations WHERE database_name = ? AND schema_name = ? AND name = ?').run(target.database, target.schema, target.name);
    return status(`${formatIdentifier(target.name)} successfully dropped.`);
  }

  private loadSemanticView(target: ObjectName, context: SessionContext): SemanticViewDefinition {
    this.requireSchema(context, target.database, target.schema);
    const row = this.semanticViewRow(target);
    if (!row) throw objectNotFound('Semantic view', formatQualifiedName(target.database, target.schema, target.name));
    return JSON.parse(row.definition_json) as SemanticViewDefinition;
  }

  private describe(statement: DescribeSemanticViewStatement, context: SessionContext): DescribeRow[] {
    const target = this.objectName(statement.name, context, 'DESCRIBE SEMANTIC VIEW');
    return describeRows(this.loadSemanticView(target, context));
  }

  private show(statement: ShowSemanticViewsStatement, context: SessionContext): Record<string, unknown>[] {
    let scope = statement.scope;
    if (!scope) scope = context.database ? { kind: 'DATABASE', name: null } : { kind: 'ACCOUNT' };
    let where = '';
    const params: string[] = [];
    if (scope.kind === 'DATABASE') {
      const database = scope.name ? this.databaseFrom(scope.name) : context.database;
      if (!database) throw noCurrent('database', 'SHOW SEMANTIC VIEWS');
      this.requireDatabase(context, database);
      where = 'WHERE v.database_name = ?';
      params.push(database);
    } else if (scope.kind === 'SCHEMA') {
      let database: string | null;
      let schema: string | null;
      if (scope.name) {
        const parts = scope.name.parts.map((part) => this.ident(part));
        if (parts.length > 2) throw syntaxErrorAt(scope.name.parts[2].pos, scope.name.parts[2].text);
        database = parts.length === 2 ? parts[0] : context.database;
        schema = parts[parts.length - 1];
      } else {
        database = context.database;
        schema = context.schema;
      }
      if (!database) throw noCurrent('database', 'SHOW SEMANTIC VIEWS');
      if (!schema) throw noCurrent('schema', 'SHOW SEMANTIC VIEWS');
      this.requireSchema(context, database, schema);
      where = 'WHERE v.database_name = ? AND v.schema_name = ?';
      params.push(database, schema);
    }
    const rows = this.db
      .prepare(
        `SELECT v.* FROM semantic_views v ${where} ORDER BY v.database_name, v.schema_name, v.name`,
      )
      .all(...params) as SemanticViewRow[];
    const like = statement.like === null ? null : likeToRegExp(statement.like);
    // Only views in schemas the role may use are listed, as SHOW lists only what the role can see.
    let visible = rows.filter((row) => (like ? like.test(row.name) : true) && this.canUseSchema(context, row.database_name, row.schema_name));
    if (statement.startsWith !== null) visible = visible.filter((row) => row.name.startsWith(statement.startsWith!));
    if (statement.limitFrom !== null) visible = visible.filter((row) => row.name >= statement.limitFrom!);
    if (statement.limit !== null) visible = visible.slice(0, statement.limit);
    return visible.map((row) =>
      statement.terse
        ? { created_on: row.created_on, name: row.name, kind: 'SEMANTIC_VIEW', database_name: row.database_name, schema_name: row.schema_name }
        : {
            created_on: row.created_on,
            name: row.name,
            database_name: row.database_name,
            schema_name: row.schema_name,
            comment: row.comment,
            owner: row.owner,
            owner_role_type: 'ROLE',
            extension: null,
          },
    );
  }

  private canUseSchema(context: SessionContext, database: string, schema: string): boolean {
    const db = this.databaseRow(database);
    const sc = this.schemaRow(database, schema);
    if (!db || !sc) return false;
    const usesDatabase = db.owner === context.role || this.hasGrant(context.role, 'USAGE', 'DATABASE', key(database));
    const usesSchema = sc.owner === context.role || this.hasGrant(context.role, 'USAGE', 'SCHEMA', key(database, schema));
    return usesDatabase && usesSchema;
  }

  private databaseFrom(name: QualifiedName): string {
    if (name.parts.length > 1) throw syntaxErrorAt(name.parts[1].pos, name.parts[1].text);
    return this.ident(name.parts[0]);
  }

  private getDdl(statement: GetDdlStatement, context: SessionContext): Record<string, unknown>[] {
    const objectType = statement.objectType.toUpperCase().replace(/\s+/g, '_');
    const name = parseQualifiedNameText(statement.objectName);
    const column = statement.columnAlias ? this.ident(statement.columnAlias) : statement.columnName;
    if (objectType === 'SEMANTIC_VIEW') {
      const target = this.objectName(name, context, 'GET_DDL');
      const definition = this.loadSemanticView(target, context);
      return [{ [column]: renderSemanticViewDdl(definition, { fullyQualified: statement.fullyQualified }) }];
    }
    if (objectType === 'VIEW') {
      const target = this.objectName(name, context, 'GET_DDL');
      this.requireSchema(context, target.database, target.schema);
      const row = this.relationRow(target.database, target.schema, target.name);
      if (!row || row.kind !== 'VIEW') throw objectNotFound('View', formatQualifiedName(target.database, target.schema, target.name));
      const viewName = statement.fullyQualified ? formatQualifiedName(target.database, target.schema, target.name) : formatIdentifier(target.name);
      return [{ [column]: `create or replace view ${viewName} as ${row.view_query};` }];
    }
    throw unsupported(`GET_DDL for object type '${statement.objectType}' (only 'SEMANTIC_VIEW' and 'VIEW').`);
  }

  private use(statement: UseStatement, context: SessionContext): StatementResult {
    const parts = statement.name.parts.map((part) => this.ident(part));
    switch (statement.objectKind) {
      case 'ROLE':
        if (!this.roleExists(parts[0])) throw objectNotFound('Role', formatIdentifier(parts[0]));
        context.role = parts[0];
        break;
      case 'WAREHOUSE': {
        const row = this.warehouseRow(parts[0]);
        if (!row) throw objectNotFound('Warehouse', formatIdentifier(parts[0]));
        if (row.owner !== context.role && !this.hasGrant(context.role, 'USAGE', 'WAREHOUSE', key(parts[0]))) {
          throw this.denied(context, 'USAGE', 'WAREHOUSE', formatIdentifier(parts[0]), parts[0]);
        }
        context.warehouse = parts[0];
        break;
      }
      case 'DATABASE':
        this.requireDatabase(context, parts[0]);
        context.database = parts[0];
        context.schema = 'PUBLIC';
        if (!this.schemaRow(parts[0], 'PUBLIC')) context.schema = null;
        break;
      case 'SCHEMA': {
        const database = parts.length === 2 ? parts[0] : context.database;
        if (!database) throw noCurrent('database', 'USE SCHEMA');
        this.requireSchema(context, database, parts[parts.length - 1]);
        context.database = database;
        context.schema = parts[parts.length - 1];
        break;
      }
    }
    return status('Statement executed successfully.');
  }

  private timestamp(): string {
    return this.now().toISOString();
  }
}

function status(message: string): StatementResult {
  return { rows: [{ status: message }] };
}

/** One connection's worth of context (role, warehouse, current database and schema). */
export class EmulatorSession {
  constructor(
    private readonly emulator: WarehouseEmulator,
    private readonly sessionContext: SessionContext,
  ) {}

  get context(): Readonly<SessionContext> {
    return { ...this.sessionContext };
  }

  execute(sql: string): StatementResult {
    return this.emulator.execute(sql, this.sessionContext);
  }
}
