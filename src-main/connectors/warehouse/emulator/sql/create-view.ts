/**
 * CREATE [OR REPLACE] [SECURE] VIEW [IF NOT EXISTS] name [(columns)] [COMMENT = '...']
 * [COPY GRANTS] AS query. The query is kept as text and tokens (only its parentheses are checked)
 * for the emulator's view-query analysis; it is not parsed further here.
 */
import type { CreateViewStatement, Identifier } from './ast';
import { position } from './cursor';
import type { SqlParser } from './expression';
import type { Token } from './tokens';

export function parseCreateView(p: SqlParser, start: Token, orReplace: boolean, secure: boolean): CreateViewStatement {
  p.expectWord('VIEW');
  const ifNotExists = p.ifNotExists(orReplace);
  const name = p.qualifiedName();
  let columns: Identifier[] | null = null;
  if (p.atPunct('(')) {
    columns = p.parenthesisedList(() => {
      const column = p.identifier();
      if (p.acceptWord('COMMENT')) p.stringLiteral();
      return column;
    });
  }
  const comment = p.optionalComment();
  const copyGrants = p.acceptWord('COPY') ? (p.expectWord('GRANTS'), true) : false;
  p.expectWord('AS');
  const queryStart = p.peek();
  if (!(p.isWord(queryStart, 'SELECT') || p.isWord(queryStart, 'WITH') || p.atPunct('('))) p.fail(queryStart);
  // The query runs to the end of the statement; only its parentheses are checked here.
  const queryTokens: Token[] = [];
  let depth = 0;
  while (!(depth === 0 && p.atEnd())) {
    const token = p.peek();
    if (token.kind === 'eof') p.fail(token);
    if (token.kind === 'punct' && token.value === '(') depth += 1;
    if (token.kind === 'punct' && token.value === ')') {
      if (depth === 0) p.fail(token);
      depth -= 1;
    }
    queryTokens.push(p.next());
  }
  const queryText = p.sql.slice(queryStart.offset, p.previous().end);
  return { type: 'create_view', orReplace, ifNotExists, secure, name, columns, comment, copyGrants, queryText, queryTokens, pos: position(start) };
}
