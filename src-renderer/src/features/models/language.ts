// Editor intelligence for model files, free of Monaco so it is testable on its own: where the cursor is
// in the YAML structure, which cube or member a reference names, and which range of a line a
// diagnostic is about (what to complete there is in completions.ts). Lines and columns are 1-based,
// as in Monaco and the compiler.
import type { EntitySymbol, MemberKind, MemberSymbol, ModelSymbols } from './protocol';
import { nodeKindAt, type NodeKind } from './vocabulary';

// ---- the shape of one YAML line ---------------------------------------------------------------

interface LineShape {
  /** Column (0-based) where the content after indentation and `- ` markers starts. */
  keyCol: number;
  /** The line starts a list item. */
  dash: boolean;
  key: string | null;
  /** What follows `key:` on the line, without a trailing comment. */
  value: string;
  /** Nothing but whitespace or a comment. */
  blank: boolean;
}

const KEY = /^([A-Za-z_$][\w$-]*|"[^"]*"|'[^']*')\s*:(?:\s+(.*)|$)/;

function shapeOf(line: string): LineShape {
  const m = /^(\s*)((?:-(?:\s+|$))*)(.*)$/.exec(line)!;
  const content = m[3];
  const dash = m[2].length > 0;
  const blank = (!dash && content.trim() === '') || content.startsWith('#');
  const km = KEY.exec(content);
  const key = km ? km[1].replace(/^["']|["']$/g, '') : null;
  const value = km ? (km[2] ?? '').replace(/\s+#.*$/, '').trim() : '';
  return { keyCol: m[1].length + m[2].length, dash, key, value, blank };
}

interface Level {
  key: string;
  line: number;
  keyCol: number;
}

/** Parent keys of the mapping whose keys start at `col` on line `index` (0-based), outermost first; null inside a multi-line scalar. */
function parentsOf(lines: string[], index: number, col: number): Level[] | null {
  const levels: Level[] = [];
  for (let i = index - 1; i >= 0 && col > 0; i--) {
    const s = shapeOf(lines[i]);
    if (s.blank || s.keyCol >= col) continue;
    // A line left of the cursor that is not `key:` with a nested value: the cursor is inside a scalar.
    if (s.key === null || (s.value !== '' && !s.value.startsWith('&'))) return null;
    levels.unshift({ key: s.key, line: i, keyCol: s.keyCol });
    col = s.keyCol;
  }
  return levels;
}

/** Keys of the mapping (list item) that holds line `index` with keys at `col`. */
function siblingsOf(lines: string[], index: number, col: number, startsItem: boolean): { key: string; value: string; line: number }[] {
  const found: { key: string; value: string; line: number }[] = [];
  if (!startsItem) {
    for (let i = index - 1; i >= 0; i--) {
      const s = shapeOf(lines[i]);
      if (s.blank || s.keyCol > col) continue;
      if (s.keyCol < col) break;
      if (s.key) found.push({ key: s.key, value: s.value, line: i });
      if (s.dash) break;
    }
  }
  for (let i = index + 1; i < lines.length; i++) {
    const s = shapeOf(lines[i]);
    if (s.blank || s.keyCol > col) continue;
    if (s.keyCol < col || s.dash) break;
    if (s.key) found.push({ key: s.key, value: s.value, line: i });
  }
  return found;
}

// ---- where the cursor is --------------------------------------------------------------------

export type YamlContext =
  /** Typing a key (`  na|` or `- na|`) of a mapping of kind `node`. */
  | { kind: 'key'; path: string[]; node: NodeKind | null; partial: string; startColumn: number; siblings: string[] }
  /** Typing the value of `key` (`type: su|`). */
  | { kind: 'value'; path: string[]; node: NodeKind | null; key: string; partial: string; startColumn: number; line: number }
  /** Typing a scalar list item (`- sta|`) of the list under `parentKey`, in a mapping of kind `parentNode`. */
  | { kind: 'item'; path: string[]; parentNode: NodeKind | null; parentKey: string; partial: string; startColumn: number; parentLine: number; parentKeyCol: number };

/** The YAML structure around a position (1-based), or null where nothing structural applies (inside a long scalar, comments). */
export function yamlContextAt(text: string, lineNumber: number, column: number): YamlContext | null {
  const lines = text.split(/\r?\n/);
  const index = lineNumber - 1;
  const line = lines[index] ?? '';
  const prefix = line.slice(0, column - 1);
  const m = /^(\s*)((?:-\s+)*)(.*)$/.exec(prefix)!;
  const keyCol = m[1].length + m[2].length;
  const dash = m[2].length > 0;
  const rest = m[3];
  if (rest.includes('#')) return null;
  const levels = parentsOf(lines, index, keyCol);
  if (!levels) return null;
  const path = levels.map((l) => l.key);

  const valueMatch = /^([A-Za-z_][\w-]*)\s*:\s*(["']?)(.*)$/.exec(rest);
  if (valueMatch) {
    const partial = valueMatch[3];
    return {
      kind: 'value',
      path,
      node: nodeKindAt(path),
      key: valueMatch[1],
      partial,
      startColumn: column - partial.length,
      line: lineNumber,
    };
  }
  const partialMatch = /^["']?([\w.*]*)$/.exec(rest);
  if (!partialMatch) return null;
  const partial = partialMatch[1];
  const startColumn = column - partial.length;
  const node = nodeKindAt(path);
  const parent = levels[levels.length - 1];
  if (dash && parent) {
    const parentNode = nodeKindAt(path.slice(0, -1));
    // Lists of names (includes, levels, drill_members…) rather than lists of mappings.
    const listOfNames = node === null || (parentNode === 'viewCube' && parent.key === 'includes');
    if (listOfNames) {
      return { kind: 'item', path, parentNode, parentKey: parent.key, partial, startColumn, parentLine: parent.line + 1, parentKeyCol: parent.keyCol };
    }
  }
  if (partial.includes('.') || partial.includes('*')) return null;
  const siblings = siblingsOf(lines, index, keyCol, dash).map((s) => s.key);
  return { kind: 'key', path, node, partial, startColumn, siblings };
}

/** Value of `key` in the mapping that holds the key on `line` (1-based) at column `keyCol` (0-based). */
function valueInMapping(text: string, line: number, keyCol: number, key: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const index = line - 1;
  const own = shapeOf(lines[index] ?? '');
  if (own.key === key) return own.value;
  return siblingsOf(lines, index, keyCol, own.dash).find((s) => s.key === key)?.value;
}

const unquote = (value: string) => value.replace(/^["']|["']$/g, '');

// ---- references (`{cube.member}`) -----------------------------------------------------------

export interface ReferenceContext {
  /** Names before the last dot (`{orders.cu|` → `['orders']`). */
  qualifier: string[];
  partial: string;
  startColumn: number;
}

/** The reference being typed inside `{…}` (or `${…}` in JS models) before the cursor, if any. */
export function referenceContextAt(lineText: string, column: number): ReferenceContext | null {
  const prefix = lineText.slice(0, column - 1);
  const open = prefix.lastIndexOf('{');
  if (open < 0) return null;
  const inner = prefix.slice(open + 1);
  // Jinja (`{{ }}`, `{% %}`, `{# #}`) is not a reference.
  if (prefix[open - 1] === '{' || /^[%#{]/.test(inner)) return null;
  const m = /^((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)?$/.exec(inner);
  if (!m) return null;
  const qualifier = m[1] ? m[1].slice(0, -1).split('.') : [];
  const partial = m[2] ?? '';
  return { qualifier, partial, startColumn: column - partial.length };
}

/** The cube or view defined in `file` around `line`: the last one whose name is at or above the line. */
export function enclosingEntity(symbols: ModelSymbols, file: string, line: number): EntitySymbol | undefined {
  let best: EntitySymbol | undefined;
  let first: EntitySymbol | undefined;
  for (const entity of Object.values(symbols.entities)) {
    if (entity.loc.file !== file) continue;
    if (!first || entity.loc.line < first.loc.line) first = entity;
    if (entity.loc.line <= line && (!best || entity.loc.line > best.loc.line)) best = entity;
  }
  // Keys written above `name:` in the first definition still belong to it.
  return best ?? first;
}

/**
 * The same question read from a YAML file's text alone (`cubes:` / `views:` lists, each item's
 * `name:`), for when the compiler has not analysed the file yet — just after a branch reload — so
 * "Show lineage" still knows where the cursor is. Undefined for other files or no cube or view.
 */
export function enclosingEntityInText(text: string, line: number): { name: string; kind: 'cube' | 'view' } | undefined {
  const lines = text.split(/\r?\n/);
  const items: { name: string; kind: 'cube' | 'view'; line: number }[] = [];
  let section: { kind: 'cube' | 'view'; itemCol: number | null } | null = null;
  let current: { kind: 'cube' | 'view'; line: number; named: boolean } | null = null;
  lines.forEach((raw, index) => {
    const top = /^(cubes|views)\s*:\s*(#.*)?$/.exec(raw);
    if (top) {
      section = { kind: top[1] === 'cubes' ? 'cube' : 'view', itemCol: null };
      current = null;
      return;
    }
    const shape = shapeOf(raw);
    if (shape.blank) return;
    if (!/^\s/.test(raw) && !shape.dash) {
      section = null; // another top-level key
      return;
    }
    if (!section) return;
    const dashCol = raw.length - raw.trimStart().length;
    if (shape.dash && (section.itemCol === null || dashCol === section.itemCol)) {
      section.itemCol = dashCol;
      current = { kind: section.kind, line: index + 1, named: false };
    }
    if (current && !current.named && shape.key === 'name' && shape.keyCol === (section.itemCol ?? 0) + 2 && shape.value) {
      current.named = true;
      items.push({ name: shape.value.replace(/^["']|["']$/g, ''), kind: current.kind, line: current.line });
    }
  });
  const best = [...items].reverse().find((item) => item.line <= line);
  const found = best ?? items[0];
  return found ? { name: found.name, kind: found.kind } : undefined;
}

/** Members a name list under `parentKey` refers to, or null when the list does not hold member names. */
export function itemScope(ctx: Extract<YamlContext, { kind: 'item' }>, text: string, symbols: ModelSymbols, enclosing: EntitySymbol | undefined): { owner?: EntitySymbol; kinds?: MemberKind[]; entities?: 'cube' | 'view' } | null {
  const { parentNode, parentKey } = ctx;
  if (parentNode === 'viewCube' && (parentKey === 'includes' || parentKey === 'excludes')) {
    const joinPath = valueInMapping(text, ctx.parentLine, ctx.parentKeyCol, 'join_path');
    const cube = joinPath ? unquote(joinPath).split('.').pop() : undefined;
    return { owner: cube ? symbols.entities[cube] : undefined };
  }
  if (parentNode === 'viewGroup' && parentKey === 'views') return { entities: 'view' };
  if (parentNode === 'preAggregation') {
    const kinds: Record<string, MemberKind[]> = { measures: ['measure'], dimensions: ['dimension'], segments: ['segment'] };
    return kinds[parentKey] ? { owner: enclosing, kinds: kinds[parentKey] } : null;
  }
  if (parentNode === 'hierarchy' && parentKey === 'levels') return { owner: enclosing, kinds: ['dimension'] };
  if (parentNode === 'measure' && ['drill_members', 'group_by', 'reduce_by', 'add_group_by'].includes(parentKey)) return { owner: enclosing, kinds: ['dimension'] };
  if (parentNode === 'memberLevel') return { owner: enclosing };
  if (parentNode === 'folder' && parentKey === 'includes') return { owner: enclosing };
  return null;
}

// ---- go to definition and hover ----------------------------------------------------------------

export interface Definition {
  name: string;
  kind: 'cube' | 'view' | MemberKind;
  /** `cube.member` for members. */
  qualifiedName: string;
  file: string;
  line: number;
  column: number;
  type?: string;
  title?: string;
  description?: string;
  source?: string;
  /** The text the position is on (1-based columns, end exclusive). */
  range: { startColumn: number; endColumn: number };
}

/** Value keys whose (unbraced) value names a cube, view or member. */
const NAMING_VALUE_KEYS = new Set(['extends', 'join_path', 'time_dimension']);

/** The cube, view or member a reference at a position names: `{cube.member}`, `{CUBE.member}`, `{member}`, `join_path: a.b`, include lists… */
export function definitionAt(text: string, lineNumber: number, column: number, file: string, symbols: ModelSymbols): Definition | null {
  const lineText = text.split(/\r?\n/)[lineNumber - 1] ?? '';
  const enclosing = enclosingEntity(symbols, file, lineNumber);
  const token = dottedNameAt(lineText, column);
  if (!token) return null;
  const { parts, index, range } = token;
  const upTo = parts.slice(0, index + 1);
  const braced = isBraced(lineText, range.startColumn, range.endColumn);

  let scope: EntitySymbol | undefined = enclosing;
  if (!braced) {
    if (!/\.ya?ml(\.jinja)?$/i.test(file)) return null;
    const ctx = yamlContextAt(text, lineNumber, range.startColumn);
    if (!ctx) return null;
    if (ctx.kind === 'value') {
      const namesEntity = (ctx.key === 'name' && ctx.node === 'join') || NAMING_VALUE_KEYS.has(ctx.key);
      if (!namesEntity) return null;
      if (ctx.key === 'join_path' || (ctx.key === 'name' && ctx.node === 'join')) return entityDefinition(symbols.entities[upTo[upTo.length - 1]], range);
    } else if (ctx.kind === 'item') {
      const s = itemScope(ctx, text, symbols, enclosing);
      if (!s) return null;
      if (s.entities) return entityDefinition(symbols.entities[upTo[upTo.length - 1]], range);
      scope = s.owner;
    } else {
      return null;
    }
  }
  return resolveParts(upTo, symbols, enclosing, scope, range);
}

function resolveParts(parts: string[], symbols: ModelSymbols, enclosing: EntitySymbol | undefined, scope: EntitySymbol | undefined, range: Definition['range']): Definition | null {
  const last = parts[parts.length - 1];
  if (parts.length === 1) {
    if (last === 'CUBE') return entityDefinition(enclosing, range);
    const member = scope?.members.find((m) => m.name === last);
    if (member && scope) return memberDefinition(scope, member, range);
    return entityDefinition(symbols.entities[last], range);
  }
  const ownerName = parts[parts.length - 2];
  const owner = ownerName === 'CUBE' ? enclosing : symbols.entities[ownerName];
  const member = owner?.members.find((m) => m.name === last);
  if (owner && member) return memberDefinition(owner, member, range);
  return entityDefinition(symbols.entities[last], range);
}

function entityDefinition(entity: EntitySymbol | undefined, range: Definition['range']): Definition | null {
  if (!entity) return null;
  return { name: entity.name, kind: entity.kind, qualifiedName: entity.name, file: entity.loc.file, line: entity.loc.line, column: entity.loc.column, title: entity.title, description: entity.description, range };
}

function memberDefinition(owner: EntitySymbol, member: MemberSymbol, range: Definition['range']): Definition {
  return {
    name: member.name,
    kind: member.kind,
    qualifiedName: `${owner.name}.${member.name}`,
    file: member.loc.file,
    line: member.loc.line,
    column: member.loc.column,
    type: member.type,
    title: member.title,
    description: member.description,
    source: member.source,
    range,
  };
}

/** The dotted name (`orders.customers.id`) under a column, with the index of the part the column is on. */
export function dottedNameAt(lineText: string, column: number): { parts: string[]; index: number; range: { startColumn: number; endColumn: number } } | null {
  const at = column - 1;
  const isNameChar = (c: string | undefined) => c !== undefined && /[\w.]/.test(c);
  if (!isNameChar(lineText[at]) && !isNameChar(lineText[at - 1])) return null;
  let start = isNameChar(lineText[at]) ? at : at - 1;
  let end = start;
  while (start > 0 && isNameChar(lineText[start - 1])) start--;
  while (end < lineText.length && isNameChar(lineText[end])) end++;
  const raw = lineText.slice(start, end);
  const trimmedStart = start + (raw.length - raw.replace(/^\.+/, '').length);
  const text = lineText.slice(trimmedStart, end).replace(/\.+$/, '');
  if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(text)) return null;
  const parts = text.split('.');
  const offset = Math.max(0, Math.min(at, trimmedStart + text.length - 1) - trimmedStart);
  const index = text.slice(0, offset + 1).split('.').length - 1;
  return { parts, index, range: { startColumn: trimmedStart + 1, endColumn: trimmedStart + text.length + 1 } };
}

function isBraced(lineText: string, startColumn: number, endColumn: number): boolean {
  return lineText[startColumn - 2] === '{' && lineText[endColumn - 1] === '}' && lineText[startColumn - 3] !== '{';
}

/** Markdown describing a definition, for hovers. */
export function describeDefinition(d: Definition): string {
  const head = `**${d.kind}** \`${d.qualifiedName}\`${d.type ? ` · ${d.type}` : ''}`;
  return [head, d.title, d.description, d.source ? `From \`${d.source}\`.` : undefined, `Defined in ${d.file}:${d.line}`].filter(Boolean).join('\n\n');
}

// ---- diagnostics ---------------------------------------------------------------------------------

/**
 * The columns (1-based, end exclusive) of a line a diagnostic at `column` is about: the reference it
 * names when the message quotes one (`{orders.cnt}`), the key and value at a key, the word or quoted
 * string at the column, else the rest of the line.
 */
export function markerRange(lineText: string, column: number, message: string): { startColumn: number; endColumn: number } {
  const from = Math.max(0, column - 1);
  for (const match of message.matchAll(/\{[^{}\s]+\}/g)) {
    const at = lineText.indexOf(match[0], from);
    if (at >= 0) return { startColumn: at + 1, endColumn: at + 1 + match[0].length };
  }
  const lineEnd = lineText.replace(/\s+$/, '').length;
  if (from >= lineEnd) {
    const start = lineText.length - lineText.trimStart().length;
    return { startColumn: start + 1, endColumn: Math.max(lineEnd, start + 1) + 1 };
  }
  const quote = lineText[from];
  if (quote === '"' || quote === "'") {
    const close = lineText.indexOf(quote, from + 1);
    return { startColumn: column, endColumn: (close > from ? close + 1 : lineEnd) + 1 };
  }
  const word = /^[\w.$-]+/.exec(lineText.slice(from));
  if (!word) return { startColumn: column, endColumn: column + 1 };
  // At a key: the whole `key: value`.
  if (lineText[from + word[0].length] === ':') return { startColumn: column, endColumn: lineEnd + 1 };
  return { startColumn: column, endColumn: column + word[0].length };
}
