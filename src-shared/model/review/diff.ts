// Semantic diff of two compiled models (issue 26): cubes, views, their members, joins and a
// view's cubes, added, removed, renamed or changed attribute by attribute — a structured list, not
// a text diff. Renamed means: removed on one side and added on the other in the same cube, with
// the same SQL and type (and filters, rolling window…), and no other candidate for either.

import type { CompiledCube, CompiledModel, CompiledView, Dimension, Folder, Join, Measure, PlainValue, Segment, SourceLocation, ViewCube, ViewMember } from '../types';
import { attributeChanges, canonical, strongest } from './attributes';
import type { AttributeChange, ChangeTarget, ModelChange } from './types';

type Member = Dimension | Measure | Segment;
type MemberTarget = 'dimension' | 'measure' | 'segment';

/** Keys of a cube's or view's properties that are compared as their own changes. */
const ENTITY_SECTIONS = new Set(['dimensions', 'measures', 'segments', 'hierarchies', 'pre_aggregations', 'joins', 'cubes', 'folders', 'name']);

/** What makes two members "the same definition under another name". */
function signatureOf(m: Member): string {
  const p = m.props;
  return canonical({ sql: p.sql, type: p.type, filters: p.filters, rolling_window: p.rolling_window, case: p.case, multi_stage: p.multi_stage, sub_query: p.sub_query });
}

const sorted = (names: Iterable<string>) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

function change(partial: Omit<ModelChange, 'attributes' | 'effect'> & { attributes?: AttributeChange[]; effect?: ModelChange['effect'] }): ModelChange {
  const attributes = partial.attributes ?? [];
  const effect =
    partial.effect ??
    (partial.kind === 'changed' || partial.kind === 'renamed'
      ? strongest(attributes.map((a) => a.effect), partial.kind === 'renamed' ? 'visibility' : 'metadata')
      : partial.kind === 'removed'
        ? 'visibility'
        : 'metadata');
  return { ...partial, attributes, effect };
}

/**
 * Members of one section on both sides: changed ones, and removed/added ones paired into renames
 * where the pairing is unambiguous.
 */
function diffMembers(
  entity: string,
  entityKind: 'cube' | 'view',
  target: MemberTarget,
  before: Record<string, Member>,
  after: Record<string, Member>,
): ModelChange[] {
  const out: ModelChange[] = [];
  const removed: Member[] = [];
  const added: Member[] = [];
  for (const name of sorted(new Set([...Object.keys(before), ...Object.keys(after)]))) {
    const b = before[name];
    const a = after[name];
    if (b && !a) removed.push(b);
    else if (a && !b) added.push(a);
    else if (a && b) {
      const attributes = attributeChanges(b.props, a.props, { publicBefore: b.public, publicAfter: a.public });
      if (attributes.length > 0) out.push(change({ kind: 'changed', target, entity, entityKind, name: `${entity}.${name}`, attributes, base: b.loc, head: a.loc }));
    }
  }
  const bySignature = (members: Member[]) => {
    const map = new Map<string, Member[]>();
    for (const m of members) map.set(signatureOf(m), [...(map.get(signatureOf(m)) ?? []), m]);
    return map;
  };
  const removedBy = bySignature(removed);
  const addedBy = bySignature(added);
  const paired = new Set<Member>();
  for (const [signature, gone] of removedBy) {
    const candidates = addedBy.get(signature);
    if (gone.length !== 1 || candidates?.length !== 1) continue;
    const [b, a] = [gone[0]!, candidates[0]!];
    paired.add(b).add(a);
    const attributes = attributeChanges(b.props, a.props, { publicBefore: b.public, publicAfter: a.public });
    out.push(change({ kind: 'renamed', target, entity, entityKind, name: `${entity}.${a.name}`, previousName: `${entity}.${b.name}`, attributes, base: b.loc, head: a.loc }));
  }
  for (const b of removed) if (!paired.has(b)) out.push(change({ kind: 'removed', target, entity, entityKind, name: `${entity}.${b.name}`, base: b.loc, head: null }));
  for (const a of added) if (!paired.has(a)) out.push(change({ kind: 'added', target, entity, entityKind, name: `${entity}.${a.name}`, base: null, head: a.loc }));
  return out;
}

/** Named things compared as property records (hierarchies, pre-aggregations). */
function diffNamed<T extends { name: string; loc: SourceLocation }>(
  entity: string,
  entityKind: 'cube' | 'view',
  target: ChangeTarget,
  before: Record<string, T>,
  after: Record<string, T>,
  propsOf: (item: T) => Record<string, PlainValue>,
): ModelChange[] {
  const out: ModelChange[] = [];
  for (const name of sorted(new Set([...Object.keys(before), ...Object.keys(after)]))) {
    const b = before[name];
    const a = after[name];
    const qualified = `${entity}.${name}`;
    if (b && !a) out.push(change({ kind: 'removed', target, entity, entityKind, name: qualified, base: b.loc, head: null }));
    else if (a && !b) out.push(change({ kind: 'added', target, entity, entityKind, name: qualified, base: null, head: a.loc }));
    else if (a && b) {
      const attributes = attributeChanges(propsOf(b), propsOf(a));
      if (attributes.length > 0) out.push(change({ kind: 'changed', target, entity, entityKind, name: qualified, attributes, base: b.loc, head: a.loc }));
    }
  }
  return out;
}

