// Fast reader for the YAML subset model files are written in (block maps and sequences, identifier keys,
// single-line plain/quoted scalars, `|`/`>` block scalars, comments). It exists for speed only: the `yaml`
// library takes most of a full compile on large projects. It never reports errors: anything outside the subset
// (flow collections, anchors, tags, multi-line plain scalars, odd indentation, duplicate keys, CRLF, tabs, ...)
// returns `undefined` and the caller parses the file with `yaml`, which stays the reference. For accepted input
// it builds exactly the raw tree (values and positions) the `yaml`-based path builds; a property test checks it.

import type { NodeBudget } from './limits';
import type { RawMap, RawNode, RawScalar, RawSeq } from './types';

/** Thrown internally to abandon the fast path. */
const BAIL = Symbol('bail');

interface Line {
  start: number;
  /** Offset of the end of the line (the `\n` or end of text). */
  end: number;
  indent: number;
  /** Empty, whitespace only, or a comment after the indentation. */
  blank: boolean;
}

function isKeyChar(c: number, first: boolean): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (!first && c >= 48 && c <= 57);
}
const NOT_STRING_KEY = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE|[Nn]ull|NULL)$/;

/**
 * Parsed raw tree, null for an empty document, undefined when the text is outside the subset.
 * Every node built is counted against `budget` (the limit the `yaml`-based path keeps too).
 */
