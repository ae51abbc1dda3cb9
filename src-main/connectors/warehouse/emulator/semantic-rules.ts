/**
 * The rules Snowflake applies to the expressions of a semantic view once every reference is
 * resolved: granularity (a fact or dimension reads "up" many-to-one relationships, a metric
 * aggregates), derived metrics (view-level, built only from metrics), window function metrics
 * (a window function over a metric, partitioned and ordered by dimensions), and no cycles among
 * relationships or among expressions. The member and reference shapes the validator builds live
 * here too.
 */
import type { ExpressionNode, SemanticExpressionNode } from './ddl-parser';
import type { SemanticViewRelationship } from './definition';
import { invalidDefinition } from './errors';

export type MemberKind = 'FACT' | 'DIMENSION' | 'METRIC';

export interface MemberState {
  kind: MemberKind;
  node: SemanticExpressionNode;
  /** Null for a derived metric (defined at view level, without a table). */
  table: string | null;
  name: string;
  /** Filled during reference analysis. */
  refs: Reference[];
  /** The expression is a window function call (a window function metric). */
  window: boolean;
  dataType?: string;
}

/**
 * Where a reference sits: in the expression proper, as an argument of a window metric's
 * function, in its PARTITION BY / ORDER BY, or in a PARTITION BY EXCLUDING list.
 */
export type ReferenceRole = 'expression' | 'window-argument' | 'window-spec' | 'window-excluded';

export type ColumnNode = Extract<ExpressionNode, { kind: 'column' }>;

export type Reference =
  | { kind: 'column'; table: string; column: string; type: string | null; insideAggregate: boolean; role: ReferenceRole; node: ColumnNode }
  | { kind: 'member'; member: MemberState; insideAggregate: boolean; role: ReferenceRole; node: ColumnNode };

export const KIND_LABEL: Record<MemberKind, string> = { FACT: 'Fact', DIMENSION: 'Dimension', METRIC: 'Metric' };

export function qualified(member: MemberState): string {
  return member.table === null ? member.name : `${member.table}.${member.name}`;
}

export function memberLabel(member: MemberState): string {
  return member.table === null ? `Derived metric '${member.name}'` : `${KIND_LABEL[member.kind]} '${qualified(member)}'`;
}

function referencedTable(ref: Reference): string | null {
  return ref.kind === 'column' ? ref.table : ref.member.table;
}

function referenceLabel(ref: Reference): string {
  return ref.kind === 'column' ? `${ref.table}.${ref.column}` : qualified(ref.member);
}

const isMetricRef = (ref: Reference): boolean => ref.kind === 'member' && ref.member.kind === 'METRIC';

/**
 * A window function metric applies a window function to metrics, partitioned and ordered by
 * dimensions (or metrics); PARTITION BY EXCLUDING lists dimensions only.
 */
function checkWindowMetric(member: MemberState): void {
  const label = memberLabel(member);
  for (const ref of member.refs) {
    if (ref.role === 'window-argument' && !isMetricRef(ref)) {
      throw invalidDefinition(`${label} is a window function metric: its function must be applied to a metric, and '${referenceLabel(ref)}' is not one.`, ref.node.pos);
    }
    if (ref.role === 'window-spec' && !(ref.kind === 'member' && (ref.member.kind === 'DIMENSION' || ref.member.kind === 'METRIC'))) {
      throw invalidDefinition(`${label} partitions or orders by '${referenceLabel(ref)}', which is not a dimension or metric of the semantic view.`, ref.node.pos);
    }
    if (ref.role === 'window-excluded' && !(ref.kind === 'member' && ref.member.kind === 'DIMENSION')) {
      throw invalidDefinition(`${label} lists '${referenceLabel(ref)}' in PARTITION BY EXCLUDING, which takes dimensions only.`, ref.node.pos);
    }
  }
}

/**
 * Granularity rules: a fact or dimension is one value per row of its table, so outside an
 * aggregate it may only read tables its table references (many-to-one); inside an aggregate it
 * reads tables that reference it (one-to-many). A metric aggregates rows of its table or of a
 * related table; outside aggregates it may only combine other metrics. A derived metric only
 * combines metrics (the resolver already refused anything else).
 */
export function checkReferenceRules(member: MemberState, aggregates: number, reaches: (from: string, to: string) => boolean): void {
  const label = memberLabel(member);
  if (member.window) {
    checkWindowMetric(member);
    return;
  }
  if (member.kind === 'METRIC') {
    if (member.table === null) return;
    const referencesMetric = member.refs.some(isMetricRef);
    if (aggregates === 0 && !referencesMetric) {
      throw invalidDefinition(
        `${label} must be an aggregate expression (for example SUM, COUNT, AVG, MIN, MAX or COUNT(DISTINCT ...)).`,
        member.node.expression.pos,
      );
    }
    for (const ref of member.refs) {
      const isMetric = isMetricRef(ref);
      if (!ref.insideAggregate && !isMetric) {
        throw invalidDefinition(`${label} refers to '${referenceLabel(ref)}' outside an aggregate function.`, ref.node.pos);
      }
      const table = referencedTable(ref);
      if (ref.insideAggregate && !isMetric && table !== null && table !== member.table && !reaches(member.table, table) && !reaches(table, member.table)) {
        throw invalidDefinition(
          `${label} aggregates '${referenceLabel(ref)}', but table '${table}' is not related to '${member.table}' by any relationship.`,
          ref.node.pos,
        );
      }
    }
    return;
  }
  const own = member.table!;
  for (const ref of member.refs) {
    if (isMetricRef(ref)) {
      throw invalidDefinition(`${label} cannot refer to metric '${qualified((ref as { member: MemberState }).member)}'.`, ref.node.pos);
    }
    const table = referencedTable(ref)!;
    if (!ref.insideAggregate && table !== own && !reaches(own, table)) {
      throw invalidDefinition(
        `${label} refers to '${referenceLabel(ref)}', but table '${table}' is not reachable from '${own}' through a many-to-one relationship.`,
        ref.node.pos,
      );
    }
    if (ref.insideAggregate && (table === own || !reaches(table, own))) {
      throw invalidDefinition(
        `${label} aggregates '${referenceLabel(ref)}': a fact or dimension may only aggregate a table that references '${own}'.`,
        ref.node.pos,
      );
    }
  }
}

export function assertNoRelationshipCycle(relationships: SemanticViewRelationship[]): void {
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

export function assertNoMemberCycle(members: MemberState[]): void {
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
