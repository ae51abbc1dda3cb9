// The HTTP thread's side of bodies whose base64 field was decoded on a compute thread (see
// ./base64-field.ts): which parsed document came with which decoded bytes. Its own module, so the
// HTTP server does not load piscina (imported by base64-field.ts for the worker side) at start.

/** The decoded field: its bytes, or null when it was not non-empty base64. */
export interface DecodedBase64 {
  bytes: Uint8Array | null;
}

/** Parsed documents whose base64 field was decoded off the HTTP thread, and the decoded field. */
const decodedFields = new WeakMap<object, DecodedBase64>();

/** Remembers what was decoded for `document` (the parsed body the route's handler receives). */
export function rememberDecoded(document: object, decoded: DecodedBase64): void {
  decodedFields.set(document, decoded);
}

/** The decoded field of a body read by `readBase64Body`; undefined when the body was read on the HTTP thread. */
export function decodedBase64Of(document: unknown): DecodedBase64 | undefined {
  return document !== null && typeof document === 'object' ? decodedFields.get(document) : undefined;
}
