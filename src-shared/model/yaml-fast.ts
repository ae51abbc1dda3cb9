// Fast reader for the YAML subset model files are written in (block maps and sequences, identifier keys,
// single-line plain/quoted scalars, `|`/`>` block scalars, comments). It exists for speed only: the `yaml`
// library takes most of a full compile on large projects. It never reports errors: anything outside the subset
// (flow collections, anchors, tags, multi-line plain scalars, odd indentation, duplicate keys, CRLF, tabs, ...)
// returns `undefined` and the caller parses the file with `yaml`, which stays the reference. For accepted input
// it builds exactly the raw tree (values and positions) the `yaml`-based path builds; a property test checks it.

import type { NodeBudget } from './limits';
import type { RawEntry, RawMap, RawNode, RawScalar, RawSeq } from './types';

/** Thrown internally to abandon the fast path. */
const BAIL = Symbol('bail');

/**
 * The lines of the text being read, four numbers a line: offset of its start, offset of its end
 * (the `\n` or end of text), indentation, and 1 when it is blank (empty, whitespace only, or a
 * comment after the indentation). One buffer reused by every reader (reading is synchronous and
 * never nested): an object a line was a twentieth of what a 10,000-cube compile allocates (issue 28).
 */
let lineData = new Int32Array(4 * 1024);
const START = 0;
const END = 1;
const INDENT = 2;
const BLANK = 3;

/**
 * Entries of the maps and items of the lists being read, nested ones above their parent's: each
 * map or list takes an array of its exact length when it ends. A list grown by push from empty
 * holds room for 17 (issue 28: one such array per map and list of every file). Emptied after each text.
 */
const pendingEntries: RawEntry[] = [];
const pendingItems: RawNode[] = [];
/** What a map or list holds until it ends; never filled. */
const UNFILLED: never[] = [];

function isKeyChar(c: number, first: boolean): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (!first && c >= 48 && c <= 57);
}
const NOT_STRING_KEY = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE|[Nn]ull|NULL)$/;

/** A key YAML reads as a boolean or null; the regular expression only for a word that may be one (a test allocates: issue 28). */
function isBooleanOrNullWord(key: string): boolean {
  const c = key.charCodeAt(0) | 32; // lower case
  return (c === 116 /* t */ || c === 102 /* f */ || c === 110) /* n */ && NOT_STRING_KEY.test(key);
}

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
  } finally {
    pendingEntries.length = 0;
    pendingItems.length = 0;
  }
}

class FastReader {
  private readonly lines: Int32Array;
  /** How many lines the text has. */
  private readonly count: number;
  /**
   * The line after the block node just read (node, seq, map, blockScalar): a field, not a pair
   * returned with the node, which was an array per map of every file (issue 28).
   */
  private after = 0;
  /** The offset after the quoted scalar just read (singleQuoted, doubleQuoted), for the same reason. */
  private quoteEnd = 0;

