// The data API's `meta`: the cubes and views a user may query and their members, in the
// platform's shape (member names qualified, titles, types, granularities, drill members).

import type { AccessPolicy, CompiledCube, CompiledModel, CompiledView, Dimension, Measure, Segment } from '../types';
import { entityAccess, memberVisible, qualifiedMember, type EntityAccess } from './access';
import { humanize } from './members';
import type { QuerySecurity } from './types';
import { own } from '../dict';

const NUMERIC = new Set(['count', 'count_distinct', 'count_distinct_approx', 'sum', 'avg', 'min', 'max', 'number', 'number_agg', 'rank']);

export interface MetaMember {
  name: string;
  title: string;
  shortTitle: string;
  type: string;
  description?: string;
  format?: unknown;
  meta?: unknown;
  isVisible: boolean;
  public: boolean;
  [extra: string]: unknown;
}

export interface MetaEntity {
  name: string;
  title: string;
  type: 'cube' | 'view';
  description?: string;
  meta?: unknown;
  isVisible: boolean;
  public: boolean;
  measures: MetaMember[];
  dimensions: MetaMember[];
  segments: MetaMember[];
  hierarchies: { name: string; title: string; levels: string[]; public: boolean }[];
  folders: { name: string; members: string[] }[];
}

const opt = (key: string, value: unknown) => (value === undefined || value === null ? {} : { [key]: value });

function measureMeta(entity: string, entityTitle: string, name: string, m: Measure, title: string | undefined): MetaMember {
  const short = title ?? m.title ?? humanize(name);
  const drill = m.drillMembers.map((d) => (d.includes('.') ? d : `${entity}.${d}`));
  return {
    name: `${entity}.${name}`,
    title: `${entityTitle} ${short}`,
    shortTitle: short,
    type: NUMERIC.has(m.type) ? 'number' : m.type,
    aggType: m.type,
    cumulative: m.rollingWindow !== undefined,
    cumulativeTotal: m.rollingWindow?.trailing === 'unbounded',
    drillMembers: drill,
    drillMembersGrouped: { measures: [], dimensions: drill },
    isVisible: true,
    public: true,
    ...opt('description', m.description),
    ...opt('format', m.format),
    ...opt('meta', m.meta),
  };
}

function dimensionMeta(entity: string, entityTitle: string, name: string, d: Dimension, title: string | undefined): MetaMember {
  const short = title ?? d.title ?? humanize(name);
  return {
    name: `${entity}.${name}`,
    title: `${entityTitle} ${short}`,
    shortTitle: short,
    type: d.type,
    suggestFilterValues: true,
    primaryKey: d.primaryKey,
    isVisible: true,
    public: true,
    ...(d.type === 'time' && d.granularities.length
      ? { granularities: d.granularities.map((g) => ({ name: g.name, title: g.title ?? humanize(g.name), ...opt('interval', g.interval), ...opt('offset', g.offset), ...opt('origin', g.origin) })) }
      : {}),
    ...opt('description', d.description),
    ...opt('format', d.format),
    ...opt('meta', d.meta),
  };
}

function segmentMeta(entity: string, entityTitle: string, name: string, s: Segment, title: string | undefined): MetaMember {
  const short = title ?? s.title ?? humanize(name);
  return { name: `${entity}.${name}`, title: `${entityTitle} ${short}`, shortTitle: short, type: 'boolean', isVisible: true, public: true, ...opt('description', s.description) };
}

function accessOf(policies: AccessPolicy[], security: QuerySecurity | null): EntityAccess {
  return security ? entityAccess(policies, security) : { applicable: null, groups: [] };
}

function cubeEntity(cube: CompiledCube, security: QuerySecurity | null): MetaEntity | null {
  const access = accessOf(cube.accessPolicy, security);
  if (access.applicable !== null && access.applicable.length === 0) return null;
  const title = cube.title ?? humanize(cube.name);
  const visible = (m: { public: boolean }, name: string) => m.public && memberVisible(access, name);
  return {
    name: cube.name,
    title,
    type: 'cube',
    isVisible: true,
    public: true,
    ...opt('description', cube.description),
    ...opt('meta', cube.meta),
    measures: Object.entries(cube.measures)
      .filter(([n, m]) => visible(m, n))
      .map(([n, m]) => measureMeta(cube.name, title, n, m, undefined)),
    dimensions: Object.entries(cube.dimensions)
      .filter(([n, d]) => visible(d, n))
      .map(([n, d]) => dimensionMeta(cube.name, title, n, d, undefined)),
    segments: Object.entries(cube.segments)
      .filter(([n, s]) => visible(s, n))
      .map(([n, s]) => segmentMeta(cube.name, title, n, s, undefined)),
    hierarchies: Object.values(cube.hierarchies)
      .filter((h) => h.public)
      .map((h) => ({ name: `${cube.name}.${h.name}`, title: h.title ?? humanize(h.name), levels: h.levels.map((l) => qualifiedMember(cube.name, l)), public: true })),
    folders: [],
  };
}

