/**
 * Snowflake identifier rules shared by the Snowflake connector (to write statements) and the
 * emulator (to read and print them).
 */

/** Snowflake's reserved keywords: they can name an object only when double-quoted. */
export const RESERVED_KEYWORDS: ReadonlySet<string> = new Set([
  'ACCOUNT', 'ALL', 'ALTER', 'AND', 'ANY', 'AS', 'BETWEEN', 'BY', 'CASE', 'CAST', 'CHECK', 'COLUMN',
  'CONNECT', 'CONNECTION', 'CONSTRAINT', 'CREATE', 'CROSS', 'CURRENT', 'CURRENT_DATE', 'CURRENT_TIME',
  'CURRENT_TIMESTAMP', 'CURRENT_USER', 'DATABASE', 'DELETE', 'DISTINCT', 'DROP', 'ELSE', 'EXISTS',
  'FALSE', 'FOLLOWING', 'FOR', 'FROM', 'FULL', 'GRANT', 'GROUP', 'GSCLUSTER', 'HAVING', 'ILIKE', 'IN',
  'INCREMENT', 'INNER', 'INSERT', 'INTERSECT', 'INTO', 'IS', 'ISSUE', 'JOIN', 'LATERAL', 'LEFT', 'LIKE',
  'LOCALTIME', 'LOCALTIMESTAMP', 'MINUS', 'NATURAL', 'NOT', 'NULL', 'OF', 'ON', 'OR', 'ORDER',
  'ORGANIZATION', 'QUALIFY', 'REGEXP', 'REVOKE', 'RIGHT', 'RLIKE', 'ROW', 'ROWS', 'SAMPLE', 'SCHEMA',
  'SELECT', 'SET', 'SOME', 'START', 'TABLE', 'TABLESAMPLE', 'THEN', 'TO', 'TRIGGER', 'TRUE', 'TRY_CAST',
  'UNION', 'UNIQUE', 'UPDATE', 'USING', 'VALUES', 'VIEW', 'WHEN', 'WHENEVER', 'WHERE', 'WITH',
]);

/** Longest identifier Snowflake accepts, quoted or not. */
export const MAX_IDENTIFIER_LENGTH = 255;

const UNQUOTED_FORM = /^[A-Za-z_][A-Za-z0-9_$]*$/;
const STORED_UNQUOTED_FORM = /^[A-Z_][A-Z0-9_$]*$/;

/** True when `text` may be written without quotes (it is then resolved upper-cased). */
export function isValidUnquotedIdentifier(text: string): boolean {
  return text.length <= MAX_IDENTIFIER_LENGTH && UNQUOTED_FORM.test(text) && !RESERVED_KEYWORDS.has(text.toUpperCase());
}

/**
 * The stored name an identifier resolves to: unquoted ones are upper-cased; quoted ones keep
 * their case unless the QUOTED_IDENTIFIERS_IGNORE_CASE setting is on.
 */
export function resolveIdentifier(text: string, quoted: boolean, quotedIdentifiersIgnoreCase: boolean): string {
  return !quoted || quotedIdentifiersIgnoreCase ? text.toUpperCase() : text;
}

/** Always double-quotes a stored name (doubling embedded quotes): exact under any setting. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Writes a stored name the way Snowflake prints it: bare when reading it back unquoted yields the
 * same name, quoted otherwise.
 */
export function formatIdentifier(name: string): string {
  return STORED_UNQUOTED_FORM.test(name) && !RESERVED_KEYWORDS.has(name) && name.length <= MAX_IDENTIFIER_LENGTH
    ? name
    : quoteIdentifier(name);
}

export function formatQualifiedName(...parts: string[]): string {
  return parts.map(formatIdentifier).join('.');
}

/** A single-quoted SQL string literal. Backslash is an escape character in Snowflake strings. */
export function sqlStringLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
