// Enumerated values nested one level down in a definition (a list of maps such as time_shift or
// links, a map such as filter, a named map of maps such as indexes), checked against the values
// the platform's validator enumerates for the key (issue 27). Opaque (templated) parts are skipped.

import type { RawEntry, RawNode } from '../types';
import type { Ctx } from './context';

function checkIn(map: RawNode, key: string, allowed: ReadonlySet<string>, ctx: Ctx, what: string, member: string): void {
  if (map.kind !== 'map') return;
  const entry = map.entries.find((e) => e.key === key);
  if (entry) ctx.oneOf(entry, allowed, what, member);
}

/** `key` of each map in the list `entry` (e.g. the `type` of each time_shift). */
export function checkListValues(entry: RawEntry | undefined, key: string, allowed: ReadonlySet<string>, ctx: Ctx, what: string, member: string): void {
  if (!entry || ctx.isOpaque(entry.value) || entry.value.kind !== 'seq') return;
  for (const item of entry.value.items) if (!ctx.isOpaque(item)) checkIn(item, key, allowed, ctx, `${entry.key} of ${what}`, member);
}

/** `key` of the map `entry` (e.g. the `mode` of a filter). */
export function checkMapValue(entry: RawEntry | undefined, key: string, allowed: ReadonlySet<string>, ctx: Ctx, what: string, member: string): void {
  if (!entry || ctx.isOpaque(entry.value)) return;
  checkIn(entry.value, key, allowed, ctx, `${entry.key} of ${what}`, member);
}

/** `key` of each map in the named map `entry` (e.g. the `type` of each index). */
export function checkMapValues(entry: RawEntry | undefined, key: string, allowed: ReadonlySet<string>, ctx: Ctx, what: string, member: string): void {
  if (!entry || ctx.isOpaque(entry.value)) return;
  const items = entry.value.kind === 'map' ? entry.value.entries.map((e) => e.value) : entry.value.kind === 'seq' ? entry.value.items : [];
  for (const item of items) if (!ctx.isOpaque(item)) checkIn(item, key, allowed, ctx, `${entry.key} of ${what}`, member);
}
