/**
 * Turns a parsed CREATE SEMANTIC VIEW into a stored definition, enforcing the rules Snowflake
 * applies when it validates a semantic view: unique names, table aliases that exist, keys made of
 * real columns, relationships that reference a primary or unique key without cycles, row-level
 * expressions that only look "up" many-to-one relationships, metrics that aggregate, and no
 * circular references between expressions. Derived metrics (no table) and window function metrics
 * are resolved here and checked by semantic-rules.ts.
 */
import { inferDataType, UNKNOWN_TYPE } from './data-types';
import type { ExpressionNode, Identifier, QualifiedName, CreateSemanticViewStatement } from './ddl-parser';
import type { SemanticViewDefinition, SemanticViewMember, SemanticViewRelationship, SemanticViewTable } from './definition';
import { invalidDefinition, invalidIdentifier, unsupported } from './errors';
import {
  assertNoMemberCycle,
  assertNoRelationshipCycle,
  checkReferenceRules,
  KIND_LABEL,
  memberLabel,
  type ColumnNode,
  type MemberState,
  type Reference,
  type ReferenceRole,
} from './semantic-rules';

export interface ColumnInfo {
  name: string;
  /** Canonical Snowflake type, or null when not known. */
  type: string | null;
}

/** A table or view a logical table is built on. */
export interface BaseRelation {
  database: string;
  schema: string;
  name: string;
  /** Null when the emulator does not know the columns (e.g. a view over `SELECT *` of a join). */
  columns: ColumnInfo[] | null;
}

export interface SemanticViewBuildContext {
  /** Resolves an identifier to its stored name (upper-casing rules and the case setting). */
  resolveIdentifier(identifier: Identifier): string;
  /** Resolves, authorizes and describes a base table; throws when missing or not readable. */
  baseRelation(name: QualifiedName): BaseRelation;
}

/** Aggregate functions a metric may use. */
export const AGGREGATE_FUNCTIONS: ReadonlySet<string> = new Set([
  'SUM', 'COUNT', 'AVG', 'MIN', 'MAX', 'COUNT_IF', 'APPROX_COUNT_DISTINCT', 'HLL', 'MEDIAN', 'MODE', 'STDDEV', 'STDDEV_POP', 'STDDEV_SAMP',
  'VARIANCE', 'VAR_POP', 'VAR_SAMP', 'VARIANCE_POP', 'VARIANCE_SAMP', 'ANY_VALUE', 'LISTAGG', 'ARRAY_AGG', 'OBJECT_AGG', 'BOOLAND_AGG',
  'BOOLOR_AGG', 'BITAND_AGG', 'BITOR_AGG', 'BITXOR_AGG', 'APPROX_PERCENTILE', 'PERCENTILE_CONT', 'PERCENTILE_DISC', 'CORR', 'COVAR_POP',
  'COVAR_SAMP', 'KURTOSIS', 'SKEW', 'MAX_BY', 'MIN_BY',
]);

interface TableState {
  definition: SemanticViewTable;
  /** Column name -> type; null when the base relation's columns are unknown. */
  columns: Map<string, string | null> | null;
  members: Map<string, MemberState>;
}

/** How an identifier is shown in an error: as Snowflake echoes it back. */
function shown(identifier: Identifier): string {
  return identifier.quoted ? `"${identifier.text}"` : identifier.text.toUpperCase();
}

