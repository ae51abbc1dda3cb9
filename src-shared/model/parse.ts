// Stage 1: parse one model file (YAML or JS) into a format-independent raw tree with 1-based positions.
// YAML: eemeli `yaml` (parseDocument + LineCounter). Jinja regions are masked (same length, newlines kept) so the
// rest of the file still parses; values touched by Jinja become opaque. JS: `acorn`; only top-level
// `cube(name, {...})` / `view(name, {...})` calls with static object literals are evaluated, anything else is opaque.

import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import { parse as acornParse } from 'acorn';
import type * as ESTree from 'acorn';
import { DiagnosticCodes as C } from './codes';
import { codeFrame, lineStartsOf, positionAt } from './frame';
import { fastParseYaml } from './yaml-fast';
import { CONTEXT_VARIABLES } from './references';
import { markTemplatedEntities, type JinjaRegion } from './jinja-scope';
import type {
  Diagnostic,
  ModelFile,
  ModelFormat,
  ParsedFile,
  RawEntity,
  RawEntry,
  RawMap,
  RawNode,
  RawPos,
} from './types';

const TOP_LEVEL_KEYS: Record<string, RawEntity['kind']> = { cubes: 'cube', views: 'view', view_groups: 'view_group' };

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

function emptyParsed(path: string, format: ModelFormat): ParsedFile {
  return { path, format, templated: false, dynamic: false, opaqueDefinitions: false, diagnostics: [], entities: [] };
}

function diag(
  severity: Diagnostic['severity'],
  code: string,
  message: string,
  file: string,
  pos: RawPos,
  extra?: Partial<Diagnostic>,
): Diagnostic {
  return { severity, code, message, file, line: pos.line, column: pos.column, ...extra };
}

// ---------------------------------------------------------------------------------------------------------------
// YAML