export function fastParseYaml(text: string, budget?: NodeBudget): RawNode | null | undefined {
  if (text.includes('\t') || text.includes('\r') || text.charCodeAt(0) === 0xfeff) return undefined;
  try {
    return new FastReader(text, budget).document();
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

class FastReader {
  private readonly lines: Line[] = [];

  constructor(
    private readonly text: string,
    private readonly budget?: NodeBudget,
  ) {
    let start = 0;
    const n = text.length;
    while (start <= n) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = n;
      let indent = 0;
      while (start + indent < end && text.charCodeAt(start + indent) === 32) indent++;
      const first = start + indent < end ? text.charCodeAt(start + indent) : -1;
      this.lines.push({ start, end, indent, blank: first === -1 || first === 35 /* # */ });
      if (end === n) break;
      start = end + 1;
    }
  }

  /** `node`, counted against the budget. */
  private counted<T extends RawNode>(node: T): T {
    this.budget?.take(node.line, node.column);
    return node;
  }

  private nextContent(i: number): number {
    while (i < this.lines.length && this.lines[i]!.blank) i++;
    return i;
  }

  private pos(line: number, offset: number) {
    return { line: line + 1, column: offset - this.lines[line]!.start + 1 };
  }

  document(): RawNode | null {
    const first = this.nextContent(0);
    if (first >= this.lines.length) return null;
    const line = this.lines[first]!;
    const head = this.text.slice(line.start + line.indent, line.start + line.indent + 3);
    if (head === '---' || head === '...' || head[0] === '%') throw BAIL;
    const [node, next] = this.node(first, line.indent);
    if (this.nextContent(next) < this.lines.length) throw BAIL;
    return node;
  }

  /** A block node whose first line is `i`, starting at column `col` of that line. */
  private node(i: number, col: number): [RawNode, number] {
    const line = this.lines[i]!;
    const c = this.text.charCodeAt(line.start + col);
    const c1 = this.text.charCodeAt(line.start + col + 1);
    if (c === 45 /* - */ && (c1 === 32 || line.start + col + 1 === line.end)) return this.seq(i, col);
    return this.map(i, col);
  }

  private seq(i: number, col: number): [RawSeq, number] {
    const seq: RawSeq = this.counted({ kind: 'seq', items: [], line: i + 1, column: col + 1 });
    let first = true;
    for (;;) {
      const line = this.lines[i]!;
      if (!first && line.indent !== col) break;
      const at = line.start + col;
      if (this.text.charCodeAt(at) !== 45 || this.text.charCodeAt(at + 1) !== 32) {
        if (first) throw BAIL;
        break; // a key of the parent map at the same indentation
      }
      first = false;
      let content = at + 2;
      while (content < line.end && this.text.charCodeAt(content) === 32) content++;
      if (content >= line.end || this.text.charCodeAt(content) === 35) throw BAIL; // `-` alone: nested block below
      const itemCol = content - line.start;
      const ch = this.text.charCodeAt(content);
      if (ch === 45 && this.text.charCodeAt(content + 1) === 32) throw BAIL; // `- - x`
      let next: number;
      if (this.keyEnd(content, line.end) >= 0) {
        const [map, after] = this.map(i, itemCol);
        seq.items.push(map);
        next = after;
      } else {
        seq.items.push(this.inlineScalar(i, content));
        next = i + 1;
      }
      i = this.nextContent(next);
      if (i >= this.lines.length) break;
      const indent = this.lines[i]!.indent;
      if (indent > col) throw BAIL;
      if (indent < col) break;
    }
    return [seq, i];
  }

  private map(i: number, col: number): [RawMap, number] {
    const map: RawMap = this.counted({ kind: 'map', entries: [], line: i + 1, column: col + 1 });
    let first = true;
    for (;;) {
      const line = this.lines[i]!;
      if (!first && line.indent !== col) break;
      const at = line.start + col;
      const keyEnd = this.keyEnd(at, line.end);
      if (keyEnd < 0) {
        if (!first && this.text.charCodeAt(at) === 45) break; // a sequence item at the parent's indentation
        throw BAIL;
      }
      first = false;
      const key = this.text.slice(at, keyEnd);
      if (NOT_STRING_KEY.test(key)) throw BAIL;
      for (const e of map.entries) if (e.key === key) throw BAIL; // duplicate: let `yaml` report it
      const keyPos = this.pos(i, at);
      const colon = at + key.length;
      let v = colon + 1;
      while (v < line.end && this.text.charCodeAt(v) === 32) v++;
      let value: RawNode;
      let next: number;
      if (v >= line.end || this.text.charCodeAt(v) === 35) {
        // Nothing on the line: a nested block follows, or the value is null.
        const j = this.nextContent(i + 1);
        const nested = j < this.lines.length ? this.lines[j]! : null;
        const isSeqItem = nested && this.text.charCodeAt(nested.start + nested.indent) === 45 && this.text.charCodeAt(nested.start + nested.indent + 1) === 32;
        if (nested && (nested.indent > col || (nested.indent === col && isSeqItem))) {
          [value, next] = this.node(j, nested.indent);
        } else {
          // `yaml` places an empty value after the spaces that follow the colon (at a trailing comment if any).
          value = this.counted({ kind: 'scalar', value: null, line: i + 1, column: v - this.lines[i]!.start + 1 });
          next = i + 1;
        }
      } else {
        const ch = this.text.charCodeAt(v);
        if (ch === 124 || ch === 62 /* | > */) [value, next] = this.blockScalar(i, v, col);
        else if (ch === 91 /* [ */) {
          value = this.flowSequence(i, v);
          next = i + 1;
        } else {
          value = this.inlineScalar(i, v);
          next = i + 1;
        }
      }
      map.entries.push({ key, line: keyPos.line, column: keyPos.column, value });
      i = this.nextContent(next);
      if (i >= this.lines.length) break;
      const indent = this.lines[i]!.indent;
      if (indent > col) throw BAIL;
      if (indent < col) break;
    }
    return [map, i];
  }

  /** End of an identifier key followed by `:` and a space or the line end, else -1. */
  private keyEnd(at: number, end: number): number {
    let k = at;
    while (k < end && isKeyChar(this.text.charCodeAt(k), k === at)) k++;
    if (k === at || k - at > 200 || this.text.charCodeAt(k) !== 58 /* : */) return -1;
    return k + 1 === end || this.text.charCodeAt(k + 1) === 32 ? k : -1;
  }

  /** A scalar that ends on its line: plain, single-quoted or double-quoted. */
  private inlineScalar(i: number, at: number): RawScalar {
    const line = this.lines[i]!;
    const pos = this.pos(i, at);
    const ch = this.text.charCodeAt(at);
    if (ch === 34 || ch === 39) {
      const [value, end] = ch === 34 ? this.doubleQuoted(at, line.end) : this.singleQuoted(at, line.end);
      this.expectLineEnd(end, line.end);
      this.noContinuation(i);
      return this.counted({ kind: 'scalar', value, line: pos.line, column: pos.column });
    }
    // Indicators that start something other than a plain scalar (or need care we do not take).
    if ('[]{}&*!|>%@`#,?:-'.includes(this.text[at]!)) {
      if (!(ch === 45 && /[0-9.]/.test(this.text[at + 1] ?? ''))) throw BAIL;
    }
    let end = line.end;
    for (let k = at + 1; k < line.end; k++) {
      if (this.text.charCodeAt(k) === 35 && this.text.charCodeAt(k - 1) === 32) {
        end = k - 1;
        break;
      }
    }
    while (end > at && this.text.charCodeAt(end - 1) === 32) end--;
    const raw = this.text.slice(at, end);
    if (raw.includes(': ') || raw.endsWith(':') || raw.includes(' #')) throw BAIL;
    this.noContinuation(i);
    return this.counted({ kind: 'scalar', value: resolvePlain(raw), line: pos.line, column: pos.column });
  }

  /** `[a, "b", 'c']` on one line: scalars only. */
  private flowSequence(i: number, at: number): RawSeq {
    const line = this.lines[i]!;
    const seq: RawSeq = this.counted({ kind: 'seq', items: [], line: i + 1, column: at - this.lines[i]!.start + 1 });
    let k = at + 1;
    const skipSpaces = () => {
      while (k < line.end && this.text.charCodeAt(k) === 32) k++;
    };
    skipSpaces();
    if (this.text.charCodeAt(k) === 93 /* ] */) {
      this.expectLineEnd(k + 1, line.end);
      this.noContinuation(i);
      return seq;
    }
    for (;;) {
      skipSpaces();
      const ch = this.text.charCodeAt(k);
      const pos = this.pos(i, k);
      if (ch === 34 || ch === 39) {
        const [value, end] = ch === 34 ? this.doubleQuoted(k, line.end) : this.singleQuoted(k, line.end);
        seq.items.push(this.counted({ kind: 'scalar', value, line: pos.line, column: pos.column }));
        k = end;
      } else {
        let end = k;
        while (end < line.end && !',[]{}#'.includes(this.text[end]!)) end++;
        const raw = this.text.slice(k, end).replace(/ +$/, '');
        if (!raw || '&*!|>%@`?:-'.includes(raw[0]!) || raw.includes(': ') || raw.endsWith(':')) throw BAIL;
        seq.items.push(this.counted({ kind: 'scalar', value: resolvePlain(raw), line: pos.line, column: pos.column }));
        k = end;
      }
      skipSpaces();
      const sep = this.text.charCodeAt(k);
      if (sep === 44 /* , */) {
        k++;
        skipSpaces();
        if (this.text.charCodeAt(k) === 93) throw BAIL; // trailing comma
        continue;
      }
      if (sep !== 93) throw BAIL;
      this.expectLineEnd(k + 1, line.end);
      this.noContinuation(i);
      return seq;
    }
  }

  /** A more-indented line right after a scalar would continue it (multi-line scalar): not in the subset. */
  private noContinuation(i: number): void {
    const j = this.nextContent(i + 1);
    if (j < this.lines.length && this.lines[j]!.indent > this.lines[i]!.indent) {
      // Whether this is a continuation depends on the parent's indentation; only the caller knows, so be safe.
      const next = this.lines[j]!;
      const at = next.start + next.indent;
      const seqItem = this.text.charCodeAt(at) === 45 && this.text.charCodeAt(at + 1) === 32;
      if (this.keyEnd(at, next.end) < 0 && !seqItem) throw BAIL;
    }
  }

  private expectLineEnd(from: number, end: number): void {
    let k = from;
    while (k < end && this.text.charCodeAt(k) === 32) k++;
    if (k < end && !(this.text.charCodeAt(k) === 35 && k > from)) throw BAIL;
  }

  private singleQuoted(at: number, end: number): [string, number] {
    let out = '';
    let k = at + 1;
    for (;;) {
      const q = this.text.indexOf("'", k);
      if (q < 0 || q >= end) throw BAIL;
      out += this.text.slice(k, q);
      if (this.text.charCodeAt(q + 1) === 39) {
        out += "'";
        k = q + 2;
        continue;
      }
      return [out, q + 1];
    }
  }

  /**
   * A double-quoted scalar, taken in runs between escapes: a string built a character at a time is
   * a chain of one V8 cons string per character, kept as long as the value is (issue 28: at 10,000
   * cubes the descriptions alone held hundreds of MB that way).
   */
  private doubleQuoted(at: number, end: number): [string, number] {
    let out = '';
    let k = at + 1;
    while (k < end) {
      let run = k;
      for (let c = this.text.charCodeAt(run); run < end && c !== 34 /* " */ && c !== 92 /* backslash */; c = this.text.charCodeAt(++run));
      if (run > k) out = out === '' ? this.text.slice(k, run) : out + this.text.slice(k, run);
      k = run;
      if (k >= end) break;
      if (this.text.charCodeAt(k) === 34) return [out, k + 1];
      const e = this.text[k + 1];
      const simple = e === undefined ? undefined : SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        k += 2;
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(k + 2, k + 6))) {
        out += String.fromCharCode(parseInt(this.text.slice(k + 2, k + 6), 16));
        k += 6;
      } else throw BAIL;
    }
    throw BAIL;
  }

  /** `|`, `|-`, `>`, `>-` block scalars with plain indentation (anything fancier goes to `yaml`). */
  private blockScalar(i: number, at: number, parentCol: number): [RawScalar, number] {
    const line = this.lines[i]!;
    const header = this.text.slice(at, line.end).replace(/ +$/, '');
    if (header !== '|' && header !== '>' && header !== '|-' && header !== '>-') throw BAIL;
    const folded = header[0] === '>';
    const strip = header.length === 2;
    let j = i + 1;
    let base = -1;
    const parts: string[] = [];
    for (; j < this.lines.length; j++) {
      const l = this.lines[j]!;
      const whitespaceOnly = l.start + l.indent === l.end;
      if (whitespaceOnly) {
        if (base >= 0 && l.end - l.start > base) throw BAIL; // spaces beyond the indentation are content
        if (base < 0 && l.end - l.start > parentCol + 1) throw BAIL;
        parts.push('');
        continue;
      }
      if (base < 0) {
        if (l.indent <= parentCol) break;
        base = l.indent;
      }
      if (l.indent < base) break;
      if (folded && l.indent > base) throw BAIL;
      parts.push(this.text.slice(l.start + base, l.end));
    }
    if (base < 0) throw BAIL; // empty block scalar
    // Without a final line break the last line keeps none either; leave that corner to `yaml`.
    if (j >= this.lines.length && !this.text.endsWith('\n')) throw BAIL;
    // Trailing empty lines are not content (clip/strip chomping); they belong to the scalar's extent.
    let last = parts.length;
    while (last > 0 && parts[last - 1] === '') last--;
    const content = parts.slice(0, last);
    if (folded && content.includes('')) throw BAIL;
    let value = content.join(folded ? ' ' : '\n');
    if (!strip) value += '\n';
    return [this.counted({ kind: 'scalar', value, line: i + 1, column: at - this.lines[i]!.start + 1 }), j];
  }
}

/** The one-character escapes of a double-quoted scalar (the subset this reader takes). */
const SIMPLE_ESCAPES: Readonly<Record<string, string | undefined>> = { __proto__: null, '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' } as never;

/** YAML 1.2 core schema resolution of a plain scalar, as the `yaml` library does it. */
export function resolvePlain(s: string): string | number | boolean | null {
  if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (/^(?:[Tt]rue|TRUE)$/.test(s)) return true;
  if (/^(?:[Ff]alse|FALSE)$/.test(s)) return false;
  const first = s.charCodeAt(0);
  // Everything else that resolves to a number starts with a digit, a sign or a dot.
  if (!((first >= 48 && first <= 57) || first === 43 || first === 45 || first === 46)) return s;
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.slice(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) {
    const n = parseInt(s.replace(/^[-+]/, ''), 10);
    return s[0] === '-' ? -1 * n : n;
  }
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.slice(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.endsWith('nan') || s.endsWith('NaN') || s.endsWith('NAN') ? NaN : s[0] === '-' ? -Infinity : Infinity;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s) || /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}
