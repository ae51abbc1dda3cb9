/**
 * CREATE [OR REPLACE] SEMANTIC VIEW [IF NOT EXISTS] name TABLES (...) [RELATIONSHIPS (...)]
 * [FACTS (...)] [DIMENSIONS (...)] [METRICS (...)] [COMMENT = '...'] [AI_SQL_GENERATION '...']
 * [AI_QUESTION_CATEGORIZATION '...'] [COPY GRANTS], in the
 * fixed clause order of Snowflake's grammar: logical tables with keys, synonyms and comments,
 * relationships (ASOF parsed), and table-qualified facts, dimensions and metrics (a metric
 * without a table is a view-level derived metric).
 */
import type {
  CreateSemanticViewStatement,
  Identifier,
  LogicalTableNode,
  RelationshipNode,
  SemanticExpressionKind,
  SemanticExpressionNode,
} from './ast';
import { position } from './cursor';
import type { SqlParser } from './expression';
import type { Token } from './tokens';

export function parseCreateSemanticView(p: SqlParser, start: Token, orReplace: boolean): CreateSemanticViewStatement {
  p.expectWord('SEMANTIC');
  p.expectWord('VIEW');
  const ifNotExists = p.ifNotExists(orReplace);
  const name = p.qualifiedName();
  p.expectWord('TABLES');
  const tables = p.parenthesisedList(() => logicalTable(p));
  const relationships = p.acceptWord('RELATIONSHIPS') ? p.parenthesisedList(() => relationship(p)) : [];
  const facts = p.acceptWord('FACTS') ? p.parenthesisedList(() => semanticExpression(p, 'FACT')) : [];
  const dimensions = p.acceptWord('DIMENSIONS') ? p.parenthesisedList(() => semanticExpression(p, 'DIMENSION')) : [];
  const metrics = p.acceptWord('METRICS') ? p.parenthesisedList(() => semanticExpression(p, 'METRIC')) : [];
  const comment = p.optionalComment();
  // The Cortex Analyst instructions follow the comment, in this order, each a string without `=`.
  const aiSqlGeneration = p.acceptWord('AI_SQL_GENERATION') ? p.stringLiteral() : null;
  const aiQuestionCategorization = p.acceptWord('AI_QUESTION_CATEGORIZATION') ? p.stringLiteral() : null;
  const copyGrants = p.acceptWord('COPY') ? (p.expectWord('GRANTS'), true) : false;
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
    aiSqlGeneration,
    aiQuestionCategorization,
    copyGrants,
    pos: position(start),
  };
}

function logicalTable(p: SqlParser): LogicalTableNode {
  const start = p.peek();
  let alias: Identifier | null = null;
  if (p.atIdentifier() && p.isWord(p.peek(1), 'AS')) {
    alias = p.identifier();
    p.expectWord('AS');
  }
  const table = p.qualifiedName();
  let primaryKey: Identifier[] | null = null;
  if (p.acceptWord('PRIMARY')) {
    p.expectWord('KEY');
    primaryKey = p.identifierList();
  }
  const uniqueKeys: Identifier[][] = [];
  while (p.acceptWord('UNIQUE')) uniqueKeys.push(p.identifierList());
  const synonyms = p.optionalSynonyms();
  const comment = p.optionalComment();
  return { alias, table, primaryKey, uniqueKeys, synonyms, comment, pos: position(start) };
}

function relationship(p: SqlParser): RelationshipNode {
  const start = p.peek();
  let name: Identifier | null = null;
  if (p.atIdentifier() && p.isWord(p.peek(1), 'AS')) {
    name = p.identifier();
    p.expectWord('AS');
  }
  const table = p.identifier();
  const columns = p.identifierList();
  p.expectWord('REFERENCES');
  const refTable = p.identifier();
  let refColumns: Identifier[] | null = null;
  let asof = false;
  if (p.atPunct('(')) {
    p.next();
    refColumns = [];
    do {
      if (p.acceptWord('ASOF')) asof = true;
      refColumns.push(p.identifier());
    } while (p.acceptPunct(','));
    p.expectPunct(')');
  }
  return { name, table, columns, refTable, refColumns, asof, pos: position(start) };
}

function semanticExpression(p: SqlParser, kind: SemanticExpressionKind): SemanticExpressionNode {
  const start = p.peek();
  let accessModifier: 'PUBLIC' | 'PRIVATE' | null = null;
  // `PUBLIC orders.x` is a modifier; `public.x` names a table aliased PUBLIC.
  if (kind !== 'DIMENSION' && (p.atWord('PUBLIC') || p.atWord('PRIVATE')) && !p.atPunct('.', 1)) {
    accessModifier = p.next().value as 'PUBLIC' | 'PRIVATE';
  }
  const first = p.identifier();
  let table: Identifier | null = first;
  let name: Identifier;
  if (p.acceptPunct('.')) {
    name = p.identifier();
  } else if (kind === 'METRIC') {
    table = null;
    name = first;
  } else {
    return p.fail();
  }
  p.expectWord('AS');
  const expressionStart = p.peek();
  const expression = p.expression();
  const expressionText = p.sql.slice(expressionStart.offset, p.previous().end);
  const synonyms = p.optionalSynonyms();
  const comment = p.optionalComment();
  return { kind, accessModifier, table, name, expression, expressionText, synonyms, comment, pos: position(start) };
}
