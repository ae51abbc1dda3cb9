/**
 * The shapes of the local warehouse's catalog: the seed, the options, privileges and grant
 * targets as the emulator administers them, the session context statements run in, the rows of
 * its SQLite tables, and the small helpers that turn grant targets into stored keys and back.
 */
import { MAX_IDENTIFIER_LENGTH } from '../identifiers';
import { WarehouseError, WarehouseErrorCodes } from '../types';

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

export type EmulatorPrivilege = 'USAGE' | 'SELECT' | 'CREATE SEMANTIC VIEW' | 'CREATE VIEW' | 'CREATE SCHEMA';

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

export const VALID_GRANTS: Record<EmulatorPrivilege, GrantTarget['type'][]> = {
  USAGE: ['DATABASE', 'SCHEMA', 'WAREHOUSE'],
  SELECT: ['TABLE', 'VIEW', 'ALL TABLES IN SCHEMA'],
  'CREATE SEMANTIC VIEW': ['SCHEMA'],
  'CREATE VIEW': ['SCHEMA'],
  'CREATE SCHEMA': ['DATABASE'],
};

export interface RelationRow {
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

export interface SemanticViewRow {
  database_name: string;
  schema_name: string;
  name: string;
  owner: string;
  comment: string | null;
  definition_json: string;
  created_on: string;
}

export interface ObjectName {
  database: string;
  schema: string;
  name: string;
}


/** A stored key of a database, schema or object: its exact names as a JSON array. */
export const key = (...parts: string[]): string => JSON.stringify(parts);

export function targetKey(target: GrantTarget): string {
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

export function targetFromRow(type: GrantTarget['type'], objectKey: string): GrantTarget {
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

export function assertName(what: string, name: string): void {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_IDENTIFIER_LENGTH) {
    throw new WarehouseError(WarehouseErrorCodes.INVALID_IDENTIFIER, `Invalid ${what} name ${JSON.stringify(name)}: it must have 1 to ${MAX_IDENTIFIER_LENGTH} characters.`);
  }
}

/** The one-row result Snowflake gives for DDL and USE: a status message. */
export function status(message: string): StatementResult {
  return { rows: [{ status: message }] };
}
