/**
 * The lakehouse emulator's storage: its own SQLite file of catalogs, schemas, tables with
 * columns, plain views and metric views, grants, warehouse access, settings and injected faults.
 * Every call reads the file, so two processes sharing it see each other's changes. Besides the
 * rows it holds the checks every operation shares: that catalogs, schemas and objects exist,
 * privilege inheritance (granted on the securable or a parent, or by owning either), the SQL
 * warehouse being up and usable, and the validation of a metric view definition against the
 * tables it reads. `admin.ts` and `emulator.ts` build the public API on it.
 */
import { LAKEHOUSE_TYPES, SAMPLE_SCHEMA, sampleTablesIn, seedTable, type SeedTable } from '../../sample-tables';
import type { Db } from '../../../platform/db/connection';
import { systemClock, type Clock } from '../../../platform/clock';
import { LakehouseError, type LakehouseErrorCode, type LakehouseObjectKind } from '../types';
import {
  conflict,
  denied,
  display,
  EMULATOR_ADMIN,
  EMULATOR_DEFAULT_PRINCIPAL,
  normalize,
  notFoundObject,
  securableParts,
  type EmulatorColumn,
  type EmulatorObject,
  type EmulatorPrivilege,
  type LakehouseEmulatorOptions,
  type Names,
  type ObjectRow,
  type Securable,
} from './objects';
import { recursiveView, tableNotFound, vendorMessage } from './error-classes';
import { validateMetricViewYaml } from './validate';

/**
 * `main.default`: the emulator's own starter tables, which the lakehouse tests and the vendor-SQL
 * corpus query (they are not the sample project's tables: other columns, other names).
 */
const STARTER_TABLES: readonly SeedTable[] = [
  seedTable('orders', 'One row per order', { id: 'BIGINT', customer_id: 'BIGINT', product_id: 'BIGINT', status: 'STRING', amount: 'DECIMAL(18,2)', quantity: 'INT', created_at: 'TIMESTAMP' }),
  seedTable('customers', 'One row per customer', { id: 'BIGINT', name: 'STRING', region: 'STRING', country: 'STRING', created_at: 'TIMESTAMP' }),
  seedTable('products', 'One row per product', { id: 'BIGINT', name: 'STRING', category: 'STRING', price: 'DECIMAL(18,2)' }),
];

/** `main.ecommerce`: the sample project's tables, shared with the other emulators, in lakehouse types. */
const SAMPLE_PROJECT_TABLES = sampleTablesIn(LAKEHOUSE_TYPES);

export class LakehouseCatalog {
  readonly file: string;
  readonly defaultPrincipal: string;
  protected readonly db: Db;
  protected readonly clock: Clock;

  protected constructor(file: string, db: Db, options: LakehouseEmulatorOptions) {
    this.file = file;
    this.db = db;
    this.clock = options.clock ?? systemClock;
    this.defaultPrincipal = options.defaultPrincipal ?? EMULATOR_DEFAULT_PRINCIPAL;
  }


