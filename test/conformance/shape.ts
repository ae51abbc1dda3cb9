// The compiled members of a model in one comparable shape, read from either compiler: for every
// cube its table or SQL, dimensions and measures (type and SQL), segments, joins (relationship and
// SQL) and hierarchies; for every view the members it exposes and the cube member each one stands
// for. SQL is written with `{…}` references as the YAML documentation writes it: the platform
// keeps SQL as functions, which are called here with references that print themselves.
import type { CompiledModel } from '../../src-shared/model/types';

export interface MemberShape {
  type: string;
  sql?: string;
}

export interface EntityShape {
  kind: 'cube' | 'view';
  table?: string;
  sql?: string;
  dimensions: Record<string, MemberShape>;
  measures: Record<string, MemberShape>;
  segments: Record<string, string>;
  joins: Record<string, { relationship: string; sql: string }>;
  hierarchies: string[];
  /** View members: exposed name → `cube.member` it stands for. */
  members: Record<string, string>;
}

export type ModelShape = Record<string, EntityShape>;

const RELATIONSHIPS: Record<string, string> = {
  belongsTo: 'many_to_one',
  belongs_to: 'many_to_one',
  manyToOne: 'many_to_one',
  many_to_one: 'many_to_one',
  hasMany: 'one_to_many',
  has_many: 'one_to_many',
  oneToMany: 'one_to_many',
  one_to_many: 'one_to_many',
  hasOne: 'one_to_one',
  has_one: 'one_to_one',
  oneToOne: 'one_to_one',
  one_to_one: 'one_to_one',
};

const TYPES: Record<string, string> = { countDistinct: 'count_distinct', countDistinctApprox: 'count_distinct_approx', runningTotal: 'running_total', numberAgg: 'number_agg' };

const normType = (type: unknown): string => {
  const text = String(type);
  return TYPES[text] ?? text;
};

