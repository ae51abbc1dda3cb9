/**
 * Administration of the lakehouse emulator, without privilege checks: creating catalogs,
 * schemas, tables and views Drydock did not write, out-of-band edits (what drift looks like),
 * TBLPROPERTIES, reading and listing objects, granting and revoking privileges, warehouse access,
 * and the test hooks (warehouse outage, one-shot write faults). What tests and the app's setup
 * use; Drydock's own operations go through `emulator.ts` as a principal.
 */
import { parseQualifiedName } from '../identifiers';
import { isLakehouseErrorCode, type LakehouseErrorCode } from '../types';
import { LakehouseCatalog } from './catalog';
import {
  conflict,
  display,
  EMULATOR_ADMIN,
  normalize,
  normalizeNames,
  notFoundObject,
  requirePrivilegeName,
  securableParts,
  yamlComment,
  type EmulatorColumn,
  type EmulatorGrant,
  type EmulatorObject,
  type EmulatorPrivilege,
  type ObjectRow,
  type Securable,
} from './objects';

export class LakehouseAdmin extends LakehouseCatalog {
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
}
