/**
 * A request body handed to a compute thread (see http/json-parser.ts): the shared segments the
 * HTTP thread filled as the body arrived (http/body-bytes.ts). Nothing is copied in the hand-off;
 * several segments are joined here, off the HTTP thread.
 */
import type { JsonBody } from './body';
import { parseJsonBody } from './body';
import { readBase64BodyMoving, type Base64BodyResult } from './base64-field';

export interface SharedJsonBody {
  segments: SharedArrayBuffer[];
  /** Bytes of the body, from the start of the first segment on. */
  length: number;
}

function bytesOf(body: SharedJsonBody): Uint8Array {
  const [first] = body.segments;
  if (body.segments.length === 1 && first) return new Uint8Array(first, 0, body.length);
  const joined = new Uint8Array(body.length);
  let offset = 0;
  for (const segment of body.segments) {
    const count = Math.min(segment.byteLength, body.length - offset);
    joined.set(new Uint8Array(segment, 0, count), offset);
    offset += count;
  }
  return joined;
}

/** Compute task: the body read by the JSON rules of body.ts. */
export function readSharedJsonBody(body: SharedJsonBody): JsonBody {
  return parseJsonBody(bytesOf(body));
}

/** Compute task: the body read, and its base64 field decoded (see base64-field.ts); the decoded bytes move back. */
export function readSharedBase64Body(input: { body: SharedJsonBody; field: string; maxLength: number }): Base64BodyResult {
  return readBase64BodyMoving({ body: bytesOf(input.body), field: input.field, maxLength: input.maxLength });
}
