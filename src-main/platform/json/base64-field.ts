/**
 * A JSON body with one large base64 field (an upload chunk: 5.6 MB of base64 for 4 MB of bytes),
 * read on a compute thread in one go: the body is parsed (platform/json/body.ts rules), the field
 * is decoded, and only the small rest of the document returns to the HTTP thread, with the decoded
 * bytes moved (not copied) beside it.
 *
 * Read on the HTTP thread, such a body cost it the parse, a copy of the string back from the
 * parsing thread, ajv's `maxLength` counting 5.6 M characters one by one, a second copy to the
 * thread that decoded it, and the garbage collection of megabyte strings (issue 10: event-loop
 * delay during a 20 MB upload).
 *
 * The answer a client gets is unchanged: the field stays in the document (as an empty string) so
 * the route's schema validates the document as before; a field that is not a string, or longer
 * than the schema's `maxLength`, is left as sent and the schema refuses it as before.
 */
import { movedWith } from '../workers/moved';
import { parseJsonBody, type JsonBody } from './body';

/**
 * Base64 as clients send it: the alphabet, padded to a multiple of 4. (A pattern of repeated
 * 4-character groups overflows the regex stack on a multi-megabyte chunk.)
 */
export const isBase64 = (text: string): boolean => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);

import type { DecodedBase64 } from './decoded-fields';

export type { DecodedBase64 } from './decoded-fields';

export interface Base64BodyInput {
  /** The request body as received. */
  body: Uint8Array;
  /** The top-level field to decode. */
  field: string;
  /** The schema's `maxLength` of the field (in code points, as ajv counts). */
  maxLength: number;
}

export interface Base64BodyResult {
  read: JsonBody;
  /** Present when the field was taken out of the document (it then reads as an empty string). */
  decoded?: DecodedBase64;
}

/** Unicode code points of `text` up to `limit` + 1 (ajv's `maxLength` counts code points). */
function codePointsAtMost(text: string, limit: number): boolean {
  if (text.length <= limit) return true;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count > limit) return false;
  }
  return true;
}

/** Reads the body and decodes `field`. */
export function readBase64Body(input: Base64BodyInput): Base64BodyResult {
  const read = parseJsonBody(input.body);
  if (read.kind !== 'value') return { read };
  const document = read.value;
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return { read };
  const text = (document as Record<string, unknown>)[input.field];
  if (typeof text !== 'string' || !codePointsAtMost(text, input.maxLength)) return { read };
  (document as Record<string, unknown>)[input.field] = '';
  if (text.length === 0 || !isBase64(text)) return { read, decoded: { bytes: null } };
  const decoded = Buffer.from(text, 'base64');
  // Small results share Node's buffer pool; only a buffer of its own may move.
  const bytes = decoded.byteOffset === 0 && decoded.byteLength === decoded.buffer.byteLength ? decoded : new Uint8Array(decoded);
  return { read, decoded: { bytes } };
}

/**
 * `readBase64Body` as a compute task whose decoded bytes move to the HTTP thread instead of being
 * copied (piscina transfers what a task's result lists under its transferable symbol).
 */
export function readBase64BodyMoving(input: Base64BodyInput): Base64BodyResult {
  const result = readBase64Body(input);
  const buffer = result.decoded?.bytes?.buffer;
  if (!buffer) return result;
  return movedWith(result, buffer);
}
