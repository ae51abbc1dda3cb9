/**
 * CREATE SCHEMA [IF NOT EXISTS] [database.]schema. OR REPLACE (which drops what the schema holds)
 * and TRANSIENT / WITH MANAGED ACCESS / clone forms are refused as not executed.
 */
import { syntaxErrorAt, unsupported } from '../errors';
import type { CreateSchemaStatement } from './ast';
import { position } from './cursor';
import type { SqlParser } from './expression';
import type { Token } from './tokens';

export function parseCreateSchema(p: SqlParser, start: Token, orReplace: boolean): CreateSchemaStatement {
  if (orReplace) throw unsupported('CREATE OR REPLACE SCHEMA is not executed (it would drop the schema’s objects).');
  p.expectWord('SCHEMA');
  const ifNotExists = p.acceptWord('IF') ? (p.expectWord('NOT'), p.expectWord('EXISTS'), true) : false;
  const name = p.qualifiedName();
  if (name.parts.length > 2) throw syntaxErrorAt(name.parts[2].pos, name.parts[2].text);
  if (!p.atEnd() && !p.atPunct(';')) throw unsupported('CREATE SCHEMA options (CLONE, WITH MANAGED ACCESS, DATA_RETENTION_TIME_IN_DAYS, …) are not executed.');
  return { type: 'create_schema', ifNotExists, name, pos: position(start) };
}
