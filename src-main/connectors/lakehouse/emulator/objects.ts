/**
 * The shapes the lakehouse emulator works with and the small pure helpers its modules share:
 * privileges and securables as Unity Catalog names them, objects and grants as the admin sees
 * them, the stored row of an object, name normalisation (lower case, as Unity Catalog stores
 * names), and the errors Databricks gives for a denied privilege, a conflict or a missing object.
 */
import type { Clock } from '../../../platform/clock';
import { parseQualifiedName } from '../identifiers';
import { LakehouseError, parseMetricViewYaml, type LakehouseObject, type LakehouseObjectKind } from '../types';

/** Privileges the emulator understands, as Unity Catalog names them. */
export const EMULATOR_PRIVILEGES = ['USE CATALOG', 'USE SCHEMA', 'CREATE SCHEMA', 'CREATE TABLE', 'SELECT', 'ALL PRIVILEGES'] as const;
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

export interface ObjectRow {
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

export type Names = [string, string, string];

export function toLakehouseObject(row: ObjectRow): LakehouseObject {
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

export function normalize(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', 'A catalog, schema or object name cannot be empty.');
  return trimmed.toLowerCase();
}

export function normalizeNames(catalog: string, schema: string, name: string): Names {
  return [normalize(catalog), normalize(schema), normalize(name)];
}

export function securableParts(on: Securable): string[] {
  const parts = (typeof on === 'string' ? parseQualifiedName(on) : [...on]).map(normalize);
  if (parts.length < 1 || parts.length > 3) throw new Error(`A securable is a catalog, schema or table name; got ${JSON.stringify(on)}.`);
  return parts;
}

export function requirePrivilegeName(privilege: string): void {
  if (!(EMULATOR_PRIVILEGES as readonly string[]).includes(privilege)) {
    throw new Error(`Unknown privilege ${privilege}; known: ${EMULATOR_PRIVILEGES.join(', ')}.`);
  }
}

export function yamlComment(yaml: string): string | undefined {
  try {
    const parsed = parseMetricViewYaml(yaml) as { comment?: unknown } | null;
    return parsed !== null && typeof parsed === 'object' && typeof parsed.comment === 'string' ? parsed.comment : undefined;
  } catch {
    return undefined;
  }
}

export function display(names: readonly string[]): string {
  return names.join('.');
}

export function kindLabel(kind: LakehouseObjectKind): string {
  return kind === 'METRIC_VIEW' ? 'Metric View' : kind === 'VIEW' ? 'View' : 'Table';
}

export function denied(message: string): LakehouseError {
  return new LakehouseError('LAKEHOUSE_PERMISSION_DENIED', `[INSUFFICIENT_PERMISSIONS] Insufficient privileges: ${message}`, {
    errorClass: 'INSUFFICIENT_PERMISSIONS',
    sqlState: '42501',
  });
}

export function conflict(message: string, errorClass: string): LakehouseError {
  return new LakehouseError('LAKEHOUSE_CONFLICT', message, { errorClass });
}

export function notFoundObject(names: Names): LakehouseError {
  return new LakehouseError('LAKEHOUSE_NOT_FOUND', `[TABLE_OR_VIEW_NOT_FOUND] The table or view ${display(names)} cannot be found.`, {
    errorClass: 'TABLE_OR_VIEW_NOT_FOUND',
    sqlState: '42P01',
  });
}
