/**
 * Tokenizer and recursive-descent parser for the SQL the local warehouse executes: the semantic
 * view DDL Drydock generates (Snowflake's CREATE SEMANTIC VIEW grammar, clause order fixed),
 * helper views, DROP, DESCRIBE, SHOW, GET_DDL and USE. Every syntax error names the line and
 * position of the offending token the way Snowflake does.
 */
import { MAX_IDENTIFIER_LENGTH, RESERVED_KEYWORDS } from '../identifiers';
import { compilationError, syntaxErrorAt, unsupported, type SourcePosition } from './errors';

// ---------------------------------------------------------------------------------------------
// Tokens

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

// ---------------------------------------------------------------------------------------------
// Syntax tree

export interface Identifier {
  /** As written, without quotes (quoted ones decoded). */
  text: string;
  quoted: boolean;
  pos: SourcePosition;
}

export interface QualifiedName {
  /** One to three parts: name, schema.name or database.schema.name. */
  parts: Identifier[];
  pos: SourcePosition;
}

export type ExpressionNode =
  | { kind: 'column'; parts: Identifier[]; pos: SourcePosition }
  | { kind: 'literal'; type: 'string' | 'number' | 'boolean' | 'null'; value: string; pos: SourcePosition }
  /** A bare date-part word such as `month` in `DATE_TRUNC(month, d)`. */
  | { kind: 'keyword'; value: string; pos: SourcePosition }
  | {
      kind: 'call';
      /** Upper-cased function name (quoted names keep their case). */
      name: string;
      distinct: boolean;
      star: boolean;
      args: ExpressionNode[];
      /** An OVER (...) clause follows: a window function. */
      window: boolean;
      pos: SourcePosition;
    }
  | { kind: 'unary'; op: string; operand: ExpressionNode; pos: SourcePosition }
  | { kind: 'binary'; op: string; left: ExpressionNode; right: ExpressionNode; pos: SourcePosition }
  | { kind: 'case'; operand: ExpressionNode | null; whens: { when: ExpressionNode; then: ExpressionNode }[]; otherwise: ExpressionNode | null; pos: SourcePosition }
  | { kind: 'cast'; expr: ExpressionNode; type: string; pos: SourcePosition }
  | { kind: 'predicate'; op: string; not: boolean; expr: ExpressionNode; args: ExpressionNode[]; pos: SourcePosition }
  | { kind: 'interval'; value: string; pos: SourcePosition };

export interface LogicalTableNode {
  alias: Identifier | null;
  table: QualifiedName;
  primaryKey: Identifier[] | null;
  uniqueKeys: Identifier[][];
  synonyms: string[];
  comment: string | null;
  pos: SourcePosition;
}

export interface RelationshipNode {
  name: Identifier | null;
  table: Identifier;
  columns: Identifier[];
  refTable: Identifier;
  refColumns: Identifier[] | null;
  /** `ASOF` on a referenced column (parsed; the emulator does not support it). */
  asof: boolean;
  pos: SourcePosition;
}

export type SemanticExpressionKind = 'FACT' | 'DIMENSION' | 'METRIC';

export interface SemanticExpressionNode {
  kind: SemanticExpressionKind;
  accessModifier: 'PUBLIC' | 'PRIVATE' | null;
  /** Null only for a derived metric (a metric named without a table). */
  table: Identifier | null;
  name: Identifier;
  expression: ExpressionNode;
  /** The expression exactly as written. */
  expressionText: string;
  synonyms: string[];
  comment: string | null;
  pos: SourcePosition;
}

export interface CreateSemanticViewStatement {
  type: 'create_semantic_view';
  orReplace: boolean;
  ifNotExists: boolean;
  name: QualifiedName;
  tables: LogicalTableNode[];
  relationships: RelationshipNode[];
  facts: SemanticExpressionNode[];
  dimensions: SemanticExpressionNode[];
  metrics: SemanticExpressionNode[];
  comment: string | null;
  copyGrants: boolean;
  pos: SourcePosition;
}

export interface CreateViewStatement {
  type: 'create_view';
  orReplace: boolean;
  ifNotExists: boolean;
  secure: boolean;
  name: QualifiedName;
  columns: Identifier[] | null;
  comment: string | null;
  copyGrants: boolean;
  /** The query after AS, exactly as written. */
  queryText: string;
  queryTokens: Token[];
  pos: SourcePosition;
}

export interface DropStatement {
  type: 'drop_semantic_view' | 'drop_view';
  ifExists: boolean;
  name: QualifiedName;
  pos: SourcePosition;
}

export interface DescribeSemanticViewStatement {
  type: 'describe_semantic_view';
  name: QualifiedName;
  pos: SourcePosition;
}

export type ShowScope =
  | { kind: 'ACCOUNT' }
  | { kind: 'DATABASE'; name: QualifiedName | null }
  | { kind: 'SCHEMA'; name: QualifiedName | null };

