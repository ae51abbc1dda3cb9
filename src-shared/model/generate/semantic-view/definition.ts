// The semantic view definition as Drydock writes it — logical tables, relationships, facts,
// dimensions, metrics (a derived metric has no table), a comment and the Cortex Analyst
// instructions — and its printer: CREATE OR REPLACE SEMANTIC VIEW in
// Snowflake's fixed clause order, empty optional clauses left out.

import { sqlString, writeIdentifier, type SqlIdentifier } from './identifiers';

export interface LogicalTableSpec {
  alias: SqlIdentifier;
  /** Qualified base table (or helper view) as SQL text. */
  table: string;
  primaryKey: SqlIdentifier[];
  comment?: string;
}

export interface RelationshipSpec {
  name: SqlIdentifier;
  table: SqlIdentifier;
  columns: SqlIdentifier[];
  refTable: SqlIdentifier;
  refColumns: SqlIdentifier[];
}

export interface SemanticExpressionSpec {
  /** Null for a derived metric (defined at view level, without a table). */
  table: SqlIdentifier | null;
  name: SqlIdentifier;
  expression: string;
  comment?: string;
  /** Facts and metrics may be PRIVATE; dimensions never are. */
  private?: boolean;
}

export interface SemanticViewSpec {
  /** Qualified name as SQL text. */
  name: string;
  tables: LogicalTableSpec[];
  relationships: RelationshipSpec[];
  facts: SemanticExpressionSpec[];
  dimensions: SemanticExpressionSpec[];
  metrics: SemanticExpressionSpec[];
  comment?: string;
  /** Cortex Analyst instructions: the AI_SQL_GENERATION and AI_QUESTION_CATEGORIZATION clauses. */
  aiSqlGeneration?: string;
  aiQuestionCategorization?: string;
}

const commentClause = (comment: string | undefined) => (comment ? ` COMMENT = ${sqlString(comment)}` : '');
const columnList = (columns: SqlIdentifier[]) => `(${columns.map(writeIdentifier).join(', ')})`;

/** `CREATE OR REPLACE SEMANTIC VIEW` in the grammar's fixed clause order; empty optional clauses are left out. */
export function renderSemanticView(spec: SemanticViewSpec): string {
  if (spec.tables.length === 0) throw new Error('A semantic view needs at least one logical table.');
  if (spec.dimensions.length === 0 && spec.metrics.length === 0) throw new Error('A semantic view needs at least one dimension or metric.');
  const clause = (keyword: string, items: string[]) => (items.length === 0 ? '' : `\n  ${keyword} (\n${items.map((i) => `    ${i}`).join(',\n')}\n  )`);
  const expression = (e: SemanticExpressionSpec) =>
    `${e.private ? 'PRIVATE ' : ''}${e.table ? `${writeIdentifier(e.table)}.` : ''}${writeIdentifier(e.name)} AS ${e.expression}${commentClause(e.comment)}`;
  return (
    `CREATE OR REPLACE SEMANTIC VIEW ${spec.name}` +
    clause(
      'TABLES',
      spec.tables.map(
        (t) =>
          `${writeIdentifier(t.alias)} AS ${t.table}${t.primaryKey.length ? ` PRIMARY KEY ${columnList(t.primaryKey)}` : ''}${commentClause(t.comment)}`,
      ),
    ) +
    clause(
      'RELATIONSHIPS',
      spec.relationships.map(
        (r) => `${writeIdentifier(r.name)} AS ${writeIdentifier(r.table)} ${columnList(r.columns)} REFERENCES ${writeIdentifier(r.refTable)} ${columnList(r.refColumns)}`,
      ),
    ) +
    clause('FACTS', spec.facts.map(expression)) +
    clause('DIMENSIONS', spec.dimensions.map((d) => expression({ ...d, private: false }))) +
    clause('METRICS', spec.metrics.map(expression)) +
    (spec.comment ? `\n  COMMENT = ${sqlString(spec.comment)}` : '') +
    (spec.aiSqlGeneration ? `\n  AI_SQL_GENERATION ${sqlString(spec.aiSqlGeneration)}` : '') +
    (spec.aiQuestionCategorization ? `\n  AI_QUESTION_CATEGORIZATION ${sqlString(spec.aiQuestionCategorization)}` : '')
  );
}