const joinProps = (j: Join): Record<string, PlainValue> => ({ sql: j.sql, relationship: j.relationship });

function diffJoins(cube: string, before: Join[], after: Join[]): ModelChange[] {
  const index = (joins: Join[]) => Object.fromEntries(joins.map((j) => [j.name, { ...j, name: j.name }]));
  return diffNamed(cube, 'cube', 'join', index(before), index(after), joinProps).map((c) => ({
    ...c,
    name: `${cube}->${c.name.slice(cube.length + 1)}`,
    // Adding or removing a join changes which queries can combine the two cubes, and how.
    effect: c.kind === 'changed' ? c.effect : 'numbers',
  }));
}

function cubeProps(cube: CompiledCube): Record<string, PlainValue> {
  const props: Record<string, PlainValue> = {};
  for (const [key, value] of Object.entries(cube.props)) if (!ENTITY_SECTIONS.has(key)) props[key] = value;
  // Sections the compiler keeps only as typed records (issue 28), compared as written.
  if (cube.accessPolicy.length > 0) props.access_policy = cube.accessPolicy.map((p) => p.props);
  // Keys that only resolution knows (a data source named by extends, primary keys across members).
  props.data_source = cube.dataSource;
  props.primary_keys = [...cube.primaryKeys].sort();
  return props;
}

function diffCube(b: CompiledCube, a: CompiledCube): ModelChange[] {
  const out: ModelChange[] = [];
  const attributes = attributeChanges(cubeProps(b), cubeProps(a), { publicBefore: b.public, publicAfter: a.public });
  if (attributes.length > 0) out.push(change({ kind: 'changed', target: 'cube', entity: a.name, entityKind: 'cube', name: a.name, attributes, base: b.loc, head: a.loc }));
  out.push(...diffJoins(a.name, b.joins, a.joins));
  out.push(...diffMembers(a.name, 'cube', 'dimension', b.dimensions, a.dimensions));
  out.push(...diffMembers(a.name, 'cube', 'measure', b.measures, a.measures));
  out.push(...diffMembers(a.name, 'cube', 'segment', b.segments, a.segments));
  out.push(...diffNamed(a.name, 'cube', 'hierarchy', b.hierarchies, a.hierarchies, (h) => ({ title: h.title, levels: h.levels, public: h.public })));
  out.push(...diffNamed(a.name, 'cube', 'pre_aggregation', b.preAggregations, a.preAggregations, (p) => p.props));
  return out;
}

const viewCubeKey = (c: ViewCube) => c.joinPath.join('.');

function viewCubeProps(c: ViewCube): Record<string, PlainValue> {
  const includes = c.includes === '*' ? '*' : c.includes.map((i) => (i.alias ? `${i.name} as ${i.alias}` : i.name));
  return { join_path: c.path.join('.'), includes, excludes: c.excludes, prefix: c.prefix, alias: c.alias, split: c.split };
}

function sourceOf(m: ViewMember): Record<string, PlainValue> {
  return { member: `${m.cube}.${m.member}`, join_path: m.path.join('.'), type: m.type, title: m.title, description: m.description, format: m.format, meta: m.meta };
}

/**
 * Members a view exposes. `renamed` maps renamed cube members (base `cube.member` → head): a view
 * member whose source was renamed under it is still the same member.
 */
function diffViewMembers(view: string, before: Record<string, ViewMember>, after: Record<string, ViewMember>, own: Set<string>, renamed: ReadonlyMap<string, string>): ModelChange[] {
  const viewMemberSource = (m: ViewMember, side: 'base' | 'head') => {
    const source = sourceOf(m);
    if (side === 'base') source.member = renamed.get(source.member as string) ?? source.member;
    return source;
  };
  const out: ModelChange[] = [];
  const removed: ViewMember[] = [];
  const added: ViewMember[] = [];
  for (const name of sorted(new Set([...Object.keys(before), ...Object.keys(after)]))) {
    // Members the view defines itself are compared as the view's dimensions and measures.
    if (own.has(name)) continue;
    const b = before[name];
    const a = after[name];
    if (b && !a) removed.push(b);
    else if (a && !b) added.push(a);
    else if (a && b) {
      const attributes = attributeChanges(viewMemberSource(b, 'base'), viewMemberSource(a, 'head'));
      if (attributes.length > 0) out.push(change({ kind: 'changed', target: 'view_member', entity: view, entityKind: 'view', name: `${view}.${name}`, attributes, base: b.loc, head: a.loc }));
    }
  }
  const key = (m: ViewMember, side: 'base' | 'head') => `${m.kind}:${viewMemberSource(m, side).member as string}@${m.path.join('.')}`;
  const count = (list: ViewMember[], side: 'base' | 'head') => list.reduce((map, m) => map.set(key(m, side), (map.get(key(m, side)) ?? 0) + 1), new Map<string, number>());
  const removedCount = count(removed, 'base');
  const addedCount = count(added, 'head');
  const paired = new Set<ViewMember>();
  for (const b of removed) {
    const k = key(b, 'base');
    if (removedCount.get(k) !== 1 || addedCount.get(k) !== 1) continue;
    const a = added.find((m) => key(m, 'head') === k)!;
    paired.add(b).add(a);
    const attributes = attributeChanges(viewMemberSource(b, 'base'), viewMemberSource(a, 'head'));
    out.push(change({ kind: 'renamed', target: 'view_member', entity: view, entityKind: 'view', name: `${view}.${a.name}`, previousName: `${view}.${b.name}`, attributes, base: b.loc, head: a.loc }));
  }
  for (const b of removed) if (!paired.has(b)) out.push(change({ kind: 'removed', target: 'view_member', entity: view, entityKind: 'view', name: `${view}.${b.name}`, base: b.loc, head: null }));
  for (const a of added) if (!paired.has(a)) out.push(change({ kind: 'added', target: 'view_member', entity: view, entityKind: 'view', name: `${view}.${a.name}`, base: null, head: a.loc }));
  return out;
}