export interface ShowSemanticViewsStatement {
  type: 'show_semantic_views';
  terse: boolean;
  like: string | null;
  scope: ShowScope | null;
  startsWith: string | null;
  limit: number | null;
  limitFrom: string | null;
  pos: SourcePosition;
}

export interface GetDdlStatement {
  type: 'get_ddl';
  objectType: string;
  objectName: string;
  objectNamePos: SourcePosition;
  fullyQualified: boolean;
  /** Name of the result column (Snowflake names it after the expression, or the alias). */
  columnName: string;
  columnAlias: Identifier | null;
  pos: SourcePosition;
}

export interface UseStatement {
  type: 'use';
  objectKind: 'DATABASE' | 'SCHEMA' | 'ROLE' | 'WAREHOUSE';
  name: QualifiedName;
  pos: SourcePosition;
}

export type Statement =
  | CreateSemanticViewStatement
  | CreateViewStatement
  | DropStatement
  | DescribeSemanticViewStatement
  | ShowSemanticViewsStatement
  | GetDdlStatement
  | UseStatement;

// ---------------------------------------------------------------------------------------------
// Parser

/** Functions whose first argument may be a bare date part (`DATE_TRUNC(month, d)`). */
const DATE_PART_FUNCTIONS = new Set([
  'DATE_TRUNC', 'TIME_SLICE', 'DATEADD', 'DATEDIFF', 'TIMEADD', 'TIMEDIFF', 'TIMESTAMPADD', 'TIMESTAMPDIFF', 'DATE_PART', 'LAST_DAY', 'TRUNC',
]);
const DATE_PARTS = new Set([
  'YEAR', 'YEARS', 'Y', 'YY', 'YYY', 'YYYY', 'YR', 'YRS', 'QUARTER', 'QUARTERS', 'Q', 'QTR', 'QTRS', 'MONTH', 'MONTHS', 'MM', 'MON', 'MONS',
  'WEEK', 'WEEKS', 'W', 'WK', 'WEEKOFYEAR', 'WOY', 'WY', 'DAY', 'DAYS', 'D', 'DD', 'DAYOFMONTH', 'DAYOFWEEK', 'DOW', 'DAYOFYEAR', 'DOY',
  'HOUR', 'HOURS', 'H', 'HH', 'HR', 'HRS', 'MINUTE', 'MINUTES', 'M', 'MI', 'MIN', 'MINS', 'SECOND', 'SECONDS', 'S', 'SEC', 'SECS',
  'MILLISECOND', 'MS', 'MSEC', 'MICROSECOND', 'US', 'USEC', 'NANOSECOND', 'NS', 'NSEC', 'EPOCH_SECOND', 'EPOCH', 'EPOCH_MILLISECOND',
  'EPOCH_MICROSECOND', 'EPOCH_NANOSECOND', 'YEAROFWEEK', 'YEAROFWEEKISO', 'WEEKISO', 'DAYOFWEEKISO',
]);
/** Reserved words that are also niladic functions. */
const NILADIC_FUNCTIONS = new Set(['CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'CURRENT_USER', 'LOCALTIME', 'LOCALTIMESTAMP']);
const COMPARISON_OPS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
/** Statements of Snowflake SQL the emulator recognises but does not execute. */
const KNOWN_UNSUPPORTED_VERBS = new Set([
  'ALTER', 'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'TRUNCATE', 'GRANT', 'REVOKE', 'WITH', 'CALL', 'COPY', 'PUT', 'GET', 'LIST', 'REMOVE',
  'UNDROP', 'COMMENT', 'EXPLAIN', 'BEGIN', 'START', 'COMMIT', 'ROLLBACK', 'SET', 'UNSET', 'EXECUTE',
]);

class Parser {
  private index = 0;

  constructor(
    private readonly sql: string,
    private readonly tokens: Token[],
  ) {}

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)];
  }

  previous(): Token {
    return this.tokens[Math.max(0, this.index - 1)];
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.index += 1;
    return token;
  }

  fail(token: Token = this.peek()): never {
    throw syntaxErrorAt(token, token.kind === 'eof' ? '<EOF>' : token.text);
  }

  isWord(token: Token, word: string): boolean {
    return token.kind === 'word' && token.value === word;
  }

  atWord(...words: string[]): boolean {
    return words.every((word, offset) => this.isWord(this.peek(offset), word));
  }

  acceptWord(...words: string[]): boolean {
    if (!this.atWord(...words)) return false;
    this.index += words.length;
    return true;
  }

  expectWord(word: string): Token {
    if (!this.isWord(this.peek(), word)) this.fail();
    return this.next();
  }

  atPunct(punct: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'punct' && token.value === punct;
  }

  acceptPunct(punct: string): boolean {
    if (!this.atPunct(punct)) return false;
    this.index += 1;
    return true;
  }

  expectPunct(punct: string): Token {
    if (!this.atPunct(punct)) this.fail();
    return this.next();
  }

  atEnd(): boolean {
    return this.peek().kind === 'eof' || this.atPunct(';');
  }

  /** True when the next token can start an identifier. */
  atIdentifier(ahead = 0): boolean {
    const token = this.peek(ahead);
    return (token.kind === 'word' && !RESERVED_KEYWORDS.has(token.value)) || token.kind === 'quoted';
  }

  identifier(): Identifier {
    const token = this.peek();
    if (token.kind === 'word' && !RESERVED_KEYWORDS.has(token.value)) {
      if (token.text.length > MAX_IDENTIFIER_LENGTH) throw compilationError(`Identifier '${token.text.slice(0, 32)}...' is too long.`, token);
      this.next();
      return { text: token.text, quoted: false, pos: position(token) };
    }
    if (token.kind === 'quoted') {
      if (token.value.length === 0 || token.value.length > MAX_IDENTIFIER_LENGTH) this.fail(token);
      this.next();
      return { text: token.value, quoted: true, pos: position(token) };
    }
    return this.fail(token);
  }

  qualifiedName(): QualifiedName {
    const first = this.identifier();
    const parts = [first];
    while (parts.length < 3 && this.atPunct('.')) {
      this.next();
      parts.push(this.identifier());
    }
    return { parts, pos: first.pos };
  }

  identifierList(): Identifier[] {
    this.expectPunct('(');
    const list = [this.identifier()];
    while (this.acceptPunct(',')) list.push(this.identifier());
    this.expectPunct(')');
    return list;
  }

  stringLiteral(): string {
    const token = this.peek();
    if (token.kind !== 'string') this.fail(token);
    this.next();
    return token.value;
  }

  parenthesisedList<T>(item: () => T): T[] {
    this.expectPunct('(');
    const list = [item()];
    while (this.acceptPunct(',')) list.push(item());
    this.expectPunct(')');
    return list;
  }

  // ----- statements

  statements(): { statement: Statement; text: string }[] {
    const result: { statement: Statement; text: string }[] = [];
    for (;;) {
      while (this.acceptPunct(';'));
      if (this.peek().kind === 'eof') return result;
      const first = this.peek();
      const statement = this.statement();
      const text = this.sql.slice(first.offset, this.previous().end);
      if (!this.atEnd()) this.fail();
      result.push({ statement, text });
    }
  }

  statement(): Statement {
    const first = this.peek();
    if (first.kind !== 'word') return this.fail(first);
    switch (first.value) {
      case 'CREATE':
        return this.create();
      case 'DROP':
        return this.drop();
      case 'DESCRIBE':
      case 'DESC':
        return this.describe();
      case 'SHOW':
        return this.show();
      case 'SELECT':
        return this.select();
      case 'USE':
        return this.use();
      default:
        if (KNOWN_UNSUPPORTED_VERBS.has(first.value)) throw unsupported(`${first.value} statements are not executed (line ${first.line}).`);
        return this.fail(first);
    }
  }

  create(): Statement {
    const start = this.expectWord('CREATE');
    const orReplace = this.acceptWord('OR', 'REPLACE');
    if (this.atWord('SEMANTIC')) return this.createSemanticView(start, orReplace);
    const secure = this.acceptWord('SECURE');
    if (this.atWord('VIEW')) return this.createView(start, orReplace, secure);
    const what = this.peek();
    if (what.kind === 'word' && !secure && ['TABLE', 'DATABASE', 'SCHEMA', 'WAREHOUSE', 'ROLE', 'TRANSIENT', 'TEMPORARY', 'TEMP'].includes(what.value)) {
      throw unsupported(`CREATE ${what.value} is not executed; seed base tables through the emulator's createTable().`);
    }
    return this.fail(what);
  }

  ifNotExists(orReplace: boolean): boolean {
    if (!this.atWord('IF')) return false;
    const at = this.peek();
    this.expectWord('IF');
    this.expectWord('NOT');
    this.expectWord('EXISTS');
    if (orReplace) throw compilationError('OR REPLACE and IF NOT EXISTS are incompatible.', at);
    return true;
  }

  createSemanticView(start: Token, orReplace: boolean): CreateSemanticViewStatement {
    this.expectWord('SEMANTIC');
    this.expectWord('VIEW');
    const ifNotExists = this.ifNotExists(orReplace);
    const name = this.qualifiedName();
    this.expectWord('TABLES');
    const tables = this.parenthesisedList(() => this.logicalTable());
    const relationships = this.acceptWord('RELATIONSHIPS') ? this.parenthesisedList(() => this.relationship()) : [];
    const facts = this.acceptWord('FACTS') ? this.parenthesisedList(() => this.semanticExpression('FACT')) : [];
    const dimensions = this.acceptWord('DIMENSIONS') ? this.parenthesisedList(() => this.semanticExpression('DIMENSION')) : [];
    const metrics = this.acceptWord('METRICS') ? this.parenthesisedList(() => this.semanticExpression('METRIC')) : [];
    const comment = this.optionalComment();
    const copyGrants = this.acceptWord('COPY') ? (this.expectWord('GRANTS'), true) : false;
    return {
      type: 'create_semantic_view',
      orReplace,
      ifNotExists,
      name,
      tables,
      relationships,
      facts,
      dimensions,
      metrics,
      comment,
      copyGrants,
      pos: position(start),
    };
  }

  optionalComment(): string | null {
    if (!this.atWord('COMMENT')) return null;
    this.next();
    this.expectPunct('=');
    return this.stringLiteral();
  }

  optionalSynonyms(): string[] {
    if (!this.atWord('WITH', 'SYNONYMS')) return [];
    this.next();
    this.next();
    this.acceptPunct('=');
    return this.parenthesisedList(() => this.stringLiteral());
  }

  logicalTable(): LogicalTableNode {
    const start = this.peek();
    let alias: Identifier | null = null;
    if (this.atIdentifier() && this.isWord(this.peek(1), 'AS')) {
      alias = this.identifier();
      this.expectWord('AS');
    }
    const table = this.qualifiedName();
    let primaryKey: Identifier[] | null = null;
    if (this.acceptWord('PRIMARY')) {
      this.expectWord('KEY');
      primaryKey = this.identifierList();
    }
    const uniqueKeys: Identifier[][] = [];
    while (this.acceptWord('UNIQUE')) uniqueKeys.push(this.identifierList());
    const synonyms = this.optionalSynonyms();
    const comment = this.optionalComment();
    return { alias, table, primaryKey, uniqueKeys, synonyms, comment, pos: position(start) };
  }

  relationship(): RelationshipNode {
    const start = this.peek();
    let name: Identifier | null = null;
    if (this.atIdentifier() && this.isWord(this.peek(1), 'AS')) {
      name = this.identifier();
      this.expectWord('AS');
    }
    const table = this.identifier();
    const columns = this.identifierList();
    this.expectWord('REFERENCES');
    const refTable = this.identifier();
    let refColumns: Identifier[] | null = null;
    let asof = false;
    if (this.atPunct('(')) {
      this.next();
      refColumns = [];
      do {
        if (this.acceptWord('ASOF')) asof = true;
        refColumns.push(this.identifier());
      } while (this.acceptPunct(','));
      this.expectPunct(')');
    }
    return { name, table, columns, refTable, refColumns, asof, pos: position(start) };
  }

  semanticExpression(kind: SemanticExpressionKind): SemanticExpressionNode {
    const start = this.peek();
    let accessModifier: 'PUBLIC' | 'PRIVATE' | null = null;
    // `PUBLIC orders.x` is a modifier; `public.x` names a table aliased PUBLIC.
    if (kind !== 'DIMENSION' && (this.atWord('PUBLIC') || this.atWord('PRIVATE')) && !this.atPunct('.', 1)) {
      accessModifier = this.next().value as 'PUBLIC' | 'PRIVATE';
    }
    const first = this.identifier();
    let table: Identifier | null = first;
    let name: Identifier;
    if (this.acceptPunct('.')) {
      name = this.identifier();
    } else if (kind === 'METRIC') {
      table = null;
      name = first;
    } else {
      return this.fail();
    }
    this.expectWord('AS');
    const expressionStart = this.peek();
    const expression = this.expression();
    const expressionText = this.sql.slice(expressionStart.offset, this.previous().end);
    const synonyms = this.optionalSynonyms();
    const comment = this.optionalComment();
    return { kind, accessModifier, table, name, expression, expressionText, synonyms, comment, pos: position(start) };
  }

  createView(start: Token, orReplace: boolean, secure: boolean): CreateViewStatement {
    this.expectWord('VIEW');
    const ifNotExists = this.ifNotExists(orReplace);
    const name = this.qualifiedName();
    let columns: Identifier[] | null = null;
    if (this.atPunct('(')) {
      columns = this.parenthesisedList(() => {
        const column = this.identifier();
        if (this.acceptWord('COMMENT')) this.stringLiteral();
        return column;
      });
    }
    const comment = this.optionalComment();
    const copyGrants = this.acceptWord('COPY') ? (this.expectWord('GRANTS'), true) : false;
    this.expectWord('AS');
    const queryStart = this.peek();
    if (!(this.isWord(queryStart, 'SELECT') || this.isWord(queryStart, 'WITH') || this.atPunct('('))) this.fail(queryStart);
    // The query runs to the end of the statement; only its parentheses are checked here.
    const queryTokens: Token[] = [];
    let depth = 0;
    while (!(depth === 0 && this.atEnd())) {
      const token = this.peek();
      if (token.kind === 'eof') this.fail(token);
      if (token.kind === 'punct' && token.value === '(') depth += 1;
      if (token.kind === 'punct' && token.value === ')') {
        if (depth === 0) this.fail(token);
        depth -= 1;
      }
      queryTokens.push(this.next());
    }
    const queryText = this.sql.slice(queryStart.offset, this.previous().end);
    return { type: 'create_view', orReplace, ifNotExists, secure, name, columns, comment, copyGrants, queryText, queryTokens, pos: position(start) };
  }

  drop(): DropStatement {
    const start = this.expectWord('DROP');
    let type: DropStatement['type'];
    if (this.acceptWord('SEMANTIC')) {
      this.expectWord('VIEW');
      type = 'drop_semantic_view';
    } else if (this.acceptWord('VIEW')) {
      type = 'drop_view';
    } else {
      const what = this.peek();
      if (what.kind === 'word' && ['TABLE', 'DATABASE', 'SCHEMA', 'WAREHOUSE', 'ROLE'].includes(what.value)) {
        throw unsupported(`DROP ${what.value} is not executed.`);
      }
      return this.fail(what);
    }
    const ifExists = this.acceptWord('IF') ? (this.expectWord('EXISTS'), true) : false;
    return { type, ifExists, name: this.qualifiedName(), pos: position(start) };
  }

  describe(): DescribeSemanticViewStatement {
    const start = this.next();
    if (!this.atWord('SEMANTIC')) {
      const what = this.peek();
      if (what.kind === 'word' && ['TABLE', 'VIEW', 'DATABASE', 'SCHEMA', 'WAREHOUSE'].includes(what.value)) {
        throw unsupported(`DESCRIBE ${what.value} is not executed.`);
      }
      return this.fail(what);
    }
    this.next();
    this.expectWord('VIEW');
    return { type: 'describe_semantic_view', name: this.qualifiedName(), pos: position(start) };
  }

  show(): ShowSemanticViewsStatement {
    const start = this.expectWord('SHOW');
    const terse = this.acceptWord('TERSE');
    if (!this.atWord('SEMANTIC')) {
      const what = this.peek();
      if (what.kind === 'word') throw unsupported(`SHOW ${what.value} is not executed.`);
      return this.fail(what);
    }
    this.next();
    if (!this.acceptWord('VIEWS')) {
      const what = this.peek();
      if (what.kind === 'word' && ['DIMENSIONS', 'FACTS', 'METRICS'].includes(what.value)) throw unsupported(`SHOW SEMANTIC ${what.value} is not executed.`);
      return this.fail(what);
    }
    const like = this.acceptWord('LIKE') ? this.stringLiteral() : null;
    let scope: ShowScope | null = null;
    if (this.acceptWord('IN')) {
      const nameFollows = (): boolean => this.atIdentifier() && !this.atWord('STARTS', 'WITH') && !(this.atWord('LIMIT') && this.peek(1).kind === 'number');
      if (this.acceptWord('ACCOUNT')) scope = { kind: 'ACCOUNT' };
      else if (this.acceptWord('DATABASE')) scope = { kind: 'DATABASE', name: nameFollows() ? this.qualifiedName() : null };
      else if (this.acceptWord('SCHEMA')) scope = { kind: 'SCHEMA', name: nameFollows() ? this.qualifiedName() : null };
      else scope = { kind: 'SCHEMA', name: this.qualifiedName() };
    }
    let startsWith: string | null = null;
    if (this.acceptWord('STARTS')) {
      this.expectWord('WITH');
      startsWith = this.stringLiteral();
    }
    let limit: number | null = null;
    let limitFrom: string | null = null;
    if (this.acceptWord('LIMIT')) {
      const count = this.peek();
      if (count.kind !== 'number' || !/^[0-9]+$/.test(count.text)) this.fail(count);
      this.next();
      limit = Number(count.text);
      if (this.acceptWord('FROM')) limitFrom = this.stringLiteral();
    }
    return { type: 'show_semantic_views', terse, like, scope, startsWith, limit, limitFrom, pos: position(start) };
  }

  select(): GetDdlStatement {
    const start = this.expectWord('SELECT');
    const fn = this.peek();
    if (!(this.isWord(fn, 'GET_DDL') && this.atPunct('(', 1))) {
      throw unsupported('SELECT statements other than SELECT GET_DDL(...) are not evaluated.');
    }
    this.next();
    this.expectPunct('(');
    const objectType = this.stringLiteral();
    this.expectPunct(',');
    const nameToken = this.peek();
    const objectName = this.stringLiteral();
    let fullyQualified = false;
    if (this.acceptPunct(',')) {
      const flag = this.peek();
      if (!(this.isWord(flag, 'TRUE') || this.isWord(flag, 'FALSE'))) this.fail(flag);
      fullyQualified = this.next().value === 'TRUE';
    }
    this.expectPunct(')');
    const columnName = this.sql.slice(fn.offset, this.previous().end).toUpperCase();
    let columnAlias: Identifier | null = null;
    if (this.acceptWord('AS') || this.atIdentifier()) columnAlias = this.identifier();
    if (!this.atEnd()) {
      if (this.atWord('FROM')) throw unsupported('SELECT ... FROM is not evaluated; only SELECT GET_DDL(...) is.');
      this.fail();
    }
    return { type: 'get_ddl', objectType, objectName, objectNamePos: position(nameToken), fullyQualified, columnName, columnAlias, pos: position(start) };
  }

  use(): UseStatement {
    const start = this.expectWord('USE');
    let objectKind: UseStatement['objectKind'] | null = null;
    for (const kind of ['DATABASE', 'SCHEMA', 'ROLE', 'WAREHOUSE'] as const) {
      if (this.atWord(kind) && this.atIdentifier(1)) {
        this.next();
        objectKind = kind;
        break;
      }
    }
    if (this.atWord('SECONDARY')) throw unsupported('USE SECONDARY ROLES is not executed.');
    const name = this.qualifiedName();
    // A bare `USE x` selects a database, and `USE x.y` a database and schema, as in Snowflake.
    const kind = objectKind ?? (name.parts.length === 2 ? 'SCHEMA' : 'DATABASE');
    const maxParts = kind === 'SCHEMA' ? 2 : 1;
    if (name.parts.length > maxParts) throw syntaxErrorAt(name.parts[maxParts].pos, name.parts[maxParts].text);
    return { type: 'use', objectKind: kind, name, pos: position(start) };
  }

  // ----- expressions

  expression(): ExpressionNode {
    return this.orExpression();
  }

  private orExpression(): ExpressionNode {
    let left = this.andExpression();
    while (this.atWord('OR')) {
      const op = this.next();
      left = { kind: 'binary', op: 'OR', left, right: this.andExpression(), pos: position(op) };
    }
    return left;
  }

  private andExpression(): ExpressionNode {
    let left = this.notExpression();
    while (this.atWord('AND')) {
      const op = this.next();
      left = { kind: 'binary', op: 'AND', left, right: this.notExpression(), pos: position(op) };
    }
    return left;
  }

  private notExpression(): ExpressionNode {
    if (this.atWord('NOT')) {
      const op = this.next();
      return { kind: 'unary', op: 'NOT', operand: this.notExpression(), pos: position(op) };
    }
    return this.comparison();
  }

  private comparison(): ExpressionNode {
    let left = this.concatenation();
    for (;;) {
      const token = this.peek();
      if (token.kind === 'punct' && COMPARISON_OPS.has(token.value)) {
        this.next();
        left = { kind: 'binary', op: token.value, left, right: this.concatenation(), pos: position(token) };
        continue;
      }
      if (this.atWord('IS')) {
        this.next();
        const not = this.acceptWord('NOT');
        if (this.acceptWord('NULL')) left = { kind: 'predicate', op: 'IS NULL', not, expr: left, args: [], pos: position(token) };
        else if (this.acceptWord('TRUE')) left = { kind: 'predicate', op: 'IS TRUE', not, expr: left, args: [], pos: position(token) };
        else if (this.acceptWord('FALSE')) left = { kind: 'predicate', op: 'IS FALSE', not, expr: left, args: [], pos: position(token) };
        else if (this.acceptWord('DISTINCT')) {
          this.expectWord('FROM');
          left = { kind: 'predicate', op: 'IS DISTINCT FROM', not, expr: left, args: [this.concatenation()], pos: position(token) };
        } else this.fail();
        continue;
      }
      const negated = this.atWord('NOT') && ['IN', 'BETWEEN', 'LIKE', 'ILIKE', 'RLIKE', 'REGEXP'].some((w) => this.isWord(this.peek(1), w));
      if (negated) this.next();
      if (this.acceptWord('IN')) {
        const args = this.parenthesisedList(() => this.expression());
        left = { kind: 'predicate', op: 'IN', not: negated, expr: left, args, pos: position(token) };
        continue;
      }
      if (this.acceptWord('BETWEEN')) {
        const low = this.concatenation();
        this.expectWord('AND');
        left = { kind: 'predicate', op: 'BETWEEN', not: negated, expr: left, args: [low, this.concatenation()], pos: position(token) };
        continue;
      }
      const likeOp = ['LIKE', 'ILIKE', 'RLIKE', 'REGEXP'].find((w) => this.atWord(w));
      if (likeOp) {
        this.next();
        const args = [this.concatenation()];
        if (this.acceptWord('ESCAPE')) args.push(this.primary());
        left = { kind: 'predicate', op: likeOp, not: negated, expr: left, args, pos: position(token) };
        continue;
      }
      if (negated) this.fail();
      return left;
    }
  }

  private concatenation(): ExpressionNode {
    let left = this.additive();
    while (this.atPunct('||')) {
      const op = this.next();
      left = { kind: 'binary', op: '||', left, right: this.additive(), pos: position(op) };
    }
    return left;
  }

  private additive(): ExpressionNode {
    let left = this.multiplicative();
    while (this.atPunct('+') || this.atPunct('-')) {
      const op = this.next();
      left = { kind: 'binary', op: op.value, left, right: this.multiplicative(), pos: position(op) };
    }
    return left;
  }

  private multiplicative(): ExpressionNode {
    let left = this.unary();
    while (this.atPunct('*') || this.atPunct('/') || this.atPunct('%')) {
      const op = this.next();
      left = { kind: 'binary', op: op.value, left, right: this.unary(), pos: position(op) };
    }
    return left;
  }

  private unary(): ExpressionNode {
    if (this.atPunct('-') || this.atPunct('+')) {
      const op = this.next();
      return { kind: 'unary', op: op.value, operand: this.unary(), pos: position(op) };
    }
    let expr = this.primary();
    while (this.atPunct('::')) {
      const op = this.next();
      expr = { kind: 'cast', expr, type: this.typeName(), pos: position(op) };
    }
    return expr;
  }

  private primary(): ExpressionNode {
    const token = this.peek();
    switch (token.kind) {
      case 'number':
        this.next();
        return { kind: 'literal', type: 'number', value: token.text, pos: position(token) };
      case 'string':
        this.next();
        return { kind: 'literal', type: 'string', value: token.value, pos: position(token) };
      case 'quoted':
        return this.identifierOrCall();
      case 'punct':
        if (token.value === '(') {
          this.next();
          if (this.atWord('SELECT') || this.atWord('WITH')) this.fail();
          const inner = this.expression();
          this.expectPunct(')');
          return inner;
        }
        return this.fail(token);
      case 'word':
        break;
      default:
        return this.fail(token);
    }
    switch (token.value) {
      case 'TRUE':
      case 'FALSE':
        this.next();
        return { kind: 'literal', type: 'boolean', value: token.value, pos: position(token) };
      case 'NULL':
        this.next();
        return { kind: 'literal', type: 'null', value: 'NULL', pos: position(token) };
      case 'CASE':
        return this.caseExpression();
      case 'CAST':
      case 'TRY_CAST': {
        this.next();
        this.expectPunct('(');
        const expr = this.expression();
        this.expectWord('AS');
        const type = this.typeName();
        this.expectPunct(')');
        return { kind: 'cast', expr, type, pos: position(token) };
      }
      case 'INTERVAL': {
        this.next();
        return { kind: 'interval', value: this.stringLiteral(), pos: position(token) };
      }
      case 'EXTRACT': {
        if (!this.atPunct('(', 1)) break;
        this.next();
        this.next();
        const part = this.peek();
        if (part.kind !== 'word' || !DATE_PARTS.has(part.value)) this.fail(part);
        this.next();
        this.expectWord('FROM');
        const from = this.expression();
        this.expectPunct(')');
        return {
          kind: 'call',
          name: 'EXTRACT',
          distinct: false,
          star: false,
          args: [{ kind: 'keyword', value: part.value, pos: position(part) }, from],
          window: false,
          pos: position(token),
        };
      }
      default:
        break;
    }
    if (NILADIC_FUNCTIONS.has(token.value)) {
      this.next();
      if (this.atPunct('(')) {
        this.next();
        this.expectPunct(')');
      }
      return { kind: 'call', name: token.value, distinct: false, star: false, args: [], window: false, pos: position(token) };
    }
    if (RESERVED_KEYWORDS.has(token.value)) {
      // LEFT and RIGHT are reserved but are also string functions.
      if ((token.value === 'LEFT' || token.value === 'RIGHT') && this.atPunct('(', 1)) return this.call(this.next());
      return this.fail(token);
    }
    return this.identifierOrCall();
  }

  private identifierOrCall(): ExpressionNode {
    if (this.atPunct('(', 1)) return this.call(this.next());
    const first = this.identifier();
    const parts = [first];
    while (this.atPunct('.')) {
      this.next();
      parts.push(this.identifier());
    }
    return { kind: 'column', parts, pos: first.pos };
  }

  private call(nameToken: Token): ExpressionNode {
    const name = nameToken.kind === 'quoted' ? nameToken.value : nameToken.value.toUpperCase();
    this.expectPunct('(');
    let distinct = false;
    let star = false;
    const args: ExpressionNode[] = [];
    if (this.atPunct('*')) {
      this.next();
      star = true;
    } else if (!this.atPunct(')')) {
      distinct = this.acceptWord('DISTINCT');
      if (!distinct) this.acceptWord('ALL');
      do {
        const token = this.peek();
        const datePartIndex = name === 'LAST_DAY' ? 1 : 0;
        if (
          DATE_PART_FUNCTIONS.has(name) &&
          args.length === datePartIndex &&
          token.kind === 'word' &&
          DATE_PARTS.has(token.value) &&
          (this.atPunct(',', 1) || this.atPunct(')', 1))
        ) {
          this.next();
          args.push({ kind: 'keyword', value: token.value, pos: position(token) });
        } else {
          args.push(this.expression());
        }
      } while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    if (this.acceptWord('WITHIN')) {
      this.expectWord('GROUP');
      this.skipParenthesised();
    }
    if (this.acceptWord('IGNORE') || this.acceptWord('RESPECT')) this.expectWord('NULLS');
    let window = false;
    if (this.acceptWord('OVER')) {
      this.skipParenthesised();
      window = true;
    }
    return { kind: 'call', name, distinct, star, args, window, pos: position(nameToken) };
  }

  /** Skips a balanced `( ... )` whose content the emulator does not interpret. */
  private skipParenthesised(): void {
    this.expectPunct('(');
    let depth = 1;
    while (depth > 0) {
      const token = this.next();
      if (token.kind === 'eof') this.fail(token);
      if (token.kind === 'punct' && token.value === '(') depth += 1;
      if (token.kind === 'punct' && token.value === ')') depth -= 1;
    }
  }

  private caseExpression(): ExpressionNode {
    const start = this.expectWord('CASE');
    if (this.atWord('END')) this.fail();
    const operand = this.atWord('WHEN') ? null : this.expression();
    const whens: { when: ExpressionNode; then: ExpressionNode }[] = [];
    while (this.acceptWord('WHEN')) {
      const when = this.expression();
      this.expectWord('THEN');
      whens.push({ when, then: this.expression() });
    }
    if (whens.length === 0) this.fail();
    const otherwise = this.acceptWord('ELSE') ? this.expression() : null;
    this.expectWord('END');
    return { kind: 'case', operand, whens, otherwise, pos: position(start) };
  }

  /** A data type name: `NUMBER(38, 2)`, `VARCHAR`, `DOUBLE PRECISION`, `TIMESTAMP WITH TIME ZONE`. */
  private typeName(): string {
    const first = this.peek();
    if (first.kind !== 'word') this.fail(first);
    this.next();
    const words = [first.value];
    if (first.value === 'DOUBLE' && this.acceptWord('PRECISION')) words.push('PRECISION');
    if ((first.value === 'CHAR' || first.value === 'CHARACTER') && this.acceptWord('VARYING')) words.push('VARYING');
    if (first.value === 'TIMESTAMP') {
      if (this.atWord('WITH', 'TIME', 'ZONE') || this.atWord('WITHOUT', 'TIME', 'ZONE')) {
        words.push(this.next().value, this.next().value, this.next().value);
      } else if (this.atWord('WITH', 'LOCAL', 'TIME', 'ZONE')) {
        words.push(this.next().value, this.next().value, this.next().value, this.next().value);
      }
    }
    let args = '';
    if (this.atPunct('(')) {
      this.next();
      const numbers: string[] = [];
      do {
        const number = this.peek();
        if (number.kind !== 'number') this.fail(number);
        numbers.push(this.next().text);
      } while (this.acceptPunct(','));
      this.expectPunct(')');
      args = `(${numbers.join(',')})`;
    }
    return words.join(' ') + args;
  }
}

