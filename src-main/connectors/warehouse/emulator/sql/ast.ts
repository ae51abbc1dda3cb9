/**
 * The syntax tree the warehouse emulator's parser produces: identifiers and qualified names,
 * expressions, and one node type per statement kind it executes (CREATE SEMANTIC VIEW, CREATE
 * VIEW, DROP, DESCRIBE, SHOW SEMANTIC VIEWS, SELECT GET_DDL, USE). Pure types, shared by the
 * parser modules, the semantic validator and the emulator.
 */
import type { SourcePosition } from '../errors';
import type { Token } from './tokens';

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
      /** The OVER clause, when there is one. */
      over: WindowSpecNode | null;
      pos: SourcePosition;
    }
  | { kind: 'unary'; op: string; operand: ExpressionNode; pos: SourcePosition }
  | { kind: 'binary'; op: string; left: ExpressionNode; right: ExpressionNode; pos: SourcePosition }
  | { kind: 'case'; operand: ExpressionNode | null; whens: { when: ExpressionNode; then: ExpressionNode }[]; otherwise: ExpressionNode | null; pos: SourcePosition }
  | { kind: 'cast'; expr: ExpressionNode; type: string; pos: SourcePosition }
  | { kind: 'predicate'; op: string; not: boolean; expr: ExpressionNode; args: ExpressionNode[]; pos: SourcePosition }
  | { kind: 'interval'; value: string; pos: SourcePosition };

/** `OVER ( [PARTITION BY [EXCLUDING] exprs] [ORDER BY exprs] [frame] )` of a window function. */
export interface WindowSpecNode {
  partitionBy: ExpressionNode[];
  /** `PARTITION BY EXCLUDING dims` (semantic view window metrics): partition by every dimension but these. */
  excluding: boolean;
  orderBy: { expr: ExpressionNode; descending: boolean }[];
  /** The frame clause (ROWS / RANGE / GROUPS ...) exactly as written, or null. */
  frameText: string | null;
  /** The whole `( ... )` after OVER exactly as written. */
  text: string;
  pos: SourcePosition;
}

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
  /** `AI_SQL_GENERATION '...'`: instructions for Cortex Analyst's SQL generation. */
  aiSqlGeneration: string | null;
  /** `AI_QUESTION_CATEGORIZATION '...'`: instructions for Cortex Analyst's question categorization. */
  aiQuestionCategorization: string | null;
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

/** SHOW [TERSE] SCHEMAS [IN ACCOUNT | IN [DATABASE] name]: the schemas the role may use. */
export interface ShowSchemasStatement {
  type: 'show_schemas';
  terse: boolean;
  /** The database named, or null for the current one (or the whole account with `account`). */
  database: QualifiedName | null;
  account: boolean;
  pos: SourcePosition;
}

/** SHOW [TERSE] DATABASES: the databases the role may use. */
export interface ShowDatabasesStatement {
  type: 'show_databases';
  terse: boolean;
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

/** CREATE SCHEMA [IF NOT EXISTS] [database.]schema (a dev push's per-user schema). */
export interface CreateSchemaStatement {
  type: 'create_schema';
  ifNotExists: boolean;
  name: QualifiedName;
  pos: SourcePosition;
}

export type Statement =
  | CreateSchemaStatement
  | CreateSemanticViewStatement
  | CreateViewStatement
  | DropStatement
  | DescribeSemanticViewStatement
  | ShowSemanticViewsStatement
  | ShowSchemasStatement
  | ShowDatabasesStatement
  | GetDdlStatement
  | UseStatement;
