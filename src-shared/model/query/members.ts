// Query member names (`cube.member`, `view.member`) resolved to the cube member they read.

import type { CompiledCube, CompiledModel, CompiledView, Dimension, Measure, Segment } from '../types';
import { QueryError, QueryErrorCodes, type MemberKind } from './types';
import { own } from '../dict';

export interface ResolvedMember {
  /** The name as the query wrote it (`orders_overview.status`). */
  name: string;
  kind: MemberKind;
  /** The cube the member is defined in. */
  cube: CompiledCube;
  /** Member name in that cube. */
  member: string;
  def: Dimension | Measure | Segment;
  /** The view the member was reached through, and the view's cube path to the member's cube. */
  view?: CompiledView;
  path?: string[];
  /** Title of the cube or view the member belongs to, for annotations. */
  entityTitle: string;
}

const SECTION: Record<MemberKind, 'measures' | 'dimensions' | 'segments'> = { measure: 'measures', dimension: 'dimensions', segment: 'segments' };

function cubeMember(cube: CompiledCube, name: string): { kind: MemberKind; def: Dimension | Measure | Segment } | null {
  if (own(cube.measures, name)) return { kind: 'measure', def: own(cube.measures, name)! };
  if (own(cube.dimensions, name)) return { kind: 'dimension', def: own(cube.dimensions, name)! };
  if (own(cube.segments, name)) return { kind: 'segment', def: own(cube.segments, name)! };
  return null;
}

export const titleOf = (entity: { name: string; title?: string }) => entity.title ?? humanize(entity.name);

/** `average_order_value` → `Average Order Value`, the way the platform titles members without a title. */
export function humanize(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

export class MemberResolver {
  private readonly cache = new Map<string, ResolvedMember>();

  constructor(readonly model: CompiledModel) {}

  /** Resolves a member, checking its kind when one is expected. Hidden (non-public) members are refused. */
  resolve(name: string, expected?: MemberKind): ResolvedMember {
    let resolved = this.cache.get(name);
    if (!resolved) {
      resolved = this.lookup(name);
      this.cache.set(name, resolved);
    }
    if (expected && resolved.kind !== expected) {
      throw new QueryError(QueryErrorCodes.WRONG_MEMBER_KIND, `'${name}' is a ${resolved.kind}, but it is listed among the ${SECTION[expected]}.`);
    }
    return resolved;
  }

  /** A cube member by cube and name (no publicity check: for the model's own references). */
  cubeMember(cubeName: string, member: string): ResolvedMember | null {
    const cube = own(this.model.cubes, cubeName);
    if (!cube) return null;
    const found = cubeMember(cube, member);
    return found ? { name: `${cubeName}.${member}`, kind: found.kind, cube, member, def: found.def, entityTitle: titleOf(cube) } : null;
  }

  private lookup(name: string): ResolvedMember {
    const dot = name.indexOf('.');
    if (typeof name !== 'string' || dot <= 0 || dot !== name.lastIndexOf('.')) {
      throw new QueryError(QueryErrorCodes.UNKNOWN_MEMBER, `'${name}' is not a member name; write it as cube.member or view.member.`);
    }
    const entity = name.slice(0, dot);
    const member = name.slice(dot + 1);
    const view = own(this.model.views, entity);
    if (view) return this.viewMember(view, member, name);
    const cube = own(this.model.cubes, entity);
    if (!cube) throw new QueryError(QueryErrorCodes.UNKNOWN_MEMBER, `'${name}': the model has no cube or view named '${entity}'.`);
    const found = cubeMember(cube, member);
    if (!found) throw new QueryError(QueryErrorCodes.UNKNOWN_MEMBER, `'${name}': cube '${entity}' has no measure, dimension or segment named '${member}'.`);
    if (!cube.public || !found.def.public) {
      throw new QueryError(QueryErrorCodes.UNKNOWN_MEMBER, `'${name}' is not public (public: false), so it cannot be queried.`);
    }
    return { name, kind: found.kind, cube, member, def: found.def, entityTitle: titleOf(cube) };
  }

  private viewMember(view: CompiledView, member: string, name: string): ResolvedMember {
    const vm = own(view.members, member);
    if (!vm || vm.kind === 'hierarchy') {
      throw new QueryError(QueryErrorCodes.UNKNOWN_MEMBER, `'${name}': view '${view.name}' exposes no measure, dimension or segment named '${member}'.`);
    }
    if (vm.cube === view.name) {
      throw new QueryError(QueryErrorCodes.UNSUPPORTED_MEMBER, `'${name}' is defined on the view itself; local queries read members the view includes from its cubes.`);
    }
    const cube = own(this.model.cubes, vm.cube);
    const found = cube ? cubeMember(cube, vm.member) : null;
    if (!cube || !found) throw new QueryError(QueryErrorCodes.UNKNOWN_MEMBER, `'${name}': its source ${vm.cube}.${vm.member} is not in the model.`);
    if (!view.public) throw new QueryError(QueryErrorCodes.UNKNOWN_MEMBER, `'${name}': view '${view.name}' is not public, so it cannot be queried.`);
    return { name, kind: found.kind, cube, member: vm.member, def: found.def, view, path: vm.path, entityTitle: titleOf(view) };
  }
}
