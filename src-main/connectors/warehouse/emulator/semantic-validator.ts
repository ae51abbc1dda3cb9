/**
 * Turns a parsed CREATE SEMANTIC VIEW into a stored definition, enforcing the rules Snowflake
 * applies when it validates a semantic view: unique names, table aliases that exist, keys made of
 * real columns, relationships that reference a primary or unique key without cycles, row-level
 * expressions that only look "up" many-to-one relationships, metrics that aggregate, and no
 * circular references between expressions.
 */
import { inferDataType, UNKNOWN_TYPE } from './data-types';
import type { ExpressionNode, Identifier, QualifiedName, CreateSemanticViewStatement, SemanticExpressionNode } from './ddl-parser';
import type { SemanticViewDefinition, SemanticViewMember, SemanticViewRelationship, SemanticViewTable } from './definition';
import { invalidDefinition, invalidIdentifier, unsupported } from './errors';

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

type MemberKind = 'FACT' | 'DIMENSION' | 'METRIC';

interface MemberState {
  kind: MemberKind;
  node: SemanticExpressionNode;
  table: string;
  name: string;
  /** Filled during reference analysis. */
  refs: Reference[];
  dataType?: string;
}

interface TableState {
  definition: SemanticViewTable;
  /** Column name -> type; null when the base relation's columns are unknown. */
  columns: Map<string, string | null> | null;
  members: Map<string, MemberState>;
}

type Reference =
  | { kind: 'column'; table: string; column: string; type: string | null; insideAggregate: boolean; node: ColumnNode }
  | { kind: 'member'; member: MemberState; insideAggregate: boolean; node: ColumnNode };

type ColumnNode = Extract<ExpressionNode, { kind: 'column' }>;