function position(token: SourcePosition): SourcePosition {
  return { line: token.line, column: token.column, offset: token.offset };
}

// ---------------------------------------------------------------------------------------------
// Entry points

/** Parses a script of `;`-separated statements. */
export function parseStatements(sql: string): { statement: Statement; text: string }[] {
  return new Parser(sql, tokenize(sql)).statements();
}

/** Parses exactly one statement (a trailing `;` is allowed). */
export function parseStatement(sql: string): Statement {
  const statements = parseStatements(sql);
  if (statements.length === 0) throw syntaxErrorAt({ line: 1, column: 0, offset: 0 }, '<EOF>');
  if (statements.length > 1) throw compilationError(`Expected one statement, found ${statements.length}.`);
  return statements[0].statement;
}

/** Parses one semantic view DDL statement. */
export function parseSemanticViewDdl(sql: string): CreateSemanticViewStatement {
  const statement = parseStatement(sql);
  if (statement.type !== 'create_semantic_view') throw compilationError('Expected a CREATE SEMANTIC VIEW statement.');
  return statement;
}

/** Parses an expression on its own (used by tests and by type inference of helper views). */
export function parseExpression(sql: string): ExpressionNode {
  const parser = new Parser(sql, tokenize(sql));
  const expression = parser.expression();
  if (parser.peek().kind !== 'eof') parser.fail();
  return expression;
}

/** Parses an object name given as text, e.g. GET_DDL's `'db.schema."My View"'`. */
export function parseQualifiedNameText(text: string): QualifiedName {
  const parser = new Parser(text, tokenize(text));
  const name = parser.qualifiedName();
  if (parser.peek().kind !== 'eof') parser.fail();
  return name;
}
