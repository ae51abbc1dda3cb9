/**
 * The parser of the SQL the local warehouse executes: the semantic view DDL Drydock generates
 * (Snowflake's CREATE SEMANTIC VIEW grammar, clause order fixed), helper views, DROP, DESCRIBE,
 * SHOW, GET_DDL and USE. This module splits a script into statements and hands each to the parser
 * module of its kind under `sql/` (one statement kind per module, all reading through one token
 * cursor and expression grammar); it also re-exports the tokenizer and the syntax tree types so
 * callers have one import. Every syntax error names the line and position of the offending token
 * the way Snowflake does.
 */
import { compilationError, syntaxErrorAt, unsupported } from './errors';
import type { CreateSemanticViewStatement, ExpressionNode, QualifiedName, Statement } from './sql/ast';
import { parseCreateSchema } from './sql/create-schema';
import { parseCreateSemanticView } from './sql/create-semantic-view';
import { parseCreateView } from './sql/create-view';
import { parseDescribe } from './sql/describe';
import { parseDrop } from './sql/drop';
import { SqlParser } from './sql/expression';
import { parseSelectGetDdl } from './sql/get-ddl';
import { parseShow } from './sql/show';
import { tokenize } from './sql/tokens';
import { parseUse } from './sql/use';

export { tokenize, type Token, type TokenKind } from './sql/tokens';
export type * from './sql/ast';

/** Statements of Snowflake SQL the emulator recognises but does not execute. */
const KNOWN_UNSUPPORTED_VERBS = new Set([
  'ALTER', 'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'TRUNCATE', 'GRANT', 'REVOKE', 'WITH', 'CALL', 'COPY', 'PUT', 'GET', 'LIST', 'REMOVE',
  'UNDROP', 'COMMENT', 'EXPLAIN', 'BEGIN', 'START', 'COMMIT', 'ROLLBACK', 'SET', 'UNSET', 'EXECUTE',
]);

function statements(p: SqlParser): { statement: Statement; text: string }[] {
  const result: { statement: Statement; text: string }[] = [];
  for (;;) {
    while (p.acceptPunct(';'));
    if (p.peek().kind === 'eof') return result;
    const first = p.peek();
    const statement = parseOne(p);
    const text = p.sql.slice(first.offset, p.previous().end);
    if (!p.atEnd()) p.fail();
    result.push({ statement, text });
  }
}

function parseOne(p: SqlParser): Statement {
  const first = p.peek();
  if (first.kind !== 'word') return p.fail(first);
  switch (first.value) {
    case 'CREATE':
      return parseCreate(p);
    case 'DROP':
      return parseDrop(p);
    case 'DESCRIBE':
    case 'DESC':
      return parseDescribe(p);
    case 'SHOW':
      return parseShow(p);
    case 'SELECT':
      return parseSelectGetDdl(p);
    case 'USE':
      return parseUse(p);
    default:
      if (KNOWN_UNSUPPORTED_VERBS.has(first.value)) throw unsupported(`${first.value} statements are not executed (line ${first.line}).`);
      return p.fail(first);
  }
}

function parseCreate(p: SqlParser): Statement {
  const start = p.expectWord('CREATE');
  const orReplace = p.acceptWord('OR', 'REPLACE');
  if (p.atWord('SEMANTIC')) return parseCreateSemanticView(p, start, orReplace);
  if (p.atWord('SCHEMA')) return parseCreateSchema(p, start, orReplace);
  const secure = p.acceptWord('SECURE');
  if (p.atWord('VIEW')) return parseCreateView(p, start, orReplace, secure);
  const what = p.peek();
  if (what.kind === 'word' && !secure && ['TABLE', 'DATABASE', 'WAREHOUSE', 'ROLE', 'TRANSIENT', 'TEMPORARY', 'TEMP'].includes(what.value)) {
    throw unsupported(`CREATE ${what.value} is not executed; seed base tables through the emulator's createTable().`);
  }
  return p.fail(what);
}

function parserFor(sql: string): SqlParser {
  return new SqlParser(sql, tokenize(sql));
}

/** Parses a script of `;`-separated statements. */
export function parseStatements(sql: string): { statement: Statement; text: string }[] {
  return statements(parserFor(sql));
}

/** Parses exactly one statement (a trailing `;` is allowed). */
export function parseStatement(sql: string): Statement {
  const parsed = parseStatements(sql);
  if (parsed.length === 0) throw syntaxErrorAt({ line: 1, column: 0, offset: 0 }, '<EOF>');
  if (parsed.length > 1) throw compilationError(`Expected one statement, found ${parsed.length}.`);
  return parsed[0].statement;
}

/** Parses one semantic view DDL statement. */
export function parseSemanticViewDdl(sql: string): CreateSemanticViewStatement {
  const statement = parseStatement(sql);
  if (statement.type !== 'create_semantic_view') throw compilationError('Expected a CREATE SEMANTIC VIEW statement.');
  return statement;
}

/** Parses an expression on its own (used by tests and by type inference of helper views). */
export function parseExpression(sql: string): ExpressionNode {
  const parser = parserFor(sql);
  const expression = parser.expression();
  if (parser.peek().kind !== 'eof') parser.fail();
  return expression;
}

/** Parses an object name given as text, e.g. GET_DDL's `'db.schema."My View"'`. */
export function parseQualifiedNameText(text: string): QualifiedName {
  const parser = parserFor(text);
  const name = parser.qualifiedName();
  if (parser.peek().kind !== 'eof') parser.fail();
  return name;
}