function viewEntity(model: CompiledModel, view: CompiledView, security: QuerySecurity | null): MetaEntity | null {
  const viewAccess = view.accessPolicy.length > 0 ? accessOf(view.accessPolicy, security) : null;
  if (viewAccess && viewAccess.applicable !== null && viewAccess.applicable.length === 0) return null;
  const title = view.title ?? humanize(view.name);
  const entity: MetaEntity = {
    name: view.name,
    title,
    type: 'view',
    isVisible: true,
    public: true,
    ...opt('description', view.description),
    ...opt('meta', view.meta),
    measures: [],
    dimensions: [],
    segments: [],
    hierarchies: [],
    folders: view.folders.map((f) => ({ name: f.name, members: f.members.map((m) => `${view.name}.${m}`) })),
  };
  const cubeAccess = new Map<string, EntityAccess>();
  for (const [exposed, vm] of Object.entries(view.members)) {
    const cube = own(model.cubes, vm.cube);
    if (!cube) continue;
    let access = viewAccess;
    if (!access) {
      access = cubeAccess.get(cube.name) ?? accessOf(cube.accessPolicy, security);
      cubeAccess.set(cube.name, access);
    }
    if (!memberVisible(access, viewAccess ? exposed : vm.member)) continue;
    if (vm.kind === 'measure' && own(cube.measures, vm.member)?.public) entity.measures.push(measureMeta(view.name, title, exposed, own(cube.measures, vm.member)!, vm.title));
    if (vm.kind === 'dimension' && own(cube.dimensions, vm.member)?.public) entity.dimensions.push(dimensionMeta(view.name, title, exposed, own(cube.dimensions, vm.member)!, vm.title));
    if (vm.kind === 'segment' && own(cube.segments, vm.member)?.public) entity.segments.push(segmentMeta(view.name, title, exposed, own(cube.segments, vm.member)!, vm.title));
  }
  return entity;
}

/**
 * A cube or view that access policies hide from a user entirely, and whom they would show it to: the
 * groups and roles its policies are written for (issue 24: the Data screen says why an item is missing
 * instead of dropping it without a word).
 */
export interface HiddenEntity {
  name: string;
  title: string;
  type: 'cube' | 'view';
  /** Groups and roles its policies name (`*` for everyone whose conditions hold). */
  visibleTo: string[];
}

const isEmpty = (e: MetaEntity | null) => !e || e.measures.length + e.dimensions.length + e.segments.length === 0;

/** The public cubes and views `security` may not query at all (none with `security` null), views only when asked. */
export function hiddenByAccessPolicy(model: CompiledModel, security: QuerySecurity | null, options: { onlyViews?: boolean } = {}): HiddenEntity[] {
  if (!security) return [];
  const out: HiddenEntity[] = [];
  const check = (name: string, title: string | undefined, type: 'cube' | 'view', policies: AccessPolicy[]) => {
    if (policies.length === 0) return;
    const access = entityAccess(policies, security);
    if (access.applicable !== null && access.applicable.length === 0) out.push({ name, title: title ?? humanize(name), type, visibleTo: access.groups });
  };
  if (!options.onlyViews) for (const cube of Object.values(model.cubes)) if (cube.public) check(cube.name, cube.title, 'cube', cube.accessPolicy);
  for (const view of Object.values(model.views)) {
    if (!view.public) continue;
    if (view.accessPolicy.length > 0) check(view.name, view.title, 'view', view.accessPolicy);
    else if (isEmpty(viewEntity(model, view, security)) && !isEmpty(viewEntity(model, view, null))) {
      // No policy of its own, but its cubes' policies hide every member: as good as hidden.
      const cubes = [...new Set(Object.values(view.members).map((m) => m.cube))].map((c) => model.cubes[c]).filter((c) => c !== undefined);
      const visibleTo = [...new Set(cubes.flatMap((c) => entityAccess(c.accessPolicy, security).groups))];
      out.push({ name: view.name, title: view.title ?? humanize(view.name), type: 'view', visibleTo });
    }
  }
  return out;
}

/** The cubes and views `security` may query (all, with `security` null), views only when asked. */
export function modelMeta(model: CompiledModel, security: QuerySecurity | null, options: { onlyViews?: boolean } = {}): { cubes: MetaEntity[] } {
  const out: MetaEntity[] = [];
  if (!options.onlyViews) {
    for (const cube of Object.values(model.cubes)) {
      if (!cube.public) continue;
      const e = cubeEntity(cube, security);
      if (e) out.push(e);
    }
  }
  for (const view of Object.values(model.views)) {
    if (!view.public) continue;
    const e = viewEntity(model, view, security);
    if (e) out.push(e);
  }
  return { cubes: out };
}