export function buildSemanticView(
  statement: CreateSemanticViewStatement,
  target: { database: string; schema: string; name: string },
  context: SemanticViewBuildContext,
): SemanticViewDefinition {
  const id = (identifier: Identifier): string => context.resolveIdentifier(identifier);
  const tables = new Map<string, TableState>();

  // ----- logical tables
  for (const node of statement.tables) {
    const logicalName = id(node.alias ?? node.table.parts[node.table.parts.length - 1]);
    if (tables.has(logicalName)) {
      throw invalidDefinition(`Duplicate logical table name '${logicalName}' in semantic view '${target.name}'.`, (node.alias ?? node.table).pos);
    }
    const base = context.baseRelation(node.table);
    const columns = base.columns ? new Map(base.columns.map((column) => [column.name, column.type] as const)) : null;
    const keyList = (identifiers: Identifier[], what: string): string[] => {
      const names: string[] = [];
      for (const identifier of identifiers) {
        const name = id(identifier);
        if (names.includes(name)) throw invalidDefinition(`Column '${name}' appears twice in the ${what} of table '${logicalName}'.`, identifier.pos);
        if (columns && !columns.has(name)) throw invalidIdentifier(shown(identifier), identifier.pos);
        names.push(name);
      }
      return names;
    };
    const primaryKey = node.primaryKey ? keyList(node.primaryKey, 'primary key') : null;
    const uniqueKeys = node.uniqueKeys.map((unique) => keyList(unique, 'unique key'));
    // A key declared twice (a UNIQUE that repeats the primary key or another UNIQUE, in any order).
    const keySets = [primaryKey, ...uniqueKeys].filter((key): key is string[] => key !== null).map((key) => [...key].sort().join('\u0000'));
    if (new Set(keySets).size !== keySets.length) {
      throw invalidDefinition(`Entity '${logicalName}' has duplicate primary or unique keys.`, (node.alias ?? node.table).pos);
    }
    tables.set(logicalName, {
      definition: {
        name: logicalName,
        database: base.database,
        schema: base.schema,
        table: base.name,
        primaryKey,
        uniqueKeys,
        synonyms: node.synonyms,
        comment: node.comment,
      },
      columns,
      members: new Map(),
    });
  }

  // Two logical tables may not share a synonym: Cortex Analyst could not tell which one a question
  // means, and Snowflake refuses the view (its text for this was not found published).
  const synonymOwner = new Map<string, string>();
  for (const table of tables.values()) {
    for (const synonym of table.definition.synonyms) {
      const key = synonym.trim().toLowerCase();
      const owner = synonymOwner.get(key);
      if (owner !== undefined && owner !== table.definition.name) {
        throw invalidDefinition(`Duplicate synonym '${synonym}': tables '${owner}' and '${table.definition.name}' both use it.`);
      }
      synonymOwner.set(key, table.definition.name);
    }
  }

  const tableOf = (identifier: Identifier): TableState => {
    const table = tables.get(id(identifier));
    if (!table) throw invalidIdentifier(shown(identifier), identifier.pos);
    return table;
  };

  // ----- relationships
  const relationships: SemanticViewRelationship[] = [];
  const usedRelationshipNames = new Set<string>();
  for (const node of statement.relationships) {
    if (node.asof) throw unsupported('ASOF relationships are not supported by the local warehouse emulator.');
    const table = tableOf(node.table);
    const refTable = tableOf(node.refTable);
    const tableName = table.definition.name;
    const refName = refTable.definition.name;
    if (tableName === refName) throw invalidDefinition(`Relationship on table '${tableName}' references the table itself.`, node.pos);
    const columns = node.columns.map((column) => {
      const name = id(column);
      if (table.columns && !table.columns.has(name)) throw invalidIdentifier(shown(column), column.pos);
      return name;
    });
    let refColumns: string[];
    if (node.refColumns) {
      refColumns = node.refColumns.map((column) => {
        const name = id(column);
        if (refTable.columns && !refTable.columns.has(name)) throw invalidIdentifier(shown(column), column.pos);
        return name;
      });
      const keys = [refTable.definition.primaryKey, ...refTable.definition.uniqueKeys].filter((key): key is string[] => key !== null);
      const sameSet = (key: string[]): boolean => key.length === refColumns.length && key.every((column) => refColumns.includes(column));
      if (!keys.some(sameSet)) {
        throw invalidDefinition(
          `Relationship from '${tableName}' references (${refColumns.join(', ')}) of table '${refName}', which is not its primary key or a unique key.`,
          node.refColumns[0].pos,
        );
      }
    } else {
      if (!refTable.definition.primaryKey) {
        throw invalidDefinition(
          `Relationship from '${tableName}' references table '${refName}', which has no primary key: declare PRIMARY KEY on '${refName}' or name the referenced columns.`,
          node.refTable.pos,
        );
      }
      refColumns = refTable.definition.primaryKey;
    }
    if (columns.length !== refColumns.length) {
      throw invalidDefinition(
        `Relationship from '${tableName}' has ${columns.length} column(s) but references ${refColumns.length} key column(s) of '${refName}'.`,
        node.pos,
      );
    }
    let name: string;
    if (node.name) {
      name = id(node.name);
      if (usedRelationshipNames.has(name)) throw invalidDefinition(`Duplicate relationship name '${name}'.`, node.name.pos);
    } else {
      // Unnamed relationships get a generated name; GET_DDL then prints it.
      const base = `${tableName}_TO_${refName}`;
      name = base;
      for (let n = 2; usedRelationshipNames.has(name); n += 1) name = `${base}_${n}`;
    }
    usedRelationshipNames.add(name);
    relationships.push({ name, table: tableName, columns, refTable: refName, refColumns });
  }
  assertNoRelationshipCycle(relationships);

  // "Many-to-one" reachability: from a table, the tables it references directly or transitively.
  const references = new Map<string, Set<string>>();
  for (const relationship of relationships) {
    if (!references.has(relationship.table)) references.set(relationship.table, new Set());
    references.get(relationship.table)!.add(relationship.refTable);
  }
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const current = stack.pop()!;
      for (const next of references.get(current) ?? []) {
        if (next === to) return true;
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    return false;
  };

  // ----- facts, dimensions, metrics: names first, so expressions may refer to later ones
  const members: MemberState[] = [];
  const derived = new Map<string, MemberState>();
  for (const [kind, nodes] of [
    ['FACT', statement.facts],
    ['DIMENSION', statement.dimensions],
    ['METRIC', statement.metrics],
  ] as const) {
    for (const node of nodes) {
      const name = id(node.name);
      const window = node.expression.kind === 'call' && node.expression.over !== null;
      if (!node.table) {
        // A derived metric belongs to the view, not to a logical table.
        if (derived.has(name)) throw invalidDefinition(`Duplicate derived metric name '${name}'.`, node.name.pos);
        const member: MemberState = { kind, node, table: null, name, refs: [], window };
        derived.set(name, member);
        members.push(member);
        continue;
      }
      const table = tableOf(node.table);
      const clash = table.members.get(name);
      if (clash) {
        throw invalidDefinition(
          `Duplicate name '${table.definition.name}.${name}': already defined as a ${KIND_LABEL[clash.kind].toLowerCase()}.`,
          node.name.pos,
        );
      }
      const member: MemberState = { kind, node, table: table.definition.name, name, refs: [], window };
      table.members.set(name, member);
      members.push(member);
    }
  }

  // ----- references of every expression
  for (const member of members) {
    const own = member.table === null ? null : tables.get(member.table)!;
    let aggregates = 0;
    let role: ReferenceRole = 'expression';
    const visit = (node: ExpressionNode, insideAggregate: boolean): void => {
      switch (node.kind) {
        case 'column':
          member.refs.push(resolveReference(node, insideAggregate, role));
          return;
        case 'call': {
          if (node.over) {
            visitWindow(node, node.over);
            return;
          }
          const aggregate = AGGREGATE_FUNCTIONS.has(node.name);
          if (aggregate) aggregates += 1;
          for (const arg of node.args) visit(arg, insideAggregate || aggregate);
          return;
        }
        case 'unary':
          visit(node.operand, insideAggregate);
          return;
        case 'binary':
          visit(node.left, insideAggregate);
          visit(node.right, insideAggregate);
          return;
        case 'case':
          if (node.operand) visit(node.operand, insideAggregate);
          for (const branch of node.whens) {
            visit(branch.when, insideAggregate);
            visit(branch.then, insideAggregate);
          }
          if (node.otherwise) visit(node.otherwise, insideAggregate);
          return;
        case 'cast':
          visit(node.expr, insideAggregate);
          return;
        case 'predicate':
          visit(node.expr, insideAggregate);
          for (const arg of node.args) visit(arg, insideAggregate);
          return;
        default:
          return;
      }
    };

    // A window function metric is `FN(metric, ...) OVER (PARTITION BY ... ORDER BY ...)` on its own.
    const visitWindow = (node: Extract<ExpressionNode, { kind: 'call' }>, over: NonNullable<Extract<ExpressionNode, { kind: 'call' }>['over']>): void => {
      if (member.kind !== 'METRIC') {
        throw unsupported(`window functions in ${KIND_LABEL[member.kind].toLowerCase()} expressions (${node.name} ... OVER) are not supported by the local warehouse emulator.`);
      }
      if (!member.window) {
        throw invalidDefinition(`${memberLabel(member)} uses ${node.name} ... OVER inside a larger expression: a window function metric is a window function over a metric, on its own.`, node.pos);
      }
      role = 'window-argument';
      for (const arg of node.args) visit(arg, false);
      role = over.excluding ? 'window-excluded' : 'window-spec';
      for (const expr of over.partitionBy) visit(expr, false);
      role = 'window-spec';
      for (const item of over.orderBy) visit(item.expr, false);
      role = 'expression';
    };

    const resolveReference = (node: ColumnNode, insideAggregate: boolean, refRole: ReferenceRole): Reference => {
      const display = node.parts.map(shown).join('.');
      if (own === null) return resolveInDerivedMetric(node, insideAggregate, refRole, display);
      if (node.parts.length === 1) {
        const name = id(node.parts[0]);
        // An unqualified name is a column of the member's own table first, then a sibling member.
        if (own.columns?.has(name)) return { kind: 'column', table: own.definition.name, column: name, type: own.columns.get(name) ?? null, insideAggregate, role: refRole, node };
        const sibling = own.members.get(name);
        if (sibling && sibling !== member) return { kind: 'member', member: sibling, insideAggregate, role: refRole, node };
        if (!own.columns) return { kind: 'column', table: own.definition.name, column: name, type: null, insideAggregate, role: refRole, node };
        throw invalidIdentifier(display, node.pos);
      }
      if (node.parts.length === 2) {
        const table = tables.get(id(node.parts[0]));
        if (!table) throw invalidIdentifier(display, node.pos);
        const name = id(node.parts[1]);
        // A qualified name is a member of that table first (`region.r_name` is region's fact), then a column.
        const target = table.members.get(name);
        if (target && target !== member) return { kind: 'member', member: target, insideAggregate, role: refRole, node };
        if (!table.columns || table.columns.has(name)) {
          return { kind: 'column', table: table.definition.name, column: name, type: table.columns?.get(name) ?? null, insideAggregate, role: refRole, node };
        }
        throw invalidIdentifier(display, node.pos);
      }
      throw invalidIdentifier(display, node.pos);
    };

    // A derived metric reads metrics only: `table.metric`, or another derived metric by its name.
    const resolveInDerivedMetric = (node: ColumnNode, insideAggregate: boolean, refRole: ReferenceRole, display: string): Reference => {
      let target: MemberState | undefined;
      if (node.parts.length === 1) target = derived.get(id(node.parts[0]));
      else if (node.parts.length === 2) {
        const table = tables.get(id(node.parts[0]));
        if (!table) throw invalidIdentifier(display, node.pos);
        target = table.members.get(id(node.parts[1]));
        if (!target && (!table.columns || table.columns.has(id(node.parts[1])))) {
          throw invalidDefinition(`${memberLabel(member)} refers to column '${display}': a derived metric can only combine metrics.`, node.pos);
        }
      }
      if (!target || target === member) throw invalidIdentifier(display, node.pos);
      if (target.kind !== 'METRIC') {
        throw invalidDefinition(`${memberLabel(member)} refers to ${KIND_LABEL[target.kind].toLowerCase()} '${display}': a derived metric can only combine metrics.`, node.pos);
      }
      return { kind: 'member', member: target, insideAggregate, role: refRole, node };
    };

    visit(member.node.expression, false);
    checkReferenceRules(member, aggregates, reaches);
  }

  assertNoMemberCycle(members);

  // ----- data types, in dependency order (cycles are ruled out above)
  const typeOf = (member: MemberState): string => {
    if (member.dataType !== undefined) return member.dataType;
    const byNode = new Map(member.refs.map((ref) => [ref.node, ref] as const));
    const inferred = inferDataType(member.node.expression, (node) => {
      const ref = byNode.get(node);
      if (!ref) return null;
      return ref.kind === 'column' ? ref.type : typeOf(ref.member);
    });
    member.dataType = inferred ?? UNKNOWN_TYPE;
    return member.dataType;
  };

  if (statement.dimensions.length === 0 && statement.metrics.length === 0) {
    // Snowflake's words; whether it names the view after them is not confirmed.
    throw invalidDefinition('No queryable expression is defined in the semantic view.');
  }

  const toMember = (member: MemberState): SemanticViewMember => ({
    table: member.table,
    name: member.name,
    expression: member.node.expressionText,
    dataType: typeOf(member),
    synonyms: member.node.synonyms,
    comment: member.node.comment,
    accessModifier: member.node.accessModifier ?? 'PUBLIC',
  });
  return {
    database: target.database,
    schema: target.schema,
    name: target.name,
    comment: statement.comment,
    aiSqlGeneration: statement.aiSqlGeneration,
    aiQuestionCategorization: statement.aiQuestionCategorization,
    tables: [...tables.values()].map((table) => table.definition),
    relationships,
    facts: members.filter((m) => m.kind === 'FACT').map(toMember),
    dimensions: members.filter((m) => m.kind === 'DIMENSION').map(toMember),
    metrics: members.filter((m) => m.kind === 'METRIC').map(toMember),
  };
}
