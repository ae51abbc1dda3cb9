/**
 * A semantic view as the emulator stores it (every name resolved, every expression as written),
 * and the two ways it is read back: DESCRIBE SEMANTIC VIEW rows and GET_DDL text. Derived
 * metrics (no table) and the Cortex Analyst instructions (AI_SQL_GENERATION,
 * AI_QUESTION_CATEGORIZATION) are kept in both.
 */
import { formatIdentifier, formatQualifiedName, sqlStringLiteral } from '../identifiers';
import type { DescribeRow } from '../types';

export interface SemanticViewTable {
  /** Logical name: the alias, or the base table's name when there is no alias. */
  name: string;
  database: string;
  schema: string;
  table: string;
  primaryKey: string[] | null;
  uniqueKeys: string[][];
  synonyms: string[];
  comment: string | null;
}

export interface SemanticViewRelationship {
  name: string;
  table: string;
  columns: string[];
  refTable: string;
  /** Always filled: when the DDL omits them they are the referenced table's primary key. */
  refColumns: string[];
}

export interface SemanticViewMember {
  /** Null for a derived metric, which belongs to the view rather than to a logical table. */
  table: string | null;
  name: string;
  /** The SQL expression exactly as written in the DDL. */
  expression: string;
  dataType: string;
  synonyms: string[];
  comment: string | null;
  accessModifier: 'PUBLIC' | 'PRIVATE';
}

export interface SemanticViewDefinition {
  database: string;
  schema: string;
  name: string;
  comment: string | null;
  /** Cortex Analyst instructions (absent in definitions stored before they were supported). */
  aiSqlGeneration?: string | null;
  aiQuestionCategorization?: string | null;
  tables: SemanticViewTable[];
  relationships: SemanticViewRelationship[];
  facts: SemanticViewMember[];
  dimensions: SemanticViewMember[];
  metrics: SemanticViewMember[];
}

/** Snowflake prints key and synonym lists as compact JSON arrays: `["C_CUSTKEY"]`. */
const jsonList = (values: string[]): string => JSON.stringify(values);

/** The rows of DESCRIBE SEMANTIC VIEW, in Snowflake's order and shape. */
export function describeRows(view: SemanticViewDefinition): DescribeRow[] {
  const rows: DescribeRow[] = [];
  const row = (objectKind: string | null, objectName: string | null, parent: string | null, property: string, value: string): void => {
    rows.push({ object_kind: objectKind, object_name: objectName, parent_entity: parent, property, property_value: value });
  };
  if (view.comment !== null) row(null, null, null, 'COMMENT', view.comment);
  if (view.aiSqlGeneration) row(null, null, null, 'AI_SQL_GENERATION', view.aiSqlGeneration);
  if (view.aiQuestionCategorization) row(null, null, null, 'AI_QUESTION_CATEGORIZATION', view.aiQuestionCategorization);
  for (const table of view.tables) {
    row('TABLE', table.name, null, 'BASE_TABLE_DATABASE_NAME', table.database);
    row('TABLE', table.name, null, 'BASE_TABLE_SCHEMA_NAME', table.schema);
    row('TABLE', table.name, null, 'BASE_TABLE_NAME', table.table);
    if (table.primaryKey) row('TABLE', table.name, null, 'PRIMARY_KEY', jsonList(table.primaryKey));
    for (const unique of table.uniqueKeys) row('TABLE', table.name, null, 'UNIQUE_KEY', jsonList(unique));
    if (table.synonyms.length > 0) row('TABLE', table.name, null, 'SYNONYMS', jsonList(table.synonyms));
    if (table.comment !== null) row('TABLE', table.name, null, 'COMMENT', table.comment);
  }
  for (const relationship of view.relationships) {
    row('RELATIONSHIP', relationship.name, relationship.table, 'TABLE', relationship.table);
    row('RELATIONSHIP', relationship.name, relationship.table, 'REF_TABLE', relationship.refTable);
    row('RELATIONSHIP', relationship.name, relationship.table, 'FOREIGN_KEY', jsonList(relationship.columns));
    row('RELATIONSHIP', relationship.name, relationship.table, 'REF_KEY', jsonList(relationship.refColumns));
  }
  const members = (kind: 'FACT' | 'DIMENSION' | 'METRIC', list: SemanticViewMember[]): void => {
    for (const member of list) {
      // A derived metric has no table: no parent entity and no TABLE property.
      if (member.table !== null) row(kind, member.name, member.table, 'TABLE', member.table);
      row(kind, member.name, member.table, 'EXPRESSION', member.expression);
      row(kind, member.name, member.table, 'DATA_TYPE', member.dataType);
      if (member.synonyms.length > 0) row(kind, member.name, member.table, 'SYNONYMS', jsonList(member.synonyms));
      if (member.comment !== null) row(kind, member.name, member.table, 'COMMENT', member.comment);
      // Dimensions cannot be private, so Snowflake reports the modifier only for facts and metrics.
      if (kind !== 'DIMENSION') row(kind, member.name, member.table, 'ACCESS_MODIFIER', member.accessModifier);
    }
  };
  members('FACT', view.facts);
  members('DIMENSION', view.dimensions);
  members('METRIC', view.metrics);
  return rows;
}

