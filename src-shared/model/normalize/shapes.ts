// The shapes the platform's validator requires of nested parts Drydock otherwise keeps as written
// (issue 27): links, drill filters, masks, build and refresh ranges, access-policy conditions and
// row-level filters. A shape is a small table (required keys, enumerations, patterns, keys that
// exclude each other, lists of nested shapes) checked in one pass over the part's keys; every set
// and pattern is built once, here, not per member.

import { DiagnosticCodes as C } from '../codes';
import type { RawEntry, RawNode } from '../types';
import type { Ctx } from './context';
import { IDENTIFIER } from './defs';
import { EVERY_INTERVAL, LINK_TARGETS } from './keys';

export interface Shape {
  /** How messages name the part (`a link`, `a drill filter`). */
  label: string;
  required?: readonly string[];
  enums?: Readonly<Record<string, ReadonlySet<string>>>;
  patterns?: Readonly<Record<string, { regex: RegExp; expected: string }>>;
  /** Groups of keys of which at most one may be written (`oxor`, `nand`). */
  atMostOne?: readonly (readonly string[])[];
  /** Keys whose value is a list of parts of another shape. */
  lists?: Readonly<Record<string, Shape>>;
}

export const LINK_SHAPE: Shape = {
  label: 'a link',
  required: ['name', 'label'],
  enums: { target: LINK_TARGETS },
  patterns: { name: { regex: IDENTIFIER, expected: 'an identifier (letters, digits and _, not starting with a digit)' } },
  atMostOne: [['url', 'dashboard']],
  lists: { params: { label: 'a link parameter', required: ['key', 'value'] } },
};
export const DRILL_FILTER_SHAPE: Shape = { label: 'a drill filter', required: ['sql'] };
export const CONDITION_SHAPE: Shape = { label: 'a condition', required: ['if'] };
export const RANGE_SHAPE: Shape = { label: 'a build or refresh range', required: ['sql'] };
export const PRE_AGGREGATION_REFRESH_SHAPE: Shape = {
  label: 'a refresh_key',
  patterns: { update_window: { regex: EVERY_INTERVAL, expected: 'an interval such as "1 day" (seconds up to weeks)' } },
};

/** Checks `node` (a map) against `shape`; `what` names where it is (`dimension 'orders.status' (file)`). */
export function checkShape(node: RawNode, shape: Shape, ctx: Ctx, what: string, member: string): void {
  if (ctx.isOpaque(node)) return;
  const where = `${shape.label} of ${what}`;
  if (node.kind !== 'map') {
    ctx.error(C.INVALID_VALUE, `Each item of ${what} must be a map (${shape.label})`, node, member);
    return;
  }
  const keys = new Map<string, RawEntry>();
  for (const e of node.entries) keys.set(e.key, e);
  for (const key of shape.required ?? []) if (!keys.has(key)) ctx.error(C.MISSING_PROPERTY, `Missing '${key}' in ${where}`, node, member);
  for (const [key, allowed] of Object.entries(shape.enums ?? {})) ctx.oneOf(keys.get(key), allowed, where, member);
  for (const [key, { regex, expected }] of Object.entries(shape.patterns ?? {})) {
    const value = ctx.string(keys.get(key), where, member);
    if (value !== undefined && !regex.test(value)) ctx.error(C.INVALID_VALUE, `'${key}' of ${where} is '${value}'; expected ${expected}`, keys.get(key)!.value, member);
  }
  for (const group of shape.atMostOne ?? []) {
    const written = group.filter((k) => keys.has(k));
    if (written.length > 1) ctx.error(C.INVALID_VALUE, `${where} sets ${written.join(' and ')}; use only one`, keys.get(written[1]!)!.value, member);
  }
  for (const [key, inner] of Object.entries(shape.lists ?? {})) checkShapeList(keys.get(key), inner, ctx, where, member);
}

/** Each item of the list `entry` against `shape`. */
export function checkShapeList(entry: RawEntry | undefined, shape: Shape, ctx: Ctx, what: string, member: string): void {
  if (!entry || ctx.isOpaque(entry.value)) return;
  if (entry.value.kind !== 'seq') {
    ctx.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be a list`, entry.value, member);
    return;
  }
  for (const item of entry.value.items) checkShape(item, shape, ctx, what, member);
}

/** The map `entry` against `shape` (a build range, a pre-aggregation's refresh_key). */
export function checkShapeMap(entry: RawEntry | undefined, shape: Shape, ctx: Ctx, what: string, member: string): void {
  if (entry) checkShape(entry.value, shape, ctx, what, member);
}

const MASK_SQL: Shape = { label: 'a mask', required: ['sql'] };

/** A mask is a map with sql, or a number, boolean or string (the value shown instead). */
export function checkMask(entry: RawEntry | undefined, ctx: Ctx, what: string, member: string): void {
  if (!entry || ctx.isOpaque(entry.value)) return;
  if (entry.value.kind === 'map') checkShape(entry.value, MASK_SQL, ctx, what, member);
  else if (entry.value.kind !== 'scalar' || entry.value.value === null) ctx.error(C.INVALID_VALUE, `'mask' of ${what} must be a map with sql, a number, a boolean or a string`, entry.value, member);
}

/** Filter operators of a row-level filter, as the platform's validator lists them (not the REST query format's: query/types.ts). */
export const ROW_LEVEL_FILTER_OPERATORS: ReadonlySet<string> = new Set([
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'in',
  'notIn',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'onTheDate',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
  'measureFilter',
]);
const WITHOUT_VALUES: ReadonlySet<string> = new Set(['set', 'notSet']);

/**
 * A row-level filter: `or` or `and` (one of them) of nested filters, or member, operator and
 * values (values left out only for set and notSet).
 */
export function checkRowFilters(entry: RawEntry | undefined, ctx: Ctx, what: string, member: string): void {
  if (!entry || ctx.isOpaque(entry.value) || entry.value.kind !== 'seq') return;
  for (const item of entry.value.items) {
    if (ctx.isOpaque(item)) continue;
    const where = `a row-level filter of ${what}`;
    if (item.kind !== 'map') {
      ctx.error(C.INVALID_VALUE, `Each row-level filter of ${what} must be a map`, item, member);
      continue;
    }
    const keys = new Map(item.entries.map((e) => [e.key, e] as const));
    const logical = ['or', 'and'].filter((k) => keys.has(k));
    if (logical.length > 1) ctx.error(C.INVALID_VALUE, `${where} sets or and and; use only one`, item, member);
    if (logical.length > 0) {
      for (const k of logical) checkRowFilters(keys.get(k), ctx, what, member);
      continue;
    }
    if (!keys.has('member')) ctx.error(C.MISSING_PROPERTY, `Missing 'member' in ${where}`, item, member);
    if (!keys.has('operator')) ctx.error(C.MISSING_PROPERTY, `Missing 'operator' in ${where}`, item, member);
    const operator = ctx.oneOf(keys.get('operator'), ROW_LEVEL_FILTER_OPERATORS, where, member);
    if (operator !== undefined && !WITHOUT_VALUES.has(operator) && !keys.has('values')) {
      ctx.error(C.MISSING_PROPERTY, `Missing 'values' in ${where}: only set and notSet take none`, item, member);
    }
  }
}
