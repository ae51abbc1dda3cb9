// SQL text handling for metric view expressions: which words are never columns, backticked
// identifiers, dotted table names, literal- and quote-aware scanning, and `rewrite`, the token
// walk that turns model SQL into metric view SQL by handing references, bare columns and table
// qualifiers to the caller. `Unsupported` is what a translation throws for SQL a metric view
// cannot express.

import { DiagnosticCodes as C } from '../../codes';

/** Words that are never columns: SQL keywords, literals, type names and interval units. */
export const SQL_WORDS = new Set(
  `ALL AND ANY AS ASC BETWEEN BOTH BY CASE CAST COLLATE CROSS CURRENT_DATE CURRENT_TIMESTAMP DESC DISTINCT ELSE END ESCAPE
  EXISTS FALSE FILTER FIRST FOLLOWING FOR FROM FULL GROUP HAVING ILIKE IN INNER INTERVAL IS JOIN LAST LEADING LEFT LIKE
  LIMIT NOT NULL NULLS OF ON OR ORDER OUTER OVER PARTITION PRECEDING RANGE RIGHT RLIKE ROW ROWS SELECT SIMILAR SOME THEN
  TO TRAILING TRUE UNBOUNDED UNION UNKNOWN USING WHEN WHERE WITH WITHIN
  BIGINT BINARY BOOLEAN CHAR DATE DECIMAL DOUBLE FLOAT INT INTEGER LONG NUMERIC REAL SHORT SMALLINT STRING TIMESTAMP
  TIMESTAMP_NTZ TINYINT VARCHAR
  YEAR YEARS QUARTER QUARTERS MONTH MONTHS WEEK WEEKS DAY DAYS HOUR HOURS MINUTE MINUTES SECOND SECONDS MILLISECOND
  MILLISECONDS MICROSECOND MICROSECONDS`
    .split(/\s+/)
    .filter(Boolean),
);


export class Unsupported extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly member?: string,
  ) {
    super(message);
  }
}

/** A backticked identifier, with embedded backticks doubled. */
export const backtick = (name: string): string => '`' + name.replace(/`/g, '``') + '`';
const SIMPLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const identifier = (name: string): string => (SIMPLE_NAME.test(name) && !SQL_WORDS.has(name.toUpperCase()) ? name : backtick(name));

/** Splits a dotted table name (parts bare, `"quoted"` or `` `quoted` ``); null when it is not one. */
export function splitTableName(text: string): string[] | null {
  const parts: string[] = [];
  const re = /\s*("(?:[^"]|"")+"|`(?:[^`]|``)+`|[A-Za-z_][\w$]*)\s*(\.|$)/y;
  let index = 0;
  while (index < text.length) {
    re.lastIndex = index;
    const m = re.exec(text);
    if (!m) return null;
    const raw = m[1]!;
    parts.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw.startsWith('`') ? raw.slice(1, -1).replace(/``/g, '`') : raw);
    index = re.lastIndex;
    if (m[2] === '') break;
  }
  return parts.length >= 1 && index >= text.length ? parts : null;
}

