// Stage 1: parse one model file (YAML or JS) into a format-independent raw tree with 1-based positions.
// YAML: eemeli `yaml` (parseDocument + LineCounter). Jinja regions are masked (same length, newlines kept) so the
// rest of the file still parses; values touched by Jinja become opaque. JS: `acorn` in parse-js.ts; only top-level
// `cube(name, {...})` / `view(name, {...})` calls with static object literals are evaluated, anything else is opaque.

import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Alias, Node as YamlNode } from 'yaml';
import { DiagnosticCodes as C } from './codes';
import { codeFrame, lineStartsOf, positionAt } from './frame';
import { ModelFileTooComplex, NodeBudget } from './limits';
import { aliasTargets, expansionOf } from './yaml-aliases';
import { fastParseYaml } from './yaml-fast';
import { markTemplatedEntities, type JinjaRegion } from './jinja-scope';
import { parseJsFile } from './parse-js';
import { diag, emptyParsed } from './parse-common';
import type {
  ModelFile,
  ModelFormat,
  ParsedFile,
  RawEntity,
  RawEntry,
  RawMap,
  RawNode,
  RawPos,
} from './types';

// A Map, not an object: a top-level key such as `constructor` must not find Object.prototype's (issue 23).
const TOP_LEVEL_KEYS = new Map<string, RawEntity['kind']>([
  ['cubes', 'cube'],
  ['views', 'view'],
  ['view_groups', 'view_group'],
]);

/** Model format of a path, or null when the file is not a model file (e.g. `globals.py`, `README.md`). */
export function modelFormatOf(path: string): ModelFormat | null {
  const p = path.toLowerCase();
  if (/\.ya?ml(\.jinja)?$/.test(p)) return 'yaml';
  if (p.endsWith('.js')) return 'js';
  if (p.endsWith('.ts') && !p.endsWith('.d.ts')) return 'ts';
  return null;
}

/** Folders the platform reads model files from (`schema/` is the older name of `model/`). */
export const MODEL_FOLDERS = ['model/', 'schema/'] as const;

/** True for a file the compiler reads: YAML, JS or TS under `model/` (or `schema/`). Server and editor share this rule. */
export function isModelSourcePath(path: string): boolean {
  return MODEL_FOLDERS.some((folder) => path.startsWith(folder)) && modelFormatOf(path) !== null;
}

export function parseModelFile(file: ModelFile): ParsedFile {
  const format = modelFormatOf(file.path);
  if (format === 'yaml') return parseYamlFile(file);
  if (format === 'js') return parseJsFile(file);
  const parsed = emptyParsed(file.path, format ?? 'ts');
  if (format === 'ts') {
    // TypeScript models cannot be evaluated without running them: treat every definition as unknown.
    parsed.dynamic = true;
    parsed.opaqueDefinitions = true;
    parsed.diagnostics.push(
      diag('info', C.DYNAMIC_MODEL, `TypeScript model file ${file.path} is dynamic and is not analysed statically`, file.path, {
        line: 1,
        column: 1,
      }),
    );
  }
  return parsed;
}

// ---------------------------------------------------------------------------------------------------------------
// YAML


const STACK_EXHAUSTED = /call stack size exceeded|stack overflow/i;

/** The character after a `{` that opens Jinja: `{{`, `{%` or `{#`. */
const isJinjaOpener = (c: number): boolean => c === 123 /* { */ || c === 37 /* % */ || c === 35; /* # */

/**
 * The Jinja expressions, tags and comments of `content`. Found from each `{` by `indexOf`: a
 * regular expression over every file was 25 ms of a 10,000-cube compile whose SQL has a `{CUBE}`
 * in nearly every member (issue 28), this 5 ms.
 */
function findJinjaRegions(content: string): JinjaRegion[] {
  const regions: JinjaRegion[] = [];
  let at = content.indexOf('{');
  while (at >= 0) {
    const opener = content.charCodeAt(at + 1);
    if (!isJinjaOpener(opener)) {
      at = content.indexOf('{', at + 1);
      continue;
    }
    const close = content.indexOf(opener === 123 ? '}}' : `${String.fromCharCode(opener)}}`, at + 2);
    const end = close < 0 ? content.length : close + 2;
    regions.push({ start: at, end });
    at = content.indexOf('{', end);
  }
  return regions;
}

/** Replace Jinja with same-length filler: expressions become `_` runs (still a scalar), tags become spaces. */
function maskJinja(content: string, regions: JinjaRegion[]): string {
  let out = '';
  let last = 0;
  for (const r of regions) {
    out += content.slice(last, r.start);
    const filler = content[r.start + 1] === '{' ? '_' : ' ';
    for (let i = r.start; i < r.end; i++) {
      const ch = content[i]!;
      out += ch === '\n' || ch === '\r' ? ch : filler;
    }
    last = r.end;
  }
  return out + content.slice(last);
}

