// How each model key counts in a change review (issue 26): whether changing it can move numbers,
// hide or show members, or only changes how things are described. Keys not listed are metadata.

import type { ChangeEffect, AttributeChange } from './types';
import type { PlainValue } from '../types';

const NUMBERS = new Set([
  // members
  'sql',
  'type',
  'filters',
  'rolling_window',
  'primary_key',
  'sub_query',
  'propagate_filters_to_sub_query',
  'multi_stage',
  'case',
  'granularities',
  'latitude',
  'longitude',
  'values',
  'order_by',
  'reduce_by',
  'group_by',
  'add_group_by',
  'time_shift',
  // cubes and views
  'sql_table',
  'data_source',
  'extends',
  'access_policy',
  'primary_keys',
  // joins and a view's cubes
  'relationship',
  'join_path',
]);

const VISIBILITY = new Set(['public', 'shown', 'includes', 'excludes', 'prefix', 'alias', 'split', 'member']);

export function effectOf(attribute: string): ChangeEffect {
  if (NUMBERS.has(attribute)) return 'numbers';
  if (VISIBILITY.has(attribute)) return 'visibility';
  return 'metadata';
}

const RANK: Record<ChangeEffect, number> = { metadata: 0, visibility: 1, numbers: 2 };

export function strongest(effects: ChangeEffect[], fallback: ChangeEffect = 'metadata'): ChangeEffect {
  return effects.reduce((best, e) => (RANK[e] > RANK[best] ? e : best), fallback);
}

/** Canonical JSON (sorted keys, `undefined` dropped) for comparing values as written. */
export function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/** A value as it goes into a review (JSON; `undefined` becomes null). */
export const json = (value: unknown): unknown => (value === undefined ? null : (JSON.parse(canonical(value)) as unknown));

/**
 * The attributes that differ between two property records, in a stable order. `skip` lists keys
 * compared elsewhere (member sections, names); `public`/`shown` are compared as one `public`.
 */
export function attributeChanges(
  before: Record<string, PlainValue>,
  after: Record<string, PlainValue>,
  options: { skip?: ReadonlySet<string>; publicBefore?: boolean; publicAfter?: boolean } = {},
): AttributeChange[] {
  const skip = options.skip ?? new Set<string>();
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !skip.has(k) && k !== 'name' && k !== 'public' && k !== 'shown');
  keys.sort((a, b) => RANK[effectOf(b)] - RANK[effectOf(a)] || (a < b ? -1 : a > b ? 1 : 0));
  const changes: AttributeChange[] = [];
  if (options.publicBefore !== undefined && options.publicAfter !== undefined && options.publicBefore !== options.publicAfter) {
    changes.push({ attribute: 'public', effect: 'visibility', before: options.publicBefore, after: options.publicAfter });
  }
  for (const key of keys) {
    if (canonical(before[key]) === canonical(after[key])) continue;
    changes.push({ attribute: key, effect: effectOf(key), before: json(before[key]), after: json(after[key]) });
  }
  return changes.sort((a, b) => RANK[b.effect] - RANK[a.effect]);
}