const KIND_LABEL: Record<MemberKind, string> = { FACT: 'Fact', DIMENSION: 'Dimension', METRIC: 'Metric' };

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
    tables.set(logicalName, {
      definition: {
        name: logicalName,
        database: base.database,
        schema: base.schema,
        table: base.name,
        primaryKey: node.primaryKey ? keyList(node.primaryKey, 'primary key') : null,
        uniqueKeys: node.uniqueKeys.map((unique) => keyList(unique, 'unique key')),
        synonyms: node.synonyms,
        comment: node.comment,
      },
      columns,
      members: new Map(),
    });
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
  for (const [kind, nodes] of [
    ['FACT', statement.facts],
    ['DIMENSION', statement.dimensions],
    ['METRIC', statement.metrics],
  ] as const) {
    for (const node of nodes) {
      if (!node.table) throw unsupported(`derived metric '${shown(node.name)}' (a metric without a table) is not supported by the local warehouse emulator.`);
      const table = tableOf(node.table);
      const name = id(node.name);
      const clash = table.members.get(name);
      if (clash) {
        throw invalidDefinition(
          `Duplicate name '${table.definition.name}.${name}': already defined as a ${KIND_LABEL[clash.kind].toLowerCase()}.`,
          node.name.pos,
        );
      }
      const member: MemberState = { kind, node, table: table.definition.name, name, refs: [] };
      table.members.set(name, member);
      members.push(member);
    }
  }

  // ----- references of every expression
  for (const member of members) {
    const own = tables.get(member.table)!;
    let aggregates = 0;
    const visit = (node: ExpressionNode, insideAggregate: boolean): void => {
      switch (node.kind) {
        case 'column':
          member.refs.push(resolveReference(node, insideAggregate));
          return;
        case 'call': {
          if (node.window) throw unsupported(`window function metrics (${node.name} ... OVER) are not supported by the local warehouse emulator.`);
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

    const resolveReference = (node: ColumnNode, insideAggregate: boolean): Reference => {
      const display = node.parts.map(shown).join('.');
      if (node.parts.length === 1) {
        const name = id(node.parts[0]);
        // An unqualified name is a column of the member's own table first, then a sibling member.
        if (own.columns?.has(name)) return { kind: 'column', table: own.definition.name, column: name, type: own.columns.get(name) ?? null, insideAggregate, node };
        const sibling = own.members.get(name);
        if (sibling && sibling !== member) return { kind: 'member', member: sibling, insideAggregate, node };
        if (!own.columns) return { kind: 'column', table: own.definition.name, column: name, type: null, insideAggregate, node };
        throw invalidIdentifier(display, node.pos);
      }
      if (node.parts.length === 2) {
        const table = tables.get(id(node.parts[0]));
        if (!table) throw invalidIdentifier(display, node.pos);
        const name = id(node.parts[1]);
        // A qualified name is a member of that table first (`region.r_name` is region's fact), then a column.
        const target = table.members.get(name);
        if (target && target !== member) return { kind: 'member', member: target, insideAggregate, node };
        if (!table.columns || table.columns.has(name)) {
          return { kind: 'column', table: table.definition.name, column: name, type: table.columns?.get(name) ?? null, insideAggregate, node };
        }
        throw invalidIdentifier(display, node.pos);
      }
      throw invalidIdentifier(display, node.pos);
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
    throw invalidDefinition(`Semantic view '${target.name}' must define at least one dimension or metric.`, statement.pos);
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
    tables: [...tables.values()].map((table) => table.definition),
    relationships,
    facts: members.filter((m) => m.kind === 'FACT').map(toMember),
    dimensions: members.filter((m) => m.kind === 'DIMENSION').map(toMember),
    metrics: members.filter((m) => m.kind === 'METRIC').map(toMember),
  };
}

function qualified(member: MemberState): string {
  return `${member.table}.${member.name}`;
}

function referencedTable(ref: Reference): string {
  return ref.kind === 'column' ? ref.table : ref.member.table;
}

function referenceLabel(ref: Reference): string {
  return ref.kind === 'column' ? `${ref.table}.${ref.column}` : qualified(ref.member);
}

/**
 * Granularity rules: a fact or dimension is one value per row of its table, so outside an
 * aggregate it may only read tables its table references (many-to-one); inside an aggregate it
 * reads tables that reference it (one-to-many). A metric aggregates rows of its table or of a
 * related table; outside aggregates it may only combine other metrics.
 */
function checkReferenceRules(member: MemberState, aggregates: number, reaches: (from: string, to: string) => boolean): void {
  const label = `${KIND_LABEL[member.kind]} '${qualified(member)}'`;
  if (member.kind === 'METRIC') {
    const referencesMetric = member.refs.some((ref) => ref.kind === 'member' && ref.member.kind === 'METRIC');
    if (aggregates === 0 && !referencesMetric) {
      throw invalidDefinition(
        `${label} must be an aggregate expression (for example SUM, COUNT, AVG, MIN, MAX or COUNT(DISTINCT ...)).`,
        member.node.expression.pos,
      );
    }
    for (const ref of member.refs) {
      const isMetric = ref.kind === 'member' && ref.member.kind === 'METRIC';
      if (!ref.insideAggregate && !isMetric) {
        throw invalidDefinition(`${label} refers to '${referenceLabel(ref)}' outside an aggregate function.`, ref.node.pos);
      }
      const table = referencedTable(ref);
      if (ref.insideAggregate && !isMetric && table !== member.table && !reaches(member.table, table) && !reaches(table, member.table)) {
        throw invalidDefinition(
          `${label} aggregates '${referenceLabel(ref)}', but table '${table}' is not related to '${member.table}' by any relationship.`,
          ref.node.pos,
        );
      }
    }
    return;
  }
  for (const ref of member.refs) {
    if (ref.kind === 'member' && ref.member.kind === 'METRIC') {
      throw invalidDefinition(`${label} cannot refer to metric '${qualified(ref.member)}'.`, ref.node.pos);
    }
    const table = referencedTable(ref);
    if (!ref.insideAggregate && table !== member.table && !reaches(member.table, table)) {
      throw invalidDefinition(
        `${label} refers to '${referenceLabel(ref)}', but table '${table}' is not reachable from '${member.table}' through a many-to-one relationship.`,
        ref.node.pos,
      );
    }
    if (ref.insideAggregate && (table === member.table || !reaches(table, member.table))) {
      throw invalidDefinition(
        `${label} aggregates '${referenceLabel(ref)}': a fact or dimension may only aggregate a table that references '${member.table}'.`,
        ref.node.pos,
      );
    }
  }
}

function assertNoRelationshipCycle(relationships: SemanticViewRelationship[]): void {
  const edges = new Map<string, string[]>();
  for (const r of relationships) edges.set(r.table, [...(edges.get(r.table) ?? []), r.refTable]);
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (table: string): void => {
    if (state.get(table) === 'done') return;
    if (state.get(table) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(table)), table];
      throw invalidDefinition(`Relationships form a cycle: ${cycle.join(' -> ')}.`);
    }
    state.set(table, 'visiting');
    path.push(table);
    for (const next of edges.get(table) ?? []) visit(next);
    path.pop();
    state.set(table, 'done');
  };
  for (const table of edges.keys()) visit(table);
}

function assertNoMemberCycle(members: MemberState[]): void {
  const state = new Map<MemberState, 'visiting' | 'done'>();
  const path: MemberState[] = [];
  const visit = (member: MemberState): void => {
    if (state.get(member) === 'done') return;
    if (state.get(member) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(member)), member].map(qualified);
      throw invalidDefinition(`Circular reference between expressions: ${cycle.join(' -> ')}.`, member.node.name.pos);
    }
    state.set(member, 'visiting');
    path.push(member);
    for (const ref of member.refs) if (ref.kind === 'member') visit(ref.member);
    path.pop();
    state.set(member, 'done');
  };
  for (const member of members) visit(member);
}
