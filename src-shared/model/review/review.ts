// A change review of two compile results (issue 26), everything but running queries: the semantic
// diff of what compiled on both sides, its impact, and the data diff's queries planned on both
// sides. A side with errors is reviewed as far as it compiled: cubes and views of its files with
// errors are left out of the diff and listed as not compiled.

import type { QuerySecurity } from '../query';
import type { CompileResult, CompiledModel } from '../types';
import { diffModels } from './diff';
import type { ReviewFacts } from './facts';
import { reviewImpact, type ReviewImpact } from './impact';
import { dataDiffQueries, planSide, type DataDiffLimits, type DiffQuery, type PlannedSide } from './queries';
import type { ModelChange, SideProblems } from './types';
import type { DialectName } from '../query';

export interface PrepareOptions {
  security: QuerySecurity | null;
  now?: Date;
  dialects: Record<string, DialectName>;
  limits: DataDiffLimits;
  /** Plan the data diff's queries (false: semantic diff and impact only). */
  dataDiff: boolean;
}

export interface PlannedDiffQuery extends Omit<DiffQuery, 'base' | 'head'> {
  query: { base: DiffQuery['base']; head: DiffQuery['head'] };
  base: PlannedSide;
  head: PlannedSide;
  /** Both sides plan to the same statement on the same data source: the numbers cannot differ. */
  sameSql: boolean;
}

export interface PreparedReview {
  changes: ModelChange[];
  impact: ReviewImpact;
  problems: { base: SideProblems | null; head: SideProblems | null };
  queries: PlannedDiffQuery[];
}

const FIRST_ERRORS = 20;

/** The errors of one side and the cubes and views they leave uncompiled (null when it compiled cleanly). */
export function sideProblems(result: CompileResult, other: CompiledModel): SideProblems | null {
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return null;
  const files = new Set(errors.map((d) => d.file));
  const entities = new Set<string>();
  for (const model of [result.model, other]) {
    for (const e of [...Object.values(model.cubes), ...Object.values(model.views)]) if (files.has(e.file)) entities.add(e.name);
  }
  for (const d of errors) if (d.member) entities.add(d.member.split('.')[0]!);
  return {
    errorCount: errors.length,
    errors: errors.slice(0, FIRST_ERRORS).map((d) => ({ file: d.file, line: d.line, column: d.column, code: d.code, message: d.message })),
    entities: [...entities].sort(),
  };
}

export function prepareReview(base: CompileResult, head: CompileResult, facts: ReviewFacts, options: PrepareOptions): PreparedReview {
  const problems = { base: sideProblems(base, head.model), head: sideProblems(head, base.model) };
  const uncompiled = new Set([...(problems.base?.entities ?? []), ...(problems.head?.entities ?? [])]);
  const changes = diffModels(base.model, head.model).filter((c) => !uncompiled.has(c.entity));
  const impact = reviewImpact(base.model, head.model, changes, facts, { security: options.security, now: options.now, uncompiledHead: new Set(problems.head?.entities ?? []) });
  const queries: PlannedDiffQuery[] = [];
  if (options.dataDiff) {
    const planOptions = { security: options.security, now: options.now, dialects: options.dialects };
    for (const q of dataDiffQueries(base.model, head.model, changes, impact, facts, options.limits)) {
      const planned = { base: planSide(base.model, q.base, {}, planOptions), head: planSide(head.model, q.head, q.renamed, planOptions) };
      const sameSql = planned.base.ok && planned.head.ok && planned.base.runKey === planned.head.runKey;
      const { base: bq, head: hq, ...rest } = q;
      queries.push({ ...rest, query: { base: bq, head: hq }, ...planned, sameSql });
    }
  }
  return { changes, impact, problems, queries };
}
