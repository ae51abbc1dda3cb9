// Stage 1 for JavaScript model files (see parse.ts): read with `acorn`; only top-level
// `cube(name, {...})` / `view(name, {...})` calls with static object literals are evaluated,
// anything else is opaque.
import { Parser } from 'acorn';
import type * as ESTree from 'acorn';
import { DiagnosticCodes as C } from './codes';
import { codeFrame } from './frame';
import { MODEL_LIMITS, ModelFileTooComplex } from './limits';
import { CONTEXT_VARIABLES } from './references';
import { diag, emptyParsed } from './parse-common';
import type { ModelFile, ParsedFile, RawEntity, RawEntry, RawMap, RawNode, RawPos } from './types';

const ENTITY_FUNCTIONS = new Map<string, RawEntity['kind']>([
  ['cube', 'cube'],
  ['view', 'view'],
  ['view_group', 'view_group'],
  ['viewGroup', 'view_group'],
]);

type StaticValue = string | number | boolean | null;

export function parseJsFile(file: ModelFile): ParsedFile {
  const parsed = emptyParsed(file.path, 'js');
  const content = file.content;
  let program: ESTree.Program;
  try {
    program = parseJs(content, file.path);
  } catch (error) {
    if (error instanceof ModelFileTooComplex) throw error;
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

  const converter = new JsConverter(parsed, content, file.path);
  const handledCalls = new Set<ESTree.Node>();
  let index = 0;
  for (const statement of program.body) {
    if (statement.type === 'VariableDeclaration' && statement.kind === 'const') {
      for (const d of statement.declarations) {
        if (d.id.type === 'Identifier' && d.init) {
          const value = staticValue(d.init, converter.constants, file.path);
          if (value !== undefined) converter.constants.set(d.id.name, value);
        }
      }
      continue;
    }
    if (statement.type !== 'ExpressionStatement') continue;
    const call = statement.expression;
    if (call.type !== 'CallExpression' || call.callee.type !== 'Identifier') continue;
    const kind = ENTITY_FUNCTIONS.get(call.callee.name);
    if (!kind) continue;
    handledCalls.add(call);
    const [nameArg, defArg] = call.arguments;
    const name = nameArg && nameArg.type !== 'SpreadElement' ? staticValue(nameArg, converter.constants, file.path) : undefined;
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
      ENTITY_FUNCTIONS.has(((node as ESTree.CallExpression).callee as ESTree.Identifier).name)
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

/**
 * AST nodes acorn made in the current parse. Parsing is synchronous, so one counter serves every
 * parse of this thread; CountingParser throws once the file's budget (MODEL_LIMITS.fileNodes) is
 * spent, before the tree of a file written to be huge takes the memory (issue 23).
 */
let nodesMade = 0;
let nodesAllowed: number = MODEL_LIMITS.fileNodes;
let nodesFile = '';

/** The parts of acorn's parser its typings leave out: where a node starts, and the two node constructors. */
interface ParserInternals {
  startLoc?: { line: number; column: number };
  startNode(): unknown;
  startNodeAt(pos: number, loc: unknown): unknown;
}

function countNode(parser: ParserInternals): void {
  if (++nodesMade <= nodesAllowed) return;
  const loc = parser.startLoc;
  throw new ModelFileTooComplex(`${nodesFile} has more than ${nodesAllowed.toLocaleString('en-US')} values`, loc?.line ?? 1, (loc?.column ?? 0) + 1);
}

const CountingParser = Parser.extend((Base) => {
  const Internal = Base as unknown as new (...args: unknown[]) => ParserInternals;
  class Counting extends Internal {
    override startNode(): unknown {
      countNode(this);
      return super.startNode();
    }
    override startNodeAt(pos: number, loc: unknown): unknown {
      countNode(this);
      return super.startNodeAt(pos, loc);
    }
  }
  return Counting as unknown as typeof Parser;
});

/** The message acorn raises when the nesting is deeper than the stack (it catches the RangeError itself). */
const STACK_EXHAUSTED = /Not enough stack space/;

function parseWith(content: string, sourceType: 'module' | 'script', path: string): ESTree.Program {
  nodesMade = 0;
  nodesAllowed = MODEL_LIMITS.fileNodes;
  nodesFile = path;
  try {
    return CountingParser.parse(content, { ecmaVersion: 'latest', locations: true, allowHashBang: true, sourceType });
  } catch (error) {
    if (error instanceof SyntaxError && STACK_EXHAUSTED.test(error.message)) {
      const loc = (error as { loc?: { line: number; column: number } }).loc;
      throw new ModelFileTooComplex(`${path} nests its values too deeply to be read`, loc?.line ?? 1, (loc?.column ?? 0) + 1);
    }
    throw error;
  }
}

function parseJs(content: string, path: string): ESTree.Program {
  try {
    return parseWith(content, 'module', path);
  } catch (moduleError) {
    if (moduleError instanceof ModelFileTooComplex) throw moduleError;
    try {
      return parseWith(content, 'script', path);
    } catch (scriptError) {
      if (scriptError instanceof ModelFileTooComplex) throw scriptError;
      throw moduleError;
    }
  }
}

/** A string built from constants, refused past MODEL_LIMITS.jsStringChars (templates of templates double at each step). */
function boundedString(value: string, node: ESTree.Node, path: string): string {
  if (value.length <= MODEL_LIMITS.jsStringChars) return value;
  const pos = posOfNode(node);
  throw new ModelFileTooComplex(
    `${path} builds a string of more than ${MODEL_LIMITS.jsStringChars.toLocaleString('en-US')} characters from its constants`,
    pos.line,
    pos.column,
  );
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
function staticValue(node: ESTree.Node, constants: Map<string, StaticValue>, path: string): StaticValue | undefined {
  switch (node.type) {
    case 'Literal': {
      const v = (node as ESTree.Literal).value;
      return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
    }
    case 'TemplateLiteral': {
      const t = node as ESTree.TemplateLiteral;
      let out = t.quasis[0]?.value.cooked ?? '';
      for (let i = 0; i < t.expressions.length; i++) {
        const v = staticValue(t.expressions[i]!, constants, path);
        if (v === undefined) return undefined;
        out = boundedString(out + String(v) + (t.quasis[i + 1]?.value.cooked ?? ''), node, path);
      }
      return out;
    }
    case 'Identifier':
      return constants.get((node as ESTree.Identifier).name);
    case 'UnaryExpression': {
      const u = node as ESTree.UnaryExpression;
      const v = staticValue(u.argument, constants, path);
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
    private readonly path: string,
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
        const constant = staticValue(node, this.constants, this.path);
        if (constant !== undefined) return { kind: 'scalar', value: constant, ...pos };
        // A bare reference such as `extends: orders` or `drill_members: [id, users.city]`.
        const path = memberPath(node);
        return path ? { kind: 'scalar', value: path.join('.'), ...pos } : this.opaque(node);
      }
      default: {
        const v = staticValue(node, this.constants, this.path);
        return v === undefined ? this.opaque(node) : { kind: 'scalar', value: v, ...pos };
      }
    }
  }

  /** `${CUBE}.a`, `${orders.count}` are Cube references, written `{...}` in the raw tree like in YAML. */
  private template(node: ESTree.TemplateLiteral): RawNode {
    let out = node.quasis[0]?.value.cooked ?? '';
    for (let i = 0; i < node.expressions.length; i++) {
      const expr = node.expressions[i]!;
      const constant = staticValue(expr, this.constants, this.path);
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
      out = boundedString(out + piece + (node.quasis[i + 1]?.value.cooked ?? ''), node, this.path);
    }
    return { kind: 'scalar', value: out, ...posOfNode(node) };
  }
}