function folderValue(folder: Folder): PlainValue {
  return { name: folder.name, members: folder.members, ...(folder.folders.length > 0 ? { folders: folder.folders.map(folderValue) } : {}) };
}

function viewProps(view: CompiledView): Record<string, PlainValue> {
  const props: Record<string, PlainValue> = {};
  for (const [key, value] of Object.entries(view.props)) if (!ENTITY_SECTIONS.has(key)) props[key] = value;
  // Sections the compiler keeps only as typed records (issue 28), compared without their locations.
  if (view.accessPolicy.length > 0) props.access_policy = view.accessPolicy.map((p) => p.props);
  if (view.folders.length > 0) props.folders = view.folders.map(folderValue);
  return props;
}

function diffView(b: CompiledView, a: CompiledView, renamed: ReadonlyMap<string, string>): ModelChange[] {
  const out: ModelChange[] = [];
  const attributes = attributeChanges(viewProps(b), viewProps(a), { publicBefore: b.public, publicAfter: a.public });
  if (attributes.length > 0) out.push(change({ kind: 'changed', target: 'view', entity: a.name, entityKind: 'view', name: a.name, attributes, base: b.loc, head: a.loc }));
  const cubes = (v: CompiledView) => Object.fromEntries(v.cubes.map((c) => [viewCubeKey(c), { ...c, name: viewCubeKey(c) }]));
  out.push(
    ...diffNamed(a.name, 'view', 'view_cube', cubes(b), cubes(a), viewCubeProps).map((c) => ({
      ...c,
      name: `${a.name}[${c.name.slice(a.name.length + 1)}]`,
      effect: c.kind === 'changed' ? c.effect : ('numbers' as const),
    })),
  );
  out.push(...diffMembers(a.name, 'view', 'dimension', b.dimensions, a.dimensions));
  out.push(...diffMembers(a.name, 'view', 'measure', b.measures, a.measures));
  out.push(...diffMembers(a.name, 'view', 'segment', b.segments, a.segments));
  const own = new Set([...Object.keys(a.dimensions), ...Object.keys(a.measures), ...Object.keys(a.segments), ...Object.keys(b.dimensions), ...Object.keys(b.measures), ...Object.keys(b.segments)]);
  out.push(...diffViewMembers(a.name, b.members, a.members, own, renamed));
  return out;
}

/** Every difference between `base` and `head`, cubes first, then views, each in name order. */
export function diffModels(base: CompiledModel, head: CompiledModel): ModelChange[] {
  const out: ModelChange[] = [];
  for (const name of sorted(new Set([...Object.keys(base.cubes), ...Object.keys(head.cubes)]))) {
    const b = base.cubes[name];
    const a = head.cubes[name];
    if (b && !a) out.push(change({ kind: 'removed', target: 'cube', entity: name, entityKind: 'cube', name, base: b.loc, head: null, effect: 'numbers' }));
    else if (a && !b) out.push(change({ kind: 'added', target: 'cube', entity: name, entityKind: 'cube', name, base: null, head: a.loc }));
    else if (a && b) out.push(...diffCube(b, a));
  }
  const renamed = new Map(out.filter((c) => c.kind === 'renamed').map((c) => [c.previousName!, c.name]));
  for (const name of sorted(new Set([...Object.keys(base.views), ...Object.keys(head.views)]))) {
    const b = base.views[name];
    const a = head.views[name];
    if (b && !a) out.push(change({ kind: 'removed', target: 'view', entity: name, entityKind: 'view', name, base: b.loc, head: null, effect: 'numbers' }));
    else if (a && !b) out.push(change({ kind: 'added', target: 'view', entity: name, entityKind: 'view', name, base: null, head: a.loc }));
    else if (a && b) out.push(...diffView(b, a, renamed));
  }
  return out;
}

