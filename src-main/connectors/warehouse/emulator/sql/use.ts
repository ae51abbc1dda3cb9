/**
 * USE [DATABASE | SCHEMA | ROLE | WAREHOUSE] name. A bare `USE x` selects a database and
 * `USE x.y` a database and schema, as in Snowflake; USE SECONDARY ROLES is refused as not
 * executed.
 */
import { syntaxErrorAt, unsupported } from '../errors';
import type { UseStatement } from './ast';
import { position } from './cursor';
import type { SqlParser } from './expression';

export function parseUse(p: SqlParser): UseStatement {
  const start = p.expectWord('USE');
  let objectKind: UseStatement['objectKind'] | null = null;
  for (const kind of ['DATABASE', 'SCHEMA', 'ROLE', 'WAREHOUSE'] as const) {
    if (p.atWord(kind) && p.atIdentifier(1)) {
      p.next();
      objectKind = kind;
      break;
    }
  }
  if (p.atWord('SECONDARY')) throw unsupported('USE SECONDARY ROLES is not executed.');
  const name = p.qualifiedName();
  // A bare `USE x` selects a database, and `USE x.y` a database and schema, as in Snowflake.
  const kind = objectKind ?? (name.parts.length === 2 ? 'SCHEMA' : 'DATABASE');
  const maxParts = kind === 'SCHEMA' ? 2 : 1;
  if (name.parts.length > maxParts) throw syntaxErrorAt(name.parts[maxParts].pos, name.parts[maxParts].text);
  return { type: 'use', objectKind: kind, name, pos: position(start) };
}