/** Whitespace-insensitive SQL with `${x}` written as `{x}`. */
export const normSql = (sql: string | undefined): string | undefined =>
  sql === undefined ? undefined : sql.replace(/\$\{/g, '{').replace(/\s+/g, ' ').trim();

// ---- platform -------------------------------------------------------------------------------

/** A reference that prints `{path}` in a template and extends its path on property access. */
function reference(path: string): unknown {
  const print = (): string => `{${path}}`;
  return new Proxy(function () {}, {
    get: (_target, prop) => {
      if (prop === Symbol.toPrimitive || prop === 'toString' || prop === 'valueOf') return print;
      if (typeof prop === 'symbol') return undefined;
      return reference(`${path}.${prop}`);
    },
  });
}

function parameters(fn: (...args: unknown[]) => unknown): string[] {
  const text = fn.toString();
  const match = /^(?:async\s*)?(?:function[^(]*)?\(([^)]*)\)/.exec(text) ?? /^(?:async\s*)?([\w$]+)\s*=>/.exec(text);
  if (!match) return [];
  return match[1]!
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The SQL of a platform member: a function of the cubes it references, or a plain string. */
export function platformSql(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'function') return normSql(String(value));
  const fn = value as (...args: unknown[]) => unknown;
  try {
    return normSql(String(fn(...parameters(fn).map((p) => reference(p)))));
  } catch {
    return '<unprintable>';
  }
}

interface PlatformMember {
  type?: unknown;
  sql?: unknown;
  aliasMember?: string;
}
interface PlatformCube {
  name: string;
  isView?: boolean;
  sql?: unknown;
  sqlTable?: unknown;
  dimensions?: Record<string, PlatformMember>;
  measures?: Record<string, PlatformMember>;
  segments?: Record<string, PlatformMember>;
  joins?: { name: string; relationship: string; sql: unknown }[] | Record<string, { relationship: string; sql: unknown }>;
  hierarchies?: Record<string, unknown> | unknown[];
}

export function platformShape(cubeList: PlatformCube[]): ModelShape {
  const shape: ModelShape = {};
  for (const cube of cubeList) {
    const view = cube.isView === true;
    const entity: EntityShape = { kind: view ? 'view' : 'cube', dimensions: {}, measures: {}, segments: {}, joins: {}, hierarchies: [], members: {} };
    if (!view) {
      entity.table = platformSql(cube.sqlTable);
      entity.sql = platformSql(cube.sql);
    }
    for (const [section, target] of [
      ['dimensions', entity.dimensions],
      ['measures', entity.measures],
    ] as const) {
      for (const [name, member] of Object.entries(cube[section] ?? {})) {
        if (view && member.aliasMember) {
          entity.members[name] = member.aliasMember;
          if (section === 'dimensions') target[name] = { type: normType(member.type) };
          else target[name] = { type: 'measure' };
        } else target[name] = { type: normType(member.type), sql: platformSql(member.sql) };
      }
    }
    for (const [name, member] of Object.entries(cube.segments ?? {})) {
      if (view && member.aliasMember) entity.members[name] = member.aliasMember;
      else entity.segments[name] = platformSql(member.sql) ?? '';
    }
    const joins = Array.isArray(cube.joins) ? cube.joins : Object.entries(cube.joins ?? {}).map(([name, j]) => ({ name, ...j }));
    for (const join of joins) entity.joins[join.name] = { relationship: RELATIONSHIPS[join.relationship] ?? join.relationship, sql: platformSql(join.sql) ?? '' };
    const hierarchies = Array.isArray(cube.hierarchies) ? cube.hierarchies.map((h) => (h as { name: string }).name) : Object.keys(cube.hierarchies ?? {});
    if (!view) entity.hierarchies = hierarchies.sort();
    shape[cube.name] = entity;
  }
  return shape;
}

// ---- Drydock -------------------------------------------------------------------------------

export function drydockShape(model: CompiledModel): ModelShape {
  const shape: ModelShape = {};
  for (const cube of Object.values(model.cubes)) {
    const entity: EntityShape = { kind: 'cube', table: normSql(cube.sqlTable), sql: normSql(cube.sql), dimensions: {}, measures: {}, segments: {}, joins: {}, hierarchies: Object.keys(cube.hierarchies).sort(), members: {} };
    for (const d of Object.values(cube.dimensions)) entity.dimensions[d.name] = { type: normType(d.type), sql: normSql(d.sql) };
    for (const m of Object.values(cube.measures)) entity.measures[m.name] = { type: normType(m.type), sql: normSql(m.sql) };
    for (const s of Object.values(cube.segments)) entity.segments[s.name] = normSql(s.sql) ?? '';
    for (const j of cube.joins) entity.joins[j.name] = { relationship: RELATIONSHIPS[j.relationship] ?? j.relationship, sql: normSql(j.sql) ?? '' };
    shape[cube.name] = entity;
  }
  for (const view of Object.values(model.views)) {
    const entity: EntityShape = { kind: 'view', dimensions: {}, measures: {}, segments: {}, joins: {}, hierarchies: [], members: {} };
    for (const member of Object.values(view.members)) {
      if (member.kind === 'hierarchy') continue;
      entity.members[member.name] = `${member.cube}.${member.member}`;
      if (member.kind === 'dimension') entity.dimensions[member.name] = { type: normType(member.type) };
      if (member.kind === 'measure') entity.measures[member.name] = { type: 'measure' };
    }
    for (const d of Object.values(view.dimensions)) entity.dimensions[d.name] = { type: normType(d.type), sql: normSql(d.sql) };
    for (const m of Object.values(view.measures)) entity.measures[m.name] = { type: normType(m.type), sql: normSql(m.sql) };
    for (const s of Object.values(view.segments)) entity.segments[s.name] = normSql(s.sql) ?? '';
    shape[view.name] = entity;
  }
  return shape;
}

/** Differences between two shapes, one line each (`orders.measures.total.type: sum ≠ avg`). */
export function diffShapes(platform: ModelShape, drydock: ModelShape): string[] {
  const out: string[] = [];
  const walk = (path: string, a: unknown, b: unknown): void => {
    if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const key of [...keys].sort()) walk(path ? `${path}.${key}` : key, (a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
      return;
    }
    const left = JSON.stringify(a);
    const right = JSON.stringify(b);
    if (left !== right) out.push(`${path}: platform ${left ?? 'absent'} ≠ drydock ${right ?? 'absent'}`);
  };
  walk('', platform, drydock);
  return out;
}
