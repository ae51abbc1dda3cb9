// State the planner's SQL builders share (kept apart so the builders and the planner do not import each other).

import type { CompiledCube, CompiledModel, Dimension, Measure } from '../types';
import type { Dialect } from './dialects';
import type { FilterEnv, Params, ValueType } from './filters';
import type { JoinTree } from './joins';
import type { ResolvedMember } from './members';
import type { RenderContext } from './render';
import type { GranularityPlan } from './time';

/** A dimension column of the query (plain dimension or a time dimension bucket). */
export interface DimColumn {
  alias: string;
  /** SQL over the joined rows. */
  sql: string;
  member: ResolvedMember;
  granularity?: GranularityPlan;
}

export interface LeafMeasure {
  alias: string;
  member: ResolvedMember;
  cube: CompiledCube;
  def: Measure;
  hidden: boolean;
}

/** Everything the SQL builders share. */
export interface PlanState {
  model: CompiledModel;
  dialect: Dialect;
  rc: RenderContext;
  params: Params;
  filterEnv: FilterEnv;
  tree: JoinTree;
  multiplied: Set<string>;
  dims: DimColumn[];
  /** Conditions on the joined rows, each tagged with the time dimension alias whose dateRange it is (if it is one). */
  where: { sql: string; dateRangeOf?: string }[];
}

export function valueTypeOf(member: ResolvedMember): ValueType {
  const t = (member.def as Dimension | Measure).type as string;
  if (member.kind === 'measure') return t === 'time' ? 'time' : t === 'string' ? 'string' : t === 'boolean' ? 'boolean' : 'number';
  return t === 'number' ? 'number' : t === 'boolean' ? 'boolean' : t === 'time' ? 'time' : 'string';
}

