import { LAKEHOUSE_TYPES, SAMPLE_SCHEMA, SAMPLE_TABLES } from '../../sample-tables';
import { openDatabase, type Db } from '../../../platform/db/connection';
import { systemClock, type Clock } from '../../../platform/clock';
import { parseQualifiedName } from '../identifiers';
import {
  LakehouseError,
  isLakehouseErrorCode,
  parseMetricViewYaml,
  type LakehouseErrorCode,
  type LakehouseObject,
  type LakehouseObjectKind,
} from '../types';
import { EMULATOR_MIGRATIONS } from './migrations';
import { validateMetricViewYaml } from './validate';

/** Privileges the emulator understands, as Unity Catalog names them. */
export const EMULATOR_PRIVILEGES = ['USE CATALOG', 'USE SCHEMA', 'CREATE TABLE', 'SELECT', 'ALL PRIVILEGES'] as const;
export type EmulatorPrivilege = (typeof EMULATOR_PRIVILEGES)[number];

/** A securable: a catalog, a schema or a table-like object, as `a.b.c` text or as parts. */
export type Securable = string | readonly string[];

export interface EmulatorColumn {
  name: string;
  type: string;
  comment?: string;
}

/** Everything the emulator holds about one object (the admin view, no privilege checks). */
export interface EmulatorObject {
  catalog: string;
  schema: string;
  name: string;
  kind: LakehouseObjectKind;
  owner: string;
  comment?: string;
  /** Metric view YAML, or a plain view's SQL. */
  definition?: string;
  properties: Record<string, string>;
  columns: EmulatorColumn[];
  createdAt: string;
  updatedAt: string;
  updatedBy: string;
}

export interface EmulatorGrant {
  principal: string;
  privilege: EmulatorPrivilege;
  securable: string[];
}

export interface LakehouseEmulatorOptions {
  clock?: Clock;
  /** Seed a fresh file with catalog `main`, schema `default`, sample tables and full privileges (default true). */
  seed?: boolean;
  /** The principal Drydock acts as (default `drydock`). */
  defaultPrincipal?: string;
}

/** The principal that owns seeded objects and stands for "a human in the workspace". */
export const EMULATOR_ADMIN = 'admin';
export const EMULATOR_DEFAULT_PRINCIPAL = 'drydock';

const SEED_TABLES: Array<{ name: string; columns: EmulatorColumn[]; comment: string }> = [
  {
    name: 'orders',
    comment: 'One row per order',
    columns: [
      { name: 'id', type: 'BIGINT' },
      { name: 'customer_id', type: 'BIGINT' },
      { name: 'product_id', type: 'BIGINT' },
      { name: 'status', type: 'STRING' },
      { name: 'amount', type: 'DECIMAL(18,2)' },
      { name: 'quantity', type: 'INT' },
      { name: 'created_at', type: 'TIMESTAMP' },
    ],
  },
  {
    name: 'customers',
    comment: 'One row per customer',
    columns: [
      { name: 'id', type: 'BIGINT' },
      { name: 'name', type: 'STRING' },
      { name: 'region', type: 'STRING' },
      { name: 'country', type: 'STRING' },
      { name: 'created_at', type: 'TIMESTAMP' },
    ],
  },
  {
    name: 'products',
    comment: 'One row per product',
    columns: [
      { name: 'id', type: 'BIGINT' },
      { name: 'name', type: 'STRING' },
      { name: 'category', type: 'STRING' },
      { name: 'price', type: 'DECIMAL(18,2)' },
    ],
  },
];

interface ObjectRow {
  catalog: string;
  schema: string;
  name: string;
  kind: LakehouseObjectKind;
  owner: string;
  comment: string | null;
  definition: string | null;
  properties: string;
  created_at: string;
  updated_at: string;
  updated_by: string;
}

type Names = [string, string, string];

/**
 * A local lakehouse in its own SQLite file: catalogs, schemas, tables with columns, plain
 * views and metric views, Unity-Catalog-style grants, warehouse access, and test hooks
 * (out-of-band edits, one-shot write faults, warehouse outage). Every call reads the file,
 * so two processes sharing it see each other's changes.
 */
export class LakehouseEmulator {
  readonly file: string;
  readonly defaultPrincipal: string;
  private readonly db: Db;
  private readonly clock: Clock;

  private constructor(file: string, db: Db, options: LakehouseEmulatorOptions) {
    this.file = file;
    this.db = db;
    this.clock = options.clock ?? systemClock;
    this.defaultPrincipal = options.defaultPrincipal ?? EMULATOR_DEFAULT_PRINCIPAL;
  }

