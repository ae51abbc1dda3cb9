/**
 * A request body handed to a compute thread (see http/json-parser.ts): the bytes of a shared
 * buffer the HTTP thread filled as the body arrived (nothing copied in the hand-off), or a buffer
 * of its own that moved with the task.
 */
import type { JsonBody } from './body';
import { parseJsonBody } from './body';
import { readBase64BodyMoving, type Base64BodyResult } from './base64-field';

export type SharedJsonBody = { shared: SharedArrayBuffer; length: number } | { bytes: Uint8Array };

const bytesOf = (body: SharedJsonBody): Uint8Array => ('bytes' in body ? body.bytes : new Uint8Array(body.shared, 0, body.length));

/** Compute task: the body read by the JSON rules of body.ts. */
export function readSharedJsonBody(body: SharedJsonBody): JsonBody {
  return parseJsonBody(bytesOf(body));
}

/** Compute task: the body read, and its base64 field decoded (see base64-field.ts); the decoded bytes move back. */
export function readSharedBase64Body(input: { body: SharedJsonBody; field: string; maxLength: number }): Base64BodyResult {
  return readBase64BodyMoving({ body: bytesOf(input.body), field: input.field, maxLength: input.maxLength });
}
