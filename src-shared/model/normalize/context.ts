// The reading context of stage 2 and the helpers every reader shares: `Ctx` collects diagnostics
// and reads typed values (strings, booleans, identifiers, name lists, lists of maps, member
// sections in YAML list or JS object form), reporting unknown and duplicate keys; `readMembers`
// walks a member section checking names and duplicates; `memberBase` reads what every member has.
// Dynamic (JS or templated) parts arrive as opaque nodes and mark the definition dynamic.

import { DiagnosticCodes as C } from '../codes';
import type {
  Diagnostic,
  ModelFormat,
  PlainValue,
  RawEntry,
  RawMap,
  RawNode,
  RawPos,
  SourceLocation,
} from '../types';
import { isIdentifier } from './defs';
import { dict } from '../dict';
import { Fields } from './fields';

/** Whether an entry before `end` has the key `key` (entries read under their own keys). */
function seenBefore(entries: readonly RawEntry[], end: number, key: string): boolean {
  for (let i = 0; i < end; i++) if (entries[i]!.key === key) return true;
  return false;
}

export function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Accept camelCase enum values (`countDistinct`, `belongsTo`) like the platform does. */
export function normalizeEnum(value: string): string {
  return /[A-Z]/.test(value) ? camelToSnake(value) : value;
}

export class Ctx {
  readonly diagnostics: Diagnostic[] = [];
  dynamic = false;
  /** Only JS and templated YAML produce opaque nodes; plain YAML skips the walks looking for them. */
  readonly mayBeOpaque: boolean;

  /** What follows a member's path where messages name it: `' (model/cubes/orders.yml)`. */
  readonly memberClosing: string;

  constructor(
    readonly file: string,
    readonly format: ModelFormat,
    readonly templated: boolean,
  ) {
    this.mayBeOpaque = format !== 'yaml' || templated;
    this.memberClosing = `' (${file})`;
  }

  loc(pos: RawPos): SourceLocation {
    return { file: this.file, line: pos.line, column: pos.column };
  }

  error(code: string, message: string, pos: RawPos, member?: string): void {
    this.diagnostics.push({ severity: 'error', code, message, file: this.file, line: pos.line, column: pos.column, member });
  }

  warning(code: string, message: string, pos: RawPos, member?: string): void {
    this.diagnostics.push({ severity: 'warning', code, message, file: this.file, line: pos.line, column: pos.column, member });
  }