  /** Opens (creating and seeding if new) the emulator's file. */
  static open(file: string, options: LakehouseEmulatorOptions = {}): LakehouseEmulator {
    const db = openDatabase(file, { migrations: EMULATOR_MIGRATIONS });
    const emulator = new LakehouseEmulator(file, db, options);
    try {
      emulator.seedOnce(options.seed ?? true);
    } catch (error) {
      db.close();
      throw error;
    }
    return emulator;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // ---------------------------------------------------------------- admin: catalog contents

  createCatalog(name: string, options: { owner?: string } = {}): void {
    const catalog = normalize(name);
    this.write(() => {
      if (this.catalogExists(catalog)) throw conflict(`Catalog '${catalog}' already exists.`, 'CATALOG_ALREADY_EXISTS');
      this.db
        .prepare('INSERT INTO catalogs (name, owner, created_at) VALUES (?, ?, ?)')
        .run(catalog, options.owner ?? EMULATOR_ADMIN, this.now());
    });
  }

  createSchema(catalogName: string, schemaName: string, options: { owner?: string } = {}): void {
    const [catalog, schema] = [normalize(catalogName), normalize(schemaName)];
    this.write(() => {
      this.requireCatalog(catalog);
      if (this.schemaExists(catalog, schema)) {
        throw conflict(`Schema '${catalog}.${schema}' already exists.`, 'SCHEMA_ALREADY_EXISTS');
      }
      this.db
        .prepare('INSERT INTO schemas (catalog, name, owner, created_at) VALUES (?, ?, ?, ?)')
        .run(catalog, schema, options.owner ?? EMULATOR_ADMIN, this.now());
    });
  }

  createTable(
    catalog: string,
    schema: string,
    name: string,
    columns: EmulatorColumn[] = [],
    options: { owner?: string; comment?: string; properties?: Record<string, string> } = {},
  ): void {
    const names = normalizeNames(catalog, schema, name);
    this.write(() => {
      this.requireSchema(names[0], names[1]);
      this.requireFree(names);
      this.insertObject(names, 'TABLE', options.owner ?? EMULATOR_ADMIN, {
        comment: options.comment,
        properties: options.properties,
      });
      this.insertColumns(names, columns);
    });
  }

  /**
   * Creates an object Drydock did not write: a plain SQL view (`sql`) or a metric view
   * (`metricYaml`, validated like any metric view). Owned by `owner` (default the admin).
   */
  createUnmanagedView(
    catalog: string,
    schema: string,
    name: string,
    body: { sql: string } | { metricYaml: string },
    options: { owner?: string; comment?: string; properties?: Record<string, string> } = {},
  ): void {
    const names = normalizeNames(catalog, schema, name);
    this.write(() => {
      this.requireSchema(names[0], names[1]);
      this.requireFree(names);
      if ('sql' in body) {
        this.insertObject(names, 'VIEW', options.owner ?? EMULATOR_ADMIN, {
          comment: options.comment,
          definition: body.sql,
          properties: options.properties,
        });
      } else {
        this.validateDefinition(names, body.metricYaml, null);
        this.insertObject(names, 'METRIC_VIEW', options.owner ?? EMULATOR_ADMIN, {
          comment: options.comment ?? yamlComment(body.metricYaml),
          definition: body.metricYaml,
          properties: options.properties,
        });
      }
    });
  }

  /**
   * A person changes a metric view's definition directly in the workspace: owner, grants and
   * properties stay, the YAML changes (still validated). This is what drift looks like.
   */
  editOutOfBand(catalog: string, schema: string, name: string, newYaml: string, options: { by?: string } = {}): void {
    const names = normalizeNames(catalog, schema, name);
    this.write(() => {
      const row = this.objectRow(names);
      if (row === undefined) throw notFoundObject(names);
      if (row.kind !== 'METRIC_VIEW') throw conflict(`${display(names)} is a ${row.kind}, not a metric view.`, 'EXPECT_METRIC_VIEW');
      this.validateDefinition(names, newYaml, null);
      this.db
        .prepare(
          'UPDATE objects SET definition = ?, comment = ?, updated_at = ?, updated_by = ? WHERE catalog = ? AND schema = ? AND name = ?',
        )
        .run(newYaml, yamlComment(newYaml) ?? row.comment, this.now(), options.by ?? EMULATOR_ADMIN, ...names);
    });
  }

  /** Sets (merges) or removes (value `null`) TBLPROPERTIES out of band. */
  setProperties(catalog: string, schema: string, name: string, changes: Record<string, string | null>): void {
    const names = normalizeNames(catalog, schema, name);
    this.write(() => {
      const row = this.objectRow(names);
      if (row === undefined) throw notFoundObject(names);
      const properties = JSON.parse(row.properties) as Record<string, string>;
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) delete properties[key];
        else properties[key] = value;
      }
      this.db
        .prepare('UPDATE objects SET properties = ?, updated_at = ? WHERE catalog = ? AND schema = ? AND name = ?')
        .run(JSON.stringify(properties), this.now(), ...names);
    });
  }

  /** Removes any object (and its grants) without privilege checks. */
  dropObject(catalog: string, schema: string, name: string): boolean {
    const names = normalizeNames(catalog, schema, name);
    return this.write(() => this.deleteObject(names));
  }

  getObject(catalog: string, schema: string, name: string): EmulatorObject | null {
    const row = this.objectRow(normalizeNames(catalog, schema, name));
    return row === undefined ? null : this.toEmulatorObject(row);
  }

  listObjects(catalog?: string, schema?: string): EmulatorObject[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM objects
         WHERE (@catalog IS NULL OR catalog = @catalog) AND (@schema IS NULL OR schema = @schema)
         ORDER BY catalog, schema, name`,
      )
      .all({ catalog: catalog === undefined ? null : normalize(catalog), schema: schema === undefined ? null : normalize(schema) }) as ObjectRow[];
    return rows.map((row) => this.toEmulatorObject(row));
  }

  listCatalogs(): string[] {
    return (this.db.prepare('SELECT name FROM catalogs ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name);
  }

  listSchemas(catalog: string): string[] {
    return (
      this.db.prepare('SELECT name FROM schemas WHERE catalog = ? ORDER BY name').all(normalize(catalog)) as Array<{ name: string }>
    ).map((r) => r.name);
  }

  // ---------------------------------------------------------------- admin: privileges and hooks

  grant(principal: string, privilege: EmulatorPrivilege, on: Securable): void {
    const parts = securableParts(on);
    requirePrivilegeName(privilege);
    this.write(() => {
      this.requireSecurable(parts);
      this.db
        .prepare('INSERT OR IGNORE INTO grants (principal, privilege, securable) VALUES (?, ?, ?)')
        .run(principal, privilege, JSON.stringify(parts));
    });
  }

  revoke(principal: string, privilege: EmulatorPrivilege, on: Securable): void {
    const parts = securableParts(on);
    requirePrivilegeName(privilege);
    this.write(() => {
      this.db
        .prepare('DELETE FROM grants WHERE principal = ? AND privilege = ? AND securable = ?')
        .run(principal, privilege, JSON.stringify(parts));
    });
  }

  listGrants(on?: Securable): EmulatorGrant[] {
    const rows = this.db
      .prepare('SELECT principal, privilege, securable FROM grants WHERE @securable IS NULL OR securable = @securable ORDER BY securable, principal, privilege')
      .all({ securable: on === undefined ? null : JSON.stringify(securableParts(on)) }) as Array<{
      principal: string;
      privilege: EmulatorPrivilege;
      securable: string;
    }>;
    return rows.map((row) => ({ principal: row.principal, privilege: row.privilege, securable: JSON.parse(row.securable) as string[] }));
  }

  /** Whether `principal` holds `privilege` on a securable: granted there or on a parent, or by owning either. */
  hasPrivilege(principal: string, privilege: EmulatorPrivilege, on: Securable): boolean {
    const parts = securableParts(on);
    for (let length = 1; length <= parts.length; length += 1) {
      const prefix = parts.slice(0, length);
      if (this.ownerOf(prefix) === principal) return true;
      const held = this.db
        .prepare(
          `SELECT 1 FROM grants WHERE principal = ? AND securable = ? AND privilege IN (?, 'ALL PRIVILEGES') LIMIT 1`,
        )
        .get(principal, JSON.stringify(prefix), privilege);
      if (held !== undefined) return true;
    }
    return false;
  }

  /** Grants or withdraws CAN USE on the SQL warehouse. */
  setWarehouseAccess(principal: string, allowed: boolean): void {
    this.write(() => {
      if (allowed) this.db.prepare('INSERT OR IGNORE INTO warehouse_access (principal) VALUES (?)').run(principal);
      else this.db.prepare('DELETE FROM warehouse_access WHERE principal = ?').run(principal);
    });
  }

  /** Simulates the warehouse being down (every connector call fails LAKEHOUSE_UNAVAILABLE) or back. */
  setWarehouseAvailable(available: boolean): void {
    this.write(() => {
      this.db
        .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
        .run('warehouse_available', available ? 'true' : 'false');
    });
  }

  /**
   * Makes the next write (create, alter or drop) of the named view fail with `code`, before
   * anything changes. `name` is a view name alone (any schema) or `catalog.schema.name`.
   */
  failNextWrite(name: string, code: LakehouseErrorCode = 'LAKEHOUSE_FAILED', message?: string): void {
    if (!isLakehouseErrorCode(code)) throw new Error(`Unknown lakehouse error code ${code}.`);
    const parts = parseQualifiedName(name).map(normalize);
    if (parts.length !== 1 && parts.length !== 3) throw new Error(`failNextWrite takes a view name or catalog.schema.name, got "${name}".`);
    this.write(() => {
      this.db
        .prepare('INSERT INTO faults (target, code, message) VALUES (?, ?, ?) ON CONFLICT (target) DO UPDATE SET code = excluded.code, message = excluded.message')
        .run(JSON.stringify(parts), code, message ?? null);
    });
  }

  // ---------------------------------------------------------------- operations as a principal

  /** DESCRIBE TABLE EXTENDED as `principal`: null when the object does not exist. */
  describe(principal: string, catalog: string, schema: string, name: string): LakehouseObject | null {
    const names = normalizeNames(catalog, schema, name);
    this.requireWarehouse(principal);
    this.requireUsableSchema(principal, names[0], names[1]);
    const row = this.objectRow(names);
    if (row === undefined) return null;
    if (!this.hasPrivilege(principal, 'SELECT', names)) {
      throw denied(`User ${principal} does not have SELECT on ${kindLabel(row.kind)} '${display(names)}'.`);
    }
    return toLakehouseObject(row);
  }

  /** CREATE OR REPLACE VIEW … WITH METRICS as `principal`: the replaced view's grants are dropped. */
  createOrReplaceMetricView(
    principal: string,
    catalog: string,
    schema: string,
    name: string,
    yaml: string,
    properties: Record<string, string>,
  ): void {
    const names = normalizeNames(catalog, schema, name);
    this.requireWarehouse(principal);
    this.takeFault(names);
    this.write(() => {
      this.requireUsableSchema(principal, names[0], names[1]);
      if (!this.hasPrivilege(principal, 'CREATE TABLE', names.slice(0, 2))) {
        throw denied(`User ${principal} does not have CREATE TABLE on Schema '${names[0]}.${names[1]}'.`);
      }
      const existing = this.objectRow(names);
      if (existing !== undefined) {
        if (existing.kind === 'TABLE') {
          throw conflict(`${display(names)} is a table; CREATE OR REPLACE VIEW cannot replace it.`, 'EXPECT_VIEW_NOT_TABLE');
        }
        if (existing.owner !== principal) {
          throw denied(`User ${principal} is not the owner of ${kindLabel(existing.kind)} '${display(names)}' and cannot replace it.`);
        }
      }
      this.validateDefinition(names, yaml, principal);
      if (existing !== undefined) this.deleteObject(names);
      this.insertObject(names, 'METRIC_VIEW', principal, {
        comment: yamlComment(yaml),
        definition: yaml,
        properties,
        updatedBy: principal,
      });
    });
  }

  /** ALTER VIEW … AS $$yaml$$ then SET TBLPROPERTIES as `principal`: owner, grants and other properties kept. */
  alterMetricView(
    principal: string,
    catalog: string,
    schema: string,
    name: string,
    yaml: string,
    properties: Record<string, string>,
  ): void {
    const names = normalizeNames(catalog, schema, name);
    this.requireWarehouse(principal);
    this.takeFault(names);
    this.write(() => {
      this.requireUsableSchema(principal, names[0], names[1]);
      const existing = this.objectRow(names);
      if (existing === undefined) throw notFoundObject(names);
      if (existing.kind !== 'METRIC_VIEW') {
        throw conflict(`${display(names)} is a ${existing.kind}; ALTER VIEW … AS $$yaml$$ only changes metric views.`, 'EXPECT_METRIC_VIEW');
      }
      if (existing.owner !== principal) {
        throw denied(`User ${principal} is not the owner of Metric View '${display(names)}' and cannot alter it.`);
      }
      this.validateDefinition(names, yaml, principal);
      const merged = { ...(JSON.parse(existing.properties) as Record<string, string>), ...properties };
      this.db
        .prepare(
          `UPDATE objects SET definition = ?, comment = ?, properties = ?, updated_at = ?, updated_by = ?
           WHERE catalog = ? AND schema = ? AND name = ?`,
        )
        .run(yaml, yamlComment(yaml) ?? null, JSON.stringify(merged), this.now(), principal, ...names);
    });
  }

  /** DROP VIEW IF EXISTS as `principal`. */
  dropView(principal: string, catalog: string, schema: string, name: string): void {
    const names = normalizeNames(catalog, schema, name);
    this.requireWarehouse(principal);
    this.takeFault(names);
    this.write(() => {
      this.requireUsableSchema(principal, names[0], names[1]);
      const existing = this.objectRow(names);
      if (existing === undefined) return;
      if (existing.kind === 'TABLE') throw conflict(`${display(names)} is a table; use DROP TABLE.`, 'WRONG_COMMAND_FOR_OBJECT_TYPE');
      if (existing.owner !== principal) {
        throw denied(`User ${principal} is not the owner of ${kindLabel(existing.kind)} '${display(names)}' and cannot drop it.`);
      }
      this.deleteObject(names);
    });
  }

  /** SELECT 1 FROM source LIMIT 0 as `principal`. */
  checkSelect(principal: string, source: string): void {
    this.requireWarehouse(principal);
    const parts = parseQualifiedName(source).map(normalize);
    if (parts.length !== 3) {
      throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', `Source "${source}" must be a three-part name catalog.schema.table.`);
    }
    const names = parts as Names;
    this.requireUsableSchema(principal, names[0], names[1]);
    const row = this.objectRow(names);
    if (row === undefined) throw notFoundObject(names);
    if (!this.hasPrivilege(principal, 'SELECT', names)) {
      throw denied(`User ${principal} does not have SELECT on ${kindLabel(row.kind)} '${display(names)}'.`);
    }
  }

  /** USE CATALOG, USE SCHEMA and CREATE TABLE on a target schema, as `principal`. */
  checkSchemaAccess(principal: string, catalog: string, schema: string): void {
    const [c, s] = [normalize(catalog), normalize(schema)];
    this.requireWarehouse(principal);
    this.requireUsableSchema(principal, c, s);
    if (!this.hasPrivilege(principal, 'CREATE TABLE', [c, s])) {
      throw denied(`User ${principal} does not have CREATE TABLE on Schema '${c}.${s}'.`);
    }
  }

  /** CAN USE on the warehouse, and the warehouse up. */
  checkWarehouse(principal: string): void {
    this.requireWarehouse(principal);
  }

  // ---------------------------------------------------------------- internals

  private seedOnce(seed: boolean): void {
    this.db
      .transaction(() => {
        const done = this.db.prepare("SELECT value FROM settings WHERE key = 'seeded'").get();
        if (done !== undefined) return;
        this.db.prepare("INSERT INTO settings (key, value) VALUES ('seeded', ?)").run(seed ? 'sample' : 'empty');
        if (!seed) return;
        const now = this.now();
        this.db.prepare('INSERT INTO catalogs (name, owner, created_at) VALUES (?, ?, ?)').run('main', EMULATOR_ADMIN, now);
        this.db.prepare('INSERT INTO schemas (catalog, name, owner, created_at) VALUES (?, ?, ?, ?)').run('main', 'default', EMULATOR_ADMIN, now);
        for (const table of SEED_TABLES) {
          const names: Names = ['main', 'default', table.name];
          this.insertObject(names, 'TABLE', EMULATOR_ADMIN, { comment: table.comment });
          this.insertColumns(names, table.columns);
        }
        const grant = this.db.prepare('INSERT OR IGNORE INTO grants (principal, privilege, securable) VALUES (?, ?, ?)');
        grant.run(this.defaultPrincipal, 'USE CATALOG', JSON.stringify(['main']));
        for (const privilege of ['USE SCHEMA', 'CREATE TABLE', 'SELECT']) {
          grant.run(this.defaultPrincipal, privilege, JSON.stringify(['main', 'default']));
        }
        // The sample project's tables, readable by the default principal.
        this.db.prepare('INSERT INTO schemas (catalog, name, owner, created_at) VALUES (?, ?, ?, ?)').run('main', SAMPLE_SCHEMA, EMULATOR_ADMIN, now);
        for (const table of SAMPLE_TABLES) {
          const names: Names = ['main', SAMPLE_SCHEMA, table.name];
          this.insertObject(names, 'TABLE', EMULATOR_ADMIN, { comment: table.comment });
          this.insertColumns(names, table.columns.map((c) => ({ name: c.name, type: LAKEHOUSE_TYPES[c.type] })));
        }
        for (const privilege of ['USE SCHEMA', 'SELECT']) grant.run(this.defaultPrincipal, privilege, JSON.stringify(['main', SAMPLE_SCHEMA]));
        this.db.prepare('INSERT OR IGNORE INTO warehouse_access (principal) VALUES (?)').run(this.defaultPrincipal);
      })
      .immediate();
  }

  /** One write transaction, taking the write lock up front so concurrent writers queue. */
  private write<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  private now(): string {
    return this.clock.now().toISOString();
  }

  private takeFault(names: Names): void {
    const fault = this.write(() => {
      for (const key of [JSON.stringify(names), JSON.stringify([names[2]])]) {
        const row = this.db.prepare('SELECT code, message FROM faults WHERE target = ?').get(key) as
          | { code: LakehouseErrorCode; message: string | null }
          | undefined;
        if (row !== undefined) {
          this.db.prepare('DELETE FROM faults WHERE target = ?').run(key);
          return row;
        }
      }
      return undefined;
    });
    if (fault !== undefined) {
      throw new LakehouseError(fault.code, fault.message ?? `Injected failure writing ${display(names)}.`, {
        errorClass: 'INJECTED_FAULT',
      });
    }
  }

  private requireWarehouse(principal: string): void {
    const available = this.db.prepare("SELECT value FROM settings WHERE key = 'warehouse_available'").get() as
      | { value: string }
      | undefined;
    if (available?.value === 'false') {
      throw new LakehouseError('LAKEHOUSE_UNAVAILABLE', 'The SQL warehouse is not available (emulated outage).', {
        errorClass: 'TEMPORARILY_UNAVAILABLE',
      });
    }
    const access = this.db.prepare('SELECT 1 FROM warehouse_access WHERE principal = ?').get(principal);
    if (access === undefined) {
      throw new LakehouseError('LAKEHOUSE_PERMISSION_DENIED', `User ${principal} does not have CAN USE on the SQL warehouse.`, {
        errorClass: 'PERMISSION_DENIED',
      });
    }
  }

  private requireUsableSchema(principal: string, catalog: string, schema: string): void {
    this.requireCatalog(catalog);
    if (!this.hasPrivilege(principal, 'USE CATALOG', [catalog])) {
      throw denied(`User ${principal} does not have USE CATALOG on Catalog '${catalog}'.`);
    }
    this.requireSchema(catalog, schema);
    if (!this.hasPrivilege(principal, 'USE SCHEMA', [catalog, schema])) {
      throw denied(`User ${principal} does not have USE SCHEMA on Schema '${catalog}.${schema}'.`);
    }
  }

  /**
   * Validates a definition as Databricks does on create and alter: the YAML's shape, then each
   * table it reads must exist (else invalid definition) and, when acting for a principal, be
   * readable by it (else permission denied).
   */
  private validateDefinition(target: Names, yaml: string, principal: string | null): void {
    const validation = validateMetricViewYaml(yaml, {
      columnsOf: (parts) => {
        const names = this.resolveRelative(parts, target);
        return names === undefined ? undefined : this.columnsOf(names).map((column) => column.name);
      },
    });
    if (validation.problems.length > 0) {
      throw new LakehouseError(
        'LAKEHOUSE_INVALID_DEFINITION',
        `[INVALID_METRIC_VIEW_YAML] Invalid metric view definition for ${display(target)}: ${validation.problems.join('; ')}`,
        { errorClass: 'INVALID_METRIC_VIEW_YAML', details: validation.problems },
      );
    }
    for (const reference of validation.tables) {
      const names = this.resolveRelative(reference.parts, target);
      const shown = reference.parts.join('.');
      if (names === undefined || this.objectRow(names) === undefined) {
        throw new LakehouseError(
          'LAKEHOUSE_INVALID_DEFINITION',
          `[TABLE_OR_VIEW_NOT_FOUND] ${reference.path}: the table or view ${shown} cannot be found.`,
          { errorClass: 'TABLE_OR_VIEW_NOT_FOUND', details: [`${reference.path}: ${shown} not found`] },
        );
      }
      if (names.join('.') === target.join('.')) {
        throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', `${reference.path}: a metric view cannot read itself.`, {
          errorClass: 'RECURSIVE_VIEW',
        });
      }
      if (principal === null) continue;
      if (!this.hasPrivilege(principal, 'USE CATALOG', [names[0]]) || !this.hasPrivilege(principal, 'USE SCHEMA', [names[0], names[1]])) {
        throw denied(`User ${principal} cannot use schema ${names[0]}.${names[1]} of source ${display(names)}.`);
      }
      if (!this.hasPrivilege(principal, 'SELECT', names)) {
        throw denied(`User ${principal} does not have SELECT on source '${display(names)}'.`);
      }
    }
  }

  /** Resolves a 1-, 2- or 3-part name against the view's catalog and schema, as Databricks does. */
  private resolveRelative(parts: string[], target: Names): Names | undefined {
    const lower = parts.map(normalize);
    if (lower.length === 3) return lower as Names;
    if (lower.length === 2) return [target[0], lower[0], lower[1]];
    if (lower.length === 1) return [target[0], target[1], lower[0]];
    return undefined;
  }

  private catalogExists(catalog: string): boolean {
    return this.db.prepare('SELECT 1 FROM catalogs WHERE name = ?').get(catalog) !== undefined;
  }

  private schemaExists(catalog: string, schema: string): boolean {
    return this.db.prepare('SELECT 1 FROM schemas WHERE catalog = ? AND name = ?').get(catalog, schema) !== undefined;
  }

  private requireCatalog(catalog: string): void {
    if (!this.catalogExists(catalog)) {
      throw new LakehouseError('LAKEHOUSE_NOT_FOUND', `[NO_SUCH_CATALOG_EXCEPTION] Catalog '${catalog}' was not found.`, {
        errorClass: 'NO_SUCH_CATALOG_EXCEPTION',
      });
    }
  }

  private requireSchema(catalog: string, schema: string): void {
    this.requireCatalog(catalog);
    if (!this.schemaExists(catalog, schema)) {
      throw new LakehouseError('LAKEHOUSE_NOT_FOUND', `[SCHEMA_NOT_FOUND] The schema '${catalog}.${schema}' cannot be found.`, {
        errorClass: 'SCHEMA_NOT_FOUND',
      });
    }
  }

  private requireSecurable(parts: string[]): void {
    if (parts.length === 1) this.requireCatalog(parts[0]);
    else if (parts.length === 2) this.requireSchema(parts[0], parts[1]);
    else if (this.objectRow(parts as Names) === undefined) throw notFoundObject(parts as Names);
  }

  private requireFree(names: Names): void {
    if (this.objectRow(names) !== undefined) {
      throw conflict(`[TABLE_OR_VIEW_ALREADY_EXISTS] ${display(names)} already exists.`, 'TABLE_OR_VIEW_ALREADY_EXISTS');
    }
  }

  private ownerOf(parts: string[]): string | undefined {
    if (parts.length === 1) {
      return (this.db.prepare('SELECT owner FROM catalogs WHERE name = ?').get(parts[0]) as { owner: string } | undefined)?.owner;
    }
    if (parts.length === 2) {
      return (
        this.db.prepare('SELECT owner FROM schemas WHERE catalog = ? AND name = ?').get(parts[0], parts[1]) as
          | { owner: string }
          | undefined
      )?.owner;
    }
    return this.objectRow(parts as Names)?.owner;
  }

  private objectRow(names: Names): ObjectRow | undefined {
    return this.db.prepare('SELECT * FROM objects WHERE catalog = ? AND schema = ? AND name = ?').get(...names) as
      | ObjectRow
      | undefined;
  }

  private columnsOf(names: Names): EmulatorColumn[] {
    const rows = this.db
      .prepare('SELECT name, type, comment FROM columns WHERE catalog = ? AND schema = ? AND object = ? ORDER BY position')
      .all(...names) as Array<{ name: string; type: string; comment: string | null }>;
    return rows.map((row) => (row.comment === null ? { name: row.name, type: row.type } : { ...row, comment: row.comment }));
  }

  private insertObject(
    names: Names,
    kind: LakehouseObjectKind,
    owner: string,
    extra: { comment?: string; definition?: string; properties?: Record<string, string>; updatedBy?: string },
  ): void {
    const now = this.now();
    this.db
      .prepare(
        `INSERT INTO objects (catalog, schema, name, kind, owner, comment, definition, properties, created_at, updated_at, updated_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        ...names,
        kind,
        owner,
        extra.comment ?? null,
        extra.definition ?? null,
        JSON.stringify(extra.properties ?? {}),
        now,
        now,
        extra.updatedBy ?? owner,
      );
  }

  private insertColumns(names: Names, columns: EmulatorColumn[]): void {
    const insert = this.db.prepare(
      'INSERT INTO columns (catalog, schema, object, position, name, type, comment) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const seen = new Set<string>();
    columns.forEach((column, position) => {
      const key = column.name.toLowerCase();
      if (seen.has(key)) throw conflict(`Column ${column.name} appears twice in ${display(names)}.`, 'COLUMN_ALREADY_EXISTS');
      seen.add(key);
      insert.run(...names, position, column.name, column.type, column.comment ?? null);
    });
  }

  /** Deletes an object with its columns and every grant on it (a replaced view starts without grants). */
  private deleteObject(names: Names): boolean {
    const result = this.db.prepare('DELETE FROM objects WHERE catalog = ? AND schema = ? AND name = ?').run(...names);
    this.db.prepare('DELETE FROM grants WHERE securable = ?').run(JSON.stringify(names));
    return result.changes > 0;
  }

  private toEmulatorObject(row: ObjectRow): EmulatorObject {
    const object: EmulatorObject = {
      catalog: row.catalog,
      schema: row.schema,
      name: row.name,
      kind: row.kind,
      owner: row.owner,
      properties: JSON.parse(row.properties) as Record<string, string>,
      columns: this.columnsOf([row.catalog, row.schema, row.name]),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      updatedBy: row.updated_by,
    };
    if (row.comment !== null) object.comment = row.comment;
    if (row.definition !== null) object.definition = row.definition;
    return object;
  }
}

