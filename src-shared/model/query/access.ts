// Access policies (`access_policy` of cubes and views) applied to one user.
//
// As the platform documents them: a cube or view with policies denies everyone no policy applies
// to; a policy applies when one of its `group`/`groups` (or `role`) is the user's, or is `*`, and its
// `conditions` hold. Several applicable policies combine with OR: a member is visible when any of
// them allows it; rows are visible when any of them allows all rows or its row filters match.
// A view with policies is governed by them alone; a view without policies passes its members'
// cubes' policies through (an assumption: the platform documents view policies, not this case).

import type { AccessPolicy, PlainValue } from '../types';
import { QueryError, QueryErrorCodes, type QueryFilter, type QuerySecurity } from './types';

export interface EntityAccess {
  /** The policies that apply to the user; null when the entity has no policies (everything open). */
  applicable: AccessPolicy[] | null;
  /** Names of the groups the entity's policies are written for, to explain a denial. */
  groups: string[];
}

const asList = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Reads `{ securityContext.a.b }` / `{ userAttributes.x }` from the user. */
function contextValue(security: QuerySecurity, path: string): unknown {
  const [head, ...rest] = path.split('.');
  let value: unknown =
    head === 'securityContext' || head === 'security_context' || head === 'SECURITY_CONTEXT'
      ? security.securityContext
      : head === 'userAttributes' || head === 'user_attributes'
        ? security.userAttributes
        : undefined;
  // Own entries only: `{ securityContext.constructor }` must not find Object's constructor and grant access.
  for (const key of rest) value = value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

const TEMPLATE = /^\s*\{\s*([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)\s*\}\s*$/;

function conditionHolds(condition: { if?: string }, security: QuerySecurity): boolean {
  if (typeof condition.if !== 'string') return true;
  const m = TEMPLATE.exec(condition.if);
  // Conditions Drydock cannot evaluate do not grant access.
  if (!m) return false;
  return Boolean(contextValue(security, m[1]!));
}

export function entityAccess(policies: AccessPolicy[], security: QuerySecurity): EntityAccess {
  if (policies.length === 0) return { applicable: null, groups: [] };
  const groups = new Set(security.groups);
  const roles = new Set(security.roles);
  const applicable = policies.filter((p) => {
    const wantGroups = [...asList(p.group), ...asList(p.groups)];
    const wantRoles = asList(p.role);
    const byGroup = wantGroups.some((g) => g === '*' || groups.has(g));
    const byRole = wantRoles.some((r) => r === '*' || roles.has(r));
    if (!byGroup && !byRole) return false;
    return (p.conditions ?? []).every((c) => conditionHolds(c, security));
  });
  return { applicable, groups: [...new Set(policies.flatMap((p) => [...asList(p.group), ...asList(p.groups), ...asList(p.role)]))] };
}

function memberAllowedBy(policy: AccessPolicy, member: string): boolean {
  const level = policy.memberLevel;
  if (!level) return true;
  const { includes, excludes } = level;
  const included = includes === undefined || includes === '*' || (Array.isArray(includes) && includes.includes(member));
  const excluded = excludes === '*' || (Array.isArray(excludes) && excludes.includes(member));
  return included && !excluded;
}

/** Throws ACCESS_DENIED (403) unless one applicable policy shows `member` of `entity`. */
export function assertMemberVisible(access: EntityAccess, entity: string, member: string, queried: string): void {
  if (access.applicable === null) return;
  if (access.applicable.length === 0) {
    throw new QueryError(
      QueryErrorCodes.ACCESS_DENIED,
      `Access to ${queried} is denied: '${entity}' has access policies for ${access.groups.map((g) => `'${g}'`).join(', ')}, and none of them applies to you.`,
      403,
    );
  }
  if (!access.applicable.some((p) => memberAllowedBy(p, member))) {
    throw new QueryError(QueryErrorCodes.ACCESS_DENIED, `Access to ${queried} is denied: the access policies of '${entity}' that apply to you hide '${member}'.`, 403);
  }
}

export function memberVisible(access: EntityAccess, member: string): boolean {
  return access.applicable === null || access.applicable.some((p) => memberAllowedBy(p, member));
}

/** `{ securityContext.x }` in a value → the user's value (a list spreads into several values). */
function fillValues(values: PlainValue, security: QuerySecurity, entity: string): (string | number | boolean | null)[] {
  const list = Array.isArray(values) ? values : values === undefined ? [] : [values];
  const out: (string | number | boolean | null)[] = [];
  for (const v of list) {
    const m = typeof v === 'string' ? TEMPLATE.exec(v) : null;
    if (!m) {
      if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push(v);
      continue;
    }
    const filled = contextValue(security, m[1]!);
    if (filled === undefined) {
      throw new QueryError(QueryErrorCodes.ACCESS_DENIED, `A row filter of '${entity}' reads ${m[1]}, which your credential does not carry.`, 403);
    }
    for (const x of Array.isArray(filled) ? filled : [filled]) out.push(x === null || typeof x === 'number' || typeof x === 'boolean' ? x : String(x));
  }
  return out;
}

/** A member as written in `entity` (a policy's filter, a hierarchy's level) as a full path: `CUBE.x` and `x` are the entity's, `other.x` another's. */
export function qualifiedMember(entity: string, member: string): string {
  return member.includes('.') ? member.replace(/^CUBE\./, `${entity}.`) : `${entity}.${member}`;
}

function toFilter(raw: PlainValue, entity: string, security: QuerySecurity): QueryFilter {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new QueryError(QueryErrorCodes.INVALID_FILTER, `A row filter of '${entity}' is not a filter object.`);
  }
  if (Array.isArray(raw.and)) return { and: raw.and.map((f) => toFilter(f, entity, security)) };
  if (Array.isArray(raw.or)) return { or: raw.or.map((f) => toFilter(f, entity, security)) };
  const member = typeof raw.member === 'string' ? raw.member : typeof raw.dimension === 'string' ? raw.dimension : null;
  if (!member || typeof raw.operator !== 'string') throw new QueryError(QueryErrorCodes.INVALID_FILTER, `A row filter of '${entity}' lacks a member or an operator.`);
  return { member: qualifiedMember(entity, member), operator: raw.operator as never, values: fillValues(raw.values, security, entity) };
}

/** The row filter the applicable policies impose (OR of policies, AND within one), or null for all rows. */
export function rowFilter(access: EntityAccess, entity: string, security: QuerySecurity): QueryFilter | null {
  if (access.applicable === null || access.applicable.length === 0) return null;
  const perPolicy: QueryFilter[] = [];
  for (const policy of access.applicable) {
    const level = policy.rowLevel;
    if (!level || level.allowAll === true || !level.filters || level.filters.length === 0) {
      if (level?.allowAll === false && (!level.filters || level.filters.length === 0)) continue;
      return null;
    }
    perPolicy.push({ and: level.filters.map((f) => toFilter(f, entity, security)) });
  }
  // Every applicable policy set allow_all: false without filters: no rows.
  if (perPolicy.length === 0) return { or: [] };
  return perPolicy.length === 1 ? perPolicy[0]! : { or: perPolicy };
}