/**
 * Raw tree of YAML text read with the `yaml` library (the reference reader), with its errors.
 * Aliases are expanded here, not by the library, so the tree is bounded by MODEL_LIMITS: a file
 * whose aliases would expand past it throws ModelFileTooComplex (issue 23).
 */
export function yamlRawTree(
  text: string,
  jinja: JinjaRegion[] = [],
  budget = new NodeBudget('The YAML file'),
): { root: RawNode | null; errors: { code: string; message: string; pos: RawPos }[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, merge: true, prettyErrors: false });
  const posOf = (offset: number): RawPos => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const errors = doc.errors.map((e) => ({ code: e.code, message: e.message, pos: posOf(e.pos[0]) }));
  let root: RawNode | null = null;
  if (doc.contents) {
    const targets = aliasTargets(doc);
    // Counted on the document first: a file past a limit is refused before any of it is expanded.
    const { nodes, aliased } = expansionOf(doc.contents as YamlNode, targets);
    const at = posOf(doc.contents.range?.[0] ?? 0);
    budget.expect(nodes, aliased, at.line, at.column);
    root = new YamlConverter(posOf, jinja, budget, targets).convert(doc.contents, 0);
  }
  return { root, errors };
}

function parseYamlFile(file: ModelFile): ParsedFile {
  const parsed = emptyParsed(file.path, 'yaml');
  const content = file.content;
  const regions = findJinjaRegions(content);
  parsed.templated = regions.length > 0;
  // Plain files in the common subset take the fast reader; everything else (and every error) goes through `yaml`.
  const fast = parsed.templated ? undefined : fastParseYaml(content, new NodeBudget(file.path));
  const { root, errors } =
    fast !== undefined ? { root: fast, errors: [] } : yamlRawTree(parsed.templated ? maskJinja(content, regions) : content, regions, new NodeBudget(file.path));

  for (const error of errors) {
    const pos = error.pos;
    // The library stops at nesting deeper than the stack and says so as a syntax error: it is a limit, not a typo.
    if (STACK_EXHAUSTED.test(error.message)) throw new ModelFileTooComplex(`${file.path} nests its values too deeply to be read`, pos.line, pos.column);
    if (parsed.templated) {
      // The rendered template may well be valid YAML; we only know we could not read this one statically.
      parsed.opaqueDefinitions = true;
      parsed.diagnostics.push(
        diag(
          'warning',
          C.TEMPLATED_UNPARSEABLE,
          `Templated file ${file.path} is not valid YAML before rendering (${error.message}); its definitions are not checked`,
          file.path,
          pos,
        ),
      );
      continue;
    }
    const duplicate = error.code === 'DUPLICATE_KEY';
    parsed.diagnostics.push(
      diag(
        'error',
        duplicate ? C.DUPLICATE_KEY : C.YAML_SYNTAX,
        duplicate ? `Duplicate key in ${file.path}: map keys must be unique` : `YAML syntax error in ${file.path}: ${error.message}`,
        file.path,
        pos,
        { frame: codeFrame(content, pos.line, pos.column) },
      ),
    );
  }
  if (parsed.templated) {
    const first = lineStartsOf(content);
    parsed.diagnostics.push(
      diag('info', C.TEMPLATED_MODEL, `${file.path} uses Jinja templating; templated values are not checked`, file.path, positionAt(first, regions[0]!.start)),
    );
  }

  // A template that is not YAML before rendering cannot be read: claim nothing about its contents.
  if (parsed.templated && errors.length > 0) return parsed;
  if (!root || (root.kind === 'scalar' && root.value === null)) return parsed;
  if (root.kind === 'opaque') {
    parsed.opaqueDefinitions = true;
    return parsed;
  }
  if (root.kind !== 'map') {
    parsed.diagnostics.push(
      diag('error', C.INVALID_VALUE, `${file.path} must be a map with top-level keys cubes, views or view_groups`, file.path, root),
    );
    return parsed;
  }
  collectEntities(parsed, root);
  if (parsed.templated) markTemplatedEntities(parsed.entities, content, regions);
  return parsed;
}

class YamlConverter {
  constructor(
    private readonly posOf: (offset: number) => RawPos,
    private readonly jinja: JinjaRegion[],
    private readonly budget: NodeBudget,
    private readonly targets: Map<Alias, YamlNode | undefined>,
  ) {}

  private touchesJinja(start: number, end: number): boolean {
    for (const r of this.jinja) {
      if (r.start >= end) return false;
      if (r.end > start) return true;
    }
    return false;
  }