  constructor(
    private readonly text: string,
    private readonly budget?: NodeBudget,
  ) {
    let start = 0;
    let count = 0;
    const n = text.length;
    while (start <= n) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = n;
      let indent = 0;
      while (start + indent < end && text.charCodeAt(start + indent) === 32) indent++;
      const first = start + indent < end ? text.charCodeAt(start + indent) : -1;
      if (4 * count + 4 > lineData.length) {
        const grown = new Int32Array(lineData.length * 2);
        grown.set(lineData);
        lineData = grown;
      }
      const at = 4 * count++;
      lineData[at + START] = start;
      lineData[at + END] = end;
      lineData[at + INDENT] = indent;
      lineData[at + BLANK] = first === -1 || first === 35 /* # */ ? 1 : 0;
      if (end === n) break;
      start = end + 1;
    }
    this.lines = lineData;
    this.count = count;
  }

  private start(i: number): number {
    return this.lines[4 * i + START]!;
  }

  private end(i: number): number {
    return this.lines[4 * i + END]!;
  }

  private indent(i: number): number {
    return this.lines[4 * i + INDENT]!;
  }

  /** `node`, counted against the budget. */
  private counted<T extends RawNode>(node: T): T {
    this.budget?.take(node.line, node.column);
    return node;
  }

  private nextContent(i: number): number {
    while (i < this.count && this.lines[4 * i + BLANK] === 1) i++;
    return i;
  }

  /** 1-based column of `offset`, which is on line `line`. */
  private column(line: number, offset: number): number {
    return offset - this.start(line) + 1;
  }

  document(): RawNode | null {
    const first = this.nextContent(0);
    if (first >= this.count) return null;
    const head = this.text.slice(this.start(first) + this.indent(first), this.start(first) + this.indent(first) + 3);
    if (head === '---' || head === '...' || head[0] === '%') throw BAIL;
    const node = this.node(first, this.indent(first));
    if (this.nextContent(this.after) < this.count) throw BAIL;
    return node;
  }

  /** A block node whose first line is `i`, starting at column `col` of that line; `after` is the line that follows it. */
  private node(i: number, col: number): RawNode {
    const c = this.text.charCodeAt(this.start(i) + col);
    const c1 = this.text.charCodeAt(this.start(i) + col + 1);
    if (c === 45 /* - */ && (c1 === 32 || this.start(i) + col + 1 === this.end(i))) return this.seq(i, col);
    return this.map(i, col);
  }

  private seq(i: number, col: number): RawSeq {
    const seq: RawSeq = this.counted({ kind: 'seq', items: UNFILLED, line: i + 1, column: col + 1 });
    const from = pendingItems.length;
    let first = true;
    for (;;) {
      if (!first && this.indent(i) !== col) break;
      const at = this.start(i) + col;
      if (this.text.charCodeAt(at) !== 45 || this.text.charCodeAt(at + 1) !== 32) {
        if (first) throw BAIL;
        break; // a key of the parent map at the same indentation
      }
      first = false;
      let content = at + 2;
      while (content < this.end(i) && this.text.charCodeAt(content) === 32) content++;
      if (content >= this.end(i) || this.text.charCodeAt(content) === 35) throw BAIL; // `-` alone: nested block below
      const itemCol = content - this.start(i);
      const ch = this.text.charCodeAt(content);
      if (ch === 45 && this.text.charCodeAt(content + 1) === 32) throw BAIL; // `- - x`
      let next: number;
      if (this.keyEnd(content, this.end(i)) >= 0) {
        pendingItems.push(this.map(i, itemCol));
        next = this.after;
      } else {
        pendingItems.push(this.inlineScalar(i, content));
        next = i + 1;
      }
      i = this.nextContent(next);
      if (i >= this.count) break;
      const indent = this.indent(i);
      if (indent > col) throw BAIL;
      if (indent < col) break;
    }
    seq.items = pendingItems.slice(from);
    pendingItems.length = from;
    this.after = i;
    return seq;
  }

  private map(i: number, col: number): RawMap {
    const map: RawMap = this.counted({ kind: 'map', entries: UNFILLED, line: i + 1, column: col + 1 });
    const from = pendingEntries.length;
    let first = true;
    for (;;) {
      if (!first && this.indent(i) !== col) break;
      const at = this.start(i) + col;
      const keyEnd = this.keyEnd(at, this.end(i));
      if (keyEnd < 0) {
        if (!first && this.text.charCodeAt(at) === 45) break; // a sequence item at the parent's indentation
        throw BAIL;
      }
      first = false;
      const key = sharedSlice(this.text, at, keyEnd);
      if (isBooleanOrNullWord(key)) throw BAIL;
      for (let e = from; e < pendingEntries.length; e++) if (pendingEntries[e]!.key === key) throw BAIL; // duplicate: let `yaml` report it
      const colon = keyEnd;
      let v = colon + 1;
      while (v < this.end(i) && this.text.charCodeAt(v) === 32) v++;
      let value: RawNode;
      let next: number;
      if (v >= this.end(i) || this.text.charCodeAt(v) === 35) {
        // Nothing on the line: a nested block follows, or the value is null.
        const j = this.nextContent(i + 1);
        const nested = j < this.count;
        const nestedAt = nested ? this.start(j) + this.indent(j) : -1;
        const isSeqItem = nested && this.text.charCodeAt(nestedAt) === 45 && this.text.charCodeAt(nestedAt + 1) === 32;
        if (nested && (this.indent(j) > col || (this.indent(j) === col && isSeqItem))) {
          value = this.node(j, this.indent(j));
          next = this.after;
        } else {
          // `yaml` places an empty value after the spaces that follow the colon (at a trailing comment if any).
          value = this.counted({ kind: 'scalar', value: null, line: i + 1, column: v - this.start(i) + 1 });
          next = i + 1;
        }
      } else {
        const ch = this.text.charCodeAt(v);
        if (ch === 124 || ch === 62 /* | > */) {
          value = this.blockScalar(i, v, col);
          next = this.after;
        } else if (ch === 91 /* [ */) {
          value = this.flowSequence(i, v);
          next = i + 1;
        } else {
          value = this.inlineScalar(i, v);
          next = i + 1;
        }
      }
      pendingEntries.push({ key, line: i + 1, column: this.column(i, at), value });
      i = this.nextContent(next);
      if (i >= this.count) break;
      const indent = this.indent(i);
      if (indent > col) throw BAIL;
      if (indent < col) break;
    }
    map.entries = pendingEntries.slice(from);
    pendingEntries.length = from;
    this.after = i;
    return map;
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
    const ch = this.text.charCodeAt(at);
    if (ch === 34 || ch === 39) {
      const value = ch === 34 ? this.doubleQuoted(at, this.end(i)) : this.singleQuoted(at, this.end(i));
      this.expectLineEnd(this.quoteEnd, this.end(i));
      this.noContinuation(i);
      return this.counted({ kind: 'scalar', value, line: i + 1, column: this.column(i, at) });
    }
    // Indicators that start something other than a plain scalar (or need care we do not take).
    if (ch < 128 && PLAIN_INDICATOR[ch] === 1) {
      const after = this.text.charCodeAt(at + 1);
      if (!(ch === 45 && ((after >= 48 && after <= 57) || after === 46))) throw BAIL;
    }
    // One pass to the line's end: where a comment starts (` #`), and whether `: ` comes before it,
    // which a plain scalar cannot hold.
    const lineEnd = this.end(i);
    let end = lineEnd;
    let colonSpace = false;
    for (let k = at + 1, previous = ch; k < lineEnd; k++) {
      const c = this.text.charCodeAt(k);
      if (c === 32 /* space */) {
        if (previous === 58 /* : */) colonSpace = true;
      } else if (c === 35 /* # */ && previous === 32) {
        end = k - 1;
        break;
      }
      previous = c;
    }
    while (end > at && this.text.charCodeAt(end - 1) === 32) end--;
    if (colonSpace || this.text.charCodeAt(end - 1) === 58) throw BAIL;
    const raw = sharedSlice(this.text, at, end);
    this.noContinuation(i);
    return this.counted({ kind: 'scalar', value: resolvePlain(raw), line: i + 1, column: this.column(i, at) });
  }

  /** `[a, "b", 'c']` on one line: scalars only. */
  private flowSequence(i: number, at: number): RawSeq {
    const seq: RawSeq = this.counted({ kind: 'seq', items: [], line: i + 1, column: at - this.start(i) + 1 });
    let k = at + 1;
    const skipSpaces = () => {
      while (k < this.end(i) && this.text.charCodeAt(k) === 32) k++;
    };
    skipSpaces();
    if (this.text.charCodeAt(k) === 93 /* ] */) {
      this.expectLineEnd(k + 1, this.end(i));
      this.noContinuation(i);
      return seq;
    }
    for (;;) {
      skipSpaces();
      const ch = this.text.charCodeAt(k);
      const column = this.column(i, k);
      if (ch === 34 || ch === 39) {
        const value = ch === 34 ? this.doubleQuoted(k, this.end(i)) : this.singleQuoted(k, this.end(i));
        seq.items.push(this.counted({ kind: 'scalar', value, line: i + 1, column }));
        k = this.quoteEnd;
      } else {
        let end = k;
        while (end < this.end(i) && !',[]{}#'.includes(this.text[end]!)) end++;
        const raw = this.text.slice(k, end).replace(/ +$/, '');
        if (!raw || '&*!|>%@`?:-'.includes(raw[0]!) || raw.includes(': ') || raw.endsWith(':')) throw BAIL;
        seq.items.push(this.counted({ kind: 'scalar', value: resolvePlain(raw), line: i + 1, column }));
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
      this.expectLineEnd(k + 1, this.end(i));
      this.noContinuation(i);
      return seq;
    }
  }

  /** A more-indented line right after a scalar would continue it (multi-line scalar): not in the subset. */
  private noContinuation(i: number): void {
    const j = this.nextContent(i + 1);
    if (j < this.count && this.indent(j) > this.indent(i)) {
      // Whether this is a continuation depends on the parent's indentation; only the caller knows, so be safe.
      const at = this.start(j) + this.indent(j);
      const seqItem = this.text.charCodeAt(at) === 45 && this.text.charCodeAt(at + 1) === 32;
      if (this.keyEnd(at, this.end(j)) < 0 && !seqItem) throw BAIL;
    }
  }

  private expectLineEnd(from: number, end: number): void {
    let k = from;
    while (k < end && this.text.charCodeAt(k) === 32) k++;
    if (k < end && !(this.text.charCodeAt(k) === 35 && k > from)) throw BAIL;
  }

  /** A single-quoted scalar; `quoteEnd` is the offset after it. */
  private singleQuoted(at: number, end: number): string {
    let out = '';
    let k = at + 1;
    for (;;) {
      const q = this.text.indexOf("'", k);
      if (q < 0 || q >= end) throw BAIL;
      if (out === '' && this.text.charCodeAt(q + 1) !== 39) return this.quoted(sharedSlice(this.text, k, q), q + 1); // no escape: the common case
      out += this.text.slice(k, q);
      if (this.text.charCodeAt(q + 1) === 39) {
        out += "'";
        k = q + 2;
        continue;
      }
      return this.quoted(out, q + 1);
    }
  }

  /** `value`, a quoted scalar that ends before `end`. */
  private quoted(value: string, end: number): string {
    this.quoteEnd = end;
    return value;
  }

  /**
   * A double-quoted scalar, taken in runs between escapes: a string built a character at a time is
   * a chain of one V8 cons string per character, kept as long as the value is (issue 28: at 10,000
   * cubes the descriptions alone held hundreds of MB that way).
   */
  private doubleQuoted(at: number, end: number): string {
    let out = '';
    let k = at + 1;
    while (k < end) {
      let run = k;
      for (let c = this.text.charCodeAt(run); run < end && c !== 34 /* " */ && c !== 92 /* backslash */; c = this.text.charCodeAt(++run));
      if (run < end && out === '' && this.text.charCodeAt(run) === 34) return this.quoted(sharedSlice(this.text, k, run), run + 1); // no escape: the common case
      if (run > k) out = out === '' ? this.text.slice(k, run) : out + this.text.slice(k, run);
      k = run;
      if (k >= end) break;
      if (this.text.charCodeAt(k) === 34) return this.quoted(out, k + 1);
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
  private blockScalar(i: number, at: number, parentCol: number): RawScalar {
    const header = this.text.slice(at, this.end(i)).replace(/ +$/, '');
    if (header !== '|' && header !== '>' && header !== '|-' && header !== '>-') throw BAIL;
    const folded = header[0] === '>';
    const strip = header.length === 2;
    let j = i + 1;
    let base = -1;
    const parts: string[] = [];
    for (; j < this.count; j++) {
      const whitespaceOnly = this.start(j) + this.indent(j) === this.end(j);
      if (whitespaceOnly) {
        if (base >= 0 && this.end(j) - this.start(j) > base) throw BAIL; // spaces beyond the indentation are content
        if (base < 0 && this.end(j) - this.start(j) > parentCol + 1) throw BAIL;
        parts.push('');
        continue;
      }
      if (base < 0) {
        if (this.indent(j) <= parentCol) break;
        base = this.indent(j);
      }
      if (this.indent(j) < base) break;
      if (folded && this.indent(j) > base) throw BAIL;
      parts.push(this.text.slice(this.start(j) + base, this.end(j)));
    }
    if (base < 0) throw BAIL; // empty block scalar
    // Without a final line break the last line keeps none either; leave that corner to `yaml`.
    if (j >= this.count && !this.text.endsWith('\n')) throw BAIL;
    // Trailing empty lines are not content (clip/strip chomping); they belong to the scalar's extent.
    let last = parts.length;
    while (last > 0 && parts[last - 1] === '') last--;
    const content = parts.slice(0, last);
    if (folded && content.includes('')) throw BAIL;
    let value = content.join(folded ? ' ' : '\n');
    if (!strip) value += '\n';
    this.after = j;
    return this.counted({ kind: 'scalar', value, line: i + 1, column: at - this.start(i) + 1 });
  }
}

/** Characters that cannot start a plain scalar this reader takes (`-` only before a digit or `.`). */
const PLAIN_INDICATOR = new Uint8Array(128);
for (const c of '[]{}&*!|>%@`#,?:-') PLAIN_INDICATOR[c.charCodeAt(0)] = 1;

/** Slots of the table of short strings (see `sharedSlice`): a power of two. */
const SHORT_SLOTS = 1 << 16;
const shortStrings: (string | undefined)[] = new Array<string | undefined>(SHORT_SLOTS).fill(undefined);

/**
 * `text.slice(start, end)`, one string for every equal short piece (keys and values such as `name`,
 * `number`, `dim_2`, `{CUBE}.col_2`): V8 copies a piece of text under 13 characters into a string of
 * its own, and a model keeps its keys and values, so at 10,000 cubes each member's keys, name, type
 * and SQL were a copy of their own (issue 28). A piece seen before is found by a hash of its
 * characters, without slicing it again: keys and short values allocate nothing once seen. One string
 * a slot, the last one seen (a collision replaces it), so the table stays small. Longer pieces are
 * slices of the file's text, which the compiler keeps anyway.
 */
function sharedSlice(text: string, start: number, end: number): string {
  const length = end - start;
  if (length > 12) return text.slice(start, end);
  let hash = length;
  for (let k = start; k < end; k++) hash = (Math.imul(hash, 31) + text.charCodeAt(k)) | 0;
  const slot = (hash ^ (hash >>> 16)) & (SHORT_SLOTS - 1);
  const kept = shortStrings[slot];
  if (kept !== undefined && kept.length === length && text.startsWith(kept, start)) return kept;
  const piece = text.slice(start, end);
  shortStrings[slot] = piece;
  return piece;
}

/** The one-character escapes of a double-quoted scalar (the subset this reader takes). */
const SIMPLE_ESCAPES: Readonly<Record<string, string | undefined>> = { __proto__: null, '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' } as never;

/** YAML 1.2 core schema resolution of a plain scalar, as the `yaml` library does it. */
export function resolvePlain(s: string): string | number | boolean | null {
  if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (s === 'true' || s === 'True' || s === 'TRUE') return true;
  if (s === 'false' || s === 'False' || s === 'FALSE') return false;
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
