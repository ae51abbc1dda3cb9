// Reading DESCRIBE SEMANTIC VIEW rows back into a semantic view's parts: the view's own
// properties (comment, Cortex Analyst instructions), logical tables, relationships, and facts,
// dimensions and metrics (a metric without a table is a derived metric). Properties may come in
// any order; unknown ones are ignored.

/** One row of DESCRIBE SEMANTIC VIEW (the five columns every warehouse connector returns). */
export interface DescribeRowLike {
  object_kind: string | null;
  object_name: string | null;
  parent_entity: string | null;
  property: string;
  property_value: string;
}

export interface DescribedTable {
  name: string;
  database: string;
  schema: string;
  table: string;
  primaryKey: string[];
  comment: string | null;
}

export interface DescribedRelationship {
  name: string;
  table: string;
  refTable: string;
  columns: string[];
  refColumns: string[];
}

export interface DescribedMember {
  kind: 'FACT' | 'DIMENSION' | 'METRIC';
  name: string;
  /** Null for a derived metric (defined at view level, without a table). */
  table: string | null;
  expression: string;
  dataType: string | null;
  comment: string | null;
  private: boolean;
}

export interface DescribedSemanticView {
  comment: string | null;
  /** The AI_SQL_GENERATION and AI_QUESTION_CATEGORIZATION instructions, when the view has them. */
  aiSqlGeneration: string | null;
  aiQuestionCategorization: string | null;
  tables: DescribedTable[];
  relationships: DescribedRelationship[];
  members: DescribedMember[];
}

const jsonList = (value: string | undefined): string[] => {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return value.split(',').map((s) => s.trim()).filter(Boolean);
  }
};

/** Groups DESCRIBE rows into tables, relationships and members (properties in any order). */
export function readDescribeRows(rows: DescribeRowLike[]): DescribedSemanticView {
  const viewProperties = new Map<string, string>();
  const objects = new Map<string, { kind: string; name: string; parent: string | null; props: Map<string, string> }>();
  for (const row of rows) {
    if (row.object_kind === null || row.object_name === null) {
      viewProperties.set(row.property.toUpperCase(), row.property_value);
      continue;
    }
    const kind = row.object_kind.toUpperCase();
    const key = `${kind}\u0000${row.parent_entity ?? ''}\u0000${row.object_name}`;
    let object = objects.get(key);
    if (!object) {
      object = { kind, name: row.object_name, parent: row.parent_entity, props: new Map() };
      objects.set(key, object);
    }
    object.props.set(row.property.toUpperCase(), row.property_value);
  }
  const described: DescribedSemanticView = {
    comment: viewProperties.get('COMMENT') ?? null,
    aiSqlGeneration: viewProperties.get('AI_SQL_GENERATION') ?? null,
    aiQuestionCategorization: viewProperties.get('AI_QUESTION_CATEGORIZATION') ?? null,
    tables: [],
    relationships: [],
    members: [],
  };
  for (const object of objects.values()) {
    const p = object.props;
    if (object.kind === 'TABLE') {
      described.tables.push({
        name: object.name,
        database: p.get('BASE_TABLE_DATABASE_NAME') ?? '',
        schema: p.get('BASE_TABLE_SCHEMA_NAME') ?? '',
        table: p.get('BASE_TABLE_NAME') ?? object.name,
        primaryKey: jsonList(p.get('PRIMARY_KEY')),
        comment: p.get('COMMENT') ?? null,
      });
    } else if (object.kind === 'RELATIONSHIP') {
      described.relationships.push({
        name: object.name,
        table: p.get('TABLE') ?? object.parent ?? '',
        refTable: p.get('REF_TABLE') ?? '',
        columns: jsonList(p.get('FOREIGN_KEY')),
        refColumns: jsonList(p.get('REF_KEY')),
      });
    } else if (object.kind === 'FACT' || object.kind === 'DIMENSION' || object.kind === 'METRIC') {
      described.members.push({
        kind: object.kind,
        name: object.name,
        table: p.get('TABLE') ?? object.parent ?? null,
        expression: p.get('EXPRESSION') ?? '',
        dataType: p.get('DATA_TYPE') ?? null,
        comment: p.get('COMMENT') ?? null,
        private: (p.get('ACCESS_MODIFIER') ?? '').toUpperCase() === 'PRIVATE',
      });
    }
  }
  return described;
}