function toLakehouseObject(row: ObjectRow): LakehouseObject {
  const properties = JSON.parse(row.properties) as Record<string, string>;
  const object: LakehouseObject = {
    catalog: row.catalog,
    schema: row.schema,
    name: row.name,
    kind: row.kind,
    owner: row.owner,
    properties,
  };
  if (row.comment !== null) object.comment = row.comment;
  if (row.kind === 'METRIC_VIEW') {
    object.definition = { yaml: row.definition ?? '', properties: { ...properties }, owner: row.owner };
    if (row.comment !== null) object.definition.comment = row.comment;
  }
  return object;
}

function normalize(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', 'A catalog, schema or object name cannot be empty.');
  return trimmed.toLowerCase();
}

function normalizeNames(catalog: string, schema: string, name: string): Names {
  return [normalize(catalog), normalize(schema), normalize(name)];
}

function securableParts(on: Securable): string[] {
  const parts = (typeof on === 'string' ? parseQualifiedName(on) : [...on]).map(normalize);
  if (parts.length < 1 || parts.length > 3) throw new Error(`A securable is a catalog, schema or table name; got ${JSON.stringify(on)}.`);
  return parts;
}

function requirePrivilegeName(privilege: string): void {
  if (!(EMULATOR_PRIVILEGES as readonly string[]).includes(privilege)) {
    throw new Error(`Unknown privilege ${privilege}; known: ${EMULATOR_PRIVILEGES.join(', ')}.`);
  }
}

