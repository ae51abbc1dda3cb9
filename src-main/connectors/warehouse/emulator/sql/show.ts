/**
 * SHOW [TERSE] SEMANTIC VIEWS [LIKE '...'] [IN ACCOUNT | DATABASE [name] | SCHEMA [name] | name]
 * [STARTS WITH '...'] [LIMIT n [FROM '...']], SHOW [TERSE] SCHEMAS [IN ACCOUNT | [DATABASE] name]
 * and SHOW [TERSE] DATABASES; the other SHOW commands Snowflake has are recognised and refused as
 * not executed.
 */
import { unsupported } from '../errors';
import type { ShowDatabasesStatement, ShowSchemasStatement, ShowScope, ShowSemanticViewsStatement } from './ast';
import { position } from './cursor';
import type { SqlParser } from './expression';

export function parseShow(p: SqlParser): ShowSemanticViewsStatement | ShowSchemasStatement | ShowDatabasesStatement {
  const start = p.expectWord('SHOW');
  const terse = p.acceptWord('TERSE');
  if (p.acceptWord('DATABASES')) return { type: 'show_databases', terse, pos: position(start) };
  if (p.acceptWord('SCHEMAS')) {
    let database = null;
    let account = false;
    if (p.acceptWord('IN')) {
      if (p.acceptWord('ACCOUNT')) account = true;
      else {
        p.acceptWord('DATABASE');
        database = p.qualifiedName();
      }
    }
    return { type: 'show_schemas', terse, database, account, pos: position(start) };
  }
  if (!p.atWord('SEMANTIC')) {
    const what = p.peek();
    if (what.kind === 'word') throw unsupported(`SHOW ${what.value} is not executed.`);
    return p.fail(what);
  }
  p.next();
  if (!p.acceptWord('VIEWS')) {
    const what = p.peek();
    if (what.kind === 'word' && ['DIMENSIONS', 'FACTS', 'METRICS'].includes(what.value)) throw unsupported(`SHOW SEMANTIC ${what.value} is not executed.`);
    return p.fail(what);
  }
  const like = p.acceptWord('LIKE') ? p.stringLiteral() : null;
  let scope: ShowScope | null = null;
  if (p.acceptWord('IN')) {
    const nameFollows = (): boolean => p.atIdentifier() && !p.atWord('STARTS', 'WITH') && !(p.atWord('LIMIT') && p.peek(1).kind === 'number');
    if (p.acceptWord('ACCOUNT')) scope = { kind: 'ACCOUNT' };
    else if (p.acceptWord('DATABASE')) scope = { kind: 'DATABASE', name: nameFollows() ? p.qualifiedName() : null };
    else if (p.acceptWord('SCHEMA')) scope = { kind: 'SCHEMA', name: nameFollows() ? p.qualifiedName() : null };
    else scope = { kind: 'SCHEMA', name: p.qualifiedName() };
  }
  let startsWith: string | null = null;
  if (p.acceptWord('STARTS')) {
    p.expectWord('WITH');
    startsWith = p.stringLiteral();
  }
  let limit: number | null = null;
  let limitFrom: string | null = null;
  if (p.acceptWord('LIMIT')) {
    const count = p.peek();
    if (count.kind !== 'number' || !/^[0-9]+$/.test(count.text)) p.fail(count);
    p.next();
    limit = Number(count.text);
    if (p.acceptWord('FROM')) limitFrom = p.stringLiteral();
  }
  return { type: 'show_semantic_views', terse, like, scope, startsWith, limit, limitFrom, pos: position(start) };
}