  close(): void {
    if (this.db.open) this.db.close();
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

  // ---------------------------------------------------------------- internals

  protected seedOnce(seed: boolean): void {
    this.db
      .transaction(() => {
        const done = this.db.prepare("SELECT value FROM settings WHERE key = 'seeded'").get();
        if (done !== undefined) return;
        this.db.prepare("INSERT INTO settings (key, value) VALUES ('seeded', ?)").run(seed ? 'sample' : 'empty');
        if (!seed) return;
        const now = this.now();
        this.db.prepare('INSERT INTO catalogs (name, owner, created_at) VALUES (?, ?, ?)').run('main', EMULATOR_ADMIN, now);
        const grant = this.db.prepare('INSERT OR IGNORE INTO grants (principal, privilege, securable) VALUES (?, ?, ?)');
        grant.run(this.defaultPrincipal, 'USE CATALOG', JSON.stringify(['main']));
        // Dev publications create their per-user schemas (e.g. `default_dev_alice`) in `main`.
        grant.run(this.defaultPrincipal, 'CREATE SCHEMA', JSON.stringify(['main']));
        this.seedSchema('default', STARTER_TABLES, ['USE SCHEMA', 'CREATE TABLE', 'SELECT'], now);
        // The sample project's tables, readable by the default principal.
        this.seedSchema(SAMPLE_SCHEMA, SAMPLE_PROJECT_TABLES, ['USE SCHEMA', 'SELECT'], now);
        this.db.prepare('INSERT OR IGNORE INTO warehouse_access (principal) VALUES (?)').run(this.defaultPrincipal);
      })
      .immediate();
  }

  /** A schema of `main` owned by the admin, its tables, and what the default principal may do in it. */
  private seedSchema(schema: string, tables: readonly SeedTable[], privileges: readonly EmulatorPrivilege[], now: string): void {
    this.db.prepare('INSERT INTO schemas (catalog, name, owner, created_at) VALUES (?, ?, ?, ?)').run('main', schema, EMULATOR_ADMIN, now);
    for (const table of tables) {
      const names: Names = ['main', schema, table.name];
      this.insertObject(names, 'TABLE', EMULATOR_ADMIN, { comment: table.comment });
      this.insertColumns(names, table.columns);
    }
    const grant = this.db.prepare('INSERT OR IGNORE INTO grants (principal, privilege, securable) VALUES (?, ?, ?)');
    for (const privilege of privileges) grant.run(this.defaultPrincipal, privilege, JSON.stringify(['main', schema]));
  }

  /** One write transaction, taking the write lock up front so concurrent writers queue. */
  protected write<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  protected now(): string {
    return this.clock.now().toISOString();
  }

  protected takeFault(names: Names): void {
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

  protected requireWarehouse(principal: string): void {
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

  protected requireUsableSchema(principal: string, catalog: string, schema: string): void {
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
  protected validateDefinition(target: Names, yaml: string, principal: string | null): void {
    const validation = validateMetricViewYaml(yaml, {
      columnsOf: (parts) => {
        const names = this.resolveRelative(parts, target);
        return names === undefined ? undefined : this.columnsOf(names).map((column) => column.name);
      },
    });
    const first = validation.errors[0];
    if (first !== undefined) {
      // A workspace reports the first problem; the others stay in the details.
      throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', vendorMessage(first), {
        errorClass: first.errorClass,
        sqlState: first.sqlState,
        details: validation.problems,
      });
    }
    for (const reference of validation.tables) {
      const names = this.resolveRelative(reference.parts, target);
      if (names === undefined || this.objectRow(names) === undefined) {
        const problem = tableNotFound(names ?? reference.parts);
        throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', vendorMessage(problem), {
          errorClass: problem.errorClass,
          sqlState: problem.sqlState,
          details: [`${reference.path}: ${reference.parts.join('.')} not found`],
        });
      }
      if (names.join('.') === target.join('.')) {
        const problem = recursiveView(names);
        throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', vendorMessage(problem), {
          errorClass: problem.errorClass,
          sqlState: problem.sqlState,
          details: [`${reference.path}: a metric view cannot read itself`],
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
  protected resolveRelative(parts: string[], target: Names): Names | undefined {
    const lower = parts.map(normalize);
    if (lower.length === 3) return lower as Names;
    if (lower.length === 2) return [target[0], lower[0], lower[1]];
    if (lower.length === 1) return [target[0], target[1], lower[0]];
    return undefined;
  }

  protected catalogExists(catalog: string): boolean {
    return this.db.prepare('SELECT 1 FROM catalogs WHERE name = ?').get(catalog) !== undefined;
  }

  protected schemaExists(catalog: string, schema: string): boolean {
    return this.db.prepare('SELECT 1 FROM schemas WHERE catalog = ? AND name = ?').get(catalog, schema) !== undefined;
  }

  protected requireCatalog(catalog: string): void {
    if (!this.catalogExists(catalog)) {
      throw new LakehouseError('LAKEHOUSE_NOT_FOUND', `[NO_SUCH_CATALOG_EXCEPTION] Catalog '${catalog}' was not found.`, {
        errorClass: 'NO_SUCH_CATALOG_EXCEPTION',
      });
    }
  }

  protected requireSchema(catalog: string, schema: string): void {
    this.requireCatalog(catalog);
    if (!this.schemaExists(catalog, schema)) {
      throw new LakehouseError('LAKEHOUSE_NOT_FOUND', `[SCHEMA_NOT_FOUND] The schema '${catalog}.${schema}' cannot be found.`, {
        errorClass: 'SCHEMA_NOT_FOUND',
      });
    }
  }

  protected requireSecurable(parts: string[]): void {
    if (parts.length === 1) this.requireCatalog(parts[0]);
    else if (parts.length === 2) this.requireSchema(parts[0], parts[1]);
    else if (this.objectRow(parts as Names) === undefined) throw notFoundObject(parts as Names);
  }

  protected requireFree(names: Names): void {
    if (this.objectRow(names) !== undefined) {
      throw conflict(`[TABLE_OR_VIEW_ALREADY_EXISTS] ${display(names)} already exists.`, 'TABLE_OR_VIEW_ALREADY_EXISTS');
    }
  }

  protected ownerOf(parts: string[]): string | undefined {
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

  protected objectRow(names: Names): ObjectRow | undefined {
    return this.db.prepare('SELECT * FROM objects WHERE catalog = ? AND schema = ? AND name = ?').get(...names) as
      | ObjectRow
      | undefined;
  }

  protected columnsOf(names: Names): EmulatorColumn[] {
    const rows = this.db
      .prepare('SELECT name, type, comment FROM columns WHERE catalog = ? AND schema = ? AND object = ? ORDER BY position')
      .all(...names) as Array<{ name: string; type: string; comment: string | null }>;
    return rows.map((row) => (row.comment === null ? { name: row.name, type: row.type } : { ...row, comment: row.comment }));
  }

  protected insertObject(
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

  protected insertColumns(names: Names, columns: EmulatorColumn[]): void {
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
  protected deleteObject(names: Names): boolean {
    const result = this.db.prepare('DELETE FROM objects WHERE catalog = ? AND schema = ? AND name = ?').run(...names);
    this.db.prepare('DELETE FROM grants WHERE securable = ?').run(JSON.stringify(names));
    return result.changes > 0;
  }

  protected toEmulatorObject(row: ObjectRow): EmulatorObject {
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