const JINJA_OPEN = /\{[{%#]/g;

function findJinjaRegions(content: string): JinjaRegion[] {
  const regions: JinjaRegion[] = [];
  JINJA_OPEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = JINJA_OPEN.exec(content))) {
    const opener = match[0][1];
    const closer = opener === '{' ? '}}' : `${opener}}`;
    const close = content.indexOf(closer, match.index + 2);
    const end = close < 0 ? content.length : close + 2;
    regions.push({ start: match.index, end });
    JINJA_OPEN.lastIndex = end;
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

/** Raw tree of YAML text read with the `yaml` library (the reference reader), with its errors. */
export function yamlRawTree(
  text: string,
  jinja: JinjaRegion[] = [],
): { root: RawNode | null; errors: { code: string; message: string; pos: RawPos }[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, merge: true, prettyErrors: false });
  const posOf = (offset: number): RawPos => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const errors = doc.errors.map((e) => ({ code: e.code, message: e.message, pos: posOf(e.pos[0]) }));
  const root = doc.contents ? new YamlConverter(doc, posOf, jinja).convert(doc.contents, 0) : null;
  return { root, errors };
}

function parseYamlFile(file: ModelFile): ParsedFile {
  const parsed = emptyParsed(file.path, 'yaml');
  const content = file.content;
  const regions = content.includes('{') ? findJinjaRegions(content) : [];
  parsed.templated = regions.length > 0;
  // Plain files in the common subset take the fast reader; everything else (and every error) goes through `yaml`.
  const fast = parsed.templated ? undefined : fastParseYaml(content);
  const { root, errors } = fast !== undefined ? { root: fast, errors: [] } : yamlRawTree(parsed.templated ? maskJinja(content, regions) : content, regions);

  for (const error of errors) {
    const pos = error.pos;
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
    private readonly doc: Document,
    private readonly posOf: (offset: number) => RawPos,
    private readonly jinja: JinjaRegion[],
  ) {}


  private touchesJinja(start: number, end: number): boolean {
    for (const r of this.jinja) {
      if (r.start >= end) return false;
      if (r.end > start) return true;
    }
    return false;
  }

  convert(node: YamlNode | null | undefined, fallbackOffset: number, depth = 0): RawNode {
    if (node == null || depth > 64) return { kind: 'scalar', value: null, ...this.posOf(fallbackOffset) };
    const start = node.range?.[0] ?? fallbackOffset;
    if (isAlias(node)) {
      const target = node.resolve(this.doc);
      return target ? this.convert(target as YamlNode, start, depth + 1) : { kind: 'scalar', value: null, ...this.posOf(start) };
    }
    const pos = this.posOf(start);
    if (isScalar(node)) {
      if (this.jinja.length && this.touchesJinja(start, node.range?.[1] ?? start)) return { kind: 'opaque', reason: 'jinja', ...pos };
      const v = node.value;
      const value = v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : String(v);
      return { kind: 'scalar', value, ...pos };
    }
    if (isSeq(node)) {
      const items: RawNode[] = [];
      for (const item of node.items) items.push(this.convert(item as YamlNode, start, depth + 1));
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
        const value = this.convert(valueNode, keyNode?.range?.[1] ?? keyOffset, depth + 1);
        const rawKey = keyNode && isScalar(keyNode) ? keyNode.value : undefined;
        if (rawKey === '<<' && keyNode && isScalar(keyNode)) {
          // Merge key: entries of the merged map(s) apply unless the map itself sets them.
          const sources = value.kind === 'seq' ? value.items : [value];
          for (const src of sources) if (src.kind === 'map') merged.push(...src.entries);
          continue;
        }
        const key = rawKey === undefined || rawKey === null ? '' : String(rawKey);
        entries.push({ key, ...keyPos, value });
      }
      for (const m of merged) if (!entries.some((e) => e.key === m.key)) entries.push(m);
      return { kind: 'map', entries, ...pos };
    }
    return { kind: 'scalar', value: null, ...pos };
  }
}

function collectEntities(parsed: ParsedFile, root: RawMap): void {
  let index = 0;
  for (const entry of root.entries) {
    const kind = TOP_LEVEL_KEYS[entry.key];
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

// ---------------------------------------------------------------------------------------------------------------
// JavaScript

const ENTITY_FUNCTIONS: Record<string, RawEntity['kind']> = { cube: 'cube', view: 'view', view_group: 'view_group', viewGroup: 'view_group' };

type StaticValue = string | number | boolean | null;

function parseJsFile(file: ModelFile): ParsedFile {
  const parsed = emptyParsed(file.path, 'js');
  const content = file.content;
  let program: ESTree.Program;
  try {
    program = parseJs(content);
  } catch (error) {
    const e = error as { message?: string; loc?: { line: number; column: number } };
    const pos = { line: e.loc?.line ?? 1, column: (e.loc?.column ?? 0) + 1 };
    const message = (e.message ?? 'syntax error').replace(/\s*\(\d+:\d+\)$/, '');
    parsed.diagnostics.push(
      diag('error', C.JS_SYNTAX, `JavaScript syntax error in ${file.path}: ${message}`, file.path, pos, {
        frame: codeFrame(content, pos.line, pos.column),
      }),
    );
    return parsed;
  }

  const converter = new JsConverter(parsed, content);
  const handledCalls = new Set<ESTree.Node>();
  let index = 0;
  for (const statement of program.body) {
    if (statement.type === 'VariableDeclaration' && statement.kind === 'const') {
      for (const d of statement.declarations) {
        if (d.id.type === 'Identifier' && d.init) {
          const value = staticValue(d.init, converter.constants);
          if (value !== undefined) converter.constants.set(d.id.name, value);
        }
      }
      continue;
    }
    if (statement.type !== 'ExpressionStatement') continue;
    const call = statement.expression;
    if (call.type !== 'CallExpression' || call.callee.type !== 'Identifier') continue;
    const kind = ENTITY_FUNCTIONS[call.callee.name];
    if (!kind) continue;
    handledCalls.add(call);
    const [nameArg, defArg] = call.arguments;
    const name = nameArg && nameArg.type !== 'SpreadElement' ? staticValue(nameArg, converter.constants) : undefined;
    if (typeof name !== 'string') {
      parsed.dynamic = true;
      parsed.opaqueDefinitions = true;
      continue;
    }
    const nameLoc = posOfNode(nameArg!);
    if (!defArg || defArg.type !== 'ObjectExpression') {
      parsed.dynamic = true;
      parsed.entities.push({ kind, name, nameLoc, def: { kind: 'map', entries: [], ...nameLoc }, index: index++, opaque: true });
      continue;
    }
    const def = converter.object(defArg);
    // `name` is implicit in JS; give the raw definition one so later stages treat both formats alike.
    def.entries.unshift({ key: 'name', ...nameLoc, value: { kind: 'scalar', value: name, ...nameLoc } });
    parsed.entities.push({ kind, name, nameLoc, def, index: index++, opaque: false });
  }

  // cube()/view() calls anywhere else (loops, functions, asyncModule) define entities we cannot see.
  walkJs(program, (node) => {
    if (
      node.type === 'CallExpression' &&
      !handledCalls.has(node) &&
      (node as ESTree.CallExpression).callee.type === 'Identifier' &&
      ((node as ESTree.CallExpression).callee as ESTree.Identifier).name in ENTITY_FUNCTIONS
    ) {
      parsed.dynamic = true;
      parsed.opaqueDefinitions = true;
    }
  });
  if (parsed.dynamic) {
    parsed.diagnostics.push(
      diag('info', C.DYNAMIC_MODEL, `${file.path} contains dynamic JavaScript; dynamic parts are not checked`, file.path, { line: 1, column: 1 }),
    );
  }
  return parsed;
}

function parseJs(content: string): ESTree.Program {
  const options = { ecmaVersion: 'latest' as const, locations: true, allowHashBang: true };
  try {
    return acornParse(content, { ...options, sourceType: 'module' });
  } catch (moduleError) {
    try {
      return acornParse(content, { ...options, sourceType: 'script' });
    } catch {
      throw moduleError;
    }
  }
}

function posOfNode(node: ESTree.Node): RawPos {
  return { line: node.loc?.start.line ?? 1, column: (node.loc?.start.column ?? 0) + 1 };
}

function walkJs(node: unknown, visit: (node: ESTree.Node) => void): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) walkJs(n, visit);
    return;
  }
  const n = node as Record<string, unknown>;
  if (typeof n.type !== 'string') return;
  visit(n as unknown as ESTree.Node);
  for (const key in n) {
    if (key === 'loc' || key === 'type' || key === 'start' || key === 'end') continue;
    const child = n[key];
    if (child && typeof child === 'object') walkJs(child, visit);
  }
}