  /** `aliased`: the node is reached through an alias, so it is a copy the file did not write out. */
  convert(node: YamlNode | null | undefined, fallbackOffset: number, depth = 0, aliased = false): RawNode {
    if (node == null || depth > 64) return { kind: 'scalar', value: null, ...this.posOf(fallbackOffset) };
    const start = node.range?.[0] ?? fallbackOffset;
    if (isAlias(node)) {
      const target = this.targets.get(node);
      return target ? this.convert(target as YamlNode, start, depth + 1, true) : { kind: 'scalar', value: null, ...this.posOf(start) };
    }
    const pos = this.posOf(start);
    if (aliased) this.budget.takeAliased(pos.line, pos.column);
    else this.budget.take(pos.line, pos.column);
    if (isScalar(node)) {
      if (this.jinja.length && this.touchesJinja(start, node.range?.[1] ?? start)) return { kind: 'opaque', reason: 'jinja', ...pos };
      const v = node.value;
      const value = v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : String(v);
      return { kind: 'scalar', value, ...pos };
    }
    if (isSeq(node)) {
      const items: RawNode[] = [];
      for (const item of node.items) items.push(this.convert(item as YamlNode, start, depth + 1, aliased));
      return { kind: 'seq', items, ...pos };
    }
    if (isMap(node)) {
      const entries: RawEntry[] = [];
      const merged: RawEntry[] = [];
      for (const pair of node.items) {
        const keyNode = pair.key as YamlNode | null;
        const keyOffset = keyNode?.range?.[0] ?? start;
        const keyPos = this.posOf(keyOffset);
        const valueNode = pair.value as YamlNode | null;
        const value = this.convert(valueNode, keyNode?.range?.[1] ?? keyOffset, depth + 1, aliased);
        const rawKey = keyNode && isScalar(keyNode) ? keyNode.value : undefined;
        if (rawKey === '<<' && keyNode && isScalar(keyNode)) {
          // Merge key: entries of the merged map(s) apply unless the map itself sets them.
          const sources = value.kind === 'seq' ? value.items : [value];
          for (const src of sources) if (src.kind === 'map') for (const e of src.entries) merged.push(e);
          continue;
        }
        const key = rawKey === undefined || rawKey === null ? '' : String(rawKey);
        entries.push({ key, ...keyPos, value });
      }
      if (merged.length > 0) {
        // A Set, not a scan per key: merges of large aliased maps must stay linear.
        const keys = new Set(entries.map((e) => e.key));
        for (const m of merged) {
          if (keys.has(m.key)) continue;
          keys.add(m.key);
          entries.push(m);
        }
      }
      return { kind: 'map', entries, ...pos };
    }
    return { kind: 'scalar', value: null, ...pos };
  }
}

function collectEntities(parsed: ParsedFile, root: RawMap): void {
  let index = 0;
  for (const entry of root.entries) {
    const kind = TOP_LEVEL_KEYS.get(entry.key);
    if (!kind) {
      parsed.diagnostics.push(
        diag(
          'error',
          C.UNKNOWN_TOP_LEVEL_KEY,
          `Unknown top-level key '${entry.key}' in ${parsed.path}; expected cubes, views or view_groups`,
          parsed.path,
          entry,
        ),
      );
      continue;
    }
    const list = entry.value;
    if (list.kind === 'opaque') {
      parsed.opaqueDefinitions = true;
      continue;
    }
    if (list.kind === 'scalar' && list.value === null) continue;
    if (list.kind !== 'seq') {
      parsed.diagnostics.push(diag('error', C.MEMBERS_NOT_LIST, `'${entry.key}' in ${parsed.path} must be a list`, parsed.path, list));
      continue;
    }
    for (const item of list.items) {
      if (item.kind === 'opaque') {
        parsed.opaqueDefinitions = true;
        continue;
      }
      if (item.kind !== 'map') {
        parsed.diagnostics.push(
          diag('error', C.INVALID_VALUE, `Each item of '${entry.key}' in ${parsed.path} must be a map`, parsed.path, item),
        );
        continue;
      }
      const nameEntry = item.entries.find((e) => e.key === 'name');
      if (!nameEntry) {
        parsed.diagnostics.push(
          diag('error', C.MISSING_PROPERTY, `A ${kind.replace('_', ' ')} in ${parsed.path} has no name`, parsed.path, item),
        );
        continue;
      }
      if (nameEntry.value.kind === 'opaque') {
        parsed.opaqueDefinitions = true;
        continue;
      }
      if (nameEntry.value.kind !== 'scalar' || typeof nameEntry.value.value !== 'string') {
        parsed.diagnostics.push(
          diag('error', C.INVALID_VALUE, `The name of a ${kind.replace('_', ' ')} in ${parsed.path} must be a string`, parsed.path, nameEntry.value),
        );
        continue;
      }
      parsed.entities.push({
        kind,
        name: nameEntry.value.value,
        nameLoc: { line: nameEntry.value.line, column: nameEntry.value.column },
        def: item,
        index: index++,
        opaque: false,
      });
    }
  }
}
