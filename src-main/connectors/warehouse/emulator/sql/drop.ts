/**
 * DROP SEMANTIC VIEW and DROP VIEW [IF EXISTS] name; the other DROP targets Snowflake has are
 * recognised and refused as not executed.
 */
import { unsupported } from '../errors';
import type { DropStatement } from './ast';
import { position } from './cursor';
import type { SqlParser } from './expression';

export function parseDrop(p: SqlParser): DropStatement {
  const start = p.expectWord('DROP');
  let type: DropStatement['type'];
  if (p.acceptWord('SEMANTIC')) {
    p.expectWord('VIEW');
    type = 'drop_semantic_view';
  } else if (p.acceptWord('VIEW')) {
    type = 'drop_view';
  } else {
    const what = p.peek();
    if (what.kind === 'word' && ['TABLE', 'DATABASE', 'SCHEMA', 'WAREHOUSE', 'ROLE'].includes(what.value)) {
      throw unsupported(`DROP ${what.value} is not executed.`);
    }
    return p.fail(what);
  }
  const ifExists = p.acceptWord('IF') ? (p.expectWord('EXISTS'), true) : false;
  return { type, ifExists, name: p.qualifiedName(), pos: position(start) };
}
