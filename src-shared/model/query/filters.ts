// Query filters (`{ member, operator, values }`, `and`, `or`) as SQL conditions with bound
// parameters. Operators and their null handling follow the platform: the negative operators
// (`notEquals`, `notContains`, …) also keep rows where the member is NULL.

import { formatWall, resolveDateRange } from './dates';
import type { Dialect } from './dialects';
import { FILTER_OPERATORS, QueryError, QueryErrorCodes, type MemberFilter, type QueryFilter } from './types';

/** Parameters collected while SQL is built out of order; `token()` marks where each one goes. */
export class Params {
  private readonly values: unknown[] = [];

  token(value: unknown): string {
    this.values.push(value);
    return `\uE000P${this.values.length - 1}\uE001`;
  }

  /** The SQL with `?` in place of every token, and the values in the order they appear. */
  finish(sql: string): { sql: string; params: unknown[] } {
    const params: unknown[] = [];
    const text = sql.replace(/\uE000P(\d+)\uE001/g, (_m, i: string) => {
      params.push(this.values[Number(i)]);
      return '?';
    });
    return { sql: text, params };
  }
}

export type ValueType = 'string' | 'number' | 'boolean' | 'time';

export interface FilterTarget {
  sql: string;
  type: ValueType;
}

export interface FilterEnv {
  dialect: Dialect;
  params: Params;
  timeZone: string;
  now: Date;
}

export const isMemberFilter = (f: QueryFilter): f is MemberFilter => !('and' in f) && !('or' in f);

export const filterMember = (f: MemberFilter): string => (f.member ?? f.dimension)!;

/** Every member a filter tree reads. */
export function filterMembers(filters: QueryFilter[]): string[] {
  const out: string[] = [];
  const walk = (f: QueryFilter) => {
    if ('and' in f) f.and.forEach(walk);
    else if ('or' in f) f.or.forEach(walk);
    else out.push(filterMember(f));
  };
  filters.forEach(walk);
  return out;
}

function bad(detail: string): QueryError {
  return new QueryError(QueryErrorCodes.INVALID_FILTER, detail);
}

