/**
 * The tokenizer of the warehouse emulator's SQL: words (upper-cased values), double-quoted
 * identifiers, single-quoted and `$$` strings, numbers and punctuation, with `--`, `//` and
 * block comments skipped. Each token carries its line, column and offset so that syntax errors
 * can name the position of the offending token the way Snowflake does.
 */
import { syntaxErrorAt, type SourcePosition } from '../errors';

export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'punct' | 'eof';

export interface Token extends SourcePosition {
  kind: TokenKind;
  /** The token as written. */
  text: string;
  /** Words: upper-cased text. Quoted identifiers and strings: the decoded content. Others: text. */
  value: string;
  /** Offset just past the token. */
  end: number;
}

const TWO_CHAR_PUNCT = new Set(['::', '||', '<=', '>=', '<>', '!=', '=>']);
const ONE_CHAR_PUNCT = new Set(['(', ')', ',', '.', ';', '=', '<', '>', '+', '-', '*', '/', '%', ':', '[', ']', '{', '}', '~', '^', '|', '&', '?']);
const STRING_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', "'": "'", '"': '"', '\\': '\\' };

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = sql.length;
  const here = (): SourcePosition => ({ line, column: i - lineStart, offset: i });
  const eofError = (): never => {
    throw syntaxErrorAt(here(), '<EOF>');
  };
  const step = (): void => {
    if (sql[i] === '\n') {
      line += 1;
      lineStart = i + 1;
    }
    i += 1;
  };

  while (i < n) {
    const ch = sql[i];
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n' || ch === '\f' || ch === '\v') {
      step();
      continue;
    }
    if ((ch === '-' && sql[i + 1] === '-') || (ch === '/' && sql[i + 1] === '/')) {
      while (i < n && sql[i] !== '\n') i += 1;
      continue;
    }
    if (ch === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      if (close < 0) {
        while (i < n) step();
        eofError();
      }
      while (i < close + 2) step();
      continue;
    }

    const start = here();
    const push = (kind: TokenKind, value: string): void => {
      tokens.push({ ...start, kind, text: sql.slice(start.offset, i), value, end: i });
    };

    if (/[A-Za-z_]/.test(ch)) {
      while (i < n && /[A-Za-z0-9_$]/.test(sql[i])) i += 1;
      push('word', sql.slice(start.offset, i).toUpperCase());
      continue;
    }
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      while (i < n && /[0-9]/.test(sql[i])) i += 1;
      if (sql[i] === '.') {
        i += 1;
        while (i < n && /[0-9]/.test(sql[i])) i += 1;
      }
      if ((sql[i] === 'e' || sql[i] === 'E') && /[0-9+-]/.test(sql[i + 1] ?? '')) {
        i += 2;
        while (i < n && /[0-9]/.test(sql[i])) i += 1;
      }
      push('number', sql.slice(start.offset, i));
      continue;
    }
    if (ch === '"') {
      let value = '';
      step();
      for (;;) {
        if (i >= n) eofError();
        if (sql[i] === '"') {
          if (sql[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        value += sql[i];
        step();
      }
      push('quoted', value);
      continue;
    }
    if (ch === "'") {
      let value = '';
      i += 1;
      for (;;) {
        if (i >= n) eofError();
        const c = sql[i];
        if (c === "'") {
          if (sql[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (c === '\\' && i + 1 < n) {
          const escaped = sql[i + 1];
          value += STRING_ESCAPES[escaped] ?? escaped;
          i += 1;
          step();
          continue;
        }
        value += c;
        step();
      }
      push('string', value);
      continue;
    }
    if (ch === '$' && sql[i + 1] === '$') {
      const close = sql.indexOf('$$', i + 2);
      if (close < 0) {
        while (i < n) step();
        eofError();
      }
      const value = sql.slice(i + 2, close);
      while (i < close + 2) step();
      push('string', value);
      continue;
    }
    const two = sql.slice(i, i + 2);
    if (TWO_CHAR_PUNCT.has(two)) {
      i += 2;
      push('punct', two);
      continue;
    }
    if (ONE_CHAR_PUNCT.has(ch)) {
      i += 1;
      push('punct', ch);
      continue;
    }
    throw syntaxErrorAt(start, ch);
  }
  tokens.push({ ...here(), kind: 'eof', text: '', value: '', end: n });
  return tokens;
}
