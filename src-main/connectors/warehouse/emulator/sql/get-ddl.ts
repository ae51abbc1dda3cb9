/**
 * SELECT GET_DDL('type', 'name' [, fully_qualified]) [[AS] alias]: the only SELECT the emulator
 * evaluates. The result column is named after the call as written (upper-cased) or after the
 * alias, as Snowflake names it.
 */
import { unsupported } from '../errors';
import type { GetDdlStatement, Identifier } from './ast';
import { position } from './cursor';
import type { SqlParser } from './expression';

export function parseSelectGetDdl(p: SqlParser): GetDdlStatement {
  const start = p.expectWord('SELECT');
  const fn = p.peek();
  if (!(p.isWord(fn, 'GET_DDL') && p.atPunct('(', 1))) {
    throw unsupported('SELECT statements other than SELECT GET_DDL(...) are not evaluated.');
  }
  p.next();
  p.expectPunct('(');
  const objectType = p.stringLiteral();
  p.expectPunct(',');
  const nameToken = p.peek();
  const objectName = p.stringLiteral();
  let fullyQualified = false;
  if (p.acceptPunct(',')) {
    const flag = p.peek();
    if (!(p.isWord(flag, 'TRUE') || p.isWord(flag, 'FALSE'))) p.fail(flag);
    fullyQualified = p.next().value === 'TRUE';
  }
  p.expectPunct(')');
  const columnName = p.sql.slice(fn.offset, p.previous().end).toUpperCase();
  let columnAlias: Identifier | null = null;
  if (p.acceptWord('AS') || p.atIdentifier()) columnAlias = p.identifier();
  if (!p.atEnd()) {
    if (p.atWord('FROM')) throw unsupported('SELECT ... FROM is not evaluated; only SELECT GET_DDL(...) is.');
    p.fail();
  }
  return { type: 'get_ddl', objectType, objectName, objectNamePos: position(nameToken), fullyQualified, columnName, columnAlias, pos: position(start) };
}
