/**
 * Just enough SQL lexing to rewrite a vendor's query into DuckDB SQL without losing what the user
 * wrote: tokens keep their offsets, so a rewrite replaces spans (a member reference, a MEASURE()
 * call, a SEMANTIC_VIEW(...) clause) and leaves every other character as it was. Snowflake quotes
 * identifiers with "double quotes", Databricks with `backticks`; strings are 'single-quoted' in both.
 */

export type SqlTokenKind = 'word' | 'quoted' | 'string' | 'number' | 'punct';

export interface SqlToken {
  kind: SqlTokenKind;
  /** As written. */
  text: string;
  /** Words upper-cased; quoted identifiers decoded; other tokens as written. */
  value: string;
  start: number;
  end: number;
}

export class SqlTextError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'SqlTextError';
  }
}

const TWO_CHAR = new Set(['::', '||', '<=', '>=', '<>', '!=', '=>']);

export function tokenizeSql(sql: string, quote: '"' | '`'): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const ch = sql[i]!;
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    if ((ch === '-' && sql[i + 1] === '-') || (ch === '/' && sql[i + 1] === '/' && quote === '"')) {
      while (i < n && sql[i] !== '\n') i += 1;
      continue;
    }
    if (ch === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      if (close < 0) throw new SqlTextError('Unterminated comment.', i);
      i = close + 2;
      continue;
    }
    const start = i;
    const push = (kind: SqlTokenKind, value: string) => tokens.push({ kind, text: sql.slice(start, i), value, start, end: i });
    if (/[A-Za-z_]/.test(ch)) {
      while (i < n && /[A-Za-z0-9_$]/.test(sql[i]!)) i += 1;
      push('word', sql.slice(start, i).toUpperCase());
    } else if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      while (i < n && /[0-9.]/.test(sql[i]!)) i += 1;
      if ((sql[i] === 'e' || sql[i] === 'E') && /[0-9+-]/.test(sql[i + 1] ?? '')) {
        i += 2;
        while (i < n && /[0-9]/.test(sql[i]!)) i += 1;
      }
      push('number', sql.slice(start, i));
    } else if (ch === quote || ch === "'") {
      let value = '';
      i += 1;
      for (;;) {
        if (i >= n) throw new SqlTextError(ch === "'" ? 'Unterminated string literal.' : 'Unterminated quoted identifier.', start);
        const c = sql[i]!;
        if (c === ch && sql[i + 1] === ch) {
          value += ch;
          i += 2;
        } else if (c === ch) {
          i += 1;
          break;
        } else if (c === '\\' && ch === "'" && i + 1 < n) {
          value += sql[i + 1];
          i += 2;
        } else {
          value += c;
          i += 1;
        }
      }
      push(ch === "'" ? 'string' : 'quoted', value);
    } else {
      const two = sql.slice(i, i + 2);
      i += TWO_CHAR.has(two) ? 2 : 1;
      push('punct', sql.slice(start, i));
    }
  }
  return tokens;
}

export const isIdent = (t: SqlToken | undefined): boolean => t !== undefined && (t.kind === 'word' || t.kind === 'quoted');
export const isPunct = (t: SqlToken | undefined, text: string): boolean => t !== undefined && t.kind === 'punct' && t.text === text;
export const isWord = (t: SqlToken | undefined, ...words: string[]): boolean => t !== undefined && t.kind === 'word' && words.includes(t.value);

/** An identifier chain `a`, `a.b`, `a.b.c` starting at `index` (not itself after a dot), or null. */
export function chainAt(tokens: SqlToken[], index: number): { parts: SqlToken[]; next: number } | null {
  if (!isIdent(tokens[index]) || isPunct(tokens[index - 1], '.')) return null;
  const parts = [tokens[index]!];
  let i = index + 1;
  while (isPunct(tokens[i], '.') && isIdent(tokens[i + 1])) {
    parts.push(tokens[i + 1]!);
    i += 2;
  }
  return { parts, next: i };
}

/** The index of the `)` closing the `(` at `open`. */
export function closingParen(tokens: SqlToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i += 1) {
    if (isPunct(tokens[i], '(')) depth += 1;
    else if (isPunct(tokens[i], ')')) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new SqlTextError('Unbalanced parentheses.', tokens[open]?.start ?? 0);
}

/** Splits tokens `[from, to)` at depth-0 commas. */
export function splitTopLevel(tokens: SqlToken[], from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < to; i += 1) {
    if (isPunct(tokens[i], '(')) depth += 1;
    else if (isPunct(tokens[i], ')')) depth -= 1;
    else if (depth === 0 && isPunct(tokens[i], ',')) {
      out.push([start, i]);
      start = i + 1;
    }
  }
  if (start < to) out.push([start, to]);
  return out;
}

export interface Span {
  start: number;
  end: number;
  text: string;
}

/** `sql` with each (non-overlapping) span replaced. */
export function replaceSpans(sql: string, spans: Span[]): string {
  let out = '';
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    out += sql.slice(at, span.start) + span.text;
    at = span.end;
  }
  return out + sql.slice(at);
}

/**
 * Rewrites every identifier chain of `sql[from, to)` that `resolve` maps (function names, i.e.
 * chains followed by `(`, are passed with `call: true`). Returns the rewritten text of the range.
 */
export function rewriteChains(
  sql: string,
  tokens: SqlToken[],
  from: number,
  to: number,
  resolve: (parts: SqlToken[], info: { call: boolean; afterAs: boolean; index: number; next: number }) => { text: string; next?: number } | null,
): string {
  const spans: Span[] = [];
  let i = from;
  while (i < to) {
    const chain = chainAt(tokens, i);
    if (!chain || chain.next > to) {
      i += 1;
      continue;
    }
    const hit = resolve(chain.parts, { call: isPunct(tokens[chain.next], '('), afterAs: isWord(tokens[i - 1], 'AS'), index: i, next: chain.next });
    if (hit) {
      const next = hit.next ?? chain.next;
      spans.push({ start: tokens[i]!.start, end: tokens[next - 1]!.end, text: hit.text });
      i = next;
    } else i = chain.next;
  }
  if (from >= to) return '';
  const begin = tokens[from]!.start;
  const end = tokens[to - 1]!.end;
  return replaceSpans(sql.slice(begin, end), spans.map((s) => ({ ...s, start: s.start - begin, end: s.end - begin })));
}

export const duckIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
