/**
 * A local lakehouse: the storage and checks of `catalog.ts`, the administration and test hooks of
 * `admin.ts`, and here the operations Drydock performs as a principal, each checked the way
 * Databricks checks it: DESCRIBE TABLE EXTENDED, CREATE OR REPLACE VIEW … WITH METRICS, ALTER
 * VIEW … AS, DROP VIEW, and the probes of an access test (SELECT from a source, schema access,
 * warehouse access). Metric view definitions are validated on create and alter (`validate.ts`).
 */
import { parseQualifiedName } from '../identifiers';
import { LakehouseError, type LakehouseObject } from '../types';
import { openDatabase } from '../../../platform/db/connection';
import { LakehouseAdmin } from './admin';
import { EMULATOR_MIGRATIONS } from './migrations';
import {
  conflict,
  denied,
  display,
  kindLabel,
  normalize,
  normalizeNames,
  notFoundObject,
  toLakehouseObject,
  yamlComment,
  type LakehouseEmulatorOptions,
  type Names,
} from './objects';

export {
  EMULATOR_ADMIN,
  EMULATOR_DEFAULT_PRINCIPAL,
  EMULATOR_PRIVILEGES,
  type EmulatorColumn,
  type EmulatorGrant,
  type EmulatorObject,
  type EmulatorPrivilege,
  type LakehouseEmulatorOptions,
  type Securable,
} from './objects';

/**
 * A local lakehouse in its own SQLite file: catalogs, schemas, tables with columns, plain
 * views and metric views, Unity-Catalog-style grants, warehouse access, and test hooks
 * (out-of-band edits, one-shot write faults, warehouse outage). Every call reads the file,
 * so two processes sharing it see each other's changes.
 */
export class LakehouseEmulator extends LakehouseAdmin {
  /** Opens (creating and seeding if new) the emulator's file. */
  static open(file: string, options: LakehouseEmulatorOptions = {}): LakehouseEmulator {
    // Its SQL is prepared once per opening: a 128-view run reads and writes each view in several
    // statements, and preparing them again per view held the HTTP thread (issue 10: event loop).
    const db = openDatabase(file, { migrations: EMULATOR_MIGRATIONS, statementCache: 200 });
    const emulator = new LakehouseEmulator(file, db, options);
    try {
      emulator.seedOnce(options.seed ?? true);
    } catch (error) {
      db.close();
      throw error;
    }
    return emulator;
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
    this.writeObjectAs(principal, catalog, schema, name, (names) => {
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
    this.writeObjectAs(principal, catalog, schema, name, (names) => {
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

  /**
   * A change to one object as `principal`, as every view DDL runs: the SQL warehouse must be up and
   * usable, an injected fault on the object fires first, then in one write transaction the schema
   * must be usable and `change` runs.
   */
  private writeObjectAs(principal: string, catalog: string, schema: string, name: string, change: (names: Names) => void): void {
    const names = normalizeNames(catalog, schema, name);
    this.requireWarehouse(principal);
    this.takeFault(names);
    this.write(() => {
      this.requireUsableSchema(principal, names[0], names[1]);
      change(names);
    });
  }

  /** DROP VIEW IF EXISTS as `principal`. */
  dropView(principal: string, catalog: string, schema: string, name: string): void {
    this.writeObjectAs(principal, catalog, schema, name, (names) => {
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

  /**
   * CREATE SCHEMA IF NOT EXISTS as `principal`: needs USE CATALOG and CREATE SCHEMA on the catalog
   * (or owning it); the principal owns the new schema, so it may use it and create views in it.
   */
  createSchemaIfNotExists(principal: string, catalog: string, schema: string): void {
    const [c, s] = [normalize(catalog), normalize(schema)];
    this.requireWarehouse(principal);
    this.write(() => {
      this.requireCatalog(c);
      if (!this.hasPrivilege(principal, 'USE CATALOG', [c])) throw denied(`User ${principal} does not have USE CATALOG on Catalog '${c}'.`);
      if (this.schemaExists(c, s)) return;
      if (!this.hasPrivilege(principal, 'CREATE SCHEMA', [c])) throw denied(`User ${principal} does not have CREATE SCHEMA on Catalog '${c}'.`);
      this.db.prepare('INSERT INTO schemas (catalog, name, owner, created_at) VALUES (?, ?, ?, ?)').run(c, s, principal, this.now());
    });
  }

  /** SHOW CATALOGS as `principal`: the catalogs it may use, as Unity Catalog lists only those. */
  showCatalogs(principal: string): string[] {
    this.requireWarehouse(principal);
    return this.listCatalogs().filter((catalog) => this.hasPrivilege(principal, 'USE CATALOG', [catalog]));
  }

  /** SHOW SCHEMAS IN catalog as `principal`: the schemas of a catalog it may use, whose schemas it may use. */
  showSchemas(principal: string, catalog: string): string[] {
    const c = normalize(catalog);
    this.requireWarehouse(principal);
    this.requireCatalog(c);
    if (!this.hasPrivilege(principal, 'USE CATALOG', [c])) throw denied(`User ${principal} does not have USE CATALOG on Catalog '${c}'.`);
    return this.listSchemas(c).filter((schema) => this.hasPrivilege(principal, 'USE SCHEMA', [c, schema]));
  }

  /** CAN USE on the warehouse, and the warehouse up. */
  checkWarehouse(principal: string): void {
    this.requireWarehouse(principal);
  }
}