  /** Entries of a map keyed by snake_case key; reports unknown and duplicate keys. */
  fields(map: RawMap, allowed: Set<string>, what: string, member?: string): Fields {
    const entries = map.entries;
    // A copy only once an entry is left out or read under another key; until then the map's own entries.
    let kept: RawEntry[] | null = null;
    let keys: string[] | null = null;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const key = this.fieldKey(entry, allowed, what, member);
      if (kept === null && key !== entry.key) {
        kept = entries.slice(0, i);
        keys = kept.map((e) => e.key);
      }
      if (key === undefined) continue;
      if (kept === null ? seenBefore(entries, i, key) : keys!.includes(key)) {
        this.error(C.DUPLICATE_KEY, `Property '${key}' is set twice in ${what}`, entry, member);
        if (kept === null) {
          kept = entries.slice(0, i);
          keys = kept.map((e) => e.key);
        }
        continue;
      }
      if (kept !== null) {
        kept.push(entry);
        keys!.push(key);
      }
      if (this.mayBeOpaque && containsOpaque(entry.value)) this.dynamic = true;
    }
    return kept === null ? new Fields(entries, null) : new Fields(kept, keys);
  }

  /** The key an entry is read under (snake_case), or undefined when it is left out: `...`, or unknown (reported). */
  private fieldKey(entry: RawEntry, allowed: Set<string>, what: string, member?: string): string | undefined {
    if (entry.key === '...') {
      this.dynamic = true;
      return undefined;
    }
    const key = this.format === 'yaml' ? entry.key : camelToSnake(entry.key);
    if (allowed.has(key)) return key;
    const snake = camelToSnake(entry.key);
    const hint = this.format === 'yaml' && snake !== entry.key && allowed.has(snake) ? ` (keys are snake_case: did you mean '${snake}'?)` : '';
    this.error(C.UNKNOWN_PROPERTY, `Unknown property '${entry.key}' in ${what}${hint}`, entry, member);
    return undefined;
  }

  isOpaque(node: RawNode): boolean {
    if (node.kind === 'opaque') {
      this.dynamic = true;
      return true;
    }
    return false;
  }

  string(entry: RawEntry | undefined, what: string, member?: string): string | undefined {
    if (!entry || this.isOpaque(entry.value)) return undefined;
    const v = entry.value;
    if (v.kind === 'scalar' && (typeof v.value === 'string' || typeof v.value === 'number')) return String(v.value);
    if (v.kind === 'scalar' && v.value === null) return undefined;
    this.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be a string`, v, member);
    return undefined;
  }

  /**
   * A string limited to the values the platform's validator enumerates for the key (`allowed`, a
   * precompiled set: one lookup per member). Spelled as written: the platform does not convert these.
   */
  oneOf(entry: RawEntry | undefined, allowed: ReadonlySet<string>, what: string, member?: string): string | undefined {
    const value = this.string(entry, what, member);
    if (value === undefined || allowed.has(value)) return value;
    this.error(C.VALUE_NOT_ALLOWED, `'${entry!.key}' of ${what} is '${value}'; expected one of ${[...allowed].join(', ')}`, entry!.value, member);
    return undefined;
  }

  /** Text shown to people (title, description): a string, as the platform's validator requires (not a number). */
  text(entry: RawEntry | undefined, what: string, member?: string): string | undefined {
    if (!entry || this.isOpaque(entry.value)) return undefined;
    const v = entry.value;
    if (v.kind === 'scalar' && typeof v.value === 'string') return v.value;
    if (v.kind === 'scalar' && v.value === null) return undefined;
    this.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be a string`, v, member);
    return undefined;
  }

  boolean(entry: RawEntry | undefined, what: string, member?: string): boolean | undefined {
    if (!entry || this.isOpaque(entry.value)) return undefined;
    const v = entry.value;
    if (v.kind === 'scalar' && typeof v.value === 'boolean') return v.value;
    this.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be true or false`, v, member);
    return undefined;
  }

  identifier(entry: RawEntry | undefined, what: string, member?: string): string | undefined {
    const value = this.string(entry, what, member);
    if (value !== undefined && !isIdentifier(value)) {
      this.error(C.INVALID_IDENTIFIER, `'${value}' in ${what} is not a valid name: use letters, digits and _ and do not start with a digit`, entry!.value, member);
    }
    return value;
  }

  stringList(entry: RawEntry | undefined, what: string, member?: string): string[] | undefined {
    if (!entry || this.isOpaque(entry.value)) return undefined;
    const v = entry.value;
    if (v.kind === 'scalar' && typeof v.value === 'string') return [v.value];
    if (v.kind !== 'seq') {
      this.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be a list of names`, v, member);
      return undefined;
    }
    const out: string[] = [];
    for (const item of v.items) {
      if (this.isOpaque(item)) continue;
      if (item.kind === 'scalar' && (typeof item.value === 'string' || typeof item.value === 'number')) out.push(String(item.value));
      else this.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be a list of names`, item, member);
    }
    return out;
  }

  /** The map items of a list-valued key (opaque items skipped); reports a non-list or a non-map item. */
  mapList(entry: RawEntry, listCode: string, listMessage: string, itemMessage: string, member: string): RawMap[] {
    const v = entry.value;
    if (this.isOpaque(v)) return [];
    if (v.kind !== 'seq') {
      this.error(listCode, listMessage, v, member);
      return [];
    }
    const maps: RawMap[] = [];
    for (const item of v.items) {
      if (this.isOpaque(item)) continue;
      if (item.kind === 'map') maps.push(item);
      else this.error(C.INVALID_VALUE, itemMessage, item, member);
    }
    return maps;
  }

  /** Items of a member section: a YAML list of maps; in JS also an object keyed by member name. */
  sectionItems(entry: RawEntry | undefined, what: string, section: string, opaqueSections: string[]): RawMap[] {
    if (!entry) return [];
    const v = entry.value;
    if (this.isOpaque(v)) {
      opaqueSections.push(section);
      return [];
    }
    if (v.kind === 'scalar' && v.value === null) return [];
    if (v.kind === 'seq') {
      const maps: RawMap[] = [];
      for (const item of v.items) {
        if (this.isOpaque(item)) {
          if (!opaqueSections.includes(section)) opaqueSections.push(section);
          continue;
        }
        if (item.kind === 'map') maps.push(item);
        else this.error(C.INVALID_VALUE, `Each item of '${section}' in ${what} must be a map`, item);
      }
      return maps;
    }
    if (v.kind === 'map' && this.format !== 'yaml') {
      const maps: RawMap[] = [];
      for (const e of v.entries) {
        if (e.key === '...' || e.value.kind === 'opaque') {
          this.dynamic = true;
          if (!opaqueSections.includes(section)) opaqueSections.push(section);
          continue;
        }
        if (e.value.kind !== 'map') {
          this.error(C.INVALID_VALUE, `'${e.key}' in '${section}' of ${what} must be an object`, e.value);
          continue;
        }
        maps.push({ kind: 'map', line: e.line, column: e.column, entries: [{ key: 'name', line: e.line, column: e.column, value: { kind: 'scalar', value: e.key, line: e.line, column: e.column } }, ...e.value.entries] });
      }
      return maps;
    }
    this.error(C.MEMBERS_NOT_LIST, `'${section}' of ${what} must be a list`, v);
    return [];
  }
}

/** Plain value of a raw node; opaque parts become undefined. */
export function plain(node: RawNode): PlainValue {
  switch (node.kind) {
    case 'scalar':
      return node.value;
    case 'seq':
      return node.items.map(plain);
    case 'map': {
      const out: Record<string, PlainValue> = dict();
      for (const e of node.entries) if (e.key !== '...') out[e.key] = plain(e.value);
      return out;
    }
    default:
      return undefined;
  }
}

/**
 * The properties a definition wrote, by key (one for every member of every cube: a dictionary
 * V8 keeps compact, see dict.ts). `skip`: keys whose typed form is kept instead.
 */
export function propsOf(fields: Fields, skip?: ReadonlySet<string>): Record<string, PlainValue> {
  const out = dict<PlainValue>();
  // forEach, not `for of` with destructuring: no entry array per property (issue 28).
  fields.forEach((entry, key) => {
    if (!skip?.has(key)) out[key] = plain(entry.value);
  });
  return out;
}


export interface MemberContext {
  section: string;
  entity: string;
  what: string;
}

export type MemberReader<T> = (map: RawMap, name: string, ctx: Ctx, mc: MemberContext) => T;

/** Members a section may have before its names are kept in a Set. */
const SHORT_SECTION = 32;

export function readMembers<T>(maps: RawMap[], ctx: Ctx, mc: MemberContext, reader: MemberReader<T>): T[] {
  const out: T[] = [];
  // Names so far, scanned while a section is short; a Set grown member by member reallocated its
  // table four times for a cube's 20 dimensions (issue 28).
  const names: string[] = [];
  let seen: Set<string> | null = null;
  const singular = mc.section === 'hierarchies' ? 'hierarchy' : mc.section.replace(/s$/, '').replace('_', '-');
  for (const map of maps) {
    const nameEntry = map.entries.find((e) => e.key === 'name');
    if (!nameEntry) {
      ctx.error(C.MISSING_PROPERTY, `A ${singular} of ${mc.what} has no name`, map, mc.entity);
      continue;
    }
    if (ctx.isOpaque(nameEntry.value)) continue;
    const name = nameEntry.value.kind === 'scalar' && nameEntry.value.value !== null ? String(nameEntry.value.value) : undefined;
    if (name === undefined) {
      ctx.error(C.INVALID_VALUE, `The name of a ${singular} of ${mc.what} must be a string`, nameEntry.value, mc.entity);
      continue;
    }
    if (!isIdentifier(name)) {
      ctx.error(C.INVALID_IDENTIFIER, `${singular[0]!.toUpperCase()}${singular.slice(1)} name '${name}' of ${mc.what} is not a valid name: use letters, digits and _ and do not start with a digit`, nameEntry.value, `${mc.entity}.${name}`);
    }
    if (seen ? seen.has(name) : names.includes(name)) {
      ctx.error(C.DUPLICATE_MEMBER, `${singular[0]!.toUpperCase()}${singular.slice(1)} '${name}' is defined more than once in ${mc.what}`, nameEntry.value, `${mc.entity}.${name}`);
      continue;
    }
    if (seen) seen.add(name);
    else if (names.push(name) > SHORT_SECTION) seen = new Set(names);
    out.push(reader(map, name, ctx, mc));
  }
  return out;
}

/** What every member has (see `readMemberBase`). */
export interface MemberBase {
  name: string;
  loc: SourceLocation;
  title: string | undefined;
  description: string | undefined;
  public: boolean;
  meta: PlainValue;
  format: PlainValue;
  dynamic: boolean;
  props: Record<string, PlainValue>;
  sqlLine: number;
  sqlColumn: number;
}

/** Reads what every member has into `into`, which the caller copies from before it reads another member. */
export function readMemberBase<T extends MemberBase>(into: T, map: RawMap, name: string, f: Fields, ctx: Ctx, what: string, memberPath: string): T {
  into.name = name;
  into.loc = ctx.loc(map);
  into.title = f.has('title') ? ctx.text(f.get('title'), what, memberPath) : undefined;
  into.description = f.has('description') ? ctx.text(f.get('description'), what, memberPath) : undefined;
  into.public = f.has('public') || f.has('shown') ? (ctx.boolean(f.get('public'), what, memberPath) ?? ctx.boolean(f.get('shown'), what, memberPath) ?? true) : true;
  into.meta = f.has('meta') ? plain(f.get('meta')!.value) : undefined;
  into.format = f.has('format') ? plain(f.get('format')!.value) : undefined;
  into.dynamic = ctx.mayBeOpaque && hasOpaque(f);
  into.props = propsOf(f);
  const sql = f.get('sql');
  into.sqlLine = sql ? sql.value.line : 0;
  into.sqlColumn = sql ? sql.value.column : 0;
  return into;
}

export function hasOpaque(f: Fields): boolean {
  for (const e of f.values()) if (containsOpaque(e.value)) return true;
  return false;
}

export function containsOpaque(node: RawNode): boolean {
  if (node.kind === 'opaque') return true;
  if (node.kind === 'seq') return node.items.some(containsOpaque);
  if (node.kind === 'map') return node.entries.some((e) => e.key === '...' || containsOpaque(e.value));
  return false;
}

export function sqlOf(entry: RawEntry | undefined, ctx: Ctx, what: string, member: string): string | undefined {
  if (entry && entry.value.kind === 'opaque') {
    ctx.dynamic = true;
    return '';
  }
  const sql = ctx.string(entry, what, member);
  // The platform reads a YAML reference written with a leading dot (`{.city}`) as the name after it.
  return sql !== undefined && sql.includes('{.') && !/\.[cm]?js$/i.test(ctx.file) ? sql.replace(/\{(\s*)\.+(?=[A-Za-z_])/g, '{$1') : sql;
}