/** Dequotes `"identifiers"` into backticked ones; strings and backticks stay. */
export function dequote(sql: string): string {
  let out = '';
  for (let i = 0; i < sql.length; ) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '`') {
      const end = closing(sql, i, ch);
      out += sql.slice(i, end);
      i = end;
    } else if (ch === '"') {
      const end = closing(sql, i, '"');
      out += backtick(sql.slice(i + 1, end - 1).replace(/""/g, '"'));
      i = end;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** Qualifies bare column names of plain SQL (no references) with `prefix`. */
export function qualifyColumns(sql: string, prefix: string): string {
  return rewrite(sql, {
    reference: (inner) => `{${inner}}`,
    column: (name) => `${prefix}.${name}`,
    qualifier: (name) => name,
  });
}

/**
 * Model SQL of a member of `node` → metric view expression. `prefix` reaches the node's columns
 * (its path in fields, its join name in `on`). Dimension references are inlined; measure

/** Wraps an inlined expression in parentheses unless it is one name or one call (`COUNT(1)`). */
export function parenthesize(expr: string): string {
  if (/^[\w$.`]+$/.test(expr)) return expr;
  const call = /^[A-Za-z_]\w*\(/.exec(expr);
  if (call && expr.endsWith(')') && closesAtEnd(expr, call[0].length - 1)) return expr;
  return `(${expr})`;
}

/** True when the parenthesis opened at `open` closes at the last character (quotes respected). */
function closesAtEnd(expr: string, open: number): boolean {
  let depth = 0;
  for (let i = open; i < expr.length; i++) {
    const ch = expr[i]!;
    if (ch === "'" || ch === '"' || ch === '`') {
      i = closing(expr, i, ch) - 1;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i === expr.length - 1;
  }
  return false;
}

/** Index just past the literal or quoted identifier opened at `start` (doubled or escaped quotes stay inside). */
export function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (quote === "'" && ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return sql.length;
}

interface RewriteHandlers {
  /** `{…}` references. */
  reference(inner: string): string;
  /** A bare column name (already written as an identifier). */
  column(name: string): string;
  /** A name followed by `.` (a table qualifier). */
  qualifier(name: string): string;
}

/**
 * Walks SQL token by token: string literals stay, `"x"` becomes `` `x` ``, `{…}` goes to `reference`,
 * and names that are neither keywords, function names, qualified parts nor types after AS go to
 * `column`.
 */
export function rewrite(sql: string, handlers: RewriteHandlers): string {
  let out = '';
  let previousWord = '';
  const nextSignificant = (from: number): string => {
    let j = from;
    while (j < sql.length && /\s/.test(sql[j]!)) j++;
    return sql[j] ?? '';
  };
  const lastSignificant = (): string => {
    const trimmed = out.trimEnd();
    return trimmed[trimmed.length - 1] ?? '';
  };
  for (let i = 0; i < sql.length; ) {
    const ch = sql[i]!;
    if (ch === "'") {
      const end = closing(sql, i, "'");
      out += sql.slice(i, end);
      i = end;
      previousWord = '';
      continue;
    }
    if (ch === '{') {
      const end = sql.indexOf('}', i);
      if (end < 0) throw new Unsupported(C.PUBLISH_UNSUPPORTED, `the SQL '${sql}' has an unclosed '{'`);
      out += handlers.reference(sql.slice(i + 1, end));
      i = end + 1;
      previousWord = '';
      continue;
    }
    if (ch === '"' || ch === '`') {
      const end = closing(sql, i, ch);
      const name = sql.slice(i + 1, end - 1).replace(ch === '"' ? /""/g : /``/g, ch);
      const written = backtick(name);
      const before = lastSignificant();
      const after = nextSignificant(end);
      if (before === '.' || after === '(') out += written;
      else if (after === '.') out += written;
      else out += handlers.column(written);
      i = end;
      previousWord = '';
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      let end = i + 1;
      while (end < sql.length && /[\w$]/.test(sql[end]!)) end++;
      const word = sql.slice(i, end);
      const before = lastSignificant();
      const after = nextSignificant(end);
      const upper = word.toUpperCase();
      if (before === '.' || /[0-9]/.test(before) && /^[eE]/.test(word)) out += word;
      else if (after === '.') out += handlers.qualifier(word);
      else if (after === '(' || SQL_WORDS.has(upper) || previousWord === 'AS' || after === "'") out += word;
      else out += handlers.column(identifier(word));
      previousWord = upper;
      i = end;
      continue;
    }
    if (/[0-9]/.test(ch)) {
      let end = i + 1;
      while (end < sql.length && /[\w.]/.test(sql[end]!)) end++;
      out += sql.slice(i, end);
      i = end;
      previousWord = '';
      continue;
    }
    out += ch;
    if (!/\s/.test(ch)) previousWord = '';
    i++;
  }
  return out.trim();
}
