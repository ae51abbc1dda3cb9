/**
 * The errors the emulator raises, worded and numbered the way Snowflake words and numbers them,
 * so a caller sees the same failure offline as against a real account.
 *
 * Confirmed against what accounts answer (issue 27): syntax errors (001003, 42000), invalid
 * identifiers (000904, 42000), missing objects (002003: 42S02 for tables and views, 02000 for
 * databases and schemas; a semantic view's missing base table is named "Table '…'"), existing
 * objects (002002, 42710), "No queryable expression is defined in the semantic view" and
 * "Entity '…' has duplicate primary or unique keys." for CREATE SEMANTIC VIEW, and the query-time
 * "Invalid dimension specified: The dimension entity '…' must be related to …". The other
 * semantic-view rules (`invalidDefinition`) carry the emulator's own wording and no vendor number:
 * Snowflake's texts and numbers for them were not found published.
 */
import { WarehouseError, WarehouseErrorCodes, type MissingPrivilege } from '../types';

export interface SourcePosition {
  /** 1-based. */
  line: number;
  /** 0-based, as Snowflake's "at position N". */
  column: number;
  /** 0-based character offset in the statement text. */
  offset: number;
}

const COMPILATION = 'SQL compilation error:';

export function syntaxErrorAt(position: SourcePosition, shownToken: string): WarehouseError {
  return new WarehouseError(
    WarehouseErrorCodes.SYNTAX_ERROR,
    `${COMPILATION}\nsyntax error line ${position.line} at position ${position.column} unexpected '${shownToken}'.`,
    { sqlState: '42000', vendorCode: '001003', position: { line: position.line, column: position.column } },
  );
}

/** A compilation error that is not about one unexpected token (incompatible options and the like). */
export function compilationError(detail: string, position?: SourcePosition): WarehouseError {
  const where = position ? ` error line ${position.line} at position ${position.column}` : '';
  return new WarehouseError(WarehouseErrorCodes.SYNTAX_ERROR, `${COMPILATION}${where}\n${detail}`, {
    sqlState: '42000',
    ...(position ? { position: { line: position.line, column: position.column } } : {}),
  });
}

export function invalidIdentifier(shown: string, position?: SourcePosition): WarehouseError {
  const where = position ? ` error line ${position.line} at position ${position.column}` : '';
  return new WarehouseError(WarehouseErrorCodes.INVALID_IDENTIFIER, `${COMPILATION}${where}\ninvalid identifier '${shown}'`, {
    sqlState: '42000',
    vendorCode: '000904',
    ...(position ? { position: { line: position.line, column: position.column } } : {}),
  });
}

/** A semantic-view rule broken by a statement that parses. */
export function invalidDefinition(detail: string, position?: SourcePosition): WarehouseError {
  const where = position ? ` error line ${position.line} at position ${position.column}` : '';
  return new WarehouseError(WarehouseErrorCodes.INVALID_DEFINITION, `${COMPILATION}${where}\n${detail}`, {
    sqlState: '42000',
    ...(position ? { position: { line: position.line, column: position.column } } : {}),
  });
}

/** Kinds whose "does not exist" answer carries SQLSTATE 42S02 (base table or view not found). */
const RELATION_KINDS = new Set(['Object', 'Table', 'View']);

/** `kind` as Snowflake capitalises it in the message: `Object`, `Table`, `Schema`, `Database`, `Semantic view`. */
export function objectNotFound(kind: string, displayName: string): WarehouseError {
  return new WarehouseError(
    WarehouseErrorCodes.OBJECT_NOT_FOUND,
    `${COMPILATION}\n${kind} '${displayName}' does not exist or not authorized.`,
    { sqlState: RELATION_KINDS.has(kind) ? '42S02' : '02000', vendorCode: '002003' },
  );
}

export function alreadyExists(displayName: string): WarehouseError {
  return new WarehouseError(WarehouseErrorCodes.OBJECT_EXISTS, `${COMPILATION}\nObject '${displayName}' already exists.`, {
    sqlState: '42710',
    vendorCode: '002002',
  });
}

export function wrongObjectType(displayName: string, found: string, expected: string): WarehouseError {
  return new WarehouseError(
    WarehouseErrorCodes.OBJECT_NOT_FOUND,
    `${COMPILATION}\nObject found is of type '${found}', not specified type '${expected}'. (${displayName})`,
    { sqlState: '02000', vendorCode: '002203' },
  );
}

/**
 * Snowflake names only the object ("Insufficient privileges to operate on schema 'PUBLIC'"); the
 * emulator adds which privilege the role lacks, so the failure is actionable.
 */
export function insufficientPrivileges(missing: MissingPrivilege, shortName: string): WarehouseError {
  return new WarehouseError(
    WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES,
    `SQL access control error:\nInsufficient privileges to operate on ${missing.objectType.toLowerCase()} '${shortName}'. ` +
      `Role ${missing.role} lacks ${missing.privilege} on ${missing.objectType.toLowerCase()} ${missing.objectName}.`,
    { sqlState: '42501', vendorCode: '003001', missingPrivilege: missing },
  );
}

export function ddlDisabled(): WarehouseError {
  return new WarehouseError(
    WarehouseErrorCodes.DDL_DISABLED,
    'SQL access control error:\nDDL statements are disabled for this connection. Enable DDL operations in the deployment configuration to run CREATE and DROP statements.',
    { sqlState: '42501' },
  );
}

export function noActiveWarehouse(): WarehouseError {
  return new WarehouseError(
    WarehouseErrorCodes.NO_ACTIVE_WAREHOUSE,
    "No active warehouse selected in the current session.  Select an active warehouse with the 'use warehouse' command.",
    { sqlState: '57P03', vendorCode: '000606' },
  );
}

export function noCurrent(what: 'database' | 'schema', action: string): WarehouseError {
  const command = what === 'database' ? 'USE DATABASE' : 'USE SCHEMA';
  return new WarehouseError(
    WarehouseErrorCodes.NO_CURRENT_SCHEMA,
    `Cannot perform ${action}. This session does not have a current ${what}. Call '${command}', or use a qualified name.`,
    { sqlState: '22000', vendorCode: '090105' },
  );
}

export function unsupported(detail: string): WarehouseError {
  return new WarehouseError(WarehouseErrorCodes.UNSUPPORTED, `The local warehouse emulator does not support this: ${detail}`, {
    sqlState: '0A000',
  });
}

export function statementCount(actual: number): WarehouseError {
  return new WarehouseError(
    WarehouseErrorCodes.STATEMENT_COUNT,
    `Actual statement count ${actual} did not match the desired statement count 1.`,
    { sqlState: '0A000', vendorCode: '000008' },
  );
}
