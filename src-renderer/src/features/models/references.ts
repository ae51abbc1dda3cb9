// Find all references and quick open, free of Monaco so they are testable on their own. A reference
// is any place go to definition would take to the same cube, view or member: each occurrence of the
// name in the branch's files is resolved with `definitionAt`, so both features agree on what a name
// means (`{CUBE.status}`, `{orders.status}`, `- status` in a view's includes, `join_path: a.b`, …).
import { definitionAt, type Definition } from './language';
import type { MemberKind, ModelSymbols } from './protocol';

export interface SourceText {
  path: string;
  text: string;
}

export interface Reference {
  file: string;
  line: number;
  startColumn: number;
  endColumn: number;
  /** The line, trimmed, for lists. */
  preview: string;
  /** Where the cube, view or member is defined (a view member: where it is included). */
  isDefinition: boolean;
}

/** What references are looked for: a cube or view (`orders`) or a member (`orders.status`). */
export interface ReferenceTarget {
  kind: Definition['kind'];
  qualifiedName: string;
}

const escape = (name: string) => name.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&');

/** Every place in `files` that names `target`, its definition first, then by file and position. */
export function findReferences(files: SourceText[], symbols: ModelSymbols, target: ReferenceTarget): Reference[] {
  const [ownerName, memberName] = target.qualifiedName.split('.');
  const owner = symbols.entities[ownerName!];
  if (!owner) return [];
  const name = memberName ?? ownerName!;
  const def = memberName === undefined ? owner : owner.members.find((m) => m.name === memberName && m.kind === target.kind);
  const found: Reference[] = [];
  const seen = new Set<string>();
  const add = (ref: Reference) => {
    const key = `${ref.file}:${ref.line}:${ref.startColumn}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push(ref);
  };
  const word = new RegExp(`(?<![\\w$])${escape(name)}(?![\\w$])`, 'g');
  for (const file of files) {
    if (!file.text.includes(name)) continue;
    const lines = file.text.split(/\r?\n/);
    lines.forEach((lineText, index) => {
      if (!lineText.includes(name)) return;
      for (const match of lineText.matchAll(word)) {
        const column = match.index + 1;
        const d = definitionAt(file.text, index + 1, column, file.path, symbols);
        if (!d || d.qualifiedName !== target.qualifiedName || d.kind !== target.kind) continue;
        const isDefinition = def !== undefined && def.loc.file === file.path && def.loc.line === index + 1;
        add({ file: file.path, line: index + 1, startColumn: column, endColumn: column + name.length, preview: lineText.trim(), isDefinition });
      }
    });
  }
  if (def) {
    const lineText = files.find((f) => f.path === def.loc.file)?.text.split(/\r?\n/)[def.loc.line - 1] ?? '';
    const at = lineText.indexOf(name, Math.max(0, def.loc.column - 1));
    const startColumn = at >= 0 ? at + 1 : def.loc.column;
    if (!found.some((r) => r.file === def.loc.file && r.line === def.loc.line)) {
      add({ file: def.loc.file, line: def.loc.line, startColumn, endColumn: startColumn + name.length, preview: lineText.trim(), isDefinition: true });
    }
  }
  return found.sort((a, b) => Number(b.isDefinition) - Number(a.isDefinition) || a.file.localeCompare(b.file) || a.line - b.line || a.startColumn - b.startColumn);
}

// ---- quick open -------------------------------------------------------------------------------

export interface QuickOpenItem {
  kind: 'file' | 'cube' | 'view' | MemberKind;
  /** What is matched and shown first: a path, `orders`, `orders.status`. */
  label: string;
  /** Shown after the label: the kind and where it is defined. */
  detail: string;
  path: string;
  line: number;
  column: number;
}

/** Files of the branch, then every cube, view and member (measures, dimensions, segments, hierarchies). */
export function quickOpenItems(paths: string[], symbols: ModelSymbols): QuickOpenItem[] {
  const items: QuickOpenItem[] = paths.map((path) => ({ kind: 'file', label: path, detail: 'file', path, line: 1, column: 1 }));
  for (const entity of Object.values(symbols.entities).sort((a, b) => a.name.localeCompare(b.name))) {
    items.push({ kind: entity.kind, label: entity.name, detail: `${entity.kind} · ${entity.loc.file}:${entity.loc.line}`, path: entity.loc.file, line: entity.loc.line, column: entity.loc.column });
    for (const m of entity.members) {
      items.push({
        kind: m.kind,
        label: `${entity.name}.${m.name}`,
        detail: `${m.kind}${m.type ? ` · ${m.type}` : ''} · ${m.loc.file}:${m.loc.line}`,
        path: m.loc.file,
        line: m.loc.line,
        column: m.loc.column,
      });
    }
  }
  return items;
}

/**
 * Score of `label` for `query` (higher is better), or null when the query's characters do not appear
 * in order. Contiguous runs, matches at word starts (after `/`, `.`, `_`) and at the end of the label
 * (the file or member name) score higher, so `ordsta` finds `orders.status` and `status` ranks
 * `orders.status` above `model/cubes/status_codes.yml`.
 */
export function matchScore(label: string, query: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (!q) return 0;
  const l = label.toLowerCase();
  // The name the label ends in: a file's name without its extension, a member's name.
  const tail = l.includes('/') ? l.slice(l.lastIndexOf('/') + 1).replace(/\..*$/, '') : l.slice(l.lastIndexOf('.') + 1);
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const ch of q) {
    const at = l.indexOf(ch, from);
    if (at < 0) return null;
    if (at === previous + 1) score += 3;
    if (at === 0 || '/._-'.includes(l[at - 1]!)) score += 2;
    score += 1;
    previous = at;
    from = at + 1;
  }
  if (l === q || tail === q) score += 20;
  else if (tail.startsWith(q)) score += 10;
  else if (l.includes(q)) score += 5;
  return score - label.length / 100;
}

/** Items matching `query`, best first (all items in their order when the query is empty). */
export function rankItems(items: QuickOpenItem[], query: string, limit = 50): QuickOpenItem[] {
  if (!query.trim()) return items.slice(0, limit);
  const scored: { item: QuickOpenItem; score: number }[] = [];
  for (const item of items) {
    const score = matchScore(item.label, query);
    if (score !== null) scored.push({ item, score });
  }
  return scored.sort((a, b) => b.score - a.score || a.item.label.localeCompare(b.item.label)).slice(0, limit).map((s) => s.item);
}