function yamlComment(yaml: string): string | undefined {
  try {
    const parsed = parseMetricViewYaml(yaml) as { comment?: unknown } | null;
    return parsed !== null && typeof parsed === 'object' && typeof parsed.comment === 'string' ? parsed.comment : undefined;
  } catch {
    return undefined;
  }
}

function display(names: readonly string[]): string {
  return names.join('.');
}

function kindLabel(kind: LakehouseObjectKind): string {
  return kind === 'METRIC_VIEW' ? 'Metric View' : kind === 'VIEW' ? 'View' : 'Table';
}

function denied(message: string): LakehouseError {
  return new LakehouseError('LAKEHOUSE_PERMISSION_DENIED', `[INSUFFICIENT_PERMISSIONS] Insufficient privileges: ${message}`, {
    errorClass: 'INSUFFICIENT_PERMISSIONS',
    sqlState: '42501',
  });
}

function conflict(message: string, errorClass: string): LakehouseError {
  return new LakehouseError('LAKEHOUSE_CONFLICT', message, { errorClass });
}

function notFoundObject(names: Names): LakehouseError {
  return new LakehouseError('LAKEHOUSE_NOT_FOUND', `[TABLE_OR_VIEW_NOT_FOUND] The table or view ${display(names)} cannot be found.`, {
    errorClass: 'TABLE_OR_VIEW_NOT_FOUND',
    sqlState: '42P01',
  });
}
