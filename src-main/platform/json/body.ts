/**
 * How the service reads a JSON request body, as one pure function so it runs the same on the HTTP
 * thread (small bodies) and on a compute thread (large ones, e.g. 5 MB upload chunks, whose parse
 * would otherwise hold the HTTP thread for tens of milliseconds).
 *
 * The rules are Fastify's default JSON parser's with `onProtoPoisoning` and
 * `onConstructorPoisoning` set to `error` (secure-json-parse 4, BSD-3-Clause: a leading BOM is
 * dropped; a body with a `__proto__` key, or a `constructor` key holding an object with a
 * `prototype`, is refused, and where it is said), plus the service's own two: a blank body is no
 * body, and nesting deeper than {@link MAX_JSON_DEPTH} is refused before anything parses it.
 */
import { bufferView } from '../files/buffer-view';

/** Deepest nesting of arrays and objects accepted in a JSON body (dashboards and contexts need far less). */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `text` nests arrays/objects deeper than `limit`. A linear scan that skips string
 * contents, run before `JSON.parse` so no recursive code (parser, validator, handler) ever sees a
 * document deep enough to overflow the stack.
 */
export function exceedsJsonDepth(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

export type JsonBody =
  | { kind: 'blank' }
  | { kind: 'too-deep' }
  | { kind: 'invalid' }
  /** A key that could poison a prototype, at `pointer` (RFC 6901, from the document's root). */
  | { kind: 'poisoned'; pointer: string }
  | { kind: 'value'; value: unknown };

const suspectProto = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;
const suspectConstructor =
  /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;
const own = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);
const token = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** A node of the scan below, with how it was reached (its pointer is only built for the one found). */
interface Reached {
  node: object;
  parent: Reached | null;
  key: string;
}
const pointerOf = (at: Reached, last: string): string => {
  const tokens = [token(last)];
  for (let step: Reached | null = at; step?.parent; step = step.parent) tokens.push(token(step.key));
  return `/${tokens.reverse().join('/')}`;
};

/**
 * Where a parsed document carries a key that could poison a prototype (secure-json-parse's scan,
 * breadth first), as a JSON pointer, or null.
 */
function poisonedAt(root: object): string | null {
  let next: Reached[] = [{ node: root, parent: null, key: '' }];
  while (next.length > 0) {
    const nodes = next;
    next = [];
    for (const at of nodes) {
      const { node } = at;
      if (own(node, '__proto__')) return pointerOf(at, '__proto__');
      const ctor = (node as { constructor?: unknown }).constructor;
      if (own(node, 'constructor') && ctor !== null && typeof ctor === 'object' && own(ctor, 'prototype')) return pointerOf(at, 'constructor');
      for (const key in node) {
        const value = (node as Record<string, unknown>)[key];
        if (value && typeof value === 'object') next.push({ node: value, parent: at, key });
      }
    }
  }
  return null;
}

/** Reads a request body: text, or the raw bytes (decoded as UTF-8, invalid sequences replaced). */
export function parseJsonBody(body: string | Uint8Array): JsonBody {
  let text = typeof body === 'string' ? body : bufferView(body).toString('utf8');
  // `Content-Type: application/json` with no body (or only whitespace) is no body.
  if (text.trim() === '') return { kind: 'blank' };
  if (exceedsJsonDepth(text)) return { kind: 'too-deep' };
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid' };
  }
  if (value !== null && typeof value === 'object' && (suspectProto.test(text) || suspectConstructor.test(text))) {
    const pointer = poisonedAt(value);
    if (pointer !== null) return { kind: 'poisoned', pointer };
  }
  return { kind: 'value', value };
}