/** Value of a static expression (literal, template without substitutions, known constant, negative number). */
function staticValue(node: ESTree.Node, constants: Map<string, StaticValue>): StaticValue | undefined {
  switch (node.type) {
    case 'Literal': {
      const v = (node as ESTree.Literal).value;
      return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
    }
    case 'TemplateLiteral': {
      const t = node as ESTree.TemplateLiteral;
      let out = t.quasis[0]?.value.cooked ?? '';
      for (let i = 0; i < t.expressions.length; i++) {
        const v = staticValue(t.expressions[i]!, constants);
        if (v === undefined) return undefined;
        out += String(v) + (t.quasis[i + 1]?.value.cooked ?? '');
      }
      return out;
    }
    case 'Identifier':
      return constants.get((node as ESTree.Identifier).name);
    case 'UnaryExpression': {
      const u = node as ESTree.UnaryExpression;
      const v = staticValue(u.argument, constants);
      if (u.operator === '-' && typeof v === 'number') return -v;
      if (u.operator === '!' && typeof v === 'boolean') return !v;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Dotted path of `a`, `a.b.c` (non-computed member chains of identifiers), else null. */
function memberPath(node: ESTree.Node): string[] | null {
  if (node.type === 'Identifier') return [(node as ESTree.Identifier).name];
  if (node.type === 'MemberExpression') {
    const m = node as ESTree.MemberExpression;
    if (m.computed || m.property.type !== 'Identifier') return null;
    const head = memberPath(m.object as ESTree.Node);
    return head ? [...head, m.property.name] : null;
  }
  return null;
}

function rootIdentifier(node: ESTree.Node): string | null {
  let n: ESTree.Node = node;
  for (;;) {
    if (n.type === 'Identifier') return (n as ESTree.Identifier).name;
    if (n.type === 'MemberExpression') n = (n as ESTree.MemberExpression).object as ESTree.Node;
    else if (n.type === 'CallExpression') n = (n as ESTree.CallExpression).callee as ESTree.Node;
    else return null;
  }
}

class JsConverter {
  readonly constants = new Map<string, StaticValue>();

  constructor(
    private readonly parsed: ParsedFile,
    private readonly content: string,
  ) {}

  private opaque(node: ESTree.Node): RawNode {
    this.parsed.dynamic = true;
    return { kind: 'opaque', reason: 'js', ...posOfNode(node) };
  }

  object(node: ESTree.ObjectExpression): RawMap {
    const pos = posOfNode(node);
    const entries: RawEntry[] = [];
    const seen = new Set<string>();
    for (const prop of node.properties) {
      if (prop.type === 'SpreadElement' || prop.computed || prop.kind !== 'init') {
        // Keys we cannot name: keep a marker so later stages know the map is only partly known.
        entries.push({ key: '...', ...posOfNode(prop), value: this.opaque(prop) });
        continue;
      }
      const key =
        prop.key.type === 'Identifier'
          ? prop.key.name
          : prop.key.type === 'Literal' && (typeof prop.key.value === 'string' || typeof prop.key.value === 'number')
            ? String(prop.key.value)
            : null;
      const keyPos = posOfNode(prop.key);
      if (key === null) {
        entries.push({ key: '...', ...keyPos, value: this.opaque(prop) });
        continue;
      }
      if (seen.has(key)) {
        this.parsed.diagnostics.push(
          diag('error', C.DUPLICATE_KEY, `Duplicate key '${key}' in ${this.parsed.path}`, this.parsed.path, keyPos, {
            frame: codeFrame(this.content, keyPos.line, keyPos.column),
          }),
        );
        continue;
      }
      seen.add(key);
      entries.push({ key, ...keyPos, value: this.value(prop.value) });
    }
    return { kind: 'map', entries, ...pos };
  }

  value(node: ESTree.Node): RawNode {
    const pos = posOfNode(node);
    switch (node.type) {
      case 'ObjectExpression':
        return this.object(node as ESTree.ObjectExpression);
      case 'ArrayExpression': {
        const items: RawNode[] = [];
        for (const el of (node as ESTree.ArrayExpression).elements) {
          if (!el || el.type === 'SpreadElement') items.push(this.opaque(el ?? node));
          else items.push(this.value(el));
        }
        return { kind: 'seq', items, ...pos };
      }
      case 'TemplateLiteral':
        return this.template(node as ESTree.TemplateLiteral);
      case 'Identifier':
      case 'MemberExpression': {
        const constant = staticValue(node, this.constants);
        if (constant !== undefined) return { kind: 'scalar', value: constant, ...pos };
        // A bare reference such as `extends: orders` or `drill_members: [id, users.city]`.
        const path = memberPath(node);
        return path ? { kind: 'scalar', value: path.join('.'), ...pos } : this.opaque(node);
      }
      default: {
        const v = staticValue(node, this.constants);
        return v === undefined ? this.opaque(node) : { kind: 'scalar', value: v, ...pos };
      }
    }
  }

  /** `${CUBE}.a`, `${orders.count}` are Cube references, written `{...}` in the raw tree like in YAML. */
  private template(node: ESTree.TemplateLiteral): RawNode {
    let out = node.quasis[0]?.value.cooked ?? '';
    for (let i = 0; i < node.expressions.length; i++) {
      const expr = node.expressions[i]!;
      const constant = staticValue(expr, this.constants);
      let piece: string | null = null;
      if (constant !== undefined) piece = String(constant);
      else {
        const path = memberPath(expr);
        const root = rootIdentifier(expr);
        if (path) piece = `{${path.join('.')}}`;
        else if (root && CONTEXT_VARIABLES.has(root)) piece = `{${this.content.slice(expr.start, expr.end)}}`;
        else if (expr.type === 'CallExpression') {
          // `${orders.sql()}` reuses another cube's SQL.
          const callee = memberPath((expr as ESTree.CallExpression).callee as ESTree.Node);
          if (callee && callee.length === 2 && callee[1] === 'sql' && (expr as ESTree.CallExpression).arguments.length === 0) {
            piece = `{${callee[0]}.sql()}`;
          }
        }
      }
      if (piece === null) return this.opaque(node);
      out += piece + (node.quasis[i + 1]?.value.cooked ?? '');
    }
    return { kind: 'scalar', value: out, ...posOfNode(node) };
  }
}