function synonymsClause(synonyms: string[]): string {
  return synonyms.length === 0 ? '' : ` with synonyms=(${synonyms.map(sqlStringLiteral).join(',')})`;
}

function commentClause(comment: string | null): string {
  return comment === null ? '' : ` comment=${sqlStringLiteral(comment)}`;
}

const columnList = (columns: string[]): string => `(${columns.map(formatIdentifier).join(',')})`;

/**
 * GET_DDL('SEMANTIC_VIEW', ...): normalized DDL in Snowflake's layout (lower-case keywords, one
 * item per line, clauses in their fixed order) that parses back to the same definition.
 */
export function renderSemanticViewDdl(view: SemanticViewDefinition, options: { fullyQualified?: boolean } = {}): string {
  const name = options.fullyQualified ? formatQualifiedName(view.database, view.schema, view.name) : formatIdentifier(view.name);
  const block = (keyword: string, items: string[]): string => (items.length === 0 ? '' : `\n\t${keyword} (\n${items.map((item) => `\t\t${item}`).join(',\n')}\n\t)`);
  const tables = view.tables.map((table) => {
    const keys =
      (table.primaryKey ? ` primary key ${columnList(table.primaryKey)}` : '') +
      table.uniqueKeys.map((unique) => ` unique ${columnList(unique)}`).join('');
    return `${formatIdentifier(table.name)} as ${formatQualifiedName(table.database, table.schema, table.table)}${keys}${synonymsClause(table.synonyms)}${commentClause(table.comment)}`;
  });
  const relationships = view.relationships.map(
    (r) => `${formatIdentifier(r.name)} as ${formatIdentifier(r.table)}${columnList(r.columns)} references ${formatIdentifier(r.refTable)}${columnList(r.refColumns)}`,
  );
  const members = (list: SemanticViewMember[], withModifier: boolean): string[] =>
    list.map(
      (m) =>
        `${withModifier && m.accessModifier === 'PRIVATE' ? 'private ' : ''}${m.table === null ? '' : `${formatIdentifier(m.table)}.`}${formatIdentifier(m.name)} as ${m.expression}` +
        `${synonymsClause(m.synonyms)}${commentClause(m.comment)}`,
    );
  return (
    `create or replace semantic view ${name}` +
    block('tables', tables) +
    block('relationships', relationships) +
    block('facts', members(view.facts, true)) +
    block('dimensions', members(view.dimensions, false)) +
    block('metrics', members(view.metrics, true)) +
    (view.comment === null ? '' : `\n\tcomment=${sqlStringLiteral(view.comment)}`) +
    (view.aiSqlGeneration ? `\n\tai_sql_generation ${sqlStringLiteral(view.aiSqlGeneration)}` : '') +
    (view.aiQuestionCategorization ? `\n\tai_question_categorization ${sqlStringLiteral(view.aiQuestionCategorization)}` : '') +
    ';'
  );
}
