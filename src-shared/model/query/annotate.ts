// The `annotation` of a `load` answer: titles, types and formats of the members it returns.

import type { CompiledModel, Dimension, Measure } from '../types';
import { humanize, type ResolvedMember } from './members';
import type { GranularityPlan } from './time';
import type { MemberAnnotation, QueryAnnotation } from './types';
import { own } from '../dict';

const NUMERIC = new Set(['count', 'count_distinct', 'count_distinct_approx', 'sum', 'avg', 'min', 'max', 'number', 'number_agg', 'rank']);

/** The member's own title: the view's alias title, the member's title, or its name made readable. */
export function memberTitle(m: ResolvedMember): string {
  const short = m.name.slice(m.name.indexOf('.') + 1);
  const viewTitle = m.view ? own(m.view.members, short)?.title : undefined;
  return viewTitle ?? m.def.title ?? humanize(short);
}

function base(m: ResolvedMember, type: string): MemberAnnotation {
  const title = memberTitle(m);
  const a: MemberAnnotation = { title: `${m.entityTitle} ${title}`, shortTitle: title, type };
  if (m.def.meta !== undefined) a.meta = m.def.meta;
  if (m.def.format !== undefined) a.format = m.def.format;
  return a;
}

export function measureAnnotation(m: ResolvedMember): MemberAnnotation {
  const def = m.def as Measure;
  const a = base(m, NUMERIC.has(def.type) ? 'number' : def.type);
  const drill = def.drillMembers.map((d) => (d.includes('.') ? d : `${m.cube.name}.${d}`));
  a.drillMembers = drill;
  a.drillMembersGrouped = { measures: [], dimensions: drill };
  return a;
}

export function annotate(
  _model: CompiledModel,
  parts: {
    measures: ResolvedMember[];
    dimensions: ResolvedMember[];
    segments: ResolvedMember[];
    timeColumns: { member: ResolvedMember; granularity?: GranularityPlan }[];
  },
): QueryAnnotation {
  const out: QueryAnnotation = { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} };
  for (const m of parts.measures) out.measures[m.name] = measureAnnotation(m);
  for (const m of parts.dimensions) out.dimensions[m.name] = base(m, (m.def as Dimension).type);
  for (const m of parts.segments) out.segments[m.name] = base(m, 'boolean');
  for (const t of parts.timeColumns) {
    if (!t.granularity) continue;
    const g = t.granularity;
    const plain = base(t.member, 'time');
    out.timeDimensions[`${t.member.name}.${g.name}`] = {
      ...plain,
      title: `${plain.title} ${g.title}`,
      shortTitle: `${plain.shortTitle} ${g.title}`,
      granularity: { name: g.name, title: g.title, ...(g.interval ? { interval: g.interval } : {}), ...(g.offset ? { offset: g.offset } : {}), ...(g.origin ? { origin: g.origin } : {}) },
    };
    out.timeDimensions[t.member.name] = plain;
  }
  return out;
}
