// Snowflake identifiers as the semantic view generator writes and reads them: the reserved
// words, how a model name, a user-typed warehouse name and an exact stored name are written so
// they read back the same, the stored (resolved) form of a written identifier, string literals,
// and splitting plain column references and dotted table names out of model SQL.

/** Snowflake's reserved keywords: usable as names only when double-quoted. */
export const SNOWFLAKE_RESERVED = new Set([
  'ACCOUNT', 'ALL', 'ALTER', 'AND', 'ANY', 'AS', 'BETWEEN', 'BY', 'CASE', 'CAST', 'CHECK', 'COLUMN', 'CONNECT', 'CONNECTION',
  'CONSTRAINT', 'CREATE', 'CROSS', 'CURRENT', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'CURRENT_USER', 'DATABASE',
  'DELETE', 'DISTINCT', 'DROP', 'ELSE', 'EXISTS', 'FALSE', 'FOLLOWING', 'FOR', 'FROM', 'FULL', 'GRANT', 'GROUP', 'GSCLUSTER',
  'HAVING', 'ILIKE', 'IN', 'INCREMENT', 'INNER', 'INSERT', 'INTERSECT', 'INTO', 'IS', 'ISSUE', 'JOIN', 'LATERAL', 'LEFT', 'LIKE',
  'LOCALTIME', 'LOCALTIMESTAMP', 'MINUS', 'NATURAL', 'NOT', 'NULL', 'OF', 'ON', 'OR', 'ORDER', 'ORGANIZATION', 'QUALIFY',
  'REGEXP', 'REVOKE', 'RIGHT', 'RLIKE', 'ROW', 'ROWS', 'SAMPLE', 'SCHEMA', 'SELECT', 'SET', 'SOME', 'START', 'TABLE',
  'TABLESAMPLE', 'THEN', 'TO', 'TRIGGER', 'TRUE', 'TRY_CAST', 'UNION', 'UNIQUE', 'UPDATE', 'USING', 'VALUES', 'VIEW', 'WHEN',
  'WHENEVER', 'WHERE', 'WITH',
]);

const UNQUOTED = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/** An identifier as written in the DDL, and the name the warehouse stores for it. */
export interface SqlIdentifier {
  text: string;
  quoted: boolean;
}

/**
 * How a model name is written so that it reads back the same: all-lower or all-upper names stay
 * bare (stored upper-case, pulled back lower-case); mixed case, reserved words and other
 * characters are double-quoted so the warehouse keeps them exactly.
 */
export function modelIdentifier(name: string): SqlIdentifier {
  const bare = UNQUOTED.test(name) && !SNOWFLAKE_RESERVED.has(name.toUpperCase()) && (name === name.toLowerCase() || name === name.toUpperCase());
  return { text: name, quoted: !bare };
}

/** A name the user typed for a warehouse object (semantic view, schema): bare when it may be, i.e. upper-cased. */
export function warehouseIdentifier(name: string): SqlIdentifier {
  return { text: name, quoted: !(UNQUOTED.test(name) && !SNOWFLAKE_RESERVED.has(name.toUpperCase())) };
}

/** An exact stored name (from the warehouse): bare only when reading it bare gives it back. */
export function storedIdentifier(name: string): SqlIdentifier {
  return { text: name, quoted: !(/^[A-Z_][A-Z0-9_$]*$/.test(name) && !SNOWFLAKE_RESERVED.has(name)) };
}

export const writeIdentifier = (id: SqlIdentifier): string => (id.quoted ? `"${id.text.replace(/"/g, '""')}"` : id.text);

/** The stored name: bare identifiers are upper-cased; quoted ones too when QUOTED_IDENTIFIERS_IGNORE_CASE is on. */
export const resolvedName = (id: SqlIdentifier, quotedIdentifiersIgnoreCase: boolean): string =>
  !id.quoted || quotedIdentifiersIgnoreCase ? id.text.toUpperCase() : id.text;

export const sqlString = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** Column named by a member SQL that is a plain column (`id`, `"Id"`, `{CUBE}.id`, `CUBE."Id"`), with its quoting. */
export function columnOf(sql: string | undefined): SqlIdentifier | null {
  if (!sql) return null;
  const m = /^\s*(?:\{(?:CUBE|TABLE)\}\.|(?:CUBE|TABLE)\.)?(?:"((?:[^"]|"")+)"|([A-Za-z_][\w$]*))\s*$/.exec(sql);
  if (!m) return null;
  return m[1] !== undefined ? { text: m[1].replace(/""/g, '"'), quoted: true } : { text: m[2]!, quoted: false };
}

/** Splits `db.schema."Table"` into its parts as written; null when it is not a dotted identifier list. */
export function splitQualifiedName(text: string): string[] | null {
  const parts: string[] = [];
  const re = /\s*("(?:[^"]|"")+"|[A-Za-z_][\w$]*)\s*(\.|$)/y;
  let index = 0;
  while (index < text.length) {
    re.lastIndex = index;
    const m = re.exec(text);
    if (!m) return null;
    parts.push(m[1]!);
    index = re.lastIndex;
    if (m[2] === '') break;
  }
  return parts.length >= 1 && parts.length <= 3 && index >= text.length ? parts : null;
}