/** Checks the shape of a filter tree (members, operators, values) before anything is planned. */
export function checkFilter(f: unknown, where: string): void {
  if (f === null || typeof f !== 'object' || Array.isArray(f)) throw bad(`${where} must be an object.`);
  const o = f as Record<string, unknown>;
  for (const group of ['and', 'or'] as const) {
    if (group in o) {
      if (!Array.isArray(o[group])) throw bad(`${where}.${group} must be a list of filters.`);
      (o[group] as unknown[]).forEach((child, i) => checkFilter(child, `${where}.${group}[${i}]`));
      return;
    }
  }
  const member = o.member ?? o.dimension;
  if (typeof member !== 'string') throw bad(`${where} needs a member (cube.member) to filter on.`);
  if (typeof o.operator !== 'string' || !(FILTER_OPERATORS as readonly string[]).includes(o.operator)) {
    throw bad(`${where} (${member}): operator ${JSON.stringify(o.operator)} is not one of ${FILTER_OPERATORS.join(', ')}.`);
  }
  if (o.values !== undefined && !Array.isArray(o.values)) throw bad(`${where} (${member}): values must be a list.`);
  const values = (o.values ?? []) as unknown[];
  if (values.some((v) => v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')) {
    throw bad(`${where} (${member}): values must be strings, numbers, booleans or null.`);
  }
  const needs = (n: number, text: string) => {
    if (values.length < n) throw bad(`${where} (${member}): operator ${o.operator} needs ${text}.`);
  };
  switch (o.operator) {
    case 'set':
    case 'notSet':
      return;
    case 'inDateRange':
    case 'notInDateRange':
      if (values.length !== 2) throw bad(`${where} (${member}): operator ${o.operator} needs exactly two dates [from, to].`);
      return;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
    case 'beforeDate':
    case 'beforeOrOnDate':
    case 'afterDate':
    case 'afterOrOnDate':
      needs(1, 'one value');
      return;
    default:
      needs(1, 'at least one value');
  }
}

function param(env: FilterEnv, value: unknown, type: ValueType, member: string): string {
  if (type === 'number') {
    const n = typeof value === 'number' ? value : Number(value);
    if (value === '' || !Number.isFinite(n)) throw bad(`${member} is a number, but the filter value ${JSON.stringify(value)} is not.`);
    return `CAST(${env.params.token(n)} AS DOUBLE)`;
  }
  if (type === 'boolean') {
    const text = String(value).toLowerCase();
    if (text !== 'true' && text !== 'false') throw bad(`${member} is a boolean; filter on true or false, not ${JSON.stringify(value)}.`);
    return text === 'true' ? 'TRUE' : 'FALSE';
  }
  if (type === 'time') return env.dialect.toTimestamp(env.params.token(String(value)));
  return env.params.token(String(value));
}

/** `[from, to]` of a date value: a bare date covers its whole day. */
function dateBounds(env: FilterEnv, value: unknown, member: string): [string, string] {
  if (typeof value !== 'string') throw bad(`${member}: date filter values are strings such as 2024-01-31.`);
  const [from, to] = resolveDateRange([value, value], env.timeZone, env.now);
  return [formatWall(from), formatWall(to)];
}

const time = (env: FilterEnv, text: string) => env.dialect.toTimestamp(env.params.token(text.replace('T', ' ')));

function memberCondition(env: FilterEnv, f: MemberFilter, target: FilterTarget): string {
  const member = filterMember(f);
  const e = target.sql;
  const values = f.values ?? [];
  const nonNull = values.filter((v) => v !== null);
  const hasNull = nonNull.length !== values.length;
  const like = (pattern: (p: string) => string, negate: boolean) => {
    const parts = nonNull.map((v) => `${e} ${negate ? 'NOT ILIKE' : 'ILIKE'} ${pattern(env.params.token(String(v)))}`);
    return negate ? `(${parts.join(' AND ')} OR ${e} IS NULL)` : `(${parts.join(' OR ')})`;
  };
  switch (f.operator) {
    case 'equals': {
      const list = nonNull.map((v) => param(env, v, target.type, member));
      const inList = list.length === 0 ? null : list.length === 1 ? `${e} = ${list[0]}` : `${e} IN (${list.join(', ')})`;
      if (hasNull) return inList ? `(${inList} OR ${e} IS NULL)` : `${e} IS NULL`;
      return inList!;
    }
    case 'notEquals': {
      const list = nonNull.map((v) => param(env, v, target.type, member));
      const notIn = list.length === 0 ? null : list.length === 1 ? `${e} <> ${list[0]}` : `${e} NOT IN (${list.join(', ')})`;
      if (hasNull) return notIn ? `(${notIn} AND ${e} IS NOT NULL)` : `${e} IS NOT NULL`;
      return `(${notIn} OR ${e} IS NULL)`;
    }
    case 'contains':
      return like((p) => `'%' || ${p} || '%'`, false);
    case 'notContains':
      return like((p) => `'%' || ${p} || '%'`, true);
    case 'startsWith':
      return like((p) => `${p} || '%'`, false);
    case 'notStartsWith':
      return like((p) => `${p} || '%'`, true);
    case 'endsWith':
      return like((p) => `'%' || ${p}`, false);
    case 'notEndsWith':
      return like((p) => `'%' || ${p}`, true);
    case 'gt':
      return `${e} > ${param(env, values[0], target.type, member)}`;
    case 'gte':
      return `${e} >= ${param(env, values[0], target.type, member)}`;
    case 'lt':
      return `${e} < ${param(env, values[0], target.type, member)}`;
    case 'lte':
      return `${e} <= ${param(env, values[0], target.type, member)}`;
    case 'set':
      return `${e} IS NOT NULL`;
    case 'notSet':
      return `${e} IS NULL`;
    case 'inDateRange':
    case 'notInDateRange': {
      if (typeof values[0] !== 'string' || typeof values[1] !== 'string') throw bad(`${member}: ${f.operator} takes two date strings.`);
      const [from, to] = resolveDateRange([values[0], values[1]], env.timeZone, env.now).map(formatWall);
      return f.operator === 'inDateRange'
        ? `(${e} >= ${time(env, from!)} AND ${e} <= ${time(env, to!)})`
        : `(${e} < ${time(env, from!)} OR ${e} > ${time(env, to!)})`;
    }
    case 'beforeDate':
      return `${e} < ${time(env, dateBounds(env, values[0], member)[0])}`;
    case 'beforeOrOnDate':
      return `${e} <= ${time(env, dateBounds(env, values[0], member)[1])}`;
    case 'afterDate':
      return `${e} > ${time(env, dateBounds(env, values[0], member)[1])}`;
    case 'afterOrOnDate':
      return `${e} >= ${time(env, dateBounds(env, values[0], member)[0])}`;
  }
}

/** One filter tree as a SQL condition; `target` gives the SQL of each member it reads. */
export function filterSql(env: FilterEnv, f: QueryFilter, target: (member: string) => FilterTarget): string {
  if ('and' in f) return f.and.length === 0 ? 'TRUE' : `(${f.and.map((c) => filterSql(env, c, target)).join(' AND ')})`;
  if ('or' in f) return f.or.length === 0 ? 'FALSE' : `(${f.or.map((c) => filterSql(env, c, target)).join(' OR ')})`;
  return memberCondition(env, f, target(filterMember(f)));
}
